package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/text"
	"canopy/sessiontree"
)

// rowTextMax is where the reference cuts a tree row's text.
const rowTextMax = 100

// flatten puts text on one line (newlines and tabs become spaces) and
// cuts it at n characters with "...", as the reference does. Only the
// first n characters are copied: a row's text may come from megabytes.
func flatten(s string, n int) string {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	head := s[:runePrefix(s, n)]
	if strings.TrimRightFunc(s[len(head):], unicode.IsSpace) != "" {
		return text.OneLine(head) + "..."
	}
	return text.OneLine(strings.TrimRightFunc(head, unicode.IsSpace))
}

// cut cuts s at n characters, adding "...".
func cut(s string, n int) string {
	if i := runePrefix(s, n); i < len(s) {
		// As string([]rune(s)[:n]) would: each byte of broken UTF-8
		// becomes U+FFFD.
		return strings.Map(func(r rune) rune { return r }, s[:i]) + "..."
	}
	return s
}

// runePrefix is the length in bytes of the first n characters of s (a
// byte of broken UTF-8 counts as one).
func runePrefix(s string, n int) int {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return i
}

// shortenPath writes home directories as ~, as the reference does.
func shortenPath(p string) string {
	for _, home := range []string{"/Users/", "/home/"} {
		if strings.HasPrefix(p, home) {
			if i := strings.IndexByte(p[len(home):], '/'); i >= 0 {
				return "~" + p[len(home)+i:]
			}
		}
	}
	return p
}

// blocksText joins the text blocks of a message with sep.
func blocksText(blocks sessiontree.Blocks, sep string) string {
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" && strings.TrimSpace(b.Text) != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, sep)
}

// args decodes a tool call's arguments into a map of strings and numbers.
type args map[string]any

func decodeArgs(raw jsontext.Value) args {
	if len(raw) == 0 {
		return args{}
	}
	a, err := sessiontree.DecodeArguments(raw)
	if err != nil {
		return args{}
	}
	return a
}

func (a args) str(keys ...string) string {
	for _, k := range keys {
		switch v := a[k].(type) {
		case string:
			return v
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
	}
	return ""
}

func (a args) num(key string) (int, bool) {
	if v, ok := a[key].(float64); ok {
		return int(v), true
	}
	return 0, false
}

// toolSummary is the short form of a tool call used in tree rows and in the
// header of a tool card: "[read: path:from-to]" without the brackets.
func toolSummary(name string, a args) string {
	switch name {
	case "read":
		p := shortenPath(a.str("path", "file_path"))
		off, hasOff := a.num("offset")
		lim, hasLim := a.num("limit")
		if !hasOff && !hasLim {
			return "read: " + p
		}
		if !hasOff {
			off = 1
		}
		if hasLim && off+lim-1 != 0 {
			return fmt.Sprintf("read: %s:%d-%d", p, off, off+lim-1)
		}
		return fmt.Sprintf("read: %s:%d", p, off)
	case "write":
		return "write: " + shortenPath(a.str("path", "file_path"))
	case "edit":
		return "edit: " + shortenPath(a.str("path", "file_path"))
	case "bash":
		return "bash: " + flatten(a.str("command"), 50)
	case "grep":
		return "grep: /" + a.str("pattern") + "/ in " + text.Or(shortenPath(a.str("path")), ".")
	case "find":
		return "find: " + a.str("pattern") + " in " + text.Or(shortenPath(a.str("path")), ".")
	case "ls":
		p := a.str("path")
		if p == "" {
			p = "."
		}
		return "ls: " + p
	}
	js, _ := json.Marshal(map[string]any(a), json.Deterministic(true))
	return name + ": " + cut(string(js), 40)
}

// kTokens writes a token count in thousands, rounded half up: 123456 is
// "123k", as in the reference's compaction rows.
func kTokens(n float64) string {
	return strconv.Itoa(int(math.Floor(n/1000+0.5))) + "k"
}
