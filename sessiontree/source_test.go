package sessiontree

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// rawOf is e's Raw, as a string; an error fails the test.
func rawOf(t testing.TB, e *Entry) string {
	t.Helper()
	raw, err := e.Raw()
	if err != nil {
		t.Fatalf("entry %s: Raw: %v", e.ID, err)
	}
	return string(raw)
}

// loaded is one way of loading an input, and what it gave.
type loaded struct {
	name string // of the way
	file string // the name the session was loaded under
	s    *Session
	err  error
}

// fileLoads loads data the ways other than Load: from a file (LoadFile),
// and through the file path of the loader in chunks of a few bytes, which
// cuts nearly every line across chunks. Sessions are closed when the test
// ends.
func fileLoads(t testing.TB, data []byte, name string) []loaded {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var out []loaded
	s, err := LoadFile(path)
	out = append(out, loaded{"file", path, s, err})
	for _, n := range []int{1, 7} {
		s, err := load(&source{name: name, file: bytes.NewReader(data)}, n)
		out = append(out, loaded{"chunks of " + string(rune('0'+n)), name, s, err})
	}
	t.Cleanup(func() {
		for _, l := range out {
			if l.s != nil {
				l.s.Close()
			}
		}
	})
	return out
}

// sameSession fails the test unless got and want, two loads of one input,
// are the same session: the same entries with the same bytes, the same
// tree, header and diagnostics.
func sameSession(t testing.TB, got, want *Session) {
	t.Helper()
	eq := func(what string, g, w any) {
		t.Helper()
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s:\n got  %v\n want %v", what, g, w)
		}
	}
	eq("format", got.Format, want.Format)
	eq("version", got.Version, want.Version)
	eq("header", got.Header, want.Header)
	eq("size", got.Size, want.Size)
	eq("SHA-256", got.SHA256, want.SHA256)
	eq("has images", got.HasImages, want.HasImages)
	eq("name", got.Name, want.Name)
	eq("labels", got.Labels, want.Labels)
	eq("diagnostics", got.Diagnostics, want.Diagnostics)
	eq("suppressed", got.Suppressed, want.Suppressed)
	eq("child sessions", got.ChildSessions, want.ChildSessions)
	eq("metadata", string(got.Metadata), string(want.Metadata))
	eq("roots", ids(got.Roots), ids(want.Roots))
	eq("leaf", idOf(got.Leaf), idOf(want.Leaf))
	if len(got.Entries) != len(want.Entries) {
		t.Fatalf("%d entries, want %d", len(got.Entries), len(want.Entries))
	}
	for i, g := range got.Entries {
		w := want.Entries[i]
		eq("entry "+w.ID, entryFields(g), entryFields(w))
		eq("entry "+w.ID+" Raw", rawOf(t, g), rawOf(t, w))
	}
}

// entryFields is an entry without its links (as ids instead) and without
// what tells where its bytes are read from.
func entryFields(e *Entry) any {
	c := *e
	c.src, c.crc = nil, 0
	c.Parent, c.Children, c.Detail, c.Usage = nil, nil, nil, nil
	return []any{c, idOf(e.Parent), ids(e.Children), *e.Detail, e.Usage}
}

