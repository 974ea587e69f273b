package main

import (
	"reflect"
	"testing"
)

// TestMarkedValues: the values behind the markers of a redacted copy,
// with markers the input had already standing for themselves.
func TestMarkedValues(t *testing.T) {
	for _, c := range []struct {
		name, in, out string
		want          []secret
	}{
		{"one", `{"a":"key=s3cr3tV4lue"}`, `{"a":"key=[REDACTED:generic-secret#1]"}`,
			[]secret{{"generic-secret", "s3cr3tV4lue"}}},
		{"at the end", `token ghp_abc`, `token [REDACTED:github-pat#1]`,
			[]secret{{"github-pat", "ghp_abc"}}},
		{"JSON escape decoded", `{"a":"p\u0040ss w"}`, `{"a":"[REDACTED:cli-password#1] w"}`,
			[]secret{{"cli-password", "p@ss"}}},
		{"marker already in the input", `x [REDACTED:jwt#1] y Zm9v z`, `x [REDACTED:jwt#1] y [REDACTED:basic-auth#1] z`,
			[]secret{{"basic-auth", "Zm9v"}}},
		{"none", `plain`, `plain`, nil},
	} {
		if got := markedValues([]byte(c.in), []byte(c.out)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestDecodeText(t *testing.T) {
	for in, want := range map[string]string{
		`a\u0026b`:      "a&b",
		`a&amp;b`:       "a&b",
		`https:\/\/x`:   "https://x",
		`say \"hi\"\n`:  `say "hi"\n`,
		`\u00e9t\u00e9`: "été",
	} {
		if got := decodeText(in); got != want {
			t.Errorf("decodeText(%q) = %q, want %q", in, got, want)
		}
	}
}
