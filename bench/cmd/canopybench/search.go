package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"canopy/internal/browsertest"
	"canopy/internal/sessiongen"
	"canopy/searchindex"
)

// searchBench measures an archive's search index (issue 37) on n
// generated sessions of mixed agents and sizes: the archive's build time
// with the index, and without it (--search-baseline, a canopy binary
// that makes none); the index's size against the archive's and against
// the text it covers; and in Chromium on file://, the time from a query
// typed to its first results and to its full list, cold (a new browser,
// the page just drawn) and warm (the same query again).
func searchBench(o *options, stdout io.Writer, logf func(string, ...any)) error {
	if o.searchArchive != "" {
		return searchTimings(o, o.searchArchive, stdout, logf)
	}
	src := filepath.Join(o.out, fmt.Sprintf("search-src-%d", o.searchSessions))
	srcBytes, err := generateSearchSources(src, o.searchSessions, logf)
	if err != nil {
		return err
	}
	out := filepath.Join(o.out, "search-out")
	build := func(bin, dir string) (time.Duration, int64, error) {
		if err := os.RemoveAll(dir); err != nil {
			return 0, 0, err
		}
		waitQuiet(o.waitQuiet)
		logf("archive with %s", bin)
		return timed(o.exportLimit*8, func(ctx context.Context) *exec.Cmd {
			return exec.CommandContext(ctx, bin, "archive", src, "-o", dir, "--quiet")
		})
	}
	wall, rss, err := build(o.canopyBinary, out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nsearch index: %d generated sessions, %.1f MB of sources\n\n", o.searchSessions, mb(srcBytes))
	fmt.Fprintf(stdout, "| archive | wall s | peak RSS MB |\n|---|---|---|\n| with the index | %.1f | %.0f |\n", wall.Seconds(), float64(rss)/1024)
	if o.searchBaseline != "" {
		bw, brss, err := build(o.searchBaseline, filepath.Join(o.out, "search-out-baseline"))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "| without (%s) | %.1f | %.0f |\n| index's share of the time | %+.0f%% | |\n", o.searchBaseline, bw.Seconds(), float64(brss)/1024, 100*(wall.Seconds()/bw.Seconds()-1))
		os.RemoveAll(filepath.Join(o.out, "search-out-baseline"))
	}
	sz, err := searchSizes(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n| bytes | MB |\n|---|---|\n| archive (all files) | %.1f |\n| pages (sessions/) | %.1f |\n| search index (search/) | %.1f (%.1f%% of the archive) |\n| of which text files | %.1f |\n| of which shards (%d) and meta.js | %.1f |\n| text covered (UTF-8, uncompressed) | %.1f (index = %.0f%% of it) |\n",
		mb(sz.all), mb(sz.pages), mb(sz.search), 100*float64(sz.search)/float64(sz.all), mb(sz.texts), sz.shards, mb(sz.search-sz.texts), mb(sz.covered), 100*float64(sz.search)/float64(sz.covered))
	if o.noBrowser {
		return nil
	}
	return searchTimings(o, out, stdout, logf)
}

// generateSearchSources writes n sessions in twenty project directories
// (unless a previous call left them complete): seven in ten pi sessions
// (prose, code and small, branched, 10 to 400 entries, log-uniform), the
// others Claude Code transcripts and Codex rollouts (2 to 40 turns; their
// generator is not seeded, so only their length and ids differ).
func generateSearchSources(dir string, n int, logf func(string, ...any)) (int64, error) {
	done := filepath.Join(dir, ".complete")
	if _, err := os.Stat(done); err != nil {
		logf("generating %d sessions in %s", n, dir)
		if err := os.RemoveAll(dir); err != nil {
			return 0, err
		}
		rng := rand.New(rand.NewPCG(uint64(n), 37))
		contents := []string{"full", "code", "small", "full", "code"}
		for i := range n {
			proj := fmt.Sprintf("p%02d", i%20)
			var write func(io.Writer) error
			name := fmt.Sprintf("s%05d.jsonl", i)
			switch r := rng.IntN(10); {
			case r < 7:
				entries := int(math.Exp(math.Log(10) + rng.Float64()*math.Log(40)))
				cfg := sessiongen.Config{Entries: entries, Shape: sessiongen.ShapeBranched, Seed: uint64(i + 1), Content: contents[i%len(contents)]}
				write = func(w io.Writer) error { return sessiongen.Generate(w, cfg) }
			default:
				format := sessiongen.FormatClaude
				if r == 9 {
					format = sessiongen.FormatCodex
				}
				cfg := sessiongen.AgentConfig{Format: format, Turns: 2 + rng.IntN(39)}
				write = func(w io.Writer) error {
					var b bytes.Buffer
					if err := sessiongen.GenerateAgent(&b, cfg); err != nil {
						return err
					}
					// Each its own session id and project.
					s := strings.NewReplacer("0b5e7f3a-9c2d-4e1f-8a6b-3c4d5e6f7a8b", fmt.Sprintf("0b5e7f3a-9c2d-4e1f-8a6b-%012d", i),
						"0199a213-81c0-7800-8aa1-bbab2a035a53", fmt.Sprintf("0199a213-81c0-7800-8aa1-%012d", i),
						`"/work/p"`, `"/work/`+proj+`"`).Replace(b.String())
					_, err := io.WriteString(w, s)
					return err
				}
			}
			p := filepath.Join(dir, proj, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return 0, err
			}
			if _, err := writeViaTemp(p, write); err != nil {
				return 0, err
			}
		}
		if err := os.WriteFile(done, nil, 0o644); err != nil {
			return 0, err
		}
	}
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".jsonl") {
			if fi, err := d.Info(); err == nil {
				total += fi.Size()
			}
		}
		return err
	})
	return total, err
}

