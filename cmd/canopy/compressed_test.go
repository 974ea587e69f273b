package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// compressedCopies writes name.gz and name.zst beside the session at
// name, and returns their paths.
func compressedCopies(t *testing.T, name string) (gz, zst string) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	z, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	gz, zst = name+".gz", name+".zst"
	for p, d := range map[string][]byte{gz: b.Bytes(), zst: z.EncodeAll(data, nil)} {
		if err := os.WriteFile(p, d, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return gz, zst
}

func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// swap replaces old with new in s, and fails unless old is there
// exactly n times.
func swap(t *testing.T, what, s, old, new string, n int) string {
	t.Helper()
	if got := strings.Count(s, old); got != n {
		t.Errorf("%s: %q %d times, want %d", what, old, got, n)
	}
	return strings.ReplaceAll(s, old, new)
}

// TestCompressedSameAsPlain: a session gzipped or zstd'd is exported,
// inspected and scanned as the session itself, byte for byte, but for
// the file's name in the header (the SHA-256 shown is the session's,
// uncompressed: export.Input.loadCompressed says why).
// From a file and from standard input, page and Markdown, redacted or
// not, and a Claude Code session with its subagents beside it.
func TestCompressedSameAsPlain(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "agents"), os.DirFS(filepath.Join("..", "..", "testdata", "claude", "agents"))); err != nil {
		t.Fatal(err)
	}
	secrets, err := os.ReadFile(filepath.Join("..", "..", "testdata", "secrets", "secrets.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secrets.jsonl"), secrets, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, plain := range []string{filepath.Join(dir, "secrets.jsonl"), filepath.Join(dir, "agents", "s1.jsonl")} {
		gz, zst := compressedCopies(t, plain)
		for _, comp := range []string{gz, zst} {
			before := fileSHA256(t, comp)
			compareCompressed(t, plain, comp)
			if fileSHA256(t, comp) != before {
				t.Errorf("%s changed", comp)
			}
		}
	}
}

// compareCompressed runs each command on plain and on comp, its
// compressed copy, and compares what they write.
func compareCompressed(t *testing.T, plain, comp string) {
	t.Helper()
	plainName, compName := filepath.Base(plain), filepath.Base(comp)
	plainSum, compSum := fileSHA256(t, plain), fileSHA256(t, comp)
	out := filepath.Join(t.TempDir(), "out")
	for _, c := range []struct {
		name  string
		stdin bool     // the session on standard input, named "-"
		args  []string // FILE is put first
		file  bool     // the output is -o's file, not standard output
		names int      // the times the output names the session file
		sums  int      // the times it shows its SHA-256
		inDD  bool     // a page: the name is in the header's <dd>
	}{
		{name: "page", args: []string{"export", "-o", out}, file: true, names: 1, sums: 1, inDD: true},
		{name: "page, redacted", args: []string{"export", "--redact", "-o", out}, file: true, names: 1, sums: 1, inDD: true},
		{name: "page, path only", args: []string{"export", "--path-only", "--no-thinking", "-o", out}, file: true, names: 1, sums: 1, inDD: true},
		{name: "page, standard input", stdin: true, args: []string{"export", "-o", out}, file: true, sums: 1},
		{name: "markdown", args: []string{"export", "--format", "markdown", "-o", "-"}, sums: 1},
		{name: "markdown, redacted", args: []string{"export", "--format", "markdown", "--redact", "-o", "-"}, sums: 1},
		{name: "markdown, standard input", stdin: true, args: []string{"export", "--format", "markdown", "-o", "-"}, sums: 1},
		{name: "inspect --json", args: []string{"inspect", "--json"}},
		{name: "inspect", args: []string{"inspect"}, names: 1},
		{name: "inspect, standard input", stdin: true, args: []string{"inspect", "--json"}},
		{name: "scan", args: []string{"scan"}, names: 1},
		{name: "scan --json", args: []string{"scan", "--json"}, names: 1},
		{name: "scan, standard input", stdin: true, args: []string{"scan", "--json"}},
	} {
		var got, errs [2]string
		var codes [2]int
		for i, in := range []string{plain, comp} {
			args := append([]string{c.args[0], in}, c.args[1:]...)
			var stdin []byte
			if c.stdin {
				args[1] = "-"
				stdin, _ = os.ReadFile(in)
			}
			code, stdout, stderr := runCmd(t, "", stdin, args...)
			codes[i], got[i], errs[i] = code, stdout, stderr
			if c.file {
				page, err := os.ReadFile(out)
				if err != nil {
					t.Fatalf("%s of %s: exit %d, %v: %s", c.name, in, code, err, stderr)
				}
				got[i] = string(page)
				os.Remove(out)
			}
		}
		what := c.name + " of " + compName
		g := got[1]
		if c.inDD {
			g = swap(t, what, g, "<dd>"+compName+" · ", "<dd>"+plainName+" · ", c.names)
		} else {
			g = swap(t, what, g, compName, plainName, c.names)
		}
		// The hash shown is the session's, decompressed: the plain
		// file's, never the compressed file's.
		if strings.Contains(g, compSum) {
			t.Errorf("%s: shows the compressed file's SHA-256", what)
		}
		if n := strings.Count(g, plainSum); n != c.sums {
			t.Errorf("%s: the session's SHA-256 %d times, want %d", what, n, c.sums)
		}
		if codes[0] != codes[1] || g != got[0] {
			t.Errorf("%s: exit %d, want %d as for %s; output differs from the plain file's beyond its name:\n%s", what, codes[1], codes[0], plainName, aroundDiff(g, got[0]))
		}
		// Notices name the file given.
		if e := strings.ReplaceAll(errs[1], comp, plain); e != errs[0] {
			t.Errorf("%s: stderr %q, want %q with its name", what, errs[1], errs[0])
		}
	}
}

