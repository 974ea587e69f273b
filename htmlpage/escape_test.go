package htmlpage

import (
	"testing"
)

func TestTextEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{`a "b" 'c'`, `a "b" 'c'`},
		{"<script>&amp;</script>", "&lt;script>&amp;amp;&lt;/script>"},
		{"a -> b >= c", "a -> b >= c"},
		{"nul\x00", "nul\uFFFD"},
		{"1+1", "1+1"},
	}
	for _, tt := range tests {
		if got := textEscape(tt.in); got != tt.want {
			t.Errorf("textEscape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
