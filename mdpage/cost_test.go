package mdpage

import (
	"strings"
	"testing"
)

// TestCostlyMarkdownShownAsSource: assistant text on which goldmark's
// parser costs the square of its length ("[a(" repeated: 800 KB took
// minutes) is shown as its source in a fence, as the page shows it plain.
func TestCostlyMarkdownShownAsSource(t *testing.T) {
	z := newSanitizer()
	for _, src := range []string{
		strings.Repeat("[a](", 200_000),         // over the size bound
		strings.Repeat("[a](", 30_000),          // within it, over the cost bound
		strings.Repeat("*a_ ", 20_000),          // unmatched emphasis
		strings.Repeat("x **bold** y\n", 1_000), // ordinary: parsed
	} {
		lines := z.markdown(src)
		fenced := len(lines) > 0 && strings.HasPrefix(lines[0], "```markdown") || strings.HasPrefix(lines[0], "~~~markdown")
		if want := !strings.Contains(src, "bold"); fenced != want {
			t.Errorf("%.20q… (%d bytes): shown as source = %v, want %v", src, len(src), fenced, want)
		}
	}
}
