package htmlpage

import (
	"html/template"
	"strconv"
	"strings"
)

// ansiHTML renders terminal output: SGR colour and weight codes become
// spans with classes (ansi-fg-N, ansi-bg-N, ansi-bold, …); every other
// escape sequence is dropped. Only the 16 standard colours are kept, as
// classes, so that no style attribute is needed (the page's
// Content-Security-Policy allows none). A lineRenderer: it never leaves
// text plain for a reason to note.
func ansiHTML(text, _, _ string) (template.HTML, string) {
	if !strings.Contains(text, "\x1b") {
		return escape(text), ""
	}
	var b strings.Builder
	var st ansiState
	open := false
	for len(text) > 0 {
		i := strings.IndexByte(text, '\x1b')
		if i < 0 {
			b.WriteString(textEscape(text))
			break
		}
		b.WriteString(textEscape(text[:i]))
		text = text[i+1:]
		if len(text) == 0 || text[0] != '[' {
			// Not a CSI sequence: drop the ESC and an OSC body if any.
			if len(text) > 0 && text[0] == ']' {
				if end := strings.IndexAny(text, "\x07\x1b"); end >= 0 {
					text = text[end+1:]
					text = strings.TrimPrefix(text, "\\")
				} else {
					text = ""
				}
			}
			continue
		}
		// CSI: parameters, then a final byte in @..~.
		j := 1
		for j < len(text) && (text[j] < 0x40 || text[j] > 0x7e) {
			j++
		}
		if j >= len(text) {
			break
		}
		if text[j] == 'm' {
			st.apply(text[1:j])
			if open {
				b.WriteString("</span>")
				open = false
			}
			if cls := st.classes(); cls != "" {
				b.WriteString(`<span class="` + cls + `">`)
				open = true
			}
		}
		text = text[j+1:]
	}
	if open {
		b.WriteString("</span>")
	}
	return template.HTML(b.String()), ""
}

type ansiState struct {
	fg, bg                   int // 0 none, else 30-37/90-97 and 40-47/100-107
	bold, dim, italic, under bool
}

func (s *ansiState) apply(params string) {
	if params == "" {
		*s = ansiState{}
		return
	}
	codes := strings.Split(params, ";")
	for i := 0; i < len(codes); i++ {
		n, err := strconv.Atoi(codes[i])
		if err != nil {
			continue
		}
		switch {
		case n == 0:
			*s = ansiState{}
		case n == 1:
			s.bold = true
		case n == 2:
			s.dim = true
		case n == 3:
			s.italic = true
		case n == 4:
			s.under = true
		case n == 22:
			s.bold, s.dim = false, false
		case n == 23:
			s.italic = false
		case n == 24:
			s.under = false
		case n >= 30 && n <= 37, n >= 90 && n <= 97:
			s.fg = n
		case n == 39:
			s.fg = 0
		case n >= 40 && n <= 47, n >= 100 && n <= 107:
			s.bg = n
		case n == 49:
			s.bg = 0
		case n == 38 || n == 48:
			// 256-colour and true-colour: map the 256 palette's first 16,
			// skip the rest.
			if i+2 < len(codes) && codes[i+1] == "5" {
				if c, err := strconv.Atoi(codes[i+2]); err == nil && c < 16 {
					base := 30
					if c >= 8 {
						base, c = 90, c-8
					}
					if n == 48 {
						base += 10
					}
					if n == 38 {
						s.fg = base + c
					} else {
						s.bg = base + c
					}
				}
				i += 2
			} else if i+1 < len(codes) && codes[i+1] == "2" {
				i += 4
			}
		}
	}
}

func (s *ansiState) classes() string {
	var c []string
	if s.fg != 0 {
		c = append(c, "ansi-fg-"+strconv.Itoa(s.fg))
	}
	if s.bg != 0 {
		c = append(c, "ansi-bg-"+strconv.Itoa(s.bg))
	}
	if s.bold {
		c = append(c, "ansi-bold")
	}
	if s.dim {
		c = append(c, "ansi-dim")
	}
	if s.italic {
		c = append(c, "ansi-italic")
	}
	if s.under {
		c = append(c, "ansi-under")
	}
	return strings.Join(c, " ")
}
