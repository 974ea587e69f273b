package archive

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestArchiveNeverLosesForeignFiles runs the archive a couple of hundred times
// over a random tree of sessions and unrelated files, into OUTDIRs chosen
// anywhere (archives, sources, directories inside or around them, a
// directory with another program's manifest.json, a link, a file),
// moving, deleting, growing and adding sessions and foreign files in
// between. After every run:
//   - no file canopy did not write was removed or changed (every file but
//     those the manifests of the archives it made list);
//   - a refused run changed nothing at all;
//   - no lock file or staging directory is left anywhere;
//   - every session an archive had is still in it (its page, or its
//     source's bytes under another page), unless --prune was asked; and
//     the page of a source that is merely gone is the very page it had;
//   - the archive's pages match its manifest.
func TestArchiveNeverLosesForeignFiles(t *testing.T) {
	steps := 200
	if testing.Short() {
		steps = 60
	}
	w := newForeignWalk(t)
	for step := range steps {
		if a := w.rng.IntN(100); a < 45 {
			w.run(step)
		} else {
			w.change(a, step)
		}
	}
	if w.runs < steps/4 || w.refused == 0 || w.refused == w.runs || w.checked < w.runs/5 {
		t.Errorf("%d runs, %d refused, %d over an archive: the walk tests too little", w.runs, w.refused, w.checked)
	}
	t.Logf("%d steps, %d runs, %d refused, %d over an archive, %d archives", steps, w.runs, w.refused, w.checked, len(w.archives))
}

// foreignWalk is the state of TestArchiveNeverLosesForeignFiles's walk.
type foreignWalk struct {
	t        *testing.T
	rng      *rand.Rand
	root     string
	pool     []poolFile      // the sessions copied in
	srcDirs  []string        // source directories
	ghosts   []string        // source directories moved away
	archives map[string]bool // directories a run made an archive of (absolute)
	added    []string        // foreign files put into archives, to take out again
	outs     []string        // OUTDIRs to try

	runs, refused, checked int
	cache                  map[fileID]string
}

type poolFile struct {
	name string
	data []byte
}

// newForeignWalk moves into a new directory and lays out the walk's
// first tree: sources, foreign files, a directory with another program's
// manifest.json, links.
func newForeignWalk(t *testing.T) *foreignWalk {
	w := &foreignWalk{t: t, rng: rand.New(rand.NewPCG(20261125, 7)), root: t.TempDir(),
		srcDirs: []string{"s1", "s2", "s3"}, archives: map[string]bool{}, cache: map[fileID]string{},
		outs: []string{"out1", "out1", "out1", "out2", "out2", "foreign", "empty", "s1", "s2/notes", ".", "out1/sessions", "linkout", "np/x/out", "file.txt", "s3/flue"}}
	t.Chdir(w.root)
	// The pool of sessions copied in: the archive fixtures and the
	// conformance cases.
	for _, pattern := range []string{"../testdata/conformance/s*/*.jsonl", "../testdata/archive/flue/session-*.json", "../testdata/archive/pi/*/*.jsonl"} {
		ms, _ := filepath.Glob(filepath.Join(cwdAtStart, pattern))
		for _, m := range ms {
			w.pool = append(w.pool, poolFile{filepath.Base(m), mustReadBytes(t, m)})
		}
	}
	if len(w.pool) < 30 {
		t.Fatalf("pool of %d sessions", len(w.pool))
	}
	copyDir := func(from, to string) {
		if err := os.CopyFS(to, os.DirFS(filepath.Join(cwdAtStart, from))); err != nil {
			t.Fatal(err)
		}
	}
	copyDir("../testdata/archive/pi", "s1")
	copyDir("../testdata/archive/flue", "s3/flue")
	copyDir("../testdata/archive/gateway", "s3/gateway")
	for i := range 10 {
		f := w.pool[i]
		write(t, filepath.Join("s2", fmt.Sprintf("--proj-%c--", 'a'+i%2), f.name), string(f.data))
	}
	write(t, "s1/README.md", "my notes on these sessions\n")
	write(t, "s2/notes/todo.txt", "review\n")
	write(t, "s2/settings.json", `{"theme":"dark"}`)
	write(t, "foreign/manifest.json", `{"manifest_version":3}`)
	write(t, "foreign/src/a.js", "x\n")
	write(t, "file.txt", "a file\n")
	os.Mkdir("empty", 0o755)
	os.Symlink("s1", "slink")
	os.Symlink("out2", "linkout") // dangles until out2 is made
	return w
}

