package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSpread: a value found as a secret where its context says so is
// replaced wherever else it stands on its own, with the same marker; a
// word-like value, a value inside a longer word, and bytes an escape
// begins are left alone; the output stays valid JSON.
func TestSpread(t *testing.T) {
	r := newRedactor(t)
	line := func(text string) string {
		b, _ := json.Marshal(map[string]any{"type": "message", "text": text})
		return string(b)
	}
	for _, c := range []struct {
		name   string
		lines  []string
		gone   []string // not in the output
		kept   []string // still in the output
		marker string   // in the output as often as want
		want   int
	}{
		{"a password typed in a prompt",
			[]string{line("the app user's password is G7$k9mQ2@tR1xZ - try it"), line("export PGPASSWORD='G7$k9mQ2@tR1xZ' works for me")},
			[]string{"G7$k9mQ2@tR1xZ"}, []string{"the app user's password is ", " - try it"}, "[REDACTED:cli-password#1]", 2},
		{"a Basic value in thinking",
			[]string{line("curl -H 'Authorization: Basic ZGVwbG95Okh1bnRlcjItUHJvZC0yMDI1IQ==' https://x"), line("the deploy uses ZGVwbG95Okh1bnRlcjItUHJvZC0yMDI1IQ== as its credential")},
			[]string{"ZGVwbG95Okh1bnRlcjItUHJvZC0yMDI1IQ=="}, nil, "[REDACTED:basic-auth#1]", 2},
		{"a word-like password stays a word elsewhere",
			[]string{line("postgres://postgres:postgres@db:5432/app"), line("postgres is the database; the postgres image runs it")},
			nil, []string{"postgres is the database; the postgres image runs it"}, "[REDACTED:database-url#1]", 1},
		{"inside a longer word",
			[]string{line("export PGPASSWORD='Xq7vT2mP9sLk4wZr'"), line("id abcXq7vT2mP9sLk4wZrdef and Xq7vT2mP9sLk4wZr.")},
			nil, []string{"abcXq7vT2mP9sLk4wZrdef"}, "[REDACTED:cli-password#1]", 2},
		{"after an escaping backslash",
			[]string{line("export PGPASSWORD='n0tAPassw0rd!x'"), line("first\n0tAPassw0rd!x and n0tAPassw0rd!x")},
			nil, []string{`first\n0tAPassw0rd!x`}, "[REDACTED:cli-password#1]", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := []byte(strings.Join(c.lines, "\n") + "\n")
			out, rep := r.Redact(in)
			s := string(out)
			for _, g := range c.gone {
				if strings.Contains(s, g) {
					t.Errorf("%q still in\n%s", g, s)
				}
			}
			for _, k := range c.kept {
				if !strings.Contains(s, k) {
					t.Errorf("%q not kept in\n%s", k, s)
				}
			}
			if n := strings.Count(s, c.marker); n != c.want {
				t.Errorf("%s %d times, want %d:\n%s\nreport %+v", c.marker, n, c.want, s, rep)
			}
			if len(rep.Findings) != strings.Count(s, "[REDACTED:") {
				t.Errorf("%d findings for %d markers", len(rep.Findings), strings.Count(s, "[REDACTED:"))
			}
			for i, l := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
				if !json.Valid(l) {
					t.Errorf("line %d is no longer JSON: %s", i+1, l)
				}
			}
		})
	}
}

// TestOnePass holds the one-pass search (many distinct secrets) to a
// plain search of each, on random text with the values planted in it.
func TestOnePass(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "abcXYZ019-_:@ \n"
	for round := range 50 {
		var vals []string
		for range 2 + rng.IntN(20) {
			n := minSpreadLen + rng.IntN(8)
			b := make([]byte, n)
			for i := range b {
				b[i] = alphabet[rng.IntN(len(alphabet)-2)]
			}
			vals = append(vals, string(b))
		}
		var text []byte
		for range 200 {
			if rng.IntN(4) == 0 {
				text = append(text, vals[rng.IntN(len(vals))]...)
			} else {
				text = append(text, alphabet[rng.IntN(len(alphabet))])
			}
		}
		data := append(text, []byte(strings.Join(vals, " "))...)
		var hits []hit
		at := len(text)
		for _, v := range vals {
			hits = append(hits, hit{start: at, end: at + len(v), value: v})
			at += len(v) + 1
		}
		got, want := map[string]bool{}, map[string]bool{}
		onePass(data, hits, func(v hit, i int) { got[fmt.Sprint(v.value, i)] = true })
		for _, v := range hits {
			raw := data[v.start:v.end]
			for off := 0; ; {
				i := bytes.Index(data[off:], raw)
				if i < 0 {
					break
				}
				want[fmt.Sprint(v.value, off+i)] = true
				off += i + 1
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("round %d: one pass found %v, a search of each %v", round, got, want)
		}
	}
}
