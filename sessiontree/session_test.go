package sessiontree

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"canopy/internal/sessiongen"
)

func TestLoadDiagnosticsBounded(t *testing.T) {
	lines := []string{header, user("a", "")}
	for range 2500 {
		lines = append(lines, "{broken")
	}
	s, err := Load(jsonl(lines...), "many.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Diagnostics) != maxDiagnostics || s.Suppressed != 2500-maxDiagnostics || len(s.Entries) != 1 {
		t.Errorf("%d diagnostics, %d suppressed, %d entries", len(s.Diagnostics), s.Suppressed, len(s.Entries))
	}
	if d := s.Diagnostics[0]; d.Line != 3 || d.Severity != SevError {
		t.Errorf("first diagnostic %+v", d)
	}
}

func TestRawPreserved(t *testing.T) {
	odd := `{"type":"message", "id":"a" ,"parentId":null,"timestamp":"` + ts + `","message":{"role":"user","content":"caf\u00e9 \"q\" \/ \ud83d\ude00"},` +
		`"zeta":{"n":[1,2.50,1e3,-0.0,1E+2]},"dup":1,"dup":2,"nested":{"deeper":{"deepest":[[],{}]}}}`
	extra := ent("message", "b", "a", `"message":{"role":"assistant","content":[],"futureField":{"x":[true,false,null]}},"topLevelFuture":"kept"`)
	runLoadCases(t, []loadCase{
		{
			name: "v3 entries with unknown fields, spacing, escapes and repeated names",
			in:   jsonl(header, odd, extra),
			ids:  []string{"a", "b"},
			check: func(t *testing.T, s *Session) {
				if rawOf(t, s.Entry("a")) != odd {
					t.Errorf("a: Raw\n got  %s\n want %s", rawOf(t, s.Entry("a")), odd)
				}
				if rawOf(t, s.Entry("b")) != extra {
					t.Errorf("b: Raw\n got  %s\n want %s", rawOf(t, s.Entry("b")), extra)
				}
				if string(s.Header.Raw) != header {
					t.Errorf("header Raw %s", s.Header.Raw)
				}
			},
		},
		{
			name: "v1 entries keep their own text",
			in:   jsonl(v1User("one"), v1User("two")),
			ids:  []string{"L1", "L2"},
			diags: []wantDiag{
				{0, SevWarning, "no session header"},
			},
			check: func(t *testing.T, s *Session) {
				if rawOf(t, s.Entry("L2")) != v1User("two") {
					t.Errorf("Raw %s", rawOf(t, s.Entry("L2")))
				}
			},
		},
	})
}

func TestLoadErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
	}{
		{"empty", ""},
		{"newlines", "\n\n\n"},
		{"whitespace only", "   \n\t\r\n  "},
		{"byte-order mark only", "\xef\xbb\xbf"},
		{"byte-order mark and blank lines", "\xef\xbb\xbf\n  \n"},
		{"null", "null\n"},
		{"arrays", "[]\n[1]\n"},
		{"text", "hello\nworld\n"},
		{"truncated header alone", `{"type":"session","vers`},
		{"Flue document cut before its entries", `{"version":3,"entries":[`},
		{"Flue document cut in its first entry", `{"version":3,"entries":[{"type":"mess`},
		{"NUL bytes", "\x00\x00\x00\n\x00"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Load([]byte(c.in), "weird-name.jsonl")
			if err == nil {
				t.Fatalf("no error; %d entries, diagnostics %v", len(s.Entries), s.Diagnostics)
			}
			if s != nil {
				t.Errorf("a session with the error")
			}
			if !errors.Is(err, ErrNotSession) || !strings.Contains(err.Error(), "weird-name.jsonl") {
				t.Errorf("error %q: want ErrNotSession naming the file", err)
			}
			for _, l := range fileLoads(t, []byte(c.in), "weird-name.jsonl") {
				if l.s != nil || !errors.Is(l.err, ErrNotSession) || strings.ReplaceAll(l.err.Error(), l.file, "weird-name.jsonl") != err.Error() {
					t.Errorf("%s: error %v, Load's %v", l.name, l.err, err)
				}
			}
		})
	}

	t.Run("nil", func(t *testing.T) {
		if _, err := Load(nil, "nil.jsonl"); !errors.Is(err, ErrNotSession) {
			t.Errorf("error %v", err)
		}
	})
	t.Run("binary file", func(t *testing.T) {
		path := filepath.Join("..", "testdata", "bad", "binary.bin")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte{0}) {
			t.Fatal("binary.bin has no NUL bytes")
		}
		_, err = LoadFile(path)
		if !errors.Is(err, ErrNotSession) || !strings.Contains(err.Error(), "binary.bin") {
			t.Errorf("error %v: want ErrNotSession naming the file", err)
		}
	})
	t.Run("directory", func(t *testing.T) {
		dir := t.TempDir()
		_, err := LoadFile(dir)
		if err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "directory") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("missing file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "no-such-session.jsonl")
		_, err := LoadFile(path)
		if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "no-such-session.jsonl") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("reader fails", func(t *testing.T) {
		_, err := Read(io.MultiReader(strings.NewReader(header+"\n"), errReader{}), "pipe-name")
		if err == nil || !strings.Contains(err.Error(), "pipe-name") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("Read is Load", func(t *testing.T) {
		in := jsonl(header, user("a", ""), "{bad", user("b", "a"))
		s, err := Read(bytes.NewReader(in), "-")
		if err != nil {
			t.Fatal(err)
		}
		if s.File != "-" || !reflect.DeepEqual(ids(s.Entries), []string{"a", "b"}) || len(s.Diagnostics) != 1 {
			t.Errorf("file %q ids %v diagnostics %v", s.File, ids(s.Entries), s.Diagnostics)
		}
	})
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestLoadStop: a load whose Stop is closed fails with ErrStopped once it
// has read a chunk of lines, when there are more to read.
func TestLoadStop(t *testing.T) {
	var buf bytes.Buffer
	if err := sessiongen.Generate(&buf, sessiongen.Config{Entries: 2000, Shape: sessiongen.ShapeBranched, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	close(stop)
	if _, err := LoadWith(buf.Bytes(), "big", LoadOptions{Stop: stop}); !errors.Is(err, ErrStopped) {
		t.Errorf("stopped: %v", err)
	}
	if s, err := LoadWith(buf.Bytes(), "big", LoadOptions{Stop: make(chan struct{})}); err != nil || len(s.Entries) != 2000 {
		t.Errorf("not stopped: %v", err)
	}
}
