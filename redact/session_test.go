// The corpus planted in every field of a session built in the test: each
// secret found, replaced by its marker, and nothing else changed.

package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// --- a pi v3 session built in the test ----------------------------------------

type sessionBuilder struct {
	lines  [][]byte
	prevID string
	n      int
	ids    []string
}

func (b *sessionBuilder) add(v map[string]any) int {
	line, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	b.lines = append(b.lines, line)
	return len(b.lines) // 1-based line number
}

func (b *sessionBuilder) header(cwd string) int {
	return b.add(map[string]any{"type": "session", "version": 3, "id": "0b9c2f4e-5d1a-4c7b-9e3f-2a6d8b1c4e7f",
		"timestamp": "2026-01-15T09:00:00.000Z", "cwd": cwd})
}

func (b *sessionBuilder) entry(typ string, fields map[string]any) int {
	b.n++
	id := fmt.Sprintf("%08x", 0x1f3a0000+b.n*7919)
	v := map[string]any{"type": typ, "id": id, "timestamp": fmt.Sprintf("2026-01-15T09:%02d:%02d.000Z", b.n/60%60, b.n%60)}
	if b.prevID == "" {
		v["parentId"] = nil
	} else {
		v["parentId"] = b.prevID
	}
	for k, f := range fields {
		v[k] = f
	}
	b.prevID = id
	b.ids = append(b.ids, id)
	return b.add(v)
}

func (b *sessionBuilder) bytes() []byte { return append(bytes.Join(b.lines, []byte("\n")), '\n') }

func userMsg(content any) map[string]any {
	return map[string]any{"message": map[string]any{"role": "user", "content": content, "timestamp": 1768467600000}}
}

func assistantMsg(blocks ...map[string]any) map[string]any {
	return map[string]any{"message": map[string]any{"role": "assistant", "content": blocks, "api": "anthropic-messages",
		"provider": "anthropic", "model": "claude-sonnet-4-5", "stopReason": "toolUse", "timestamp": 1768467601000,
		"usage": map[string]any{"input": 1200, "output": 80, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 1280,
			"cost": map[string]any{"input": 0.0036, "output": 0.0012, "cacheRead": 0, "cacheWrite": 0, "total": 0.0048}}}}
}

func toolResult(name string, text string, details any) map[string]any {
	m := map[string]any{"role": "toolResult", "toolCallId": "toolu_01", "toolName": name,
		"content": []map[string]any{{"type": "text", "text": text}}, "isError": false, "timestamp": 1768467602000}
	if details != nil {
		m["details"] = details
	}
	return map[string]any{"message": m}
}

