package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// snapshot records every file under dir (name, mode and bytes), links and
// special files included, so that a test can tell that a refused command
// touched nothing.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		v := fi.Mode().String()
		switch {
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			v += " " + string(b)
		case fi.Mode()&os.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			v += " -> " + l
		}
		m[p] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sameSnapshot(t *testing.T, before, after map[string]string) {
	t.Helper()
	for p, v := range before {
		if after[p] != v {
			t.Errorf("%s changed or went missing", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s was created", p)
		}
	}
}

// TestExportRefusesOutputs: every output path goes through one rule, and
// a refused export exits 1 with one line saying why, having created,
// changed and removed nothing.
func TestExportRefusesOutputs(t *testing.T) {
	dir := t.TempDir()
	session := filepath.Join(dir, "v.jsonl")
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "demo", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(session, data, 0o644))
	must(os.Link(session, filepath.Join(dir, "hard.html")))
	must(os.Symlink("v.jsonl", filepath.Join(dir, "link.html")))
	must(os.Symlink("/proc/self/fd/1", filepath.Join(dir, "fd1.html")))
	must(os.Symlink("elsewhere.html", filepath.Join(dir, "dangling.html")))
	must(syscall.Mkfifo(filepath.Join(dir, "fifo.html"), 0o644))
	must(os.Mkdir(filepath.Join(dir, "d.html"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("my notes\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "report.json"), []byte(`{"mine": true}`), 0o644))
	if code, _, stderr := canopy(t, nil, "export", session, "-o", filepath.Join(dir, "mine.html")); code != exitOK {
		t.Fatalf("export: %s", stderr)
	}
	if code, _, stderr := canopy(t, nil, "export", "--format", "markdown", session, "-o", filepath.Join(dir, "mine.md")); code != exitOK {
		t.Fatalf("export: %s", stderr)
	}
	// A character device of the test's own (a null device, as /dev/null
	// is), so that a regression cannot replace the machine's /dev/null.
	device := filepath.Join(dir, "null")
	if err := syscall.Mknod(device, syscall.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err != nil {
		device = "" // not root: the case is skipped
	}
	in := func(name string) string { return filepath.Join(dir, name) }
	cases := []struct {
		name string
		args []string
		want string // in the message
	}{
		{"report over the input", []string{"export", session, "-o", in("p.html"), "--redact", "--redact-report", session}, "refusing to write over the input"},
		{"page over the input", []string{"export", session, "-o", session}, "refusing to write over the input"},
		{"a hard link to the input", []string{"export", session, "-o", in("hard.html")}, "same file"},
		{"a symlink to the input", []string{"export", session, "-o", in("link.html")}, "symbolic link"},
		{"a symlink to standard output", []string{"export", session, "-o", in("fd1.html")}, "use -o - for standard output"},
		{"a dangling symlink", []string{"export", session, "-o", in("dangling.html")}, "symbolic link"},
		{"a character device", []string{"export", session, "-o", device}, "character device"},
		{"a FIFO", []string{"export", session, "-o", in("fifo.html")}, "named pipe"},
		{"a directory", []string{"export", session, "-o", in("d.html")}, "is a directory"},
		{"a file canopy did not make", []string{"export", session, "-o", in("notes.txt")}, "not a file canopy made"},
		{"a report canopy did not write", []string{"export", session, "-o", in("p.html"), "--redact", "--redact-report", in("report.json")}, "not a file canopy made"},
		{"page and report the same file", []string{"export", session, "-o", in("p.html"), "--redact", "--redact-report", in("p.html")}, "two outputs"},
		{"a missing directory", []string{"export", session, "-o", in("no/such/p.html")}, "cannot write there"},
		{"a page over canopy's Markdown", []string{"export", session, "-o", in("mine.md")}, "is a Markdown export canopy made"},
		{"Markdown over canopy's page", []string{"export", "--format", "markdown", session, "-o", in("mine.html")}, "is an HTML page canopy made"},
		{"page and report one existing page", []string{"export", session, "-o", in("mine.html"), "--redact", "--redact-report", in("mine.html")}, "two outputs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if slices.Contains(c.args, "") {
				t.Skip("making a device node needs root")
			}
			before := snapshot(t, dir)
			code, _, stderr := canopy(t, nil, c.args...)
			if code != exitFail {
				t.Errorf("exit %d, want %d", code, exitFail)
			}
			if !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr %q: want one line saying %q", stderr, c.want)
			}
			sameSnapshot(t, before, snapshot(t, dir))
		})
	}
}

// TestExportReplacesOnlyItsOwn: a page or report canopy wrote, and an
// empty file, may be written again.
func TestExportReplacesOnlyItsOwn(t *testing.T) {
	dir := t.TempDir()
	session := filepath.Join("..", "..", "testdata", "demo", "demo.jsonl")
	page, rep, empty := filepath.Join(dir, "p.html"), filepath.Join(dir, "r.json"), filepath.Join(dir, "empty.html")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		for _, args := range [][]string{
			{"export", session, "-o", page, "--redact", "--redact-report", rep},
			{"export", session, "-o", empty},
		} {
			if code, _, stderr := canopy(t, nil, args...); code != exitOK {
				t.Fatalf("run %d: %v: exit %d\n%s", i, args, code, stderr)
			}
		}
	}
	for _, p := range []string{page, rep, empty} {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("%s: not written (%v)", p, err)
		}
	}
}

