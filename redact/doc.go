// Package redact keeps secrets out of shared pages.
//
// Redaction works on the raw session bytes before they are loaded, at the
// level of JSON string values (and keys): every field that can reach the
// page or the embedded download — message text, thinking, tool arguments
// and output, file contents, custom data, summaries, header fields, labels —
// is covered by construction, and the redacted bytes become the downloadable
// source. A secret is replaced by a marker such as [REDACTED:github-pat#2]:
// numbered per kind from 1 in order of first appearance, the same marker for
// the same value everywhere in one input, so a reader can follow it. Only
// the bytes of the secret change (an escape sequence inside it is replaced
// whole), so valid JSON stays valid and lines without secrets stay
// byte-identical. Input that is not valid JSON is redacted as plain text,
// line by line.
//
// Detection. A case-insensitive Aho-Corasick automaton (one table lookup per
// byte) finds the keywords of the rule table: vendor prefixes (AKIA, ghp_,
// glpat-, xoxb-, sk-, AIza, GOCSPX-, npm_, pypi-AgE, SG., dop_v1_, hf_,
// shpat_, EAAA, ...), structural anchors (eyJ for JWTs, -----BEGIN for PEM
// private keys, :// for URLs with credentials, AccountKey=, Bearer,
// Authorization) and the words that introduce a secret (key, token, secret,
// password, passwd, pwd, credential, plus vendor names such as aws, twilio,
// datadog, heroku, discord). Each keyword hit runs a small hand-written
// matcher anchored at the hit, with word boundaries and length limits; there
// is no unanchored regular expression over the text, so the cost is linear
// and the rare regexp (Discord tokens, only in strings that mention discord)
// is RE2. The generic rule accepts a value after `ident = value`,
// `ident: value`, `"ident": "value"` (and a JSON member whose name contains
// the word) only if it is 16 to 1024 characters, mixes letters and digits,
// has Shannon entropy of at least 3.5 bits a character (3 for hex), and is
// not an identifier chain, constant name, path, URL, placeholder or call; a
// bare "key" (cacheKey, sort_key) also needs a mixed-case token that is not
// hex or a UUID. Strings over 1 MB made only of base64 (image data) are
// skipped. allKinds in redact.go lists the rule ids.
//
// Why not gitleaks. We measured github.com/zricethezav/gitleaks/v8 v8.30.1
// (222 default rules) here: it builds cleanly, but `go get` adds 69 modules
// (204 in the module graph), and a program using detect grows from 2.7 MB to
// 12.9 MB (19.7 MB with its go-re2 build tag). On a 5 MB slice of the 85 MB
// generated session, DetectBytes per line ran at 0.9 MB/s on one core with
// Go's regexp and 3.6 MB/s with go-re2 (WebAssembly RE2); the whole 85 MB
// took 150 s with two workers, against our target of a few seconds. Its
// findings carry the secret text and a line/column, not byte offsets, so
// spans must be searched for again. It found nothing in that session, so its
// precision is good, but 30 to 100 times too slow is decisive: this package
// has its own table of 48 kinds written from the vendors' public token
// formats, and runs at 120-210 MB/s on one core and about 200 MB/s with two
// (BenchmarkRedact on the same session: 0.4 s; the machine was shared, so
// the figures are noisy).
//
// Markers contain no link syntax, so Markdown shows them as text; a secret
// followed by "(" renders the marker as the text of a link, and one at the
// start of a line followed by ": x" may be read as a link definition and
// hidden. Either way the secret is gone.
//
// Known gaps: secrets split across strings or lines, or encoded (base64,
// percent-encoding; JSON escapes are decoded first); passwords shorter than 16
// characters or without digits after a keyword (URLs and Basic auth catch
// any length); prefixless formats (AWS secret keys, Twilio auth tokens,
// Datadog keys, Heroku UUID keys, Discord bot tokens) only near their vendor
// word or member name; JSON numbers are not scanned. A value found under two
// kinds keeps the marker of the first.
package redact
