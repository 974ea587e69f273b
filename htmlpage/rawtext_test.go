package htmlpage

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestRawSafe(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<article>plain</article>", "<article>plain</article>"},
		{"a</noscript>b", "a&lt;/noscript>b"},
		{"a</NoScRiPt b", "a&lt;/NoScRiPt b"},
		{"a</script>b</SCRIPT", "a&lt;/script>b&lt;/SCRIPT"},
		{"<!-- x -->", "&lt;!-- x -->"},
		{"</", "</"},
		{"<", "<"},
		{"</scrip", "</scrip"},
		{"<!-", "<!-"},
		{"</div></span><!--</script>", "</div></span>&lt;!--&lt;/script>"},
		{"</script</noscript<!--", "&lt;/script&lt;/noscript&lt;!--"},
		{"<</script", "<&lt;/script"},
		{"</sCrIpT</nOsCrIpT", "&lt;/sCrIpT&lt;/nOsCrIpT"},
		{"</sc</scr</no</nos</noscrip", "</sc</scr</no</nos</noscrip"},
		{"</s</n</S</N</x", "</s</n</S</N</x"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		writeRawSafe(&b, []byte(tt.in))
		if got := b.String(); got != tt.want {
			t.Errorf("writeRawSafe(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// Every string of a few thousand from the letters that matter,
	// against the rule said plainly: "<" becomes "&lt;" where what follows
	// it starts, in lower case, with "/script", "/noscript" or "!--".
	rng := rand.New(rand.NewPCG(1, 2))
	const letters = "<</!-sScCrRiIpPtTnNoO>"
	for n := 0; n < 20000; n++ {
		in := make([]byte, rng.IntN(24))
		for i := range in {
			in[i] = letters[rng.IntN(len(letters))]
		}
		var want strings.Builder
		for i, c := range in {
			rest := strings.ToLower(string(in[i+1:]))
			if c == '<' && (strings.HasPrefix(rest, "/script") || strings.HasPrefix(rest, "/noscript") || strings.HasPrefix(rest, "!--")) {
				want.WriteString("&lt;")
			} else {
				want.WriteByte(c)
			}
		}
		var b bytes.Buffer
		writeRawSafe(&b, in)
		if b.String() != want.String() {
			t.Fatalf("writeRawSafe(%q) = %q, want %q", in, b.String(), want.String())
		}
	}
}