func (w *foreignWalk) sessionFiles() []string {
	var out []string
	for _, d := range w.srcDirs {
		filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err == nil && e.Type().IsRegular() && (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json")) && !strings.HasSuffix(p, "settings.json") {
				out = append(out, p)
			}
			return nil
		})
	}
	return out
}

func (w *foreignWalk) pick(ss []string) string { return ss[w.rng.IntN(len(ss))] }

// owned lists what canopy wrote: the files the manifests of its archives
// list.
func (w *foreignWalk) owned() map[string]bool {
	out := map[string]bool{}
	for d := range w.archives {
		m, err := readManifest(d)
		if err != nil || m == nil {
			w.t.Fatalf("archive %s: manifest: %v", d, err)
		}
		out[filepath.Join(d, ManifestName)] = true
		for _, p := range m.Pages {
			out[filepath.Join(d, filepath.FromSlash(p.Path))] = true
		}
	}
	return out
}

// sources picks the SRCs of a run.
func (w *foreignWalk) sources() []string {
	var srcs []string
	for _, d := range w.srcDirs {
		if w.rng.IntN(4) > 0 {
			srcs = append(srcs, d)
		}
	}
	if len(w.ghosts) > 0 && w.rng.IntN(3) == 0 {
		srcs = append(srcs, w.pick(w.ghosts)) // a SRC that was moved away
	}
	if w.rng.IntN(6) == 0 {
		srcs = append(srcs, "slink")
	}
	if fs := w.sessionFiles(); len(fs) > 0 && w.rng.IntN(6) == 0 {
		srcs = append(srcs, w.pick(fs))
	}
	if len(srcs) == 0 {
		srcs = []string{"s1"}
	}
	for i := range srcs {
		if w.rng.IntN(3) == 0 {
			srcs[i] = filepath.Join(w.root, srcs[i])
		}
	}
	return srcs
}

// run makes an archive somewhere, and checks what it did.
func (w *foreignWalk) run(step int) {
	t := w.t
	w.runs++
	srcs := w.sources()
	out := w.pick(w.outs)
	o := Options{Version: "test", Jobs: 1 + w.rng.IntN(2), Prune: w.rng.IntN(8) == 0}

	own := w.owned()
	before := snapshotCached(t, w.root, w.cache)
	var prev *Manifest
	if abs, err := filepath.EvalSymlinks(out); err == nil {
		if abs, err = filepath.Abs(abs); err == nil && w.archives[abs] {
			prev, _ = readManifest(abs)
		}
	}
	res, err := Run(context.Background(), srcs, out, o)
	after := snapshotCached(t, w.root, w.cache)
	checkNoLeftovers(t, step, w.root)
	if err != nil {
		w.refused++
		sameTree(t, fmt.Sprintf("step %d: refused run %v -o %s (%v)", step, srcs, out, err), before, after)
		return
	}
	if res.Leftover != "" {
		t.Errorf("step %d: files moved aside to %s", step, res.Leftover)
	}
	abs, err := filepath.EvalSymlinks(out)
	if err != nil {
		t.Fatal(err)
	}
	if abs, err = filepath.Abs(abs); err != nil {
		t.Fatal(err)
	}
	w.archives[abs] = true
	what := fmt.Sprintf("step %d: run %v -o %s", step, srcs, out)
	for p, b := range before {
		if own[p] || b.mode.IsDir() {
			continue
		}
		if a, ok := after[p]; !ok || a.data != b.data || a.target != b.target || a.mode != b.mode {
			t.Errorf("%s removed or changed %s, which canopy did not write", what, p)
		}
	}
	m := manifest(t, abs)
	if prev != nil {
		w.checked++
	}
	if prev != nil && !o.Prune {
		checkNothingLost(t, step, what, abs, prev, m, before, after)
	}
	findings, _, err := Verify(abs)
	if err != nil {
		t.Fatalf("step %d: Verify: %v", step, err)
	}
	for _, f := range findings {
		if f.Fatal && !strings.HasPrefix(f.Problem, "source") {
			t.Errorf("step %d: Verify: %s: %s", step, f.Path, f.Problem)
		}
	}
}

