// Package sessiontree loads AI coding-agent session logs into a tree of
// entries: which entry follows which, the leaf, labels, the active path and
// what the model saw. It renders nothing.
//
// # Reading
//
// The input is read once, a chunk of whole lines at a time, hashed as it
// goes (input.go); its format is told from its content, never its name
// (detect.go), and one reader per format turns it into entries: pi
// session JSONL versions 1 to 3 with oh-my-pi's variants (format_pi.go),
// Flue session documents (format_flue.go), Claude Code transcripts
// (format_claude.go) and Codex rollouts (format_codex.go). Whole-file JSON
// is decided up front: a Flue document is read, a stream of pretty-printed
// objects of a line format is read as its lines would be (stream.go), and
// JSON of any other kind (a Gemini CLI session, a ChatGPT export, a
// gateway's sessions.json, JSONL of another tool) is refused with one
// error that says what it looks like (refuse.go). The tree is then built
// from the entries the same way whatever the format (tree.go). Only the
// fields the tree, the context and the statistics need are decoded at
// load (head.go, claude_head.go, codex_head.go); the rest stays in the
// input, read again, and checked, when an entry is asked for (source.go,
// content.go). Claude Code's and Codex's entries are then decoded into
// pi's shapes (roles, blocks, tool names), which is what the renderers
// know (claude_body.go, codex_body.go). The input is never written to.
// A gzip or zstd file is told by its first bytes (Sniff) and decompressed
// into memory, never past a limit (Decompress, compressed.go), then
// loaded as if it had never been compressed: export.Load does this for
// every command.
// A Claude Code session's subagents are found beside it and tied to the
// calls that ran them by LoadSubagents (subagents.go,
// subagents_load.go); those written into the session's own file are its
// Sidechains (claude_agents.go). Either kind can be grafted into the
// session's tree, under the call that ran it (graft.go,
// graft_subagents.go): one tree, whose entries' ids stay unique, each
// reading its bytes from its own file.
//
// # The rules, as this package applies them
//
// Entries. One per line of a JSONL file, or per element of a Flue
// document's "entries", in file order. The header (a pi file's first
// "session" object, or a Flue document's top-level members) is not an
// entry. Blank lines are ignored; a line that is not JSON, or is JSON but
// not an object, is skipped with an error diagnostic (a broken last line
// is called truncated: the session may still be being written). A member of
// an unexpected type reads as absent and never costs the entry.
//
// Ids. An entry's id is its "id" as written. An entry of a version 1 file
// has none: its id is L<n>, n its 1-based physical line number, stable
// across runs so that links into pages made from old files keep working.
// An entry of a later version without an id (missing, empty, or not a
// string) gets one the same way, with a warning; in a Flue document n is
// the line its object starts on. A JSONL file without a header is read as
// version 3 when any line has an id, else as version 1.
//
// Duplicate ids. The last entry in file order that carries an id keeps it,
// as in the reference (a map filled in file order); each earlier one is
// renamed <id>~L<line> (with .2, .3, ... if that is taken), with a warning,
// so that every entry stays addressable.
//
// Parents and roots. An entry's parent is the entry its parentId names. An
// entry is a root when its parentId is null, missing or not a string, when
// it names the entry itself (a warning), or when it names no entry (an
// orphan: a warning). Roots keep file order.
//
// Cycles. The reference follows parent cycles forever; here each cycle is
// cut at its earliest entry in file order, which becomes a root (a
// warning). Nothing recurses: a 1,000,000-entry chain loads.
//
// Children are sorted by timestamp, to the millisecond, oldest first, with
// a stable sort: equal timestamps keep file order, and an entry whose
// timestamp does not parse sorts with the sibling before it.
//
// Grafts. A grafted conversation's roots become children of the call's
// entry, sorted among its children by the rule above (its entries come
// after the session's in file order); one that no call ran has its roots
// after the session's. A conversation is not grafted when one of its ids
// is already the session's, or when its call is inside it: the tree never
// gains a cycle, and joining trees walks nothing (a union-find). Grafting
// changes neither the leaf nor the labels of the session's own entries.
//
// Leaf. The last entry in file order. A Flue document stores its leaf:
// leafId null means no leaf (an empty path and context); one that names no
// entry falls back to the last entry, with a warning.
//
// Labels. Label entries are replayed in file order: the last one for a
// target wins, an empty or missing label removes it, and one whose target
// does not exist is ignored with a warning. The session's name is the last
// non-empty session_info name, else the header's title (oh-my-pi).
//
// Migrations, in memory only (the reference rewrites the file; we never
// do). migrateV1ToV2: ids from line numbers as above, each entry the
// child of the one before it, and a compaction's firstKeptEntryIndex (an
// index into the file's objects, header 0) read as the id of the entry it
// indexes, or, out of range, at the header, negative or fractional, as no
// entry (a warning). migrateV2ToV3: the message role "hookMessage" reads
// as "custom", in every version, at load (Entry.Role) and in a decoded
// entry (Message.Role).
//
// Context. Session.Context is the reference's buildSessionContext: along
// the path, the last thinking_level_change (default "off"), the last model
// (a model_change, or an assistant message's provider and model), and the
// last compaction; without one, every message, custom_message and
// branch_summary with a summary, in path order; with one, its summary, then
// the path's entries before it from its firstKeptEntryId on (none when
// that id is not on the path), then the entries after it.
//
// Problems in the input are diagnostics with their line (at most 1,000
// kept; Session.Suppressed counts the rest); Load fails, with an error
// wrapping ErrNotSession, only when the input holds no session canopy
// reads at all.
package sessiontree
