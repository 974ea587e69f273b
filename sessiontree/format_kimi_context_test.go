package sessiontree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Kimi CLI's context file (before its wire log): OpenAI-shaped messages
// between its _checkpoint and _usage records, read as one branch, the
// records bookkeeping, calls paired with their results.
func TestKimiContext(t *testing.T) {
	path := filepath.Join("testdata", "kimi", "context", "4f1c2d3e-0000-4000-8000-000000000001.jsonl")
	s, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Format != FormatKimi || len(s.Entries) != 10 {
		t.Fatalf("format %q, %d entries", s.Format, len(s.Entries))
	}
	var roles []string
	book := 0
	for _, e := range s.Path(s.Leaf) {
		if e.Bookkeeping {
			book++
			continue
		}
		roles = append(roles, e.Role)
	}
	if strings.Join(roles, ",") != "user,assistant,toolResult,assistant" || book != 6 {
		t.Errorf("roles %v, %d bookkeeping", roles, book)
	}
	if leaves, points := s.Shape(); leaves != 1 || points != 0 {
		t.Errorf("shape: %d leaves, %d branch points", leaves, points)
	}
	res := s.Entries[6]
	if res.Role != RoleToolResult || res.ToolName != "ReadFile" {
		t.Errorf("result %+v", res)
	}
	b, err := s.Entries[4].Decode()
	if err != nil || len(b.Message.Content) != 2 || b.Message.Content[1].Type != "toolCall" || b.Message.Content[1].Name != "ReadFile" {
		t.Fatalf("reply %+v, %v", b, err)
	}
	if !strings.Contains(string(b.Message.Content[1].Arguments), "parse.py") {
		t.Errorf("arguments %s", b.Message.Content[1].Arguments)
	}
	// A line of another format's shape is not claimed.
	if _, err := Load([]byte(`{"role":"user","content":"hi"}`+"\n"), "x.jsonl"); err == nil {
		t.Error("a bare message line was read as a session")
	}
}

// An Aider history is named by its repository, the directory Aider keeps
// it in, which is its project.
func TestAiderNamedByRepository(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "calc")
	path := filepath.Join(dir, ".aider.chat.history.md")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("\n# aider chat started at 2025-05-04 17:02:36\n\n#### hi  \n\nHello.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Header.ID != "calc" || s.Header.Cwd != dir {
		t.Errorf("id %q, cwd %q", s.Header.ID, s.Header.Cwd)
	}
}

// An Amp thread's working directory is its first tree's file: URI, its
// escapes decoded.
func TestAmpCwdDecoded(t *testing.T) {
	doc := `{"v":57,"id":"T-3f1c","created":1757000000000,"title":"Fix failing test",
 "messages":[{"role":"user","messageId":0,"content":[{"type":"text","text":"fix the failing test"}],"meta":{"sentAt":1757000001000}}],
 "env":{"initial":{"trees":[{"displayName":"app","uri":"file:///home/u/my%20app"}]}}}`
	s, err := Load([]byte(doc), "T-3f1c.json")
	if err != nil {
		t.Fatal(err)
	}
	if s.Header.Cwd != "/home/u/my app" {
		t.Errorf("cwd %q", s.Header.Cwd)
	}
	if got := filePath("relative/dir"); got != "relative/dir" {
		t.Errorf("not a URI: %q", got)
	}
}
