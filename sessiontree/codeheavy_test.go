package sessiontree

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// codeHeavySession builds a session whose bytes are mostly source code, as
// a coding agent's are: the .go files under root read as `read` results,
// bash outputs (grep listings of those files), edits with their diffs, and
// replies holding fenced code. sessiongen's content is prose-heavy; this is
// the other realistic extreme, for the benchmarks that decide whether a
// hand-written decoder pays. rounds repeats the files (each round a branch
// off the previous round's middle) to make the session bigger.
func codeHeavySession(tb testing.TB, root string, rounds int) []byte {
	tb.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	slices.Sort(files)
	g := codeGen{}
	g.line(map[string]any{"type": "session", "version": 3, "id": "code-heavy", "timestamp": g.ts(), "cwd": "/src/canopy"})
	parent := ""
	for r := range rounds {
		mid := ""
		for i, path := range files {
			src, err := os.ReadFile(path)
			if err != nil {
				tb.Fatal(err)
			}
			rel, _ := filepath.Rel(root, path)
			parent = g.fileTurn(parent, rel, string(src), r)
			if i == len(files)/2 {
				mid = parent
			}
		}
		parent = mid // the next round branches off this one's middle
	}
	return g.buf.Bytes()
}

// codeGen writes the lines of a code-heavy session.
type codeGen struct {
	buf bytes.Buffer
	n   int // entries written: ids, timestamps and call ids
}

func (g *codeGen) ts() string {
	return fmt.Sprintf("2026-03-01T%02d:%02d:%02d.%03dZ", g.n/3600%24, g.n/60%60, g.n%60, g.n%1000)
}

func (g *codeGen) line(v map[string]any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	g.buf.Write(b)
	g.buf.WriteByte('\n')
}

// entry writes a message entry under parent and returns its id.
func (g *codeGen) entry(parent string, msg map[string]any) string {
	g.n++
	id := fmt.Sprintf("e%06d", g.n)
	var p any
	if parent != "" {
		p = parent
	}
	msg["timestamp"] = 1772355600000 + g.n*1000
	g.line(map[string]any{"type": "message", "id": id, "parentId": p, "timestamp": g.ts(), "message": msg})
	return id
}

func (g *codeGen) assistant(parent string, content ...map[string]any) string {
	return g.entry(parent, map[string]any{"role": "assistant", "content": content, "api": "anthropic-messages",
		"provider": "anthropic", "model": "claude-sonnet-4-5", "stopReason": "toolUse",
		"usage": map[string]any{"input": 1200 + g.n, "output": 300, "cacheRead": 40000, "cacheWrite": 900, "totalTokens": 42400 + g.n,
			"cost": map[string]any{"input": 0.0036, "output": 0.0045, "cacheRead": 0.012, "cacheWrite": 0.0034, "total": 0.0235}}})
}

// call writes an assistant tool call and its result, and returns the
// result's id.
func (g *codeGen) call(parent, tool string, args map[string]any, output string, details map[string]any) string {
	callID := fmt.Sprintf("toolu_%08d", g.n)
	parent = g.assistant(parent, map[string]any{"type": "toolCall", "id": callID, "name": tool, "arguments": args})
	res := map[string]any{"role": "toolResult", "toolCallId": callID, "toolName": tool,
		"content": []map[string]any{{"type": "text", "text": output}}, "isError": false}
	if details != nil {
		res["details"] = details
	}
	return g.entry(parent, res)
}

// fileTurn is one exchange about one file: a prompt, a read, a grep, an
// edit with its diff, and a reply quoting code.
func (g *codeGen) fileTurn(parent, path, src string, round int) string {
	lines := strings.Split(src, "\n")
	parent = g.entry(parent, map[string]any{"role": "user",
		"content": []map[string]any{{"type": "text", "text": fmt.Sprintf("Read %s and tighten it (pass %d).", path, round+1)}}})
	parent = g.call(parent, "read", map[string]any{"path": path}, src, nil)
	var grep strings.Builder
	for i, l := range lines {
		if strings.HasPrefix(l, "func ") || strings.HasPrefix(l, "type ") {
			fmt.Fprintf(&grep, "%s:%d:%s\n", path, i+1, l)
		}
	}
	parent = g.call(parent, "bash", map[string]any{"command": "grep -n '^func \\|^type ' " + path}, grep.String(), nil)
	at := len(lines) / 3
	old := strings.Join(lines[at:min(at+12, len(lines))], "\n")
	repl := strings.ReplaceAll(old, "\t", "    ")
	var diff strings.Builder
	for i, l := range lines[at:min(at+12, len(lines))] {
		fmt.Fprintf(&diff, "-%d %s\n+%d %s\n", at+i+1, l, at+i+1, strings.ReplaceAll(l, "\t", "    "))
	}
	parent = g.call(parent, "edit", map[string]any{"path": path, "oldText": old, "newText": repl},
		"Successfully replaced text in "+path+".", map[string]any{"diff": diff.String()})
	quote := strings.Join(lines[:min(40, len(lines))], "\n")
	return g.entry(parent, map[string]any{"role": "assistant", "api": "anthropic-messages", "provider": "anthropic",
		"model": "claude-sonnet-4-5", "stopReason": "stop",
		"usage": map[string]any{"input": 900, "output": 700, "cacheRead": 50000, "cacheWrite": 0, "totalTokens": 51600,
			"cost": map[string]any{"input": 0.0027, "output": 0.0105, "cacheRead": 0.015, "cacheWrite": 0, "total": 0.0282}},
		"content": []map[string]any{
			{"type": "thinking", "thinking": "The file " + path + " opens with its package clause; the edit changed indentation only."},
			{"type": "text", "text": "Done. The top of `" + path + "` now reads:\n\n```go\n" + quote + "\n```\n\nThe edit at line " +
				fmt.Sprint(at+1) + " only re-indents; `go vet` is clean."},
		}})
}

// codeHeavyRoot is the source tree code-heavy sessions are made of: this
// repository, or CANOPY_CODEHEAVY_ROOT (a fixed copy, so that runs before
// and after a change read the same bytes while the repository changes).
func codeHeavyRoot() string {
	if d := os.Getenv("CANOPY_CODEHEAVY_ROOT"); d != "" {
		return d
	}
	return ".."
}

// TestCodeHeavySession checks that the benchmarks' code-heavy session loads
// cleanly; with CANOPY_WRITE_CODEHEAVY=FILE it also writes it there (for
// timing canopy itself on it).
func TestCodeHeavySession(t *testing.T) {
	data := codeHeavySession(t, codeHeavyRoot(), 1)
	s, err := Load(data, "code-heavy.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Diagnostics) != 0 || len(s.Entries) < 500 {
		t.Fatalf("%d entries, diagnostics %v", len(s.Entries), s.Diagnostics)
	}
	if out := os.Getenv("CANOPY_WRITE_CODEHEAVY"); out != "" {
		if err := os.WriteFile(out, codeHeavySession(t, codeHeavyRoot(), 3), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
