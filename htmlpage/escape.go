package htmlpage

import (
	"html/template"
	"strings"
)

func escape(s string) template.HTML { return template.HTML(textEscape(s)) }

// textEscaper escapes text for an element's content, and only there:
// quotes need no reference outside attributes ("&#34;" was 1.4 MB of a
// 115 MB page), nor does ">" in text ("<" and "&" are all that can start
// markup; "&gt;" was 0.6 MB of the code-heavy benchmark's page, in
// command output). NUL becomes U+FFFD, as html/template writes it.
var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", "\x00", "\uFFFD")

// textEscape escapes s for an element's content (never an attribute).
func textEscape(s string) string { return textEscaper.Replace(s) }
