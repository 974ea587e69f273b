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
// (format_claude.go) and Codex rollouts (format_codex.go); the agents
// whose sessions are a list of messages, read as a chain (Kimi CLI, Amp,
// Cursor CLI, Hermes Agent, Cline, Aider: format_<agent>.go over
// agents_common.go, agents_lines.go and agents_doc.go). Whole-file JSON
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
// A cut of a session for sharing (package scope) is written by its
// reader, in its own format (cut.go; format_pi.go, format_flue.go,
// claude_cut.go, codex_cut.go).
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
// # Stores
//
// Some agents keep every session in one SQLite database (OpenCode's
// opencode.db, Crush's crush.db, Goose's sessions.db, Cursor's
// state.vscdb: store_<agent>.go). Such
// a store is read by a storeReader (store.go), one per storeFormat, tried
// before the line formats: the input's first bytes say it is a database,
// its tables say whose. The database and its -wal are copied to a private
// temporary directory and read there (a snapshot, sqlite.go), with the
// pure-Go modernc.org/sqlite: the user's files are only opened read-only,
// to be copied, and the log's committed rows are read. The session named
// (LoadOptions.Session; a store of one needs none) is written, at load,
// as a document (store_doc.go): pi JSONL in pi's shapes, its header naming
// the store's format ("store"), which becomes the session's input in
// memory. Entries then read their bytes from it, its cut is written in
// it, and it reads back as the same agent's session (the header is
// detected): nothing downstream knows a database. StoreSessions lists a
// store's sessions for canopy list; Agent.StoreFiles names the files an
// agent keeps them in, which a walk of a directory reads. OpenCode's
// older storage/ tree (store_opencode_files.go) is read the same way: its
// session's info file names it, and its messages and parts, files beside
// it, make the same document.
//
// # Adding an agent
//
// A format is one reader: a file format_<name>.go (and its test data and
// test), and one line in readers (detect.go) that places it among the
// others; a format whose lines are costly to decode may split its head
// (the fields decoded at load) and its body (what Entry.Decode gives) in
// two files. Nothing outside this package names a format: the commands
// ask the reader, through the Session and Agent. The reader (the reader
// interface, detect.go) has four methods:
//
//  1. detect: whether the input is the format's, from what the probe shows
//     of its start (p.line, its first line; p.classify, the kinds the
//     package tells apart). It must claim only its own: readers are tried
//     in order, and the first that says yes reads the input.
//  2. read: the entries, in file order, into s. A line format decodes its
//     lines with decodeRecords and a type with a decodeRaw method
//     (newSlabDecoder); the fields it reads of a line are declared once,
//     in a struct marked //sessiontree:walk with json tags (a tag may name
//     a member of a member: "info.total_token_usage.total_tokens"), and
//     go generate writes the walker's switch that reads them (walk_gen.go;
//     a type of the format's own is read by the walker method named after
//     it). Each line gives an Entry, begun with Entry.start,
//     with an ID (L<n> when the format has none), its ParentID as written
//     (or the entry before's, for a chain), Type and Role in pi's terms
//     (TypeMessage, RoleUser, RoleAssistant, ...), a Detail (s.noDetail
//     when it has no fields of its own) and Bookkeeping set on the records
//     the agent keeps for itself, which never make a branch. Session.skipped
//     reports a line that is not JSON, Session.keep keeps an entry. Set
//     s.Format (a FormatX constant of the file's own), and s.src.body, a
//     bodyDecoder, when the lines are not pi's: it decodes an entry into
//     pi's shapes (a Message of Blocks), which is all the renderers know.
//     Set s.guessParents when the format's files lose parents (an orphan
//     then follows the entry before it, not a root). The tree is built
//     from the entries afterwards, the same for every format.
//  3. cut: how a cut of the session (package scope: --path-only,
//     --no-thinking, --no-tool-output, --no-hidden) is written in the
//     format: a Cut, whose Write writes the kept entries. A line format
//     writes each kept line at its place (cutLines, writeCutLines), with
//     its parent rewritten when it was left out (KeptParent).
//  4. agent: what the reader declares of its agent (an Agent): its format
//     names, what its extension state is called, the directories below a
//     home where it keeps sessions (canopy archive ~ and canopy list read
//     them), and whether its sessions have subagent files or project
//     directories. canopy list peeks at a session of a format by loading
//     it whole (peekDocument), unless its reader has a peek of its own, read
//     from a few lines (peekReader, peek_formats.go): an optional fifth
//     method, for a format whose sessions grow large.
//
// Test data goes in testdata/<name>/, with a test that loads it, checks
// its tree, decodes its entries and writes a cut that reads back.
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
// orphan: a warning). Roots keep file order. A Claude Code entry whose
// parent is not in the file (a compaction's logicalParentUuid, a line lost
// to an edit) instead follows the entry of the session's conversation
// before it in the file that is not bookkeeping (Entry.ParentGuessed, an
// info diagnostic): the conversation's path stays whole. (An orphan of a
// sidechain written into the file starts a sidechain of its own, a root.)
// pi and Flue keep the reference's rule.
//
// Bookkeeping. The records an agent keeps for itself (Claude Code's
// progress lines, attachments and hooks, snapshots, queue operations,
// system records; Codex's token counts, task events, turn contexts and
// the events that repeat an item) are Entry.Bookkeeping. The tree keeps
// them where the file puts them, but they are never a branch: a child
// that is bookkeeping, with nothing but bookkeeping under it, does not
// make its parent a branch point (Session.Shape: inspect's leaves and
// branch points, the archive's branches), nor is it followed to a leaf
// (NewestLeaf).
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
