package archive

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestArchiveIncremental(t *testing.T) {
	srcs, _ := fixtures(t)
	run(t, srcs, "out", Options{})
	before := manifest(t, "out")
	stat := map[string]os.FileInfo{}
	content := tree(t, "out")
	for _, p := range before.Pages {
		fi, err := os.Stat(filepath.Join("out", p.Path))
		if err != nil {
			t.Fatal(err)
		}
		stat[p.Path] = fi
	}

	// Nothing changed: nothing is rendered, and every file is the same.
	res := run(t, srcs, "out", Options{})
	if res.Rendered != 0 || res.Kept != 8 || res.Removed != 0 {
		t.Errorf("no-change re-run: %+v", res)
	}

	// One session grows, one unrelated session is deleted. The deleted
	// one's page is kept, stale: a source that is gone may be back (a
	// moved directory, an unmounted disk), and the page is all the
	// archive has of it.
	legacy := "src/pi/--home-ada-blog--/2026-04-01T08-00-00-000Z_legacy.jsonl"
	legacyPage := "out/sessions/pi/--home-ada-blog--/2026-04-01T08-00-00-000Z_legacy.html"
	if err := os.Remove(legacy); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile("src/gateway/agents/main/sessions/"+gwCron, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"message","id":"c3","parentId":"c2","timestamp":"2026-05-07T02:00:00.000Z","message":{"role":"user","content":"and today?","timestamp":0}}` + "\n")
	f.Close()
	res = run(t, srcs, "out", Options{})
	if res.Rendered != 1 || res.Kept != 6 || res.Removed != 0 || len(res.Stale) != 1 || !res.Incomplete() {
		t.Errorf("re-run after one change and one deletion: rendered %d kept %d removed %d stale %+v; want 1, 6, 0 and the deleted one", res.Rendered, res.Kept, res.Removed, res.Stale)
	} else if s := res.Stale[0]; s.Source != legacy || !strings.HasPrefix(s.Reason, "source missing: ") {
		t.Errorf("stale = %+v", s)
	}
	checkKeptPages(t, manifest(t, "out"), stat, content)
	if got := mustReadBytes(t, legacyPage); !bytes.Equal(got, content[strings.TrimPrefix(filepath.FromSlash(legacyPage), "out/")]) {
		t.Error("the deleted session's page is not the one the previous run made")
	}
	if index := mustRead(t, "out/index.html"); !strings.Contains(index, "stale: the page is from an earlier run; source missing: "+legacy) {
		t.Error("the index does not mark the deleted session's page stale")
	}
	if _, ok, _ := Verify("out"); !ok {
		t.Error("Verify fails after the incremental run")
	}
	// --prune: the page of a source that is gone is removed.
	res = run(t, srcs, "out", Options{Prune: true})
	if res.Removed != 1 || len(res.Stale) != 0 || res.Incomplete() {
		t.Errorf("--prune: removed %d, stale %+v; want 1 and none", res.Removed, res.Stale)
	}
	if _, err := os.Stat(legacyPage); !os.IsNotExist(err) {
		t.Errorf("--prune: the deleted session's page is still there: %v", err)
	}
	after := manifest(t, "out")

	// A page tampered with in the archive is made again, not kept.
	var target string // a session's page
	for _, p := range after.Pages {
		if strings.HasPrefix(p.Path, "sessions/") {
			target = filepath.Join("out", p.Path)
		}
	}
	if err := os.WriteFile(target, []byte("tampered"), 0o644); err != nil {
		t.Fatal(err)
	}
	res = run(t, srcs, "out", Options{})
	if res.Rendered != 1 {
		t.Errorf("re-run after tampering: rendered %d, want 1", res.Rendered)
	}

	// A new fork relates to its parent: both pages are made again.
	fork := strings.Replace(mustRead(t, "src/pi/--home-ada-shop--/"+piFork), "0196a000-0000-7000-8000-000000000002", "0196a000-0000-7000-8000-000000000003", 1)
	if err := os.WriteFile("src/pi/--home-ada-shop--/2026-05-03T09-00-00-000Z_0196a000-0000-7000-8000-000000000003.jsonl", []byte(fork), 0o644); err != nil {
		t.Fatal(err)
	}
	res = run(t, srcs, "out", Options{})
	if res.Rendered != 2 {
		t.Errorf("re-run after a new fork: rendered %d, want 2 (the fork and its parent)", res.Rendered)
	}
}

// checkKeptPages checks the pages of the archive in out (its manifest m)
// against the files (stat) and their content before a run that made
// again only the page of gwCron and the index: kept pages are the same
// files (linked, not rewritten); the others have new content. (Inode
// numbers may be reused, so a rewritten file is told by its content.)
func checkKeptPages(t *testing.T, m *Manifest, stat map[string]os.FileInfo, content map[string][]byte) {
	t.Helper()
	for _, p := range m.Pages {
		if inSearch(p.Path) {
			continue // the search index's: see TestSearchIncremental
		}
		fi, err := os.Stat(filepath.Join("out", p.Path))
		if err != nil {
			t.Fatal(err)
		}
		if p.Path == UsageName {
			continue // written anew by every run, as the index is
		}
		if strings.HasSuffix(p.Source, gwCron) || p.Path == "index.html" {
			if bytes.Equal(content[filepath.FromSlash(p.Path)], mustReadBytes(t, filepath.Join("out", p.Path))) {
				t.Errorf("%s: unchanged, want it made again", p.Path)
			}
		} else if old, ok := stat[p.Path]; !ok || !os.SameFile(old, fi) {
			t.Errorf("%s: not the same file as before", p.Path)
		}
	}
}

func TestVerifyFindsTampering(t *testing.T) {
	srcs, _ := fixtures(t)
	run(t, srcs, "out", Options{})
	m := manifest(t, "out")
	cases := []struct {
		name    string
		do      func()
		problem string
	}{
		{"changed page", func() { appendTo(t, filepath.Join("out", m.Pages[1].Path), "<script>x</script>") }, "changed"},
		{"missing page", func() { os.Remove(filepath.Join("out", m.Pages[2].Path)) }, "missing"},
		{"extra file", func() { os.WriteFile("out/sessions/extra.html", []byte("x"), 0o644) }, "unexpected"},
		{"changed index", func() { appendTo(t, "out/index.html", " ") }, "changed"},
		{"changed source", func() { appendTo(t, "src/pi/--home-ada-shop--/"+piParent, "\n") }, "source changed"},
		{"manifest pointing outside", func() {
			b := strings.Replace(mustRead(t, "out/manifest.json"), `"path": "index.html"`, `"path": "../outside.html"`, 1)
			os.WriteFile("out/manifest.json", []byte(b), 0o644)
		}, "not a path inside the archive"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.do()
			findings, ok, err := Verify("out")
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				t.Fatal("Verify says ok")
			}
			found := false
			for _, f := range findings {
				found = found || strings.HasPrefix(f.Problem, c.problem)
			}
			if !found {
				t.Errorf("no %q finding in %+v", c.problem, findings)
			}
		})
	}
	// A source that is gone is a note, not a mismatch.
	run(t, srcs, "out2", Options{})
	os.Remove("src/flue/session-task-1.json")
	findings, ok, err := Verify("out2")
	if err != nil || !ok || len(findings) != 1 || !strings.HasPrefix(findings[0].Problem, "source missing") {
		t.Errorf("Verify with a source gone: ok %v, err %v, findings %+v", ok, err, findings)
	}
}

func appendTo(t *testing.T, p, s string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(s)
	f.Close()
}
