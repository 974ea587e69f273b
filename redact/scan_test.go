// Tests of the scanner through Redact: documents, broken lines, escapes,
// numbering, parallel and serial runs alike.

package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestFlueDocument(t *testing.T) {
	r := newRedactor(t)
	ps := corpus(2)
	var entries []any
	for i, p := range ps {
		entries = append(entries, map[string]any{"type": "message", "id": fmt.Sprintf("e%d", i),
			"message": map[string]any{"role": "user", "content": p.Text}})
	}
	doc := map[string]any{"version": 3, "entries": entries, "leafId": "e0", "createdAt": "2026-01-15T09:00:00Z",
		"metadata": map[string]any{"taskSessions": []any{}, "apiToken": ps[0].Secret}}
	compact, _ := json.Marshal(doc)
	pretty, _ := json.MarshalIndent(doc, "", "  ")
	for name, in := range map[string][]byte{"compact": compact, "pretty": pretty} {
		t.Run(name, func(t *testing.T) {
			out, rep := r.Redact(in)
			if !json.Valid(out) {
				t.Fatal("output is not valid JSON")
			}
			for _, p := range ps {
				if bytes.Contains(out, []byte(p.Secret)) {
					t.Errorf("%s survived", p.Kind)
				}
			}
			var a, b any
			decode(t, in, &a)
			decode(t, out, &b)
			newMarkerCheck(ps).walk(t, "doc", a, b)
			if len(rep.Findings) != len(ps)+1 {
				t.Errorf("%d findings, want %d", len(rep.Findings), len(ps)+1)
			}
			if name == "pretty" {
				lines := strings.Split(string(in), "\n")
				for _, f := range rep.Findings {
					if !strings.Contains(lines[f.Line-1], "\"content\"") && !strings.Contains(lines[f.Line-1], "\"apiToken\"") {
						t.Errorf("finding %+v on line %q", f, lines[f.Line-1])
					}
				}
			}
		})
	}
}

func TestBrokenLines(t *testing.T) {
	r := newRedactor(t)
	g := newFakeGen(11)
	tok := "ghp_" + g.str(csAlnum, 36)
	pw := g.str(csAlnum, 20)
	good := `{"type":"message","id":"a1","parentId":null,"message":{"role":"user","content":"plain"}}`
	in := strings.Join([]string{
		good,
		`{"type":"message","id":"a2","message":{"role":"user","content":"token ` + tok + ` and more`, // truncated
		`not json at all: postgres://u:` + pw + `@db/x`,
		`{"a":"` + tok + `"} trailing garbage ` + tok,
		`{"type":"label","id":"a3","label":"` + tok + `"}`,
		``,
	}, "\n")
	out, rep := r.Redact([]byte(in))
	if bytes.Contains(out, []byte(tok)) || bytes.Contains(out, []byte(pw)) {
		t.Fatalf("secret survived:\n%s", out)
	}
	lines := strings.Split(string(out), "\n")
	if lines[0] != good {
		t.Error("valid line changed")
	}
	if !json.Valid([]byte(lines[4])) || !strings.Contains(lines[4], `"[REDACTED:github-pat#1]"`) {
		t.Errorf("line 5: %s", lines[4])
	}
	wantLines := []int{2, 3, 4, 4, 5}
	var gotLines []int
	for _, f := range rep.Findings {
		gotLines = append(gotLines, f.Line)
	}
	if !slices.Equal(gotLines, wantLines) {
		t.Errorf("finding lines %v, want %v", gotLines, wantLines)
	}
	if rep.Kinds["github-pat"] != 1 || rep.Kinds["database-url"] != 1 {
		t.Errorf("kinds %v", rep.Kinds)
	}
}

// TestBrokenDocument: a pretty-printed document cut short is not JSON; its
// lines are redacted as plain text.
func TestBrokenDocument(t *testing.T) {
	r := newRedactor(t)
	ps := corpus(3)
	var entries []any
	for _, p := range ps {
		entries = append(entries, map[string]any{"type": "message", "message": map[string]any{"role": "user", "content": p.Text}})
	}
	doc, _ := json.MarshalIndent(map[string]any{"version": 3, "entries": entries}, "", "  ")
	in := doc[:len(doc)-40]
	out, rep := r.Redact(in)
	for _, p := range ps {
		if bytes.Contains(out, []byte(p.Secret)) {
			t.Errorf("%s survived", p.Kind)
		}
	}
	if bytes.Count(out, []byte("\n")) != bytes.Count(in, []byte("\n")) {
		t.Error("lines added or lost")
	}
	if len(rep.Findings) < len(ps)-1 {
		t.Errorf("%d findings for %d secrets", len(rep.Findings), len(ps))
	}
}