// slots: every kind of field of a pi session a secret can be in. Each
// takes the text to plant and adds one entry, returning its line.
var slots = []struct {
	name string
	add  func(b *sessionBuilder, text string) int
}{
	{"user text", func(b *sessionBuilder, t string) int { return b.entry("message", userMsg("please check this: "+t)) }},
	{"user text block", func(b *sessionBuilder, t string) int {
		return b.entry("message", userMsg([]map[string]any{{"type": "text", "text": t + "\nwhy does it fail?"}}))
	}},
	{"assistant text", func(b *sessionBuilder, t string) int {
		return b.entry("message", assistantMsg(map[string]any{"type": "text", "text": "I found this in the config:\n\n```\n" + t + "\n```"}))
	}},
	{"thinking", func(b *sessionBuilder, t string) int {
		return b.entry("message", assistantMsg(map[string]any{"type": "thinking", "thinking": "The user pasted " + t + " which I should not repeat."}))
	}},
	{"bash command", func(b *sessionBuilder, t string) int {
		return b.entry("message", assistantMsg(map[string]any{"type": "toolCall", "id": "toolu_01", "name": "bash",
			"arguments": map[string]any{"command": "echo '" + t + "' >> .env && source .env", "timeout": 30}}))
	}},
	{"write content", func(b *sessionBuilder, t string) int {
		return b.entry("message", assistantMsg(map[string]any{"type": "toolCall", "id": "toolu_02", "name": "write",
			"arguments": map[string]any{"path": "/home/dev/src/ledgerline/.env", "content": "# local settings\n" + t + "\nLOG_LEVEL=debug\n"}}))
	}},
	{"tool output", func(b *sessionBuilder, t string) int {
		return b.entry("message", toolResult("bash", "$ env | sort\nHOME=/home/dev\n"+t+"\nPATH=/usr/bin", nil))
	}},
	{"edit diff", func(b *sessionBuilder, t string) int {
		diff := "  12 settings:\n- 13   old: value\n+ 13   " + strings.ReplaceAll(t, "\n", "\n+ 13   ") + "\n  14 done"
		return b.entry("message", toolResult("edit", "Successfully replaced text in config.yaml.", map[string]any{"diff": diff, "firstChangedLine": 13}))
	}},
	{"bashExecution", func(b *sessionBuilder, t string) int {
		return b.entry("message", map[string]any{"message": map[string]any{"role": "bashExecution", "command": "cat .env",
			"output": t + "\n", "exitCode": 0, "cancelled": false, "truncated": false, "timestamp": 1768467603000}})
	}},
	{"custom data", func(b *sessionBuilder, t string) int {
		return b.entry("custom", map[string]any{"customType": "notes", "data": map[string]any{"items": []any{"first", map[string]any{"note": t}}, "count": 2}})
	}},
	{"custom_message", func(b *sessionBuilder, t string) int {
		return b.entry("custom_message", map[string]any{"customType": "reminder", "content": "Remember: " + t, "display": true})
	}},
	{"compaction summary", func(b *sessionBuilder, t string) int {
		return b.entry("compaction", map[string]any{"summary": "## Goal\nDeploy the app.\n## Progress\nConfigured " + t,
			"firstKeptEntryId": b.prevID, "tokensBefore": 48211})
	}},
	{"branch summary", func(b *sessionBuilder, t string) int {
		return b.entry("branch_summary", map[string]any{"fromId": b.prevID, "summary": "Tried " + t + " but it failed."})
	}},
	{"label", func(b *sessionBuilder, t string) int {
		return b.entry("label", map[string]any{"targetId": b.prevID, "label": t})
	}},
	{"session name", func(b *sessionBuilder, t string) int {
		return b.entry("session_info", map[string]any{"name": "debugging " + t})
	}},
}

type expectFinding struct {
	line int
	kind string
}

// buildCorpusSession plants the corpus in every slot. It returns the
// session, the planted secrets and the findings expected.
func buildCorpusSession(t *testing.T, seed uint64) ([]byte, []planted, []expectFinding, [2]int) {
	ps := corpus(seed)
	var b sessionBuilder
	var want []expectFinding
	// Header cwd.
	cwdKey := "AKIA" + newFakeGen(seed+1000).str(csUpper+"234567", 16)
	ps = append(ps, planted{"aws-access-key", cwdKey, cwdKey})
	want = append(want, expectFinding{b.header("/home/dev/" + cwdKey + "/ledgerline"), "aws-access-key"})
	b.entry("model_change", map[string]any{"provider": "anthropic", "modelId": "claude-sonnet-4-5"})
	// Every planted text once, round robin over the slots (each slot gets
	// several).
	for i, p := range ps[:len(ps)-1] {
		line := slots[i%len(slots)].add(&b, p.Text)
		want = append(want, expectFinding{line, p.Kind})
	}
	// The same secret again, elsewhere: it must get the same marker.
	var repeat [2]int
	for i, p := range ps {
		if p.Kind == "github-pat" {
			repeat[0] = want[i+1].line
			repeat[1] = slots[6].add(&b, "token again: "+p.Secret)
			want = append(want, expectFinding{repeat[1], p.Kind})
			break
		}
	}
	// Secrets known only by their JSON member name.
	g := newFakeGen(seed + 2000)
	k1, k2 := g.str(csAlnum, 32), g.str(csB64, 40)
	line := b.entry("custom", map[string]any{"customType": "settings", "data": map[string]any{
		"apiKey": k1, "aws_secret_access_key": k2, "region": "eu-west-1"}})
	ps = append(ps, planted{"generic-secret", k1, k1}, planted{"aws-secret-key", k2, k2})
	want = append(want, expectFinding{line, "generic-secret"}, expectFinding{line, "aws-secret-key"})
	b.entry("message", userMsg("thanks, that works"))
	return b.bytes(), ps, want, repeat
}