// TestInputLimit: input that is not a regular file is held in memory, and
// is read up to --max-input, past which the command fails with exit 1.
func TestInputLimit(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "demo", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		limit string
		code  int
	}{
		{"1K", exitFail}, {"60000", exitFail}, {"1M", exitOK}, {"1MiB", exitOK}, {"2g", exitOK},
	} {
		code, _, stderr := canopy(t, bytes.NewReader(data), "inspect", "-", "--max-input", c.limit)
		if code != c.code {
			t.Errorf("--max-input %s on %d bytes: exit %d, want %d\n%s", c.limit, len(data), code, c.code, stderr)
		}
		if c.code == exitFail && !strings.Contains(stderr, "--max-input raises it") {
			t.Errorf("--max-input %s: %q does not say how to raise the limit", c.limit, stderr)
		}
	}
	for _, bad := range []string{"0", "-1", "lots", "1X", "99999999999T"} {
		if code, _, _ := canopy(t, bytes.NewReader(data), "inspect", "-", "--max-input", bad); code != exitUsage {
			t.Errorf("--max-input %s: exit %d, want %d", bad, code, exitUsage)
		}
	}
}

// TestExportInterrupted: an export whose context is already cancelled
// (a signal during the load) exits 130 and writes nothing.
func TestExportInterrupted(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := run([]string{"export", filepath.Join("..", "..", "testdata", "demo", "demo.jsonl"), "-o", filepath.Join(dir, "p.html")},
		&env{ctx: ctx, stdin: strings.NewReader(""), stdout: &out, stderr: &errb})
	if code != exitInterrupted || !strings.Contains(errb.String(), "interrupted") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

// TestTermSafe: what sessions say reaches a terminal with its control
// characters escaped, and printable text untouched.
func TestTermSafe(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{"café ✓ 日本", "café ✓ 日本"},
		{"tab\there", "tab\there"},
		{"\x1b]0;pwned\x07title", `\x1b]0;pwned\atitle`},
		{"\x1b[2J", `\x1b[2J`},
		{"csi\u009b31m", `csi\u009b31m`},
		{"two\nlines\r", `two\nlines\r`},
		{"del\x7f", `del\x7f`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"rtl\u202egnp.exe", `rtl\u202egnp.exe`},
	} {
		if got := termSafe(c.in); got != c.want {
			t.Errorf("termSafe(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestInspectEscapesSessionText: a session whose name, id, cwd and model
// hold terminal escapes is described without them.
func TestInspectEscapesSessionText(t *testing.T) {
	const esc = "\\u001b]0;owned\\u0007\\u001b[31m"
	session := `{"type":"session","version":3,"id":"s` + esc + `","timestamp":"2026-01-01T00:00:00Z","cwd":"/tmp/` + esc + `"}
{"type":"session_info","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","name":"name` + esc + `"}
{"type":"model_change","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02Z","provider":"p` + esc + `","modelId":"m` + esc + `"}
{"type":"label","id":"a3","parentId":"a2","timestamp":"2026-01-01T00:00:03Z","targetId":"nope` + esc + `","label":"l` + esc + `"}
`
	code, stdout, stderr := canopy(t, strings.NewReader(session), "inspect", "-")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, s := range []string{stdout, stderr} {
		if strings.ContainsAny(s, "\x1b\x07") {
			t.Errorf("control characters reached the terminal:\n%q", s)
		}
	}
	if !strings.Contains(stdout, `name\x1b]0;owned\a`) {
		t.Errorf("the name is not shown escaped:\n%s", stdout)
	}
}

// TestNotASessionMessages: input that is no session gets one line that
// says what it is, exit 1, and no page.
func TestNotASessionMessages(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, data, want string }{
		{"pretty.json", "{\n  \"name\": \"x\",\n  \"items\": [1, 2]\n}\n", "a JSON document of several lines"},
		{"array.json", "[\n  1,\n  2\n]\n", "a JSON document of several lines"},
		{"empty.jsonl", "\n\n", "empty file"},
		{"binary.bin", "\x00\x01\x02garbage", "not a session file"},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		page := filepath.Join(dir, c.name+".html")
		code, _, stderr := canopy(t, nil, "export", p, "-o", page)
		if code != exitFail || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q: want exit 1 and one line saying %q", c.name, code, stderr, c.want)
		}
		if _, err := os.Stat(page); err == nil {
			t.Errorf("%s: a page was written", c.name)
		}
	}
}

// TestExportOutputUsage: an empty -o, and a report to standard output, are
// usage errors rather than a file written somewhere else.
func TestExportOutputUsage(t *testing.T) {
	session := filepath.Join("..", "..", "testdata", "demo", "demo.jsonl")
	for _, args := range [][]string{
		{"export", session, "-o", ""},
		{"export", session, "-o", "-", "--redact", "--redact-report", "-"},
	} {
		if code, _, stderr := canopy(t, nil, args...); code != exitUsage || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want %d and one line", args, code, stderr, exitUsage)
		}
	}
}

// TestExportRefusesTerminal: a page is not written to a terminal, where
// the session's escape sequences would act; Markdown, cleaned of them, is.
func TestExportRefusesTerminal(t *testing.T) {
	tty := openPTY(t)
	session := filepath.Join("..", "..", "testdata", "demo", "demo.jsonl")
	var errb bytes.Buffer
	code := run([]string{"export", session, "-o", "-"}, &env{stdin: strings.NewReader(""), stdout: tty, stderr: &errb})
	if code != exitFail || !strings.Contains(errb.String(), "standard output is a terminal") {
		t.Errorf("HTML to a terminal: exit %d, stderr %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"export", "--format", "markdown", session, "-o", "-", "--limit", "2000"}, &env{stdin: strings.NewReader(""), stdout: tty, stderr: &errb}); code != exitOK {
		t.Errorf("Markdown to a terminal: exit %d, stderr %q", code, errb.String())
	}
}

// openPTY opens the terminal side of a new pseudo-terminal, whose other
// side is drained so that writes do not block; the test is skipped where
// there are none.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlocking a pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("naming a pseudo-terminal: %v", err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening a pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	go io.Copy(io.Discard, ptmx)
	return tty
}