func TestEscapedStrings(t *testing.T) {
	r := newRedactor(t)
	g := newFakeGen(12)
	tok := "ghp_" + g.str(csAlnum, 36)
	pw := g.str(csAlnum, 20)
	// The token's first letter as \u0067, the URL's slashes as \/, a
	// private key with \n line breaks, and a neighbour escape that must stay.
	pem := g.pemBlock("PRIVATE KEY", 3)
	pemJSON, _ := json.Marshal(pem)
	in := `{"a":"\u00e9t\u00e9 \u0067` + tok[1:] + `\t\u00e9","b":"https:\/\/ci:` + pw + `@build.example.com\/x","c":` + string(pemJSON) + `,"d":"tab\there"}`
	if !json.Valid([]byte(in)) {
		t.Fatal("bad test input")
	}
	out, rep := r.Redact([]byte(in))
	if !json.Valid(out) {
		t.Fatalf("invalid output %s", out)
	}
	var v map[string]string
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a": "été [REDACTED:github-pat#1]\té",
		"b": "https://ci:[REDACTED:url-credentials#1]@build.example.com/x",
		"c": "[REDACTED:private-key#1]",
		"d": "tab\there",
	}
	for k, w := range want {
		if v[k] != w {
			t.Errorf("%s: %q, want %q", k, v[k], w)
		}
	}
	if !bytes.Contains(out, []byte(`"\u00e9t\u00e9 [REDACTED:github-pat#1]\t\u00e9"`)) || !bytes.Contains(out, []byte(`@build.example.com\/x"`)) {
		t.Errorf("escapes around the secrets not kept: %s", out)
	}
	if len(rep.Findings) != 3 {
		t.Errorf("findings %+v", rep.Findings)
	}
}

// TestUnchangedBytes: only the bytes of the secrets change; the rest of a
// line, spacing and key order included, is kept.
func TestUnchangedBytes(t *testing.T) {
	r := newRedactor(t)
	tok := "glpat-" + newFakeGen(13).str(csB64URL, 20)
	in := "{ \"z\" : 1.50e+3 ,\"a\":[ true,null ],  \"t\" : \"x " + tok + " y\" }\r\n" +
		"{\"b\":\"no secret\"}   \n\n\t[1, 2]\n"
	out, _ := r.Redact([]byte(in))
	want := strings.Replace(in, tok, "[REDACTED:gitlab-pat#1]", 1)
	if string(out) != want {
		t.Errorf("got  %q\nwant %q", out, want)
	}
}

func TestEmptyAndTiny(t *testing.T) {
	r := newRedactor(t)
	for _, in := range []string{"", "\n", "{}", "[]", "\"\"", "x", "{\"a\":", "\"unterminated"} {
		out, rep := r.Redact([]byte(in))
		if string(out) != in || len(rep.Findings) != 0 || rep.Kinds == nil {
			t.Errorf("%q -> %q %+v", in, out, rep)
		}
	}
	if out, _ := r.Text(""); out != "" {
		t.Error("Text(\"\")")
	}
}

func TestDeepNesting(t *testing.T) {
	r := newRedactor(t)
	tok := "npm_" + newFakeGen(14).str(csAlnum, 36)
	in := strings.Repeat("[", 20000) + `"` + tok + `"` + strings.Repeat("]", 20000)
	out, rep := r.Redact([]byte(in))
	if bytes.Contains(out, []byte(tok)) || len(rep.Findings) != 1 {
		t.Error("secret in a too-deep document survived")
	}
}

func TestTextNumbering(t *testing.T) {
	r := newRedactor(t)
	g := newFakeGen(15)
	a, b := "hf_"+g.str(csUpper+csLower, 34), "hf_"+g.str(csUpper+csLower, 34)
	out, rep := r.Text(a + "\n" + b + "\n" + a)
	if out != "[REDACTED:huggingface-token#1]\n[REDACTED:huggingface-token#2]\n[REDACTED:huggingface-token#1]" {
		t.Errorf("%q", out)
	}
	var lines []int
	for _, f := range rep.Findings {
		lines = append(lines, f.Line)
	}
	if !slices.Equal(lines, []int{1, 2, 3}) || rep.Kinds["huggingface-token"] != 2 {
		t.Errorf("%+v", rep)
	}
	// Each call numbers on its own.
	if out2, _ := r.Text(b); out2 != "[REDACTED:huggingface-token#1]" {
		t.Errorf("%q", out2)
	}
}

// TestParallelMatchesSerial: a large input (parallel path) gives exactly
// what the serial path gives, and concurrent calls do not interfere.
func TestParallelMatchesSerial(t *testing.T) {
	r := newRedactor(t)
	in, ps, _, _ := buildCorpusSession(t, 1)
	var big []byte
	for len(big) < 4*parallelMin {
		big = append(big, in...)
	}
	want, wantRep := r.Redact(in)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, rep := r.Redact(big)
			n := len(big) / len(in)
			if !bytes.Equal(out, bytes.Repeat(want, n)) {
				t.Error("parallel output differs")
			}
			if len(rep.Findings) != n*len(wantRep.Findings) {
				t.Errorf("%d findings, want %d", len(rep.Findings), n*len(wantRep.Findings))
			}
			for _, p := range ps {
				if bytes.Contains(out, []byte(p.Secret)) {
					t.Errorf("%s survived", p.Kind)
				}
			}
		}()
	}
	wg.Wait()
}
