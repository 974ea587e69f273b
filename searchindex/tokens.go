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

// Tokens calls f with each term of s in order: its words, lowercased,
// those longer than MaxTokenRunes left out.
func Tokens(s string, f func(term string)) {
	start, n := -1, 0
	for i := 0; i <= len(s); {
		r, size := utf8.RuneError, 1
		if i < len(s) {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if i < len(s) && wordRune(r) {
			if start < 0 {
				start, n = i, 0
			}
			n++
		} else if start >= 0 {
			if n <= MaxTokenRunes {
				f(lower(s[start:i]))
			}
			start = -1
		}
		i += size
	}
}

// lower lowercases a word, without allocating when it is already lower
// case ASCII (most words are).
func lower(w string) string {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return strings.ToLower(w)
		}
	}
	return w
}
