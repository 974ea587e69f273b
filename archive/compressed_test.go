package archive

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// compressTree replaces every .jsonl file under dir with its .jsonl.gz
// or, every other one, .jsonl.zst.
func compressTree(t *testing.T, dir string) {
	t.Helper()
	z, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	n := 0
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		out, comp := p+".gz", []byte(nil)
		if n%2 == 0 {
			out, comp = p+".zst", z.EncodeAll(data, nil)
		} else {
			var b bytes.Buffer
			w := gzip.NewWriter(&b)
			w.Write(data)
			w.Close()
			comp = b.Bytes()
		}
		if err := os.WriteFile(out, comp, 0o644); err != nil {
			return err
		}
		return os.Remove(p)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestArchiveCompressed: a directory of .jsonl.gz and .jsonl.zst sessions
// is archived as the same directory uncompressed is: the same pages at
// the same names (x.html, not x.jsonl.html), byte for byte but for the
// source's name in the header, the same problems; the manifest records
// each compressed file's own hash, which verify checks.
func TestArchiveCompressed(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, d := range []string{"plain", "comp"} {
		if err := os.CopyFS(filepath.Join(d, "pi"), os.DirFS(filepath.Join(cwdAtStart, "../testdata/archive/pi"))); err != nil {
			t.Fatal(err)
		}
	}
	compressTree(t, filepath.Join("comp", "pi"))
	// And one cut short: a problem, the others archived.
	cut := filepath.Join("comp", "pi", "cut.jsonl.gz")
	if err := os.WriteFile(cut, []byte{0x1f, 0x8b, 8, 0, 0, 0}, 0o644); err != nil {
		t.Fatal(err)
	}
	want := run(t, []string{filepath.Join("plain", "pi")}, "out-plain", Options{})
	got := run(t, []string{filepath.Join("comp", "pi")}, "out-comp", Options{})
	last := len(got.Problems) - 1
	if last < 0 || got.Problems[last].Path != cut || got.Problems[last].Error != "corrupt gzip stream: it ends too soon (truncated)" {
		t.Fatalf("problems %v: want %s last, a corrupt gzip stream", got.Problems, cut)
	}
	got.Problems = got.Problems[:last]
	if got.Sessions != want.Sessions || got.Sessions == 0 || len(got.Problems) != len(want.Problems) {
		t.Fatalf("compressed: %d sessions, problems %v; uncompressed: %d, %v", got.Sessions, got.Problems, want.Sessions, want.Problems)
	}
	for i, p := range got.Problems {
		if !strings.HasPrefix(p.Path, filepath.Join("comp", "pi")) || p.Error != want.Problems[i].Error {
			t.Errorf("problem %v, want %v", p, want.Problems[i])
		}
	}
	wm, gm := manifest(t, "out-plain"), manifest(t, "out-comp")
	for i, s := range gm.Sessions {
		w := wm.Sessions[i]
		if s.Page != w.Page || strings.Contains(s.Page, ".jsonl") {
			t.Errorf("%s: page %s, want %s", s.Source, s.Page, w.Page)
			continue
		}
		plainPage, compPage := mustRead(t, filepath.Join("out-plain", w.Page)), mustRead(t, filepath.Join("out-comp", s.Page))
		name, plainName := filepath.Base(s.Source), filepath.Base(w.Source)
		if n := strings.Count(compPage, name); n != 1 {
			t.Errorf("%s: its name %d times in its page, want once (the header)", name, n)
		}
		if strings.Replace(compPage, "<dd>"+name+" · ", "<dd>"+plainName+" · ", 1) != plainPage {
			t.Errorf("%s: the page differs from %s's beyond the source's name", s.Source, w.Source)
		}
	}
	for _, src := range gm.Sources {
		data := mustReadBytes(t, src.Path)
		sum := sha256.Sum256(data)
		if src.SHA256 != hex.EncodeToString(sum[:]) || src.Size != int64(len(data)) {
			t.Errorf("%s: manifest has %s, %d bytes; the file as stored is %x, %d bytes", src.Path, src.SHA256, src.Size, sum, len(data))
		}
	}
	if f, ok, err := Verify("out-comp"); !ok || err != nil {
		t.Fatalf("verify: %v %v", f, err)
	}
	// The same session compressed again, otherwise: verify sees the
	// source file changed, though what it holds did not.
	var changed string
	for _, s := range gm.Sessions {
		if strings.HasSuffix(s.Source, ".gz") {
			changed = s.Source
			break
		}
	}
	data := mustReadBytes(t, changed)
	r, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	b.ReadFrom(r)
	plain := append([]byte(nil), b.Bytes()...)
	b.Reset()
	w.Write(plain)
	w.Close()
	if err := os.WriteFile(changed, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	f, ok, err := Verify("out-comp")
	if ok || err != nil || len(f) != 1 || f[0].Path != changed || !strings.Contains(f[0].Problem, "source changed") {
		t.Errorf("verify after %s was compressed again: %v %v %v", changed, f, ok, err)
	}
}

// Which names are sessions, and the pages they are named after: a
// compressed transcript as its .jsonl, no other compressed file.
func TestCompressedNames(t *testing.T) {
	for _, c := range []struct {
		name, format, stem string
	}{
		{"a/x.jsonl", FormatJSONL, "a/x"},
		{"a/x.jsonl.gz", FormatJSONL, "a/x"},
		{"a/x.jsonl.zst", FormatJSONL, "a/x"},
		{"a/x.jsonl.GZ", FormatJSONL, "a/x"},
		{"a/x.json.gz", "", ""},
		{"a/sessions.json.gz", "", ""},
		{"a/x.gz", "", ""},
		{"a/x.jsonl.tar.gz", "", ""},
		{"a/x.jsonl.reset.2026-02-02T20-29-47.344Z", FormatJSONL, "a/x.reset.2026-02-02T20-29-47.344Z"},
	} {
		if got := formatByName(c.name); got != c.format {
			t.Errorf("formatByName(%q) = %q, want %q", c.name, got, c.format)
		}
		if c.stem != "" {
			if got := pageStem(c.name); got != c.stem {
				t.Errorf("pageStem(%q) = %q, want %q", c.name, got, c.stem)
			}
		}
	}
}