// TestCorpusKinds: the corpus covers every rule, and at least 25 kinds.
func TestCorpusKinds(t *testing.T) {
	have := map[string]bool{}
	for _, p := range corpus(1) {
		have[p.Kind] = true
		if !strings.Contains(p.Text, p.Secret) {
			t.Errorf("%s: text does not contain the secret", p.Kind)
		}
	}
	for _, k := range allKinds {
		if !have[k] {
			t.Errorf("corpus has no %s", k)
		}
	}
	if len(have) < 25 || len(have) != len(allKinds) {
		t.Errorf("corpus has %d kinds, rules %d", len(have), len(allKinds))
	}
	if !slices.IsSorted(allKinds) {
		t.Error("allKinds not sorted")
	}
}

// TestEachSecretAlone: every corpus text alone, through Text: exactly the
// secret is replaced, by a marker of the right kind. Many seeds, so that
// no rule depends on a lucky draw.
func TestEachSecretAlone(t *testing.T) {
	r := newRedactor(t)
	for seed := uint64(1); seed <= 200; seed++ {
		for _, p := range corpus(seed) {
			out, rep := r.Text(p.Text)
			want := strings.ReplaceAll(p.Text, p.Secret, "[REDACTED:"+p.Kind+"#1]")
			if out != want || len(rep.Findings) != 1 || rep.Findings[0].Kind != p.Kind || rep.Kinds[p.Kind] != 1 {
				t.Errorf("seed %d, %s: Text(%q)\n got %q\nwant %q\n%+v", seed, p.Kind, p.Text, out, want, rep)
			}
		}
	}
}

func TestEachSecretAloneVerbose(t *testing.T) {
	r := newRedactor(t)
	for _, p := range corpus(1) {
		t.Run(p.Kind, func(t *testing.T) {
			out, rep := r.Text(p.Text)
			want := strings.ReplaceAll(p.Text, p.Secret, "[REDACTED:"+p.Kind+"#1]")
			if out != want {
				t.Errorf("Text(%q)\n got %q\nwant %q", p.Text, out, want)
			}
			if len(rep.Findings) != 1 || rep.Findings[0].Kind != p.Kind || rep.Kinds[p.Kind] != 1 {
				t.Errorf("report %+v", rep)
			}
		})
	}
}

func TestSessionCorpus(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { testSessionCorpus(t, seed) })
	}
}

func testSessionCorpus(t *testing.T, seed uint64) {
	r := newRedactor(t)
	in, ps, want, repeat := buildCorpusSession(t, seed)
	orig := slices.Clone(in)
	out, rep := r.Redact(in)
	if !bytes.Equal(in, orig) {
		t.Fatal("input modified")
	}

	// No secret survives, raw or JSON-escaped.
	for _, p := range ps {
		esc, _ := json.Marshal(p.Secret)
		if bytes.Contains(out, []byte(p.Secret)) || bytes.Contains(out, esc[1:len(esc)-1]) {
			t.Errorf("%s survived in the output", p.Kind)
		}
	}

	inLines, outLines := checkCorpusLines(t, in, out, ps, want)
	checkCorpusIDs(t, inLines, outLines)
	checkCorpusReport(t, rep, want)
	checkCorpusMarkers(t, rep, out, ps, repeat)
}

