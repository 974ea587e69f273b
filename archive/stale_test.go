package archive

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A source that was archived and cannot be archived now keeps its page,
// marked stale with the reason, and the run says so (Incomplete); once
// the source is back, the page is current again.
func TestArchiveKeepsStalePages(t *testing.T) {
	const rel = "src/pi/--home-ada-shop--/" + piFork
	for _, c := range staleCases(rel) {
		t.Run(c.name, func(t *testing.T) {
			defer func() { testHooks.afterLoad = nil }()
			srcs, _ := fixtures(t)
			run(t, srcs, "out", Options{})
			m := manifest(t, "out")
			var page string
			for _, s := range m.Sessions {
				if s.Source == rel {
					page = s.Page
				}
			}
			before := mustReadBytes(t, filepath.Join("out", page))
			if c.break_ != nil {
				c.break_(t)
			}
			runSrcs := srcs
			if c.srcs != nil {
				runSrcs = c.srcs
			}
			var res *Result
			within(t, "Run", func() { res = run(t, runSrcs, "out", Options{}) })
			if !res.Incomplete() || len(res.Stale) == 0 {
				t.Fatalf("run with the source %s: not incomplete: %+v", c.name, res)
			}
			st := staleOf(t, res, rel, page, c.reason)
			if got := mustReadBytes(t, filepath.Join("out", page)); !bytes.Equal(got, before) {
				t.Error("the stale page is not the one the previous run made")
			}
			checkMarkedStale(t, page, st)
			// The fork's parent still links to it, and is not made again
			// for its sake.
			if c.name == "deleted" && res.Rendered != 0 {
				t.Errorf("rendered %d pages; want none", res.Rendered)
			}

			// The source back as it was: current again.
			if c.restore != nil {
				c.restore(t)
			}
			res = run(t, srcs, "out", Options{})
			if res.Incomplete() || res.Sessions != 8 {
				t.Errorf("run with the source back: %+v", res)
			}
			for _, s := range manifest(t, "out").Sessions {
				if s.Stale != "" {
					t.Errorf("%s still stale: %s", s.Source, s.Stale)
				}
			}
			if _, ok, _ := Verify("out"); !ok {
				t.Error("Verify fails with the source back")
			}
		})
	}
}

// staleCase is a way a source can fail a run after it was archived.
type staleCase struct {
	name    string
	break_  func(t *testing.T)
	restore func(t *testing.T)
	srcs    []string // default: the fixtures
	reason  string
}

// staleCases break the source rel in every way TestArchiveKeepsStalePages
// tries, and restore it.
func staleCases(rel string) []staleCase {
	return []staleCase{
		{"deleted", func(t *testing.T) { os.Rename(rel, "saved") }, func(t *testing.T) { os.Rename("saved", rel) }, nil, "source missing: " + rel},
		{"directory moved", func(t *testing.T) { os.Rename("src/pi", "pi-moved") }, func(t *testing.T) { os.Rename("pi-moved", "src/pi") }, nil, "source missing: " + rel},
		{"SRC no longer named", nil, nil, []string{"src/gateway", "src/flue", "src/pi/--home-ada-blog--"}, "source not among this run's sources: " + rel},
		{"replaced by a directory", func(t *testing.T) {
			os.Rename(rel, "saved")
			os.Mkdir(rel, 0o755)
		}, func(t *testing.T) {
			os.Remove(rel)
			os.Rename("saved", rel)
		}, nil, "source unreadable: " + rel + " is a directory now"},
		{"replaced by a FIFO", func(t *testing.T) {
			os.Rename(rel, "saved")
			mkfifo(t, rel)
		}, func(t *testing.T) {
			os.Remove(rel)
			os.Rename("saved", rel)
		}, nil, "source could not be archived: is a named pipe (FIFO)"},
		{"no longer a session", func(t *testing.T) {
			os.Rename(rel, "saved")
			write(t, rel, "\x00\x01 not JSON\n")
		}, func(t *testing.T) {
			os.Remove(rel)
			os.Rename("saved", rel)
		}, nil, "source could not be archived: "},
		{"changed while it was archived", func(t *testing.T) {
			// Grown, so that its page is made again; then rewritten
			// under the render, which reads its entries again.
			b := mustReadBytes(t, rel)
			os.Rename(rel, "saved")
			write(t, rel, string(b)+`{"type":"session_info","id":"zz","parentId":null,"timestamp":"2026-05-02T10:00:00.000Z","name":"grown"}`+"\n")
			testHooks.afterLoad = func(p string) {
				if p == rel {
					os.WriteFile(rel, bytes.Repeat([]byte("x"), len(b)+200), 0o644)
				}
			}
		}, func(t *testing.T) {
			testHooks.afterLoad = nil
			os.Remove(rel)
			os.Rename("saved", rel)
		}, nil, "source changed while it was archived: "},
	}
}

