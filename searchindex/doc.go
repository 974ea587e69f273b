// Package searchindex is an archive's full-text search index: every
// session's text (prompts, replies, thinking, tool calls and their
// results, commands, file paths, titles) made searchable from the
// archive's index page, on file://, with no server.
//
// The index is files of JavaScript that register their data, gzip
// compressed and in base64, with the index page's script
// (window.canopySearch): a page opened from file:// may load a <script>
// from its folder but may not fetch() a file. There are three kinds:
//
//   - search/text/<xx>/<id>.js, one per session (TextPath): its entries' text,
//     each with the entry's id and the leaf of its branch, so that a
//     result links to the entry on its branch (?leafId=&targetId=) and
//     shows a snippet. It is written beside the session's page, in the
//     same pass, and kept with it: a re-run, and a merge of shards, build
//     the rest of the index from these files alone.
//   - search/t/<key>.js, the shards of the postings: for each term (a
//     lowercased word, Tokens) the sessions it occurs in and how often.
//     A term is in the shard of its first two characters, or of more when
//     that shard would be large (shardKeys), so that a query loads only
//     the shards of its terms (a prefix: those of the prefix).
//   - search/meta.js: the sessions (page, title, agent, project, models,
//     date, length, text file) and the shards' keys.
//
// Build makes the index from the text files and the sessions' rows;
// the same inputs give the same bytes, and a shard whose postings did
// not change has the same bytes as before, so the archive keeps its file
// (a re-run rewrites only what changed). Sessions are numbered in the
// order of their pages' paths.
//
// The rules the browser must apply alike (what a token is, its longest
// length) are written once in Go (Tokens, MaxTokenRunes) and handed to
// the script in meta.js, except the character classes, which the
// script's tokenizer mirrors (assets/indexsearch.js) and the browser
// test checks.
package searchindex