// TestLoadFileSameAsLoad loads the test data, and inputs made to be hard
// to cut into chunks, from memory and from files: the sessions must be the
// same, down to the bytes of every entry and the diagnostics.
func TestLoadFileSameAsLoad(t *testing.T) {
	inputs := map[string][]byte{}
	err := filepath.WalkDir(filepath.Join("..", "testdata"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".jsonl") && !strings.HasSuffix(path, ".json") {
			return err
		}
		data, err := os.ReadFile(path)
		if err == nil && len(data) <= 4<<20 {
			inputs[path] = data
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	long := `{"type":"message","id":"img","parentId":"a","timestamp":"` + ts +
		`","message":{"role":"user","content":[{"type":"image","mimeType":"image/png","data":"` +
		strings.Repeat("QUJD", 300_000) + `"}]}}`
	for name, in := range map[string][]byte{
		"BOM, CRLF, blank and bad lines": []byte("\xef\xbb\xbf" + header + "\r\n\r\n  " + user("a", "") + " \t\r\n{bad\r\n" + user("b", "a")),
		"a line longer than a chunk":     jsonl(header, user("a", ""), long, user("b", "img")),
		"a long line, last, no newline":  jsonlNoEOL(header, user("a", ""), long),
		"truncated last line":            jsonlNoEOL(header, user("a", ""), `{"type":"message","id":"b","parentId":"a","mess`),
		"Flue, pretty, with a BOM":       append([]byte("\xef\xbb\xbf"), pretty(t, flueDoc(`"d"`, flueEntries...))...),
		"Flue cut short":                 flueDoc(`"d"`, flueEntries...)[:300],
		"oh-my-pi":                       jsonl(`{"type":"title","title":"T"}`, header, ent("model_change", "m", "", `"model":"p/m"`)),
		"v1":                             jsonl(v1User("one"), v1("compaction", `"summary":"S","firstKeptEntryIndex":1`), v1User("two")),
	} {
		inputs[name] = in
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			want, err := Load(in, "x")
			for _, l := range fileLoads(t, in, "x") {
				if err != nil || l.err != nil {
					// The same error, naming the file.
					if err == nil || l.err == nil || strings.ReplaceAll(l.err.Error(), l.file, "x") != err.Error() {
						t.Errorf("%s: error %v, Load's %v", l.name, l.err, err)
					}
					continue
				}
				t.Run(l.name, func(t *testing.T) { sameSession(t, l.s, want) })
			}
			if err != nil {
				return
			}
			if sum := sha256.Sum256(in); want.SHA256 != sum || want.Size != int64(len(in)) {
				t.Errorf("size %d, SHA-256 %x; want %d, %x", want.Size, want.SHA256, len(in), sum)
			}
			if want.HasImages != bytes.Contains(in, []byte(`"type":"image"`)) {
				t.Errorf("HasImages %v", want.HasImages)
			}
		})
	}
}

// TestLoadFileLongLine: a 40 MB line (a picture) read from a file, by the
// entry and by the source.
func TestLoadFileLongLine(t *testing.T) {
	if testing.Short() {
		t.Skip("40 MB line: skipped with -short")
	}
	const size = 40 << 20
	var b bytes.Buffer
	b.WriteString(header + "\n" + user("a", "") + "\n")
	start := b.Len()
	b.WriteString(`{"type":"message","id":"img","parentId":"a","timestamp":"` + ts +
		`","message":{"role":"user","content":[{"type":"image","mimeType":"image/png","data":"`)
	b.Write(bytes.Repeat([]byte("QUJD"), size/4))
	b.WriteString(`"}]}}`)
	line := string(b.Bytes()[start:])
	b.WriteString("\n" + user("b", "img") + "\n")
	path := filepath.Join(t.TempDir(), "long.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkSession(t, s, &loadCase{ids: []string{"a", "img", "b"}, path: []string{"a", "img", "b"}})
	img := s.Entry("img")
	if rawOf(t, img) != line || img.Line != 3 || !s.HasImages {
		t.Errorf("img: line %d, Raw %d bytes, want %d; HasImages %v", img.Line, len(rawOf(t, img)), len(line), s.HasImages)
	}
	body, err := img.Decode()
	if err != nil || len(body.Message.Content) != 1 || len(body.Message.Content[0].Data) != size {
		t.Fatalf("Decode: %v", err)
	}
	src, err := io.ReadAll(s.SourceReader())
	if err != nil || !bytes.Equal(src, b.Bytes()) {
		t.Errorf("SourceReader: %d bytes, %v", len(src), err)
	}
}

// TestChangedFile changes the file between the load and the reading of
// its entries and source: what was loaded must not be mixed with what is
// there now. Appending is not a change: the bytes loaded are still there.
func TestChangedFile(t *testing.T) {
	orig := jsonl(header, user("a", ""), user("b", "a"), user("c", "b"))
	for _, c := range []struct {
		name    string
		change  func(path string) error
		changed bool
	}{
		{"appended", func(p string) error {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			f.WriteString(user("d", "c") + "\n")
			return f.Close()
		}, false},
		{"truncated", func(p string) error { return os.Truncate(p, int64(len(orig)/2)) }, true},
		{"emptied", func(p string) error { return os.Truncate(p, 0) }, true},
		{"rewritten, same size", func(p string) error {
			return os.WriteFile(p, bytes.ReplaceAll(orig, []byte("hello"), []byte("HELLO")), 0o644)
		}, true},
		{"a byte of the header changed", func(p string) error {
			return os.WriteFile(p, bytes.Replace(orig, []byte("/work"), []byte("/worm"), 1), 0o644)
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "live.jsonl")
			if err := os.WriteFile(path, orig, 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := LoadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := c.change(path); err != nil {
				t.Fatal(err)
			}
			isChanged := func(what string, err error) {
				t.Helper()
				switch {
				case !c.changed && err != nil:
					t.Errorf("%s: %v", what, err)
				case c.changed && (!errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), path)):
					t.Errorf("%s: error %v, want ErrChanged naming %s", what, err, path)
				}
			}
			_, err = io.ReadAll(s.SourceReader())
			isChanged("SourceReader", err)
			_, err = s.ReadSource()
			isChanged("ReadSource", err)
			isChanged("Err", s.Err())
			if !c.changed {
				for _, e := range s.Entries {
					if _, err := e.Decode(); err != nil {
						t.Errorf("%s: Decode: %v", e.ID, err)
					}
				}
				return
			}
			// Entries whose bytes changed fail alone, by name.
			var failed []string
			for _, e := range s.Entries {
				raw, err := e.Raw()
				_, derr := e.Decode()
				if (err == nil) != (derr == nil) {
					t.Errorf("%s: Raw error %v, Decode error %v", e.ID, err, derr)
				}
				if err != nil {
					isChanged("Raw", err)
					failed = append(failed, e.ID)
				} else if !bytes.Contains(orig, raw) {
					t.Errorf("%s: Raw %s is not what was loaded", e.ID, raw)
				}
			}
			if c.name != "a byte of the header changed" && len(failed) == 0 {
				t.Errorf("no entry failed")
			}
		})
	}
}

