package htmlpage

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"strings"
)

// imageSrc is the <img> of an embedded picture, or "" for types a page
// should not show inline. We write the tag ourselves: html/template would
// write each "+" of the data URL as "&#43;" (5 bytes for 1, ~6% of a
// picture); the data is checked to be base64 and nothing else, so it needs
// no escaping in a quoted attribute.
func imageSrc(mime, data string) template.HTML {
	switch strings.ToLower(mime) {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
	default:
		return ""
	}
	if !isBase64(data) {
		return ""
	}
	return template.HTML(`<img class="image" src="data:` + strings.ToLower(mime) + ";base64," + data + `" alt="image">`)
}

// isBase64 reports whether s is standard base64 and nothing else (line
// breaks, which the decoder skips and a URL drops, aside).
func isBase64(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '=' || c == '\r' || c == '\n') {
			return false
		}
	}
	_, err := base64.StdEncoding.DecodeString(s)
	return err == nil
}

// minDedup is the shortest picture (base64 characters) that the embedded
// source refers to rather than holds: below it, a marker saves little.
const minDedup = 1024

// imgPrefix starts every embedded picture the page writes (imageSrc).
const imgPrefix = `<img class="image" src="data:image/`

// imageSet is a set of pictures' base64 data, by SHA-256: the data of
// twenty 5 MB pictures held as keys was most of the memory of their
// session's export (194 MB for a 100 MB file); their hashes are 32 bytes
// each.
type imageSet map[[sha256.Size]byte]bool

func (set imageSet) add(data []byte)      { set[sha256.Sum256(data)] = true }
func (set imageSet) has(data []byte) bool { return set[sha256.Sum256(data)] }

// collectImages adds to set the base64 data of the pictures in an entry's
// HTML, as the page's script finds them (withImages in assets/page/download.js).
func collectImages(html []byte, set imageSet) {
	prefix := []byte(imgPrefix)
	for {
		i := bytes.Index(html, prefix)
		if i < 0 {
			return
		}
		html = html[i+len(prefix):]
		_, rest, ok := bytes.Cut(html, []byte(";base64,"))
		if !ok {
			return
		}
		end := bytes.IndexByte(rest, '"')
		if end < 0 {
			return
		}
		if end >= minDedup {
			set.add(rest[:end])
		}
		html = rest[end:]
	}
}
