package searchindex

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxTokenRunes is the longest term indexed: a longer run of letters and
// digits (base64, a hash, minified code) is not a word anyone types, and
// indexing it would fill the shards with terms found once.
const MaxTokenRunes = 32

// wordRune reports whether r is part of a word: a letter, a digit, a
// combining mark or "_" (the script's /[\p{L}\p{N}\p{M}_]/u).
func wordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

// asciiWord marks the ASCII bytes that are word characters: most text
// is ASCII, and a table spares decoding it rune by rune.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = wordRune(rune(c))
	}
	return t
}()

// Tokens calls f with each term of s in order: its words, lowercased,
// those longer than MaxTokenRunes left out. ASCII is read a byte at a
// time (the table above); the rest as runes, by wordRune. It is held to
// the plain rune-by-rune reading (tokensPlain) by a fuzz test.
func Tokens(s string, f func(term string)) {
	for i := 0; i < len(s); {
		// Past what is not a word.
		if c := s[i]; c < utf8.RuneSelf {
			if !asciiWord[c] {
				i++
				continue
			}
		} else if r, size := utf8.DecodeRuneInString(s[i:]); !wordRune(r) {
			i += size
			continue
		}
		start, n, plain := i, 0, true // plain: lower case ASCII
		for i < len(s) {
			c := s[i]
			if c < utf8.RuneSelf {
				if !asciiWord[c] {
					break
				}
				plain = plain && (c < 'A' || c > 'Z')
				i++
			} else {
				r, size := utf8.DecodeRuneInString(s[i:])
				if !wordRune(r) {
					break
				}
				plain = false
				i += size
			}
			n++
		}
		if n <= MaxTokenRunes {
			if w := s[start:i]; plain {
				f(w)
			} else {
				f(strings.ToLower(w))
			}
		}
	}
}
