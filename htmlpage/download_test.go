package htmlpage_test

import (
	"encoding/base64"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/internal/pagetest"
	"canopy/internal/sessiongen"
)

// TestBrowserDownloadWithImages: a page holds each picture once (the
// embedded session refers to the page's <img> data), and its download
// button still gives the session file byte for byte.
func TestBrowserDownloadWithImages(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	pic := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return base64.StdEncoding.EncodeToString(b)
	}
	a, b, small := pic(3000), pic(2000), pic(30)
	lines := []string{
		`{"type":"session","version":3,"id":"pictures","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/w"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-03-01T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","data":"` + a + `","mimeType":"image/png"},{"type":"image","data":"` + small + `","mimeType":"image/png"}]}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-03-01T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"x.png"}}],"stopReason":"toolUse"}}`,
		`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-03-01T10:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"image","data":"` + b + `","mimeType":"image/jpeg"}]}}`,
		// An off-path branch with the first picture again.
		`{"type":"message","id":"u2","parentId":"u1","timestamp":"2026-03-01T10:00:04.000Z","message":{"role":"user","content":[{"type":"image","data":"` + a + `","mimeType":"image/png"}]}}`,
		`{"type":"message","id":"a2","parentId":"r1","timestamp":"2026-03-01T10:00:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":"done"}],"stopReason":"stop"}}`,
	}
	src := strings.Join(lines, "\n") + "\n"
	dir := t.TempDir()
	file := filepath.Join(dir, "pictures.jsonl")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s := load(t, file)
	u := writePage(t, s, dir, "pictures")
	raw, err := os.ReadFile(filepath.Join(dir, "pictures.html"))
	if err != nil {
		t.Fatal(err)
	}
	html := pagetest.InflateStore(t, string(raw)) // the store's entries, unpacked
	// a is on the page twice (two entries show it), b once; the embedded
	// source holds neither: a page of pictures once, not twice.
	if n := strings.Count(html, a); n != 2 {
		t.Errorf("picture a is %d times in the page, want 2 (its two entries)", n)
	}
	if n := strings.Count(html, b); n != 1 {
		t.Errorf("picture b is %d times in the page, want 1", n)
	}
	if !strings.Contains(html, `id="source-data" data-images`) {
		t.Error("the embedded source is not marked as holding picture markers")
	}

	tb := newTab(t)
	tb.Open(u)
	got := evalAsync[string](tb, `new Promise((resolve, reject) => {
  const create = URL.createObjectURL;
  URL.createObjectURL = (blob) => {
    if (blob.type !== "text/javascript") { URL.createObjectURL = create; blob.text().then(resolve, reject); } // not the search workers' script
    return create.call(URL, blob);
  };
  document.getElementById("download-source").click();
  setTimeout(() => reject(new Error("no download within 10 s: " + document.getElementById("notice").textContent)), 10000);
})`)
	if got != src {
		t.Errorf("the download is %d bytes and differs from the %d-byte session file", len(got), len(src))
	}
	if notice := eval[string](tb, `document.getElementById("notice").textContent`); notice != "" {
		t.Errorf("a notice: %q", notice)
	}
	tb.Clean()
}

// TestBrowserDownload: the download button gives the session file byte for
// byte (no pictures: the source is embedded as it is).
func TestBrowserDownload(t *testing.T) {
	t.Parallel()
	s := demoSession(t)
	tb := newTab(t)
	tb.Open(writePage(t, s, t.TempDir(), "download"))
	got := evalAsync[string](tb, `new Promise((resolve, reject) => {
  const create = URL.createObjectURL;
  URL.createObjectURL = (blob) => {
    if (blob.type !== "text/javascript") { URL.createObjectURL = create; blob.text().then(resolve, reject); } // not the search workers' script
    return create.call(URL, blob);
  };
  document.getElementById("download-source").click();
  setTimeout(() => reject(new Error("no download within 10 s")), 10000);
})`)
	src, err := s.ReadSource()
	if err != nil {
		t.Fatal(err)
	}
	if got != string(src) {
		t.Errorf("the download is %d bytes and differs from the %d-byte session file", len(got), len(src))
	}
	tb.Clean()
}

// TestBrowserQuickSearch: a search made before the exact search index is
// built (the quick search, in the entries' HTML) finds what the exact one
// finds, for words that markup does not split. The page builds the index
// itself, as in a browser without workers; the search workers' answers are
// compared with its own in TestBrowserSearchWorkers.
func TestBrowserQuickSearch(t *testing.T) {
	t.Parallel()
	s, dir := generatedSession(t, sessiongen.Config{Entries: 6000, Shape: sessiongen.ShapeBranched, Seed: 7})
	page := writePage(t, s, dir, "quick")
	tb := newTab(t)
	tb.noWorkers()
	for _, word := range []string{"the", "test", "zqxjv"} {
		// At once (the index is built in the background after load), then
		// after the page has built it and searched again. On an idle
		// machine the page may build its index before the first search
		// arrives: the page is opened again, a few times at most.
		var quick [2]string
		for try := 0; try < 5; try++ {
			tb.Open(page)
			quick = evalAsync[[2]string](tb, `new Promise((resolve) => {
  const box = document.getElementById("tree-search");
  box.value = `+jsString(word)+`;
  box.dispatchEvent(new Event("input", {bubbles: true}));
  setTimeout(() => resolve([document.getElementById("tree-search").getAttribute("data-index") || "", document.getElementById("tree-status").textContent]), 0);
})`)
			if quick[0] == "" {
				break
			}
		}
		if quick[0] != "" {
			t.Fatalf("searching %q: the exact index was built before the search (%q): the quick search is not tested", word, quick[0])
		}
		if got := tb.searchIndex(); got != "page" {
			t.Fatalf("the exact index is in %q, want the page", got)
		}
		if exact := eval[string](tb, `document.getElementById("tree-status").textContent`); quick[1] != exact {
			t.Errorf("searching %q: the quick search shows %q, the exact one %q", word, quick[1], exact)
		}
	}
	tb.Clean()
}
