package sessiontree

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const qwenChat = "3f1e0a52-qs-0001.jsonl"

// TestQwenChat: a Qwen Code chat is its uuid tree: a prompt edited after
// a compaction is a branch; replies, calls and results, compaction, name
// and model as recorded.
func TestQwenChat(t *testing.T) {
	runLoadCases(t, []loadCase{{
		name:   "chat",
		in:     agents1Fixture(t, "qwen", qwenChat),
		format: FormatQwen,
		ids:    []string{"q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9", "q10", "q11", "q12", "q13"},
		roots:  []string{"q1"}, leaf: "q13",
		path:     []string{"q1", "q2", "q3", "q4", "q9", "q10", "q11", "q12", "q13"},
		children: map[string][]string{"q4": {"q5", "q9"}, "q7": {"q8"}},
		check:    checkQwenChat,
	}})
}

func checkQwenChat(t *testing.T, s *Session) {
	if s.Header.ID != "qs-0001" || s.Header.Cwd != "/home/ada/app" || s.FormatVersion != "0.6.1" || s.Name != "Fix TestAdd" {
		t.Errorf("header %+v, version %q, name %q", s.Header, s.FormatVersion, s.Name)
	}
	for _, c := range []struct {
		id, typ, role, custom string
		bookkeeping           bool
	}{
		{"q1", TypeMessage, RoleUser, "", false},
		{"q2", TypeMessage, RoleAssistant, "", false},
		{"q3", TypeMessage, RoleToolResult, "", false},
		{"q5", TypeCompaction, "", "", false},
		{"q8", TypeCustom, "", "system: rewind", true},
		{"q11", TypeSessionInfo, "", "", true},
		{"q12", TypeCustom, "", "system: ui_telemetry", true},
		{"q13", TypeModelChange, "", "", true},
	} {
		e := mustEntry(t, s, c.id)
		if e.Type != c.typ || e.Role != c.role || e.CustomType != c.custom || e.Bookkeeping != c.bookkeeping {
			t.Errorf("%s: %s/%s/%q/%v, want %s/%s/%q/%v", c.id, e.Type, e.Role, e.CustomType, e.Bookkeeping, c.typ, c.role, c.custom, c.bookkeeping)
		}
	}
	q2 := mustEntry(t, s, "q2")
	if q2.Model != "qwen3-coder-plus" || q2.Provider != "qwen" || !reflect.DeepEqual(q2.CallIDs, []string{"call_1"}) ||
		q2.Usage == nil || *q2.Usage != (Usage{Input: 4000, Output: 100, CacheRead: 1000, TotalTokens: 5100}) {
		t.Errorf("q2 %+v usage %+v", q2, q2.Usage)
	}
	q3 := mustEntry(t, s, "q3")
	if q3.ToolCallID != "call_1" || q3.ToolName != "bash" {
		t.Errorf("q3 %+v", q3)
	}
	c := mustEntry(t, s, "q5")
	if !strings.HasPrefix(c.Summary, "Summary: the user asked to fix TestAdd") || c.TokensBefore != 9000 {
		t.Errorf("compaction %+v", c.Detail)
	}
	if e := mustEntry(t, s, "q13"); e.Model != "qwen3-max" {
		t.Errorf("model change %+v", e)
	}
	m := body(t, s, "q2").Message
	var kinds []string
	for _, b := range m.Content {
		kinds = append(kinds, b.Type)
	}
	if !reflect.DeepEqual(kinds, []string{"thinking", "text", "toolCall"}) || m.Content[2].ID != "call_1" ||
		m.Content[2].Name != "bash" || string(m.Content[2].Arguments) != `{"command":"go test ./..."}` || m.Usage == nil {
		t.Errorf("q2 body %v %+v", kinds, m)
	}
	if m := body(t, s, "q3").Message; m.ToolCallID != "call_1" || m.Content[0].Text != "--- FAIL: TestAdd" || m.IsError {
		t.Errorf("q3 body %+v", m)
	}
	if m := body(t, s, "q1").Message; m.Content[0].Text != "Fix the failing test" {
		t.Errorf("q1 body %+v", m)
	}
	if r := PairCalls(s).Result(q2, "call_1"); r != q3 {
		t.Errorf("call_1 paired with %v", r)
	}
	st := s.Stats(s.Entries)
	if st.Compactions != 1 || st.Messages[RoleUser] != 3 || st.ToolCalls != 1 {
		t.Errorf("stats %+v", st)
	}
}

// TestReadersKeepTheirFiles: every session of the repository's test data
// reads as it did before the Gemini CLI, Qwen Code and Copilot CLI
// readers: each Claude Code transcript as Claude Code, no file of another
// format as one of theirs, and what was refused still refused.
func TestReadersKeepTheirFiles(t *testing.T) {
	mine := []string{FormatGemini, FormatQwen, FormatCopilot}
	claude := 0
	err := filepath.WalkDir(filepath.Join("..", "testdata"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".jsonl") && !strings.HasSuffix(path, ".json") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		s, lerr := Load(data, path)
		under := func(dir string) bool { return strings.Contains(filepath.ToSlash(path), "/testdata/"+dir+"/") }
		switch {
		case under("refused"):
			if !errors.Is(lerr, ErrNotSession) {
				t.Errorf("%s: read as %v, want refused", path, s.Format)
			}
		case lerr != nil:
		case under("claude"):
			claude++
			if s.Format != FormatClaude {
				t.Errorf("%s: read as %s, want %s", path, s.Format, FormatClaude)
			}
		case slices.Contains(mine, s.Format):
			t.Errorf("%s: read as %s", path, s.Format)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if claude < 8 {
		t.Errorf("%d Claude Code transcripts found", claude)
	}
	for _, name := range []string{"claude-forks.jsonl"} {
		if s, err := Load(agents1Fixture(t, "shape", name), name); err != nil || s.Format != FormatClaude {
			t.Errorf("%s: %v, %v", name, s, err)
		}
	}
}
