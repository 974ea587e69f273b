package outpath

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

const pageHead = `<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="generator" content="canopy 0.1.0"><title>x</title>`

// sandbox makes, in a new temporary directory it moves into, one of each
// kind of thing an output path may name:
//
//	in.jsonl     the input
//	hard         a hard link to it
//	sym          a symbolic link to it
//	fifo         a FIFO
//	dir/         a directory, with sub/ and a file in it
//	dlink        a symbolic link to dir/sub
//	foreign.txt  a file canopy did not make
//	page.html    a page canopy made
//	plink        a symbolic link to the page
//	empty.html   an empty file
//	dangling     a symbolic link to nothing
func sandbox(t testing.TB, chdir func(string)) string {
	t.Helper()
	dir := t.TempDir()
	chdir(dir)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile("in.jsonl", []byte(`{"type":"session","version":3,"id":"x"}`+"\n"), 0o644))
	must(os.Link("in.jsonl", "hard"))
	must(os.Symlink("in.jsonl", "sym"))
	if err := syscall.Mkfifo("fifo", 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	must(os.MkdirAll("dir/sub", 0o755))
	must(os.WriteFile("dir/sub/kept.txt", []byte("kept"), 0o644))
	must(os.Symlink("dir/sub", "dlink"))
	must(os.WriteFile("foreign.txt", []byte("years of work"), 0o644))
	must(os.WriteFile("page.html", []byte(pageHead), 0o644))
	must(os.Symlink("page.html", "plink"))
	must(os.WriteFile("empty.html", nil, 0o644))
	must(os.Symlink("nowhere", "dangling"))
	return dir
}

func TestFile(t *testing.T) {
	sandbox(t, t.Chdir)
	inputs := []string{"in.jsonl"}
	cases := []struct {
		dest string
		ours Ours
		want string // "" for nil
	}{
		{"new.html", PageHead, ""},
		{"dir/new.html", PageHead, ""},
		{"dlink/new.html", PageHead, ""},
		{"nodir/new.html", PageHead, "cannot write there"},
		{"foreign.txt/new.html", PageHead, "not a directory"},
		{"in.jsonl", PageHead, "refusing to write over the input"},
		{"./in.jsonl", PageHead, "refusing to write over the input"},
		{"hard", PageHead, "refusing to write over the input in.jsonl (it is the same file)"},
		{"sym", PageHead, "is a symbolic link"},
		{"plink", PageHead, "is a symbolic link"},
		{"dangling", PageHead, "is a symbolic link"},
		{"fifo", PageHead, "is a named pipe (FIFO), not a regular file"},
		{"dir", PageHead, "is a directory"},
		{"/dev/null", PageHead, "is a character device"},
		{"foreign.txt", PageHead, "is not a file canopy made"},
		{"page.html", PageHead, ""},
		{"page.html", nil, "is not a file canopy made"},
		{"empty.html", nil, ""},
	}
	for _, c := range cases {
		err := File(c.dest, inputs, c.ours)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("File(%q): %v, want nil", c.dest, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("File(%q): %v, want an error saying %q", c.dest, err, c.want)
		}
	}
}

func TestDir(t *testing.T) {
	sandbox(t, t.Chdir)
	cases := []struct {
		dir     string
		sources []string
		want    string // the path returned, or an error's text after "!"
	}{
		{"out", []string{"dir"}, "out"},
		{"new/deeper/out", []string{"dir"}, "new/deeper/out"},
		{"dir", []string{"dir"}, "!is also a source"},
		{"dir/", []string{"./dir"}, "!is also a source"},
		{"dlink", []string{"dir/sub"}, "!is also a source"},
		{"dlink", nil, "dir/sub"},
		{".", []string{"dir"}, "!holds the source dir"},
		{"dir", []string{"dlink"}, "!holds the source dlink"},
		{"dir/sub/out", []string{"dir"}, "!is inside the source dir"},
		{"dlink/out", []string{"dir"}, "!is inside the source dir"},
		{"out", []string{"-", ""}, "out"},
		{"in.jsonl", nil, "!not a directory"},
		{"fifo", nil, "!is a named pipe (FIFO), not a directory"},
		{"sym", nil, "!not a directory"},
		{"dangling", nil, "!does not resolve"},
		{"/", []string{"in.jsonl"}, "!holds the source"},
	}
	for _, c := range cases {
		got, err := Dir(c.dir, c.sources)
		if want, ok := strings.CutPrefix(c.want, "!"); ok {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("Dir(%q, %q) = %q, %v; want an error saying %q", c.dir, c.sources, got, err, want)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Dir(%q, %q) = %q, %v; want %q", c.dir, c.sources, got, err, c.want)
		}
	}
}