// staleOf is the run's report of rel's page, stale, with a reason
// starting with reason.
func staleOf(t *testing.T, res *Result, rel, page, reason string) *Stale {
	t.Helper()
	var st *Stale
	for i := range res.Stale {
		if res.Stale[i].Source == rel {
			st = &res.Stale[i]
		}
	}
	if st == nil || st.Page != page || !strings.HasPrefix(st.Reason, reason) {
		t.Fatalf("stale = %+v; want %s with a reason starting %q", res.Stale, page, reason)
	}
	return st
}

// checkMarkedStale checks that the archive in out marks page stale, with
// st's reason, in its manifest, its index and what Verify finds.
func checkMarkedStale(t *testing.T, page string, st *Stale) {
	t.Helper()
	m := manifest(t, "out")
	for _, s := range m.Sessions {
		if s.Source == st.Source && s.Stale != st.Reason {
			t.Errorf("manifest session stale = %q, want %q", s.Stale, st.Reason)
		}
	}
	for _, p := range m.Pages {
		if p.Path == page && p.Stale != st.Reason {
			t.Errorf("manifest page stale = %q, want %q", p.Stale, st.Reason)
		}
	}
	if index := mustRead(t, "out/index.html"); !strings.Contains(index, "stale: the page is from an earlier run; ") {
		t.Error("the index does not mark the page stale")
	}
	findings, _, err := Verify("out")
	found := false
	for _, f := range findings {
		found = found || f.Path == page && strings.HasPrefix(f.Problem, "stale: ") && !f.Fatal
	}
	if err != nil || !found {
		t.Errorf("Verify does not note the stale page: %v %+v", err, findings)
	}
	noLeftovers(t, "out")
}

// Sources that moved (a SRC renamed): their pages are made under the new
// names and the old ones go; nothing is stale, nothing is lost.
func TestArchiveMovedSources(t *testing.T) {
	srcs, _ := fixtures(t)
	run(t, srcs, "out", Options{})
	os.Rename("src/pi", "src/pi-2026")
	res := run(t, []string{"src/pi-2026", "src/gateway", "src/flue"}, "out", Options{})
	if res.Incomplete() || res.Sessions != 8 || res.Removed != 3 || res.Rendered != 3 {
		t.Errorf("re-run with a SRC renamed: %+v", res)
	}
	if _, ok, _ := Verify("out"); !ok {
		t.Error("Verify fails")
	}
}

// A source that is gone with its page made with other flags: neither
// kept (a page without --redact in a --redact archive would show what the
// archive says it hides) nor dropped. The run fails; nothing changes.
func TestArchiveStaleWithOtherFlags(t *testing.T) {
	srcs, dir := fixtures(t)
	run(t, srcs, "out", Options{})
	os.Remove("src/flue/session-task-1.json")
	before := snapshot(t, dir)
	_, err := Run(context.Background(), srcs, "out", Options{Version: "test", Redact: true})
	if err == nil || !strings.Contains(err.Error(), "cannot be made again with [--redact]") {
		t.Errorf("--redact run with a stale page made without it: %v", err)
	}
	sameFiles(t, "refused run", before, snapshot(t, dir))
}

// Two sources whose pages share a name (a.json and a.jsonl): when the
// first goes, the second does not take its page; each keeps its own.
func TestArchivePageNamesStay(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	flue := mustReadBytes(t, filepath.Join(cwdAtStart, "../testdata/archive/flue/session-root.json"))
	pi := mustReadBytes(t, filepath.Join(cwdAtStart, "../testdata/archive/pi/--home-ada-shop--", piParent))
	write(t, "src/a.json", string(flue))
	write(t, "src/a.jsonl", string(pi))
	run(t, []string{"src"}, "out", Options{})
	pages := map[string]string{}
	for _, s := range manifest(t, "out").Sessions {
		pages[s.Source] = s.Page
	}
	if pages["src/a.json"] != "sessions/src/a.html" || pages["src/a.jsonl"] != "sessions/src/a~2.html" {
		t.Fatalf("pages: %v", pages)
	}
	jsonl := mustReadBytes(t, "out/sessions/src/a~2.html")
	os.Rename("src/a.json", "a.json")
	res := run(t, []string{"src"}, "out", Options{})
	if len(res.Stale) != 1 || res.Stale[0].Page != "sessions/src/a.html" {
		t.Errorf("stale: %+v", res.Stale)
	}
	for _, s := range manifest(t, "out").Sessions {
		if s.Page != pages[s.Source] {
			t.Errorf("%s: page %s, was %s", s.Source, s.Page, pages[s.Source])
		}
	}
	if !bytes.Equal(mustReadBytes(t, "out/sessions/src/a~2.html"), jsonl) {
		t.Error("a.jsonl's page was made again")
	}
	if !strings.Contains(mustRead(t, "out/sessions/src/a.html"), "Review the pull request") {
		t.Error("a.json's page is not the one it had")
	}
}

func ExampleResult_Incomplete() {
	r := &Result{Stale: []Stale{{Source: "s.jsonl", Page: "sessions/s.html", Reason: "source missing: s.jsonl is no longer there"}}}
	fmt.Println(r.Incomplete())
	// Output: true
}
