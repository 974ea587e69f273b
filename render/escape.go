package render

import (
	"html/template"
	"strings"
)

func escape(s string) template.HTML { return template.HTML(textEscape(s)) }

// textEscaper escapes text for an element's content, and only there:
// quotes need no reference outside attributes ("&#34;" was 1.4 MB of a
// 115 MB page). NUL becomes U+FFFD, as html/template writes it.
var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\x00", "\uFFFD")

// textEscape escapes s for an element's content (never an attribute).
func textEscape(s string) string { return textEscaper.Replace(s) }