// fuzzParts are what a fuzzed path is made of: the sandbox's names, and
// the pieces that make one path look like another.
var fuzzParts = []string{"in.jsonl", "hard", "sym", "fifo", "dir", "sub", "dlink", "foreign.txt", "page.html", "plink", "empty.html", "dangling", "new.html", "..", ".", "/", "//", "kept.txt"}

// FuzzFileAndDir: for any path made of the sandbox's names, File accepts
// only a missing file in an existing directory, or a regular file (not
// a link) that is empty or canopy's and is not the input; Dir never
// accepts a directory that is, holds or lies inside a source. Neither
// panics, nor hangs on the FIFO.
func FuzzFileAndDir(f *testing.F) {
	sandbox(f, f.Chdir)
	for _, seed := range [][]byte{{0}, {1}, {2}, {3}, {4}, {4, 15, 12}, {6, 15, 13}, {4, 15, 5, 15, 13, 15, 4}, {13, 15, 4}, {6, 15, 13, 15, 8}, {14, 16, 4}} {
		f.Add(seed)
	}
	inputs := []string{"in.jsonl"}
	sources := []string{"dir/sub", "in.jsonl"}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || len(b) > 12 {
			return
		}
		var sb strings.Builder
		for i, c := range b {
			p := fuzzParts[int(c)%len(fuzzParts)]
			if i > 0 && p != "/" && p != "//" && !strings.HasSuffix(sb.String(), "/") {
				sb.WriteString("/")
			}
			sb.WriteString(p)
		}
		p := sb.String()

		if err := File(p, inputs, PageHead); err == nil {
			fi, lerr := os.Lstat(p)
			switch {
			case errors.Is(lerr, fs.ErrNotExist):
				if di, err := os.Stat(filepath.Dir(p)); err != nil || !di.IsDir() {
					t.Errorf("File(%q) = nil: missing, and so is its directory", p)
				}
			case lerr != nil:
				t.Errorf("File(%q) = nil, but Lstat: %v", p, lerr)
			case !fi.Mode().IsRegular():
				t.Errorf("File(%q) = nil for %v", p, fi.Mode())
			default:
				if in, _ := os.Stat("in.jsonl"); os.SameFile(fi, in) {
					t.Errorf("File(%q) = nil for the input", p)
				}
				b, _ := os.ReadFile(p)
				if len(b) > 0 && !PageHead(b) {
					t.Errorf("File(%q) = nil for a file canopy did not make", p)
				}
			}
		}

		if got, err := Dir(p, sources); err == nil {
			out := realPath(t, got)
			for _, s := range sources {
				rs := realPath(t, s)
				if out == rs || strings.HasPrefix(out, rs+"/") || strings.HasPrefix(rs, out+"/") || out == "/" {
					t.Errorf("Dir(%q) = %q (%s), with the source %s (%s)", p, got, out, s, rs)
				}
			}
			if fi, err := os.Stat(got); err == nil && !fi.IsDir() {
				t.Errorf("Dir(%q) = %q, which is %v", p, got, fi.Mode())
			}
		}
	})
}

// realPath is p absolute with its links resolved, as far as it exists;
// the rest is appended as it is (cleaned).
func realPath(t *testing.T, p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	rest := ""
	for cur := abs; ; cur = filepath.Dir(cur) {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Clean(r + "/" + rest)
		}
		if filepath.Dir(cur) == cur {
			return abs
		}
		rest = filepath.Base(cur) + "/" + rest
	}
}