// checkCorpusLines: as many lines out as in, each valid JSON; a line with
// no secret unchanged, one with secrets changed only by markers. It
// returns the lines.
func checkCorpusLines(t *testing.T, in, out []byte, ps []planted, want []expectFinding) (inLines, outLines [][]byte) {
	t.Helper()
	inLines = bytes.Split(bytes.TrimSuffix(in, []byte("\n")), []byte("\n"))
	outLines = bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"))
	if len(inLines) != len(outLines) {
		t.Fatalf("%d lines in, %d out", len(inLines), len(outLines))
	}
	secretLines := map[int]bool{}
	for _, w := range want {
		secretLines[w.line] = true
	}
	chk := newMarkerCheck(ps)
	for i := range inLines {
		if !json.Valid(outLines[i]) {
			t.Fatalf("line %d is not valid JSON: %s", i+1, outLines[i])
		}
		if !secretLines[i+1] {
			if !bytes.Equal(inLines[i], outLines[i]) {
				t.Errorf("line %d changed but has no secret", i+1)
			}
			continue
		}
		var a, b any
		decode(t, inLines[i], &a)
		decode(t, outLines[i], &b)
		chk.walk(t, fmt.Sprintf("line %d", i+1), a, b)
	}
	return inLines, outLines
}

// checkCorpusIDs: the header and the ids are intact.
func checkCorpusIDs(t *testing.T, inLines, outLines [][]byte) {
	t.Helper()
	var h0, h1 map[string]any
	decode(t, inLines[0], &h0)
	decode(t, outLines[0], &h1)
	for _, k := range []string{"type", "version", "id", "timestamp"} {
		if fmt.Sprint(h0[k]) != fmt.Sprint(h1[k]) {
			t.Errorf("header %s: %v -> %v", k, h0[k], h1[k])
		}
	}
	if !strings.HasPrefix(h1["cwd"].(string), "/home/dev/[REDACTED:aws-access-key#") {
		t.Errorf("cwd %q", h1["cwd"])
	}
	for i := 1; i < len(inLines); i++ {
		var e0, e1 map[string]any
		decode(t, inLines[i], &e0)
		decode(t, outLines[i], &e1)
		if e0["id"] != e1["id"] || e0["parentId"] != e1["parentId"] || e0["type"] != e1["type"] {
			t.Errorf("line %d: id/parentId/type changed", i+1)
		}
	}
}

// checkCorpusReport: one finding per planted occurrence, on its line.
func checkCorpusReport(t *testing.T, rep Report, want []expectFinding) {
	t.Helper()
	got := map[expectFinding]int{}
	for _, f := range rep.Findings {
		got[expectFinding{f.Line, f.Kind}]++
		if !strings.HasPrefix(f.Marker, "[REDACTED:"+f.Kind+"#") {
			t.Errorf("finding %+v: marker of another kind", f)
		}
	}
	exp := map[expectFinding]int{}
	for _, w := range want {
		exp[w]++
	}
	for k, n := range exp {
		if got[k] != n {
			t.Errorf("line %d: %d findings of %s, want %d", k.line, got[k], k.kind, n)
		}
	}
	for k, n := range got {
		if exp[k] == 0 {
			t.Errorf("line %d: %d unexpected findings of %s", k.line, n, k.kind)
		}
	}
	if !sort.SliceIsSorted(rep.Findings, func(i, j int) bool { return rep.Findings[i].Line < rep.Findings[j].Line }) {
		t.Error("findings not in input order")
	}
}

// checkCorpusMarkers: the same secret in two places, same marker.
// Different secrets of a kind: different numbers, counted in Kinds.
func checkCorpusMarkers(t *testing.T, rep Report, out []byte, ps []planted, repeat [2]int) {
	t.Helper()
	markerAt := func(line int) string {
		for _, f := range rep.Findings {
			if f.Line == line && f.Kind == "github-pat" {
				return f.Marker
			}
		}
		return ""
	}
	if m0, m1 := markerAt(repeat[0]), markerAt(repeat[1]); m0 == "" || m0 != m1 {
		t.Errorf("repeated secret: markers %q and %q", m0, m1)
	}
	distinct := map[string]map[string]bool{}
	for _, p := range ps {
		if distinct[p.Kind] == nil {
			distinct[p.Kind] = map[string]bool{}
		}
		distinct[p.Kind][p.Secret] = true
	}
	for kind, set := range distinct {
		if rep.Kinds[kind] != len(set) {
			t.Errorf("Kinds[%s] = %d, want %d", kind, rep.Kinds[kind], len(set))
		}
		for n := 1; n <= len(set); n++ {
			if !bytes.Contains(out, fmt.Appendf(nil, "[REDACTED:%s#%d]", kind, n)) {
				t.Errorf("marker %s#%d missing", kind, n)
			}
		}
	}
	if rep.Kinds["github-pat"] < 2 {
		t.Error("want several github-pat secrets")
	}
}