// aroundDiff shows where a and b first differ.
func aroundDiff(a, b string) string {
	i := firstDiff(a, b)
	from := max(0, i-200)
	return "got:  " + a[from:min(len(a), i+200)] + "\nwant: " + b[from:min(len(b), i+200)]
}

// TestCompressedDefaultName: export old.jsonl.gz writes old.html (old.md),
// as export old.jsonl does.
func TestCompressedDefaultName(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "old.jsonl")
	if err := os.WriteFile(plain, []byte(`{"type":"session","version":3,"id":"s"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gz, zst := compressedCopies(t, plain)
	os.Remove(plain)
	for _, c := range []struct {
		in   string
		args []string
		want string
	}{
		{gz, nil, "old.html"},
		{zst, nil, "old.html"},
		{gz, []string{"--format", "markdown"}, "old.md"},
	} {
		args := append([]string{"export", filepath.Base(c.in)}, c.args...)
		if st, _, errs := runCmd(t, dir, nil, args...); st != exitOK {
			t.Fatalf("%v: exit %d: %s", args, st, errs)
		}
		if _, err := os.Stat(filepath.Join(dir, c.want)); err != nil {
			t.Errorf("%v: %v", args, err)
		}
		os.Remove(filepath.Join(dir, c.want))
	}
}

// TestCompressedErrors: a damaged stream, or one that decompresses to
// more than --max-input, fails with a message naming the file and
// saying what is wrong, writes nothing, and leaves the file alone.
func TestCompressedErrors(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "x.jsonl")
	if err := os.WriteFile(plain, bytes.Repeat([]byte(`{"type":"message","id":"a","message":{"role":"user","content":"hi"}}`+"\n"), 100), 0o644); err != nil {
		t.Fatal(err)
	}
	gz, zst := compressedCopies(t, plain)
	gzData, _ := os.ReadFile(gz)
	zstData, _ := os.ReadFile(zst)
	cut := filepath.Join(dir, "cut.jsonl.gz")
	os.WriteFile(cut, gzData[:len(gzData)-10], 0o644)
	bad := filepath.Join(dir, "bad.jsonl.zst")
	os.WriteFile(bad, append(bytes.Clone(zstData[:len(zstData)/2]), bytes.Repeat([]byte{0xff}, 100)...), 0o644)
	out := filepath.Join(dir, "out.html")
	for _, c := range []struct {
		name  string
		args  []string
		stdin []byte
		want  string
	}{
		{"truncated", []string{"export", cut, "-o", out}, nil, cut + ": corrupt gzip stream: it ends too soon (truncated)"},
		{"damaged", []string{"inspect", bad}, nil, bad + ": corrupt zstd stream: "},
		{"damaged, scan", []string{"scan", bad}, nil, bad + ": corrupt zstd stream: "},
		{"truncated, standard input", []string{"export", "-", "-o", out}, gzData[:len(gzData)-10], "standard input: corrupt gzip stream: it ends too soon (truncated)"},
		{"over the limit", []string{"export", gz, "-o", out, "--max-input", "1K"}, nil, gz + ": more than 1KiB uncompressed, the limit for a gzip session (--max-input raises it)"},
		{"over the limit, zstd", []string{"inspect", zst, "--max-input", "1K"}, nil, zst + ": more than 1KiB uncompressed, the limit for a zstd session (--max-input raises it)"},
		{"over the limit, standard input", []string{"export", "-", "-o", out, "--max-input", "1K"}, gzData, "standard input: more than 1KiB uncompressed, the limit for a gzip session (--max-input raises it)"},
		{"over the limit, scan", []string{"scan", gz, "--max-input", "1K"}, nil, gz + ": more than 1KiB uncompressed"},
	} {
		st, _, errs := runCmd(t, "", c.stdin, c.args...)
		if st != exitFail || !strings.Contains(errs, c.want) || strings.Contains(errs, "JSON") {
			t.Errorf("%s: exit %d, %q; want exit %d and %q", c.name, st, errs, exitFail, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: %s written", c.name, out)
			os.Remove(out)
		}
	}
	// Raised, the limit lets it through.
	if st, _, errs := runCmd(t, "", nil, "export", gz, "-o", out, "--max-input", "1M"); st != exitOK {
		t.Errorf("--max-input 1M: exit %d: %s", st, errs)
	}
	if got, _ := os.ReadFile(gz); !bytes.Equal(got, gzData) {
		t.Errorf("%s changed", gz)
	}
}
