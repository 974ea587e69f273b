// Package conversation is the neutral model of a session's conversation
// that canopy's two writers share: the page (package htmlpage) and the
// Markdown export (package mdpage). It holds what an entry is to a
// reader (a prompt, a reply, a tool result, a command the user ran, a
// compaction, a setting changed, an entry that could not be read, ...),
// which tool call each result answers, and the facts both writers state
// the same way (a model's name, an edit's diff), and a message's pieces
// (Pieces): its blocks in order, what each is, each tool call with the
// entry of its result, a streamed reply whole. It holds session text,
// never HTML or Markdown output: how an entry is drawn is each writer's
// own concern.
//
// A writer makes one Context per session (New), which pairs every tool
// call with its result once (sessiontree.PairCalls) and is read-only and
// safe for concurrent use after, then classifies each entry it draws
// (Classify) when it draws it: nothing is built for the whole session up
// front, so a writer that streams entries, or builds them in parallel,
// keeps doing so.
package conversation
