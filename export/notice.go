package export

import (
	"canopy/redact"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"canopy/internal/outpath"
	"canopy/internal/text"
	"canopy/sessiontree"
)

// What an export tells its user, worded once for `canopy export`,
// `canopy scan`, `canopy inspect` and `canopy archive`. Notices are
// plain text; a command escapes them for its terminal.

// Diagnostics are the problems met reading s: "file:line: severity:
// message", then how many more were not listed.
func Diagnostics(s *sessiontree.Session) []string {
	var out []string
	for _, d := range s.Diagnostics {
		if d.Line > 0 {
			out = append(out, fmt.Sprintf("%s:%d: %s: %s", s.File, d.Line, d.Severity, d.Message))
		} else {
			out = append(out, fmt.Sprintf("%s: %s: %s", s.File, d.Severity, d.Message))
		}
	}
	if s.Suppressed > 0 {
		out = append(out, fmt.Sprintf("%s: %d more problems not listed", s.File, s.Suppressed))
	}
	return out
}

// ProblemsRead is an archive index's note on a session whose file had
// problems (the export lists them: Diagnostics).
func ProblemsRead(n int) string {
	return text.Count(n, "problem", "problems") + " reading the file"
}

// RedactionSummary gives the secrets found by kind, with the entries they
// were in, a line a kind under a line of totals; verb says what was done
// with them ("redacted", "found").
func RedactionSummary(rep redact.Report, verb string) []string {
	if len(rep.Findings) == 0 {
		return []string{rep.File + ": no secrets found"}
	}
	where := map[string][]string{}
	seen := map[string]bool{}
	for _, f := range rep.Findings {
		place := placeOf(f)
		if key := f.Kind + "\x00" + place; !seen[key] {
			seen[key] = true
			where[f.Kind] = append(where[f.Kind], place)
		}
	}
	kinds := make([]string, 0, len(where))
	for k := range where {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	out := []string{fmt.Sprintf("%s: %s %s (%s):", rep.File, text.Count(rep.Total(), "secret", "secrets"), verb,
		text.Count(len(rep.Findings), "occurrence", "occurrences"))}
	for _, k := range kinds {
		places := where[k]
		more := ""
		if len(places) > 10 {
			more = fmt.Sprintf(" and %d more", len(places)-10)
			places = places[:10]
		}
		out = append(out, fmt.Sprintf("  %-24s %3d  in %s%s", k, rep.Kinds[k], strings.Join(places, ", "), more))
	}
	return out
}

// SecretsLine is export's one line on the credentials it found in what
// it wrote to dest ("" when it found none): how many, of which kinds,
// and what was done with them. kept: --keep-secrets left them in, which
// is said as a warning. report is the --redact-report file, "" for none.
func SecretsLine(rep redact.Report, kept bool, dest, report string) string {
	n := rep.Total()
	if n == 0 {
		return ""
	}
	kinds := make([]string, 0, len(rep.Kinds))
	for k := range rep.Kinds {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool {
		if a, b := rep.Kinds[kinds[i]], rep.Kinds[kinds[j]]; a != b {
			return a > b
		}
		return kinds[i] < kinds[j]
	})
	for i, k := range kinds {
		kinds[i] = fmt.Sprintf("%s %d", k, rep.Kinds[k])
	}
	count := text.Count(n, "secret", "secrets")
	detail := fmt.Sprintf("%s (%s)", text.Count(len(rep.Findings), "occurrence", "occurrences"), strings.Join(kinds, ", "))
	them := map[bool]string{true: "it", false: "them"}[n == 1]
	list := "--redact-report FILE lists " + them
	if report != "" {
		list = "listed in " + report
	}
	if dest == "-" {
		dest = "standard output"
	}
	if kept {
		return fmt.Sprintf("warning: %s: %s kept in %s, %s: do not share it; %s", rep.File, count, dest, detail, list)
	}
	return fmt.Sprintf("%s: %s redacted, %s; %s, --keep-secrets keeps %s", rep.File, count, detail, list, them)
}

// secretsNote is what a page's header says of the credentials: how many
// were replaced, or "" when none were (or they were kept). An archive's
// redacted page always says so, with no count (SecretsNote).
func secretsNote(rep *redact.Report, o Options) string {
	switch {
	case rep == nil || o.KeepSecrets:
		return ""
	case o.Archived:
		return SecretsNote(-1)
	case rep.Total() == 0:
		return ""
	}
	return SecretsNote(rep.Total())
}

// SecretsNote is what a redacted page lists among what was left out: n
// secrets replaced (n < 0: not counted, as on an archive's pages).
func SecretsNote(n int) string {
	count := ""
	if n >= 0 {
		count = strconv.Itoa(n) + " "
	}
	return "secrets: " + count + "replaced by [REDACTED:kind#n] markers, here and in the session file the page embeds"
}

// NotRegular is why an input that is not a regular file (a FIFO, a
// device, a directory) was skipped: reading it could wait forever, or
// never end.
func NotRegular(m fs.FileMode) string {
	return "is " + outpath.Kind(m) + ", not a regular file: not read"
}

// Interrupted is the notice of a run stopped by SIGINT or SIGTERM: out is
// the file or directory it was making ("-": standard output), which the
// run leaves as it was.
func Interrupted(out string) string {
	if out == "-" {
		return "interrupted; what went to standard output is incomplete"
	}
	return "interrupted; " + out + " left as it was"
}

// Wrote is the notice of a file written.
func Wrote(dest string) string {
	return "wrote " + dest
}
