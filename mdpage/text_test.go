package mdpage

import (
	"strings"
	"testing"
)

// TestFence checks that no text can close its fence, and that it comes
// out whole.
func TestFence(t *testing.T) {
	tests := []struct{ name, text, mark string }{
		{"plain", "a\nb", "```"},
		{"backticks", "```\n````\nx", "~~~"},
		{"long backtick run", "a `````````` b", "~~~"},
		{"both", "```\n~~~", "````"},
		{"tildes longer", "~~~~~~~\n```", "````"},
		{"indented fence", "   ```\n  ~~~", "````"},
		{"backtick after space", "``` ```", "~~~"},
		{"empty", "", "```"},
		{"details", "</details>\n<details><summary>x</summary>", "```"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fence(tt.text, "")
			if !strings.HasPrefix(f, tt.mark+"\n") {
				t.Errorf("fence %q, want %q", f[:strings.IndexByte(f, '\n')], tt.mark)
			}
			md := "before\n\n" + f + "\n\nafter\n"
			blocks := codeBlocks(githubHTML(md))
			want := tt.text
			if want != "" {
				want += "\n"
			}
			if len(blocks) != 1 || blocks[0] != want {
				t.Errorf("code blocks %q, want [%q]", blocks, want)
			}
		})
	}
}

func TestCodeSpan(t *testing.T) {
	tests := []struct {
		in      string
		inTable bool
		want    string // the span
		shows   string // what GitHub shows
	}{
		{"a", false, "`a`", "a"},
		{"a`b", false, "``a`b``", "a`b"},
		{"`a", false, "`` `a ``", "`a"},
		{" a ", false, "`  a  `", " a "},
		{"a ``` b", false, "````a ``` b````", "a ``` b"},
		{"a|b", true, "`a\\|b`", "a|b"},
		{"<b>", false, "`<b>`", "&lt;b&gt;"},
	}
	for _, tt := range tests {
		got := codeSpan(tt.in, tt.inTable)
		if got != tt.want {
			t.Errorf("codeSpan(%q) = %q, want %q", tt.in, got, tt.want)
		}
		md := "x " + got + " y\n"
		if tt.inTable {
			md = "| h |\n|---|\n| " + got + " |\n"
		}
		if out := githubHTML(md); !strings.Contains(out, "<code>"+tt.shows+"</code>") {
			t.Errorf("%q shows as %q", got, out)
		}
	}
}

func TestLength(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"a\nb", 4},
		{"é", 1},
		{"日本", 2},
		{"😀", 2},
		{"a\r\nb", 5}, // written out as LF by clean; counted as is here
	}
	for _, tt := range tests {
		if got := Length(tt.s); got != tt.want {
			t.Errorf("Length(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}

func TestCutText(t *testing.T) {
	tests := []struct {
		s           string
		limit       int
		kept        string
		removedRune int
	}{
		{"abcdef", 10, "abcdef", 0},
		{"abcdef", 3, "abc", 3},
		{"line one\nline two\nline three", 22, "line one\nline two", 11},
		{"😀😀😀", 3, "😀", 2},
		{"abc", 0, "", 3},
	}
	for _, tt := range tests {
		kept, removed := cutText(tt.s, tt.limit)
		if kept != tt.kept || removed != tt.removedRune {
			t.Errorf("cutText(%q, %d) = %q, %d; want %q, %d", tt.s, tt.limit, kept, removed, tt.kept, tt.removedRune)
		}
		if Length(kept) > tt.limit {
			t.Errorf("cutText(%q, %d) kept %d", tt.s, tt.limit, Length(kept))
		}
	}
}
