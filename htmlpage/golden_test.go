package htmlpage

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"canopy/sessiontree"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/render/golden")

// TestGoldenEntries renders one entry of every kind and tool in
// testdata/render/kinds.jsonl and compares each with its reviewed HTML in
// testdata/render/golden (regenerate: go test ./htmlpage -run Golden -update).
func TestGoldenEntries(t *testing.T) {
	s, err := sessiontree.LoadFile(filepath.Join("..", "testdata", "render", "kinds.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	html := make([]string, len(s.Entries))
	ec := r.gather(s, html)
	var rowText strings.Builder
	for i, e := range s.Entries {
		rowText.WriteString(e.ID + "\t" + flagNames(ec.rows[i].flags) + "\t" + ec.rows[i].text + "\n")
	}
	dir := filepath.Join("..", "testdata", "render", "golden")
	golden(t, filepath.Join(dir, "rows.txt"), []byte(rowText.String()))
	for i, e := range s.Entries {
		name := e.ID + ".html"
		if ec.rows[i].flags&flagEmbedded != 0 {
			if html[i] != "" {
				t.Errorf("%s is drawn in its call's card but has HTML of its own", e.ID)
			}
			continue
		}
		golden(t, filepath.Join(dir, name), []byte(html[i]))
		// The page's Content-Security-Policy allows no inline style: one
		// style attribute is an error in the reader's console.
		if strings.Contains(string(html[i]), " style=") {
			t.Errorf("%s: a style attribute in the HTML", e.ID)
		}
	}
}

func flagNames(f int) string {
	var names []string
	for _, n := range []struct {
		bit  int
		name string
	}{{flagSettings, "settings"}, {flagToolResult, "tool"}, {flagUser, "user"}, {flagEmpty, "empty"}, {flagEmbedded, "embedded"}} {
		if f&n.bit != 0 {
			names = append(names, n.name)
		}
	}
	if len(names) == 0 {
		return "-"
	}
	return strings.Join(names, ",")
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestLargeImageLinear guards against a quadratic path: a session with a
// picture of a few MB must export in about the time it takes to copy it.
func TestLargeImageLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 4 MB session")
	}
	png := "iVBORw0KGgo" + strings.Repeat("A+/B", 1<<20) // base64 with many '+'
	lines := []string{
		`{"type":"session","version":3,"id":"img","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/x"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-03-01T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","mimeType":"image/png","data":"` + png + `="}]}}`,
	}
	s, err := sessiontree.Load([]byte(strings.Join(lines, "\n")+"\n"), "img.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- r.Render(&page, s, Options{}) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("rendering a 4 MB picture did not finish in 20 s: something is quadratic")
	}
	if !strings.Contains(page.String(), `<img class="image" src="data:image/png;base64,iVBORw0KGgo`) {
		t.Error("the picture is not in the page")
	}
}