func decode(t *testing.T, line []byte, v any) {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		t.Fatalf("%v: %s", err, line)
	}
}

// markerCheck compares decoded input and output values: same structure,
// same non-string values, and strings equal except that each planted
// secret became a marker of its kind, the same marker for the same secret
// everywhere and different markers for different secrets.
type markerCheck struct {
	secrets  []planted
	byMarker map[string]string
	bySecret map[string]string
}

func newMarkerCheck(ps []planted) *markerCheck {
	ps = slices.Clone(ps)
	sort.Slice(ps, func(i, j int) bool { return len(ps[i].Secret) > len(ps[j].Secret) })
	return &markerCheck{ps, map[string]string{}, map[string]string{}}
}

func (c *markerCheck) walk(t *testing.T, path string, a, b any) {
	t.Helper()
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok || len(av) != len(bv) {
			t.Errorf("%s: object changed", path)
			return
		}
		for k, x := range av {
			c.walk(t, path+"."+k, x, bv[k])
		}
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			t.Errorf("%s: array changed", path)
			return
		}
		for i := range av {
			c.walk(t, fmt.Sprintf("%s[%d]", path, i), av[i], bv[i])
		}
	case string:
		bv, ok := b.(string)
		if !ok {
			t.Errorf("%s: string changed type", path)
			return
		}
		c.str(t, path, av, bv)
	default:
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%s: %v -> %v", path, a, b)
		}
	}
}

func (c *markerCheck) str(t *testing.T, path, in, out string) {
	t.Helper()
	type occ struct {
		at int
		p  planted
	}
	var occs []occ
	taken := make([]bool, len(in))
	for _, p := range c.secrets {
		for from := 0; ; {
			k := strings.Index(in[from:], p.Secret)
			if k < 0 {
				break
			}
			at := from + k
			from = at + 1
			if slices.Contains(taken[at:at+len(p.Secret)], true) {
				continue
			}
			for i := at; i < at+len(p.Secret); i++ {
				taken[i] = true
			}
			occs = append(occs, occ{at, p})
		}
	}
	sort.Slice(occs, func(i, j int) bool { return occs[i].at < occs[j].at })
	var re strings.Builder
	re.WriteString("^")
	last := 0
	for _, o := range occs {
		re.WriteString(regexp.QuoteMeta(in[last:o.at]))
		re.WriteString(`(\[REDACTED:` + regexp.QuoteMeta(o.p.Kind) + `#\d+\])`)
		last = o.at + len(o.p.Secret)
	}
	re.WriteString(regexp.QuoteMeta(in[last:]) + "$")
	m := regexp.MustCompile(re.String()).FindStringSubmatch(out)
	if m == nil {
		t.Errorf("%s:\n in %q\nout %q", path, in, out)
		return
	}
	for i, o := range occs {
		marker := m[i+1]
		if prev, ok := c.bySecret[o.p.Secret]; ok && prev != marker {
			t.Errorf("%s: one %s secret got %s and %s", path, o.p.Kind, prev, marker)
		}
		if prev, ok := c.byMarker[marker]; ok && prev != o.p.Secret {
			t.Errorf("%s: %s stands for two secrets", path, marker)
		}
		c.bySecret[o.p.Secret], c.byMarker[marker] = marker, o.p.Secret
	}
}
