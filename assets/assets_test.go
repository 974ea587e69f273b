package assets

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// TestScriptPartsListed: every file in page/ is joined, once, and every
// part joined is there, with a header and a body.
func TestScriptPartsListed(t *testing.T) {
	files, err := fs.Glob(pageFS, "page/*")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]int{}
	for i, name := range pageParts {
		if j, dup := listed[name]; dup {
			t.Errorf("pageParts lists %s twice (at %d and %d)", name, j, i)
		}
		listed[name] = i
	}
	for _, f := range files {
		name := strings.TrimPrefix(f, "page/")
		if _, ok := listed[name]; !ok {
			t.Errorf("%s is not in pageParts: it would not be in the page's script", f)
		}
		delete(listed, name)
	}
	for name := range listed {
		t.Errorf("pageParts lists %s, which is not in page/*.js", name)
	}
	for _, name := range pageParts {
		body, err := partBody(pageFS, name)
		if err != nil {
			t.Error(err)
			continue
		}
		if n := strings.Count(body, "\n"); n > 600 {
			t.Errorf("page/%s is %d lines: split it", name, n)
		}
	}
}

// TestScriptOneClosure: the joined script is one closure, as the page
// has always had it: comment lines, "(function () {", "use strict", the
// body (every line indented or empty: no part closes the closure early
// or puts anything outside it), and "})();" as its last line.
func TestScriptOneClosure(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(JS, "\n"), "\n")
	if !strings.HasSuffix(JS, "\n") || len(lines) < 4 {
		t.Fatalf("the script is %d lines, or its last line is unfinished", len(lines))
	}
	open := 0
	for open < len(lines) && strings.HasPrefix(lines[open], "//") {
		open++
	}
	if open == 0 || open+1 >= len(lines) || lines[open] != "(function () {" || lines[open+1] != `  "use strict";` {
		t.Fatalf("the script does not start with its comment, then %q and %q", "(function () {", `  "use strict";`)
	}
	if last := lines[len(lines)-1]; last != "})();" {
		t.Fatalf("the script's last line is %q, want %q", last, "})();")
	}
	for i := open + 1; i < len(lines)-1; i++ {
		if l := lines[i]; l != "" && !strings.HasPrefix(l, "  ") {
			t.Errorf("line %d of the script is outside the closure's body: %q", i+1, l)
		}
	}
}

// TestScriptJoin: the joiner puts the parts' bodies end to end, headers
// left out, and refuses a part without a header or a body.
func TestScriptJoin(t *testing.T) {
	fsys := fstest.MapFS{
		"page/a.js":     {Data: []byte("/*\n * a.js: the start.\n */\n(function () {\n")},
		"page/b.js":     {Data: []byte("/* b.js: the end. */\n})();\n")},
		"page/bare.js":  {Data: []byte("// a comment is not a header\nvar x;\n")},
		"page/empty.js": {Data: []byte("/* nothing but a header */\n")},
		"page/open.js":  {Data: []byte("/* the last line unfinished */\nvar x;")},
	}
	got, err := joinParts(fsys, []string{"a.js", "b.js"})
	if err != nil || got != "(function () {\n})();\n" {
		t.Errorf("joinParts(a, b) = %q, %v", got, err)
	}
	for _, bad := range []string{"bare.js", "empty.js", "open.js", "missing.js"} {
		if _, err := joinParts(fsys, []string{"a.js", bad}); err == nil {
			t.Errorf("joinParts accepted %s", bad)
		}
	}
}

// TestScriptSyntax: node (where it is installed) reads the joined script
// as JavaScript.
func TestScriptSyntax(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the script's syntax is not checked")
	}
	path := filepath.Join(t.TempDir(), "page.js")
	if err := os.WriteFile(path, []byte(JS), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(node, "--check", path).CombinedOutput(); err != nil {
		t.Fatalf("node --check: %v\n%s", err, out)
	}
}

// TestDarkPalette: the dark palette reaches both rules that use it, and
// page.css declares no dark colour of its own.
func TestDarkPalette(t *testing.T) {
	if strings.Contains(CSS, paletteMarker) {
		t.Fatalf("CSS still holds the marker %s", paletteMarker)
	}
	if n := strings.Count(CSS, "--bg: #0d1117"); n != 2 {
		t.Errorf("the dark background is in CSS %d times, want 2 (dark, and auto on a dark system)", n)
	}
	if strings.Contains(pageCSS, "#0d1117") {
		t.Errorf("page.css declares the dark background itself: it belongs in dark.css")
	}
	if _, err := withPalette("a{}", darkCSS); err == nil {
		t.Errorf("withPalette accepted a stylesheet without its markers")
	}
}