type sizes struct {
	all, pages, search, texts, covered int64
	shards                             int
}

// searchSizes adds up an archive's files (their lengths, not the blocks
// they take) and the text its text files cover.
func searchSizes(out string) (sizes, error) {
	var s sizes
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		n := fi.Size()
		s.all += n
		switch {
		case strings.HasPrefix(rel, "sessions/"):
			s.pages += n
		case searchindex.IsTextFile(rel):
			s.search += n
			s.texts += n
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			_, entries, err := searchindex.DecodeText(data)
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			for _, e := range entries {
				s.covered += int64(len(e.Text))
			}
		case strings.HasPrefix(rel, searchindex.Dir+"/"):
			s.search += n
			s.shards++
		}
		return nil
	})
	return s, err
}

// searchQueries are typed into the index's search box: a common word, a
// rarer one, a prefix, a phrase and two words.
var searchQueries = []string{"error", "backfill", "conf*", `"unique constraint"`, "timeout retry"}

// queryJS types a query and resolves, once its results are complete (the
// status no longer ends in "…"), to the milliseconds to the first result
// shown and to the full list, and what the status says. The empty query
// (clearing the box between a cold and a warm run) resolves at once: it
// has no results, and its status stays empty.
const queryJS = `(q) => new Promise((resolve) => {
  const box = document.getElementById("ft-q"), list = document.getElementById("ft-results"), st = document.getElementById("ft-status");
  const t0 = performance.now(); let first = -1;
  const obs = new MutationObserver(() => { if (first < 0 && list.children.length) first = performance.now() - t0; });
  obs.observe(list, { childList: true });
  box.value = q; box.dispatchEvent(new Event("input"));
  const poll = () => {
    const s = st.textContent;
    if (q === "" || (s && !s.endsWith("…"))) { obs.disconnect(); const full = performance.now() - t0; resolve({ first: first < 0 ? full : first, full: full, status: s }); }
    else setTimeout(poll, 1);
  };
  poll();
})`

type queryTime struct {
	First  float64 `json:"first"`
	Full   float64 `json:"full"`
	Status string  `json:"status"`
}

// searchTimings measures each query cold, in a new browser on the page
// just loaded, then warm, the same query again on that page.
func searchTimings(o *options, out string, stdout io.Writer, logf func(string, ...any)) error {
	index := "file://" + filepath.ToSlash(filepath.Join(out, "index.html"))
	if o.searchSettle > 0 {
		fmt.Fprintf(stdout, "\ncold queries typed %v after the index page loaded\n", o.searchSettle)
	}
	fmt.Fprintf(stdout, "\n| query | cold: first results ms | cold: full list ms | warm: first ms | warm: full ms | status |\n|---|---|---|---|---|---|\n")
	for _, q := range searchQueries {
		waitQuiet(o.waitQuiet)
		br, err := startBrowser(o.chromium, filepath.Join(o.out, "chromium-search"))
		if err != nil {
			return err
		}
		cold, warm, err := timeQuery(br, index, q, o.searchSettle)
		br.stop()
		if err != nil {
			return fmt.Errorf("query %s: %w", q, err)
		}
		logf("%s: cold %.0f/%.0f ms, warm %.0f/%.0f ms", q, cold.First, cold.Full, warm.First, warm.Full)
		fmt.Fprintf(stdout, "| `%s` | %.0f | %.0f | %.0f | %.0f | %s |\n", q, cold.First, cold.Full, warm.First, warm.Full, warm.Status)
	}
	return nil
}

func timeQuery(br *chrome, index, q string, settle time.Duration) (cold, warm queryTime, err error) {
	w := &browsertest.Watch{}
	ctx, cancel, err := br.b.NewTab(w, 2*time.Minute)
	if err != nil {
		return cold, warm, err
	}
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Navigate(index)); err != nil {
		return cold, warm, err
	}
	// Typed once the page is drawn (two animation frames after load):
	// a reader cannot type into a page not yet on the screen, and the
	// first frame of an index of 10,000 rows takes a few hundred ms,
	// which a key pressed at load would wait for.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise)); err != nil {
		return cold, warm, err
	}
	time.Sleep(settle)
	call := func(q string) (queryTime, error) {
		js := "(" + queryJS + ")(" + jsQuote(q) + ")"
		return chromedp.Run(ctx, chromedp.Evaluate[queryTime](js, chromedp.EvalAwaitPromise))
	}
	if cold, err = call(q); err != nil {
		return cold, warm, err
	}
	if _, err = call(""); err != nil {
		return cold, warm, err
	}
	warm, err = call(q)
	if p := w.Problems(); len(p) > 0 && err == nil {
		err = fmt.Errorf("page problems: %v", p)
	}
	return cold, warm, err
}

func jsQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
