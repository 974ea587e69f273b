package htmlpage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/pricing"
	"canopy/sessiontree"
)

// TestHeaderCost: the Cost column says what a session records; for
// Claude Code and Codex, which record tokens and no price, an estimate
// marked ≈ with its source; "—" and a note naming the model when no price
// is known, never $0.0000.
func TestHeaderCost(t *testing.T) {
	rollout, err := os.ReadFile(filepath.Join("..", "testdata", "codex", "rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	unknown := strings.ReplaceAll(string(rollout), `"model_provider":"openai"`, `"model_provider":"ollama"`)
	src := pricing.Source()
	for _, c := range []struct {
		name, file, data string
		want, not        []string
	}{
		{name: "claude code", file: "claude/session.jsonl", want: []string{
			`<td title="estimated from ` + src + `">≈$0.04</td>`, // whole tree: calcPrice's $0.04203
			`<p class="note">≈ Estimated: the session records tokens, not prices; each message is priced at its date by ` + src + `.</p>`,
		}},
		{name: "codex", file: "codex/rollout.jsonl", want: []string{`<td title="estimated from ` + src + `">≈$0.0071</td>`}}, // $0.007075
		{name: "recorded (Claude Code 1.0)", file: "claude/old-1.0.jsonl", want: []string{"<td>$0.0143</td>"}, not: []string{"≈", "note\">No price"}},
		{name: "recorded (pi)", file: "demo/demo.jsonl", want: []string{"<td>$0.3527</td>"}, not: []string{"≈", "note\">No price"}},
		{name: "unknown", data: unknown, want: []string{
			`<td title="unknown: no price for the models used">—</td>`,
			`<p class="note">No price for ollama/gpt-5-codex in ` + src + `: its tokens are not in the cost.</p>`,
		}, not: []string{"≈"}},
	} {
		var s *sessiontree.Session
		var err error
		if c.file != "" {
			s, err = sessiontree.LoadFile(filepath.Join("..", "testdata", c.file))
		} else {
			s, err = sessiontree.Load([]byte(c.data), "rollout.jsonl")
		}
		if err != nil {
			t.Fatal(err)
		}
		page := renderPage(t, s)
		head := page[:strings.Index(page, "</header>")]
		for _, w := range c.want {
			if !strings.Contains(head, w) {
				t.Errorf("%s: no %q in the header", c.name, w)
			}
		}
		for _, n := range append(c.not, "$0.0000") {
			if strings.Contains(head, n) {
				t.Errorf("%s: %q in the header", c.name, n)
			}
		}
	}
}