func TestClose(t *testing.T) {
	in := jsonl(header, user("a", ""))
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, in, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rawOf(t, s.Entries[0]) // its block is kept
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Entries[0].Raw(); !errors.Is(err, os.ErrClosed) || !strings.Contains(err.Error(), path) {
		t.Errorf("Raw after Close: %v", err)
	}
	m, err := Load(in, "mem")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if rawOf(t, m.Entries[0]) != user("a", "") {
		t.Error("a session in memory lost its bytes on Close")
	}
}

// TestReadConcurrently reads a file's entries again from several
// goroutines at once, in orders that share and evict cached blocks.
func TestReadConcurrently(t *testing.T) {
	lines := []string{header}
	for i := range 3000 {
		id, parent := "e"+strconv.Itoa(i), "e"+strconv.Itoa(i-1)
		if i == 0 {
			parent = ""
		}
		lines = append(lines, ent("message", id, parent, `"message":{"role":"user","content":"`+strings.Repeat("x", i%700)+`"}`))
	}
	in := jsonl(lines...)
	want, err := Load(in, "x")
	if err != nil {
		t.Fatal(err)
	}
	got := fileLoads(t, in, "x")[0].s
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range got.Entries {
				// Every entry, in another order: strides prime to 3000.
				i := (k*[]int{1, 7, 11, 13}[w] + w*997) % len(got.Entries)
				g, err := got.Entries[i].Raw()
				if err != nil || string(g) != rawOf(t, want.Entries[i]) {
					t.Errorf("entry %d: %.40q, %v", i, g, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestSessionNotLoaded: a Session made by hand (tests of other packages
// do) has no source, and its methods say so instead of failing.
func TestSessionNotLoaded(t *testing.T) {
	var s Session
	if b, err := io.ReadAll(s.SourceReader()); len(b) != 0 || err != nil {
		t.Errorf("SourceReader: %q, %v", b, err)
	}
	if b, err := s.ReadSource(); len(b) != 0 || err != nil {
		t.Errorf("ReadSource: %q, %v", b, err)
	}
	if s.Err() != nil || s.Close() != nil {
		t.Error("Err or Close")
	}
	var e Entry
	if raw, err := e.Raw(); raw != nil || err != nil {
		t.Errorf("Raw: %q, %v", raw, err)
	}
	if _, err := e.Decode(); err == nil {
		t.Error("Decode of no bytes: no error")
	}
}
