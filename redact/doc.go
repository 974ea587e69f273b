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
// Rules. Two tables, run by one keyword automaton:
//
//   - Our own (table.go, allKinds: 55 kinds; the matchers in tokens.go,
//     structures.go, cli.go, kubernetes.go and assign.go), hand-written
//     matchers anchored at a keyword: the common vendor prefixes (AKIA,
//     ghp_, glpat-, xoxb-, sk-, AIza, hvs., ...), structures (JWTs, PEM and
//     PGP private keys, URLs with passwords, Authorization headers, Azure
//     connection strings; a Basic credential is found at "Basic" however
//     the header is written, Authorization:Basic, Auth: Basic or a
//     sentence, when it decodes to user:password, printable with a user
//     name before the colon unless "auth" precedes it on its line),
//     command lines (curl -u and -H, mysql -p, docker login -p, sshpass,
//     redis-cli -a, PGPASSWORD=, --password=),
//     Kubernetes Secrets' data and stringData, Docker config auths, Discord
//     bot tokens with no keyword (their first part decodes to the bot's
//     numeric id), Vault tokens of before 1.10 (s.<24>, in a namespace
//     s.<24>.<id>) after "token" or "vault" on their line, and the generic
//     rule: a value after a name holding key, token, secret, password,
//     creds, auth, ... in the forms code and configuration use (= : :=
//     ::= ?= .= => || , the Go `var x string =`, XML elements,
//     setProperty("NAME", "v")), if it is 16 to 1024 characters, mixes
//     letters and digits, has more than 3.5 bits of entropy a character (3
//     for hex) and is not an identifier, path, URL or call.
//   - gitleaks' default rules (gitleaks.go, run by vendorrule.go and
//     anchoring.go: 215 of its 222, their ids as kinds), its own
//     config/gitleaks.toml at a pinned version brought in as data by go
//     generate (gitleaks_gen.go, written by internal/gengitleaks; read by
//     gitleaksconfig.go), so that its maintainers' work on vendor formats
//     reaches us with a version bump. Where one of ours and one of
//     gitleaks' find the same text, ours wins, so the kinds users know stay
//     (aws-access-key, not aws-access-token). gitleaksOwn lists the rules
//     replaced by one of ours, and why.
//
// Detection. A case-insensitive Aho-Corasick automaton (one table lookup per
// byte, 1,550 states) finds the keywords of both tables. Each hit runs its
// rule's matcher at the hit. A gitleaks rule runs its expression there, in
// one of three ways chosen from the expression's syntax tree at the rule's
// first hit (when it is also compiled: most sessions never name most
// vendors): an expression that starts with its keyword (102 rules) is tried
// only at the hit, after comparing the literal (case, \b), over a window
// as long as its longest match; one made from gitleaks' keyword template
// (99 rules: name containing the keyword, separator, value) only where a
// separator follows the keyword, anchored at the start of the name (a
// keyword of the value, lob-api-key's test_ and live_, looks back for the
// name); the other 14 over a window around the hit as wide as the longest
// match, if a literal every match holds is in it. Matches are checked as
// gitleaks does (secret group, entropy, the rule's and the global
// allowlists; paths and commits do not exist here). gitleaks' expressions end a token at a
// blank, a quote or a semicolon, as in code; where none matched, they are
// tried again with sentence punctuation after a token blanked, since in a
// chat a token is as often followed by a full stop or a bracket. There is
// no unanchored expression over the whole text, so the cost is linear.
// Strings over 1 MB made only of base64 (image data) are skipped. Scan
// gives the report without the redacted copy, for a caller that only
// lists the secrets.
//
// Not secrets. Placeholders are left alone, whatever rule finds them: a
// value containing EXAMPLE, xxxx, ****, your_..., <...>, ${...}, {{...}},
// changeme; one character repeated over a third of it (AKIAXXXXXXXXXXXXXXXX,
// AIzaaaaa...); one group three times in a row (xoxp-1234-1234-1234-...,
// 12345678-ABCD-ABCD-ABCD-...); made-up runs (12345678, klmnopqr). The
// generic rule also leaves alone a value whose name calls it made up
// (fakeToken, dummy_secret, mockApiKey, INVALID_KEY, nonMatchingToken) and
// hex digits in both cases (an EIP-55 address, or an edited value: hex
// secrets come in one case, and 16 random base62 characters are all hex
// digits about once in 16 million). It takes gitleaks' allowlists for its
// generic rule (public_key, foreignKey, primaryKey, key_id, credentialsId,
// csrf-token, ...) and the known public values among its stop words
// (yarn's bundled Algolia search key), not the 1,446 words: they are
// substrings (about, admin, flow, ...), and 0.8% of random tokens and many
// human passwords contain one. A private key block needs a body; hashes,
// UUIDs, checksums and integrity strings have no rule that takes them.
//
// Why gitleaks' rules, measured here (2 shared cores; the figures
// are noisy). gitleaks itself, `gitleaks dir` on the evaluation's 50 MB
// sessions, ran at 1.6 MB/s (real transcripts) and 5.7 MB/s (synthetic
// text): run over the whole text, its expressions cost that, 9.8 s of
// 11.7 s in its generic rule alone. Under this package's automaton, at the
// hits only, gitleaks' rules cost 7% of `canopy scan` (50 to 80 MB of
// transcripts, Go sources, system files and synthetic text: 193 to 269
// MB/s, against 205 to 288 without them; CPU time 4 to 11% more). New
// takes 1.2 ms: the rules are Go data, read into this package's types as
// gitleaks' Translate reads them (TestGitleaksDecoding holds the reading
// to gitleaks' own, a golden file its own code wrote), and each expression
// is compiled at its rule's first hit (all 222 at once took 11 ms).
// Importing gitleaks' config package instead, as this package did, linked
// gitleaks, viper and 17 other modules into canopy, and go-toml to decode
// the TOML (30 modules in its build, 10 now; a binary of 24.4 MB, 22.0
// now), added 0.3 ms of package
// initialisation to every command, and New took 3.7 ms, most of it
// decoding the TOML and translating it with gitleaks' code. Against
// gitleaks' own cases (its rule tests: 6,393 secrets, 369 non-secrets),
// canopy scan finds 98.0% and flags 5.4% (20); gitleaks itself 99.7% and
// 7.9%. Those 20 are not mistakes to fix: 16 are Cloudflare keys that the
// other two Cloudflare rules take (each rule's non-secrets are the other
// rules' secrets), one a JWT that is also a secret of gitleaks' curl
// tests (there in a Basic header), one a Mailchimp key gitleaks' test
// calls a false negative of its own, and two random values assigned to
// key and meraki_token (45 characters of base62; 64 hex digits and R21),
// which gitleaks' generic rule flags too: telling them from secrets would
// mean ignoring a bare "key" (API responses name created keys so) or a
// vendor-named value the vendor's rule rejects (a vendor's other tokens).
// Six more were the made-up values above. The table of our own alone found
// 70.1% and flagged 23.6%.
//
// Markers contain no link syntax, so Markdown shows them as text; a secret
// followed by "(" renders the marker as the text of a link, and one at the
// start of a line followed by ": x" may be read as a link definition and
// hidden. Either way the secret is gone.
//
// Known gaps: secrets split across strings or lines, or encoded (base64,
// percent-encoding; JSON escapes are decoded first); passwords shorter than
// 16 characters or without digits after a keyword, unless on a command line
// (URLs and Basic auth catch any length); prefixless formats (AWS secret
// keys, Twilio auth tokens, Datadog keys, Heroku UUID keys, most of
// gitleaks' keyword rules) only near their vendor word or member name;
// values gitleaks' own tests use that are placeholders by the rules above
// (12345678-ABCD-..., AGE-SECRET-KEY-1QQQQ...); JSON numbers are not
// scanned. A value found under two kinds keeps the marker of the first.
package redact