// checkNothingLost checks that every session the previous archive in abs
// had (prev) is still in it (m): its page, or its source's bytes under
// another page; and that the page of a source that is gone is the very
// page it had, marked stale.
func checkNothingLost(t *testing.T, step int, what, abs string, prev, m *Manifest, before, after map[string]entry) {
	t.Helper()
	pages := map[string]PageRecord{}
	for _, p := range m.Pages {
		pages[p.Path] = p
	}
	shas := map[string]bool{}
	for _, s := range m.Sources {
		if s.Page != "" && pages[s.Page].Stale == "" {
			shas[s.SHA256] = true
		}
	}
	prevSHA := map[string]string{}
	for _, s := range prev.Sources {
		prevSHA[s.Path] = s.SHA256
	}
	for _, s := range prev.Sessions {
		if _, ok := pages[s.Page]; ok {
			if _, err := os.Lstat(s.Source); err != nil && pages[s.Page].Stale == "" && !shas[prevSHA[s.Source]] {
				t.Errorf("step %d: %s is gone, and its page %s is not marked stale", step, s.Source, s.Page)
			}
			if _, err := os.Lstat(s.Source); err != nil && pages[s.Page].Stale != "" {
				old := before[filepath.Join(abs, filepath.FromSlash(s.Page))]
				if now := after[filepath.Join(abs, filepath.FromSlash(s.Page))]; now.data != old.data {
					t.Errorf("step %d: the stale page %s is not the one the previous run made", step, s.Page)
				}
			}
			continue
		}
		if !shas[prevSHA[s.Source]] {
			t.Errorf("%s lost %s (page %s)", what, s.Source, s.Page)
		}
	}
}

// change changes the tree between runs, as a (0 to 99, at least 45)
// picks: sessions grow, go, move or come; source directories move away
// and back; foreign files appear in archives and go again.
func (w *foreignWalk) change(a, step int) {
	t := w.t
	switch {
	case a < 55: // a session grows
		if fs := w.sessionFiles(); len(fs) > 0 {
			appendTo(t, w.pick(fs), fmt.Sprintf(`{"type":"session_info","id":"step%d","parentId":null,"timestamp":"2026-06-01T00:00:00.000Z","name":"step %d"}`+"\n", step, step))
		}
	case a < 62: // a session is deleted
		if fs := w.sessionFiles(); len(fs) > 0 {
			os.Remove(w.pick(fs))
		}
	case a < 69: // a session moves to another source directory
		if fs := w.sessionFiles(); len(fs) > 0 {
			to := filepath.Join(w.pick(w.srcDirs), fmt.Sprintf("moved-%d", step))
			os.MkdirAll(to, 0o755)
			p := w.pick(fs)
			os.Rename(p, filepath.Join(to, filepath.Base(p)))
		}
	case a < 72: // a whole source directory moves, or comes back
		w.moveSource()
	case a < 82: // a session is added
		f := w.pool[w.rng.IntN(len(w.pool))]
		write(t, filepath.Join(w.pick(w.srcDirs), fmt.Sprintf("--new-%d--", w.rng.IntN(3)), fmt.Sprintf("%d-%s", step, f.name)), string(f.data))
	case a < 91: // a foreign file appears somewhere
		dirs := append([]string{".", "foreign", "empty"}, w.srcDirs...)
		for d := range w.archives {
			dirs = append(dirs, d, filepath.Join(d, "sessions"))
		}
		p := filepath.Join(w.pick(dirs), fmt.Sprintf("mine-%d.txt", step))
		write(t, p, fmt.Sprintf("written by hand at step %d\n", step))
		for d := range w.archives {
			if strings.HasPrefix(p, d+string(filepath.Separator)) {
				w.added = append(w.added, p)
			}
		}
	default: // a foreign file is taken out of an archive again
		if len(w.added) > 0 {
			i := w.rng.IntN(len(w.added))
			os.Remove(w.added[i])
			w.added = slices.Delete(w.added, i, i+1)
		}
	}
}

// moveSource moves the last source directory moved away back, or moves
// one away.
func (w *foreignWalk) moveSource() {
	if len(w.ghosts) > 0 && w.rng.IntN(2) == 0 {
		g := w.ghosts[len(w.ghosts)-1]
		from := g + ".away"
		if os.Rename(from, g) == nil {
			w.ghosts = w.ghosts[:len(w.ghosts)-1]
			w.srcDirs = append(w.srcDirs, g)
		}
	} else if len(w.srcDirs) > 1 {
		i := w.rng.IntN(len(w.srcDirs))
		d := w.srcDirs[i]
		if os.Rename(d, d+".away") == nil {
			w.srcDirs = slices.Delete(w.srcDirs, i, i+1)
			w.ghosts = append(w.ghosts, d)
		}
	}
}

// checkNoLeftovers fails the test for any lock file, staging directory
// or aside copy anywhere under root.
func checkNoLeftovers(t *testing.T, step int, root string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".canopy-") {
			t.Errorf("step %d: %s left behind", step, p)
		}
		return nil
	})
}
