package htmlpage_test

// The sessions and pages the browser tests open, and what a page should
// show, computed in Go.

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"canopy/htmlpage"
	"canopy/internal/sessiongen"
	"canopy/sessiontree"
)

// renderer is the one renderer the tests share, made on first use.
var renderer = sync.OnceValues(htmlpage.New)

// load loads the session at path, closed when the test ends.
func load(t *testing.T, path string) *sessiontree.Session {
	t.Helper()
	s, err := sessiontree.LoadFile(path)
	if err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// generatedSession writes a session made by sessiongen with cfg into a
// temporary directory and loads it: the session and the directory.
func generatedSession(t *testing.T, cfg sessiongen.Config) (*sessiontree.Session, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := sessiongen.Generate(&buf, cfg); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "gen.jsonl")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return load(t, file), dir
}

// writePage renders s into dir and returns the page's file:// URL.
func writePage(t *testing.T, s *sessiontree.Session, dir, name string) string {
	t.Helper()
	r, err := renderer()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name+".html")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Render(f, s, htmlpage.Options{}); err != nil {
		f.Close()
		t.Fatalf("rendering %s: %v", s.File, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// demoSession is the demo session, or the first conformance case.
func demoSession(t *testing.T) *sessiontree.Session {
	t.Helper()
	if _, err := os.Stat("../testdata/demo/demo.jsonl"); err == nil {
		return load(t, "../testdata/demo/demo.jsonl")
	}
	files, _ := filepath.Glob("../testdata/conformance/s000/*.jsonl")
	if len(files) == 0 {
		t.Fatal("neither testdata/demo/demo.jsonl nor testdata/conformance/s000 found")
	}
	return load(t, files[0])
}

// withQuery is the page address u with the query q.
func withQuery(u string, q url.Values) string {
	return u + "?" + q.Encode()
}

// ---- What the page should show, computed in Go ----------------------------

// onPath is the set of entries on the path from the root to leaf.
func onPath(s *sessiontree.Session, leaf *sessiontree.Entry) map[*sessiontree.Entry]bool {
	m := map[*sessiontree.Entry]bool{}
	for _, e := range s.Path(leaf) {
		m[e] = true
	}
	return m
}

// body is e's decoded body, or nil if it does not decode.
func body(e *sessiontree.Entry) *sessiontree.Body {
	b, err := e.Decode()
	if err != nil {
		return nil
	}
	return b
}

// messageText is the text blocks of e's message, one a line.
func messageText(e *sessiontree.Entry) string {
	b := body(e)
	if b == nil || b.Message == nil {
		return ""
	}
	var sb strings.Builder
	for _, blk := range b.Message.Content {
		if blk.Type == "text" {
			sb.WriteString(blk.Text)
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// embeddedResults are the tool results drawn inside their call's card (no
// article of their own): for each call id, the first result in file order
// below the calling message.
func embeddedResults(s *sessiontree.Session) map[*sessiontree.Entry]bool {
	calls := map[string]*sessiontree.Entry{}
	out := map[*sessiontree.Entry]bool{}
	claimed := map[string]bool{}
	for _, e := range s.Entries {
		b := body(e)
		if b == nil || b.Message == nil {
			continue
		}
		switch b.Message.Role {
		case sessiontree.RoleAssistant:
			for _, blk := range b.Message.Content {
				if blk.Type == "toolCall" && blk.ID != "" && calls[blk.ID] == nil {
					calls[blk.ID] = e
				}
			}
		case sessiontree.RoleToolResult:
			id := b.Message.ToolCallID
			call := calls[id]
			if call == nil || claimed[id] {
				continue
			}
			for p := e.Parent; p != nil; p = p.Parent {
				if p == call {
					out[e], claimed[id] = true, true
					break
				}
			}
		}
	}
	return out
}

// isShownMessage reports whether e is a user message, or an assistant
// message with text: rows every filter but user-only and labeled-only show.
func isShownMessage(e *sessiontree.Entry) bool {
	if e.Type != sessiontree.TypeMessage {
		return false
	}
	switch e.Role {
	case sessiontree.RoleUser:
		return true
	case sessiontree.RoleAssistant:
		return strings.TrimSpace(messageText(e)) != ""
	}
	return false
}

// offPathPair finds a leaf A off the session's active path (a user or
// assistant message) and an ancestor B of A, also off the path, that is a
// user message or an assistant message with text, B != A when possible.
func offPathPair(s *sessiontree.Session) (a, b *sessiontree.Entry) {
	active := onPath(s, s.Leaf)
	for _, leaf := range s.Leaves() {
		if active[leaf] || leaf.Type != sessiontree.TypeMessage ||
			(leaf.Role != sessiontree.RoleUser && leaf.Role != sessiontree.RoleAssistant) {
			continue
		}
		var best *sessiontree.Entry
		for e := leaf; e != nil && !active[e]; e = e.Parent {
			if isShownMessage(e) {
				best = e
				if e != leaf {
					break
				}
			}
		}
		if best != nil {
			return leaf, best
		}
	}
	return nil, nil
}

// branchedSession is the demo session when it has a branch off its active
// path, else the first conformance case with one.
func branchedSession(t *testing.T) (s *sessiontree.Session, a, b *sessiontree.Entry) {
	t.Helper()
	s = demoSession(t)
	if a, b = offPathPair(s); a != nil {
		return s, a, b
	}
	files, _ := filepath.Glob("../testdata/conformance/*/*.jsonl")
	for _, f := range files {
		s = load(t, f)
		if a, b = offPathPair(s); a != nil {
			return s, a, b
		}
	}
	t.Fatal("no session with a branch off its active path")
	return nil, nil, nil
}

// fileExists reports whether p names a file (or a directory) that can be
// looked at.
func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
