package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"canopy/sessiontree"
)

// canopy runs the command line with buffers for its streams.
func canopy(t *testing.T, stdin io.Reader, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var out, errb bytes.Buffer
	code = run(args, &env{stdin: stdin, stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

// conformanceSessions returns the session file of every conformance case.
func conformanceSessions(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "conformance", "s*", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance sessions (%v)", err)
	}
	return files
}

// reportFields are the inspect --json fields that expect.json also has.
type reportFields struct {
	LeafID        *string             `json:"leafId"`
	ActivePath    []string            `json:"activePath"`
	Labels        map[string]string   `json:"labels"`
	SessionName   *string             `json:"sessionName"`
	Roots         []string            `json:"roots"`
	Children      map[string][]string `json:"children"`
	Context       []map[string]string `json:"context"`
	Model         *map[string]string  `json:"model"`
	ThinkingLevel string              `json:"thinkingLevel"`
	EntryCount    int                 `json:"entryCount"`
}

func inspectJSON(t *testing.T, args ...string) (sessiontree.Report, string) {
	t.Helper()
	code, out, errs := canopy(t, nil, append([]string{"inspect", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("inspect %v: exit %d\n%s", args, code, errs)
	}
	var r sessiontree.Report
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("inspect --json output does not decode: %v\n%s", err, out)
	}
	return r, out
}

func TestHelpAndVersion(t *testing.T) {
	for _, arg := range []string{"--help", "-h", "help"} {
		code, out, errs := canopy(t, nil, arg)
		if code != exitOK || errs != "" {
			t.Errorf("%s: exit %d, stderr %q", arg, code, errs)
		}
		for _, want := range []string{"inspect", "export", "Usage:"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: output lacks %q:\n%s", arg, want, out)
			}
		}
	}
	for _, arg := range []string{"--version", "-v", "version"} {
		code, out, _ := canopy(t, nil, arg)
		if code != exitOK || out != "canopy "+version+"\n" {
			t.Errorf("%s: exit %d, output %q", arg, code, out)
		}
	}
	code, out, errs := canopy(t, nil, "inspect", "--help")
	if code != exitOK || !strings.Contains(out, "--leaf") || !strings.Contains(out, "--json") || errs != "" {
		t.Errorf("inspect --help: exit %d\n%s%s", code, out, errs)
	}
}

func TestUsageErrors(t *testing.T) {
	session := conformanceSessions(t)[0]
	for _, c := range []struct {
		args []string
		want string // in stderr
	}{
		{nil, "Usage:"},
		{[]string{"--bogus"}, "unknown flag --bogus"},
		{[]string{"-x"}, "unknown flag -x"},
		{[]string{"inspect"}, "want one FILE"},
		{[]string{"inspect", session, session}, "want one FILE"},
		{[]string{"inspect", "--bogus", session}, "unknown flag"},
		{[]string{"inspect", "--leaf"}, "flag needs an argument"},
	} {
		code, out, errs := canopy(t, nil, c.args...)
		if code != exitUsage || !strings.Contains(errs, c.want) || out != "" {
			t.Errorf("%q: exit %d (want %d), stdout %q, stderr %q (want %q)", c.args, code, exitUsage, out, errs, c.want)
		}
	}
}

func TestInspectFailures(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-session.jsonl")
	notSession := filepath.Join(dir, "binary.bin")
	if err := os.WriteFile(notSession, []byte("\x00\x01\x02garbage\n\xff"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want []string // in stderr
	}{
		{"missing file", []string{"inspect", missing}, []string{missing}},
		{"directory", []string{"inspect", dir}, []string{dir, "directory"}},
		{"not a session", []string{"inspect", "--json", notSession}, []string{notSession, "not a session file"}},
		{"unknown --leaf", []string{"inspect", "--leaf", "no-such-id", conformanceSessions(t)[0]}, []string{`no entry with id "no-such-id"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := canopy(t, nil, c.args...)
			if code != exitFail || out != "" {
				t.Errorf("exit %d (want %d), stdout %q", code, exitFail, out)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q lacks %q", errs, w)
				}
			}
		})
	}
}

func TestInspectJSONMatchesConformance(t *testing.T) {
	for _, session := range conformanceSessions(t) {
		t.Run(filepath.Base(filepath.Dir(session)), func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(filepath.Dir(session), "expect.json"))
			if err != nil {
				t.Fatal(err)
			}
			var want, got reportFields
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			_, out := inspectJSON(t, session)
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if want.Labels == nil {
				want.Labels = map[string]string{}
			}
			if !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				t.Errorf("inspect --json differs from expect.json:\n got  %.800s\n want %.800s", g, w)
			}
		})
	}
}

func TestInspectLeaf(t *testing.T) {
	session := conformanceSessions(t)[0]
	r, _ := inspectJSON(t, session)
	if len(r.ActivePath) < 3 {
		t.Fatalf("active path too short: %v", r.ActivePath)
	}
	// An entry on the active path: the path stops there.
	mid := r.ActivePath[len(r.ActivePath)/2]
	rm, _ := inspectJSON(t, "--leaf", mid, session)
	if rm.LeafID == nil || *rm.LeafID != mid || !slices.Equal(rm.ActivePath, r.ActivePath[:len(r.ActivePath)/2+1]) {
		t.Errorf("--leaf %s: leaf %v, path %v", mid, rm.LeafID, rm.ActivePath)
	}
	// An entry off the active path: the path ends there instead.
	on := map[string]bool{}
	for _, id := range r.ActivePath {
		on[id] = true
	}
	off := ""
	for _, kids := range r.Children {
		for _, k := range kids {
			if !on[k] {
				off = k
			}
		}
	}
	if off == "" {
		t.Fatal("no entry off the active path")
	}
	ro, _ := inspectJSON(t, "--leaf="+off, session)
	if n := len(ro.ActivePath); n == 0 || ro.ActivePath[n-1] != off || *ro.LeafID != off {
		t.Errorf("--leaf %s: path %v", off, ro.ActivePath)
	}
	if ro.EntryCount != r.EntryCount || !reflect.DeepEqual(ro.Roots, r.Roots) {
		t.Errorf("--leaf changed the tree")
	}
}

func TestInspectStdin(t *testing.T) {
	session := conformanceSessions(t)[1]
	data, err := os.ReadFile(session)
	if err != nil {
		t.Fatal(err)
	}
	fromFile, _ := inspectJSON(t, session)
	code, out, errs := canopy(t, bytes.NewReader(data), "inspect", "--json", "-")
	if code != exitOK {
		t.Fatalf("inspect -: exit %d: %s", code, errs)
	}
	var fromStdin sessiontree.Report
	if err := json.Unmarshal([]byte(out), &fromStdin); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromStdin, fromFile) {
		t.Errorf("stdin and file reports differ")
	}
	code, out, _ = canopy(t, bytes.NewReader(data), "inspect", "-")
	if code != exitOK || !strings.Contains(out, "file:          -\n") {
		t.Errorf("inspect - (human): exit %d\n%s", code, out)
	}
}

var diagLine = regexp.MustCompile(`^(.+):(\d+): (error|warning): (.+)$`)

func TestInspectDiagnostics(t *testing.T) {
	bad := filepath.Join("..", "..", "testdata", "bad", "malformed-line.jsonl")
	data, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, file string
		stdin      io.Reader
		args       []string
	}{
		{"file, human", bad, nil, []string{"inspect", bad}},
		{"file, json", bad, nil, []string{"inspect", "--json", bad}},
		{"stdin", "-", bytes.NewReader(data), []string{"inspect", "-"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := canopy(t, c.stdin, c.args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
			if len(lines) != 1 {
				t.Fatalf("want one diagnostic, stderr:\n%s", errs)
			}
			m := diagLine.FindStringSubmatch(lines[0])
			if m == nil || m[1] != c.file || m[2] != "3" || m[3] != "error" || !strings.Contains(m[4], "malformed JSON") {
				t.Errorf("diagnostic %q: want %s:3: error: ...malformed JSON...", lines[0], c.file)
			}
			if strings.Contains(out, ": error: ") {
				t.Errorf("diagnostic on stdout:\n%s", out)
			}
		})
	}
	// Warnings without a line have the form FILE: warning: message.
	dir := t.TempDir()
	noHeader := filepath.Join(dir, "no-header.jsonl")
	os.WriteFile(noHeader, []byte(`{"type":"message","id":"a","parentId":null,"timestamp":"2026-03-01T09:00:00.000Z","message":{"role":"user","content":"x"}}`+"\n"), 0o644)
	_, _, errs := canopy(t, nil, "inspect", noHeader)
	if want := noHeader + ": warning: no session header"; !strings.HasPrefix(errs, want) {
		t.Errorf("stderr %q, want prefix %q", errs, want)
	}
	// The JSON report carries the diagnostics too.
	r, _ := inspectJSON(t, bad)
	if len(r.Diagnostics) != 1 || r.Diagnostics[0].Line != 3 || r.Diagnostics[0].Severity != "error" {
		t.Errorf("report diagnostics %+v", r.Diagnostics)
	}
}

// A number too big for a float64 must not make the JSON report fail.
func TestInspectAbsurdNumbers(t *testing.T) {
	f := filepath.Join(t.TempDir(), "inf.jsonl")
	os.WriteFile(f, []byte(`{"type":"session","version":3,"id":"s"}`+"\n"+
		`{"type":"message","id":"a","parentId":null,"message":{"role":"assistant","usage":{"input":1e999,"output":1e308,"cost":{"total":1.7e308}}}}`+"\n"+
		`{"type":"message","id":"b","parentId":"a","message":{"role":"assistant","usage":{"output":1e308,"cost":{"total":1.7e308}}}}`+"\n"), 0o644)
	r, _ := inspectJSON(t, f)
	if len(r.ActivePath) != 2 {
		t.Errorf("path %v", r.ActivePath)
	}
	if code, out, errs := canopy(t, nil, "inspect", f); code != exitOK || strings.Contains(out, "Inf") {
		t.Errorf("exit %d: %s%s", code, out, errs)
	}
}

func TestInspectHuman(t *testing.T) {
	session := conformanceSessions(t)[0]
	code, out, errs := canopy(t, nil, "inspect", session)
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"file:          " + session, "format:        pi, version 3", "leaf:          200954c7",
		"entries:       76", "labels:        1", "  fc060980  try-2", "thinking high", "path usage:", "tree usage:", "diagnostics:   0"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestInspectLeavesInputAlone runs every inspect form on copies of session
// files and checks that their bytes, mode and mtime are unchanged and that
// nothing was written beside them. The reference rewrote files it read.
func TestInspectLeavesInputAlone(t *testing.T) {
	dir := t.TempDir()
	sources := append(conformanceSessions(t)[:3],
		filepath.Join("..", "..", "testdata", "bad", "malformed-line.jsonl"),
		filepath.Join("..", "..", "testdata", "bad", "truncated-last-line.jsonl"),
		filepath.Join("..", "..", "testdata", "bad", "cycles.jsonl"))
	// A legacy v1 file: the reference migrated it in place.
	legacy := filepath.Join(dir, "legacy-v1.jsonl")
	os.WriteFile(legacy, []byte(`{"type":"session","id":"x","timestamp":"2026-03-01T09:00:00.000Z","cwd":"/w"}`+"\n"+
		`{"type":"message","timestamp":"2026-03-01T09:00:01.000Z","message":{"role":"user","content":"hi"}}`+"\n"+
		`{"type":"compaction","timestamp":"2026-03-01T09:00:02.000Z","summary":"S","firstKeptEntryIndex":1,"tokensBefore":5}`+"\n"), 0o644)
	files := []string{legacy}
	for _, src := range sources {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.Base(src))
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, dst)
	}
	past := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	type state struct {
		data  []byte
		mode  os.FileMode
		mtime time.Time
	}
	before := map[string]state{}
	for _, f := range files {
		if err := os.Chtimes(f, past, past); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(f)
		fi, _ := os.Stat(f)
		before[f] = state{data, fi.Mode(), fi.ModTime()}
	}
	for _, f := range files {
		first := ""
		if r, _ := inspectJSON(t, f); len(r.ActivePath) > 0 {
			first = r.ActivePath[0]
		}
		runs := [][]string{{"inspect", f}, {"inspect", "--json", f}}
		if first != "" {
			runs = append(runs, []string{"inspect", "--leaf", first, f}, []string{"inspect", "--json", "--leaf", first, f})
		}
		for _, args := range runs {
			if code, _, errs := canopy(t, nil, args...); code != exitOK {
				t.Errorf("%v: exit %d: %s", args, code, errs)
			}
		}
		data, _ := os.Open(f)
		canopy(t, data, "inspect", "-")
		data.Close()
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(f)
		b := before[f]
		if !bytes.Equal(data, b.data) || fi.Mode() != b.mode || !fi.ModTime().Equal(b.mtime) {
			t.Errorf("%s changed: %d bytes (was %d), mode %v (was %v), mtime %v (was %v)",
				filepath.Base(f), len(data), len(b.data), fi.Mode(), b.mode, fi.ModTime(), b.mtime)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(files) {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("files appeared beside the inputs: %v", names)
	}
}
