package scope

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"canopy/sessiontree"
)

func fixture(t *testing.T, name string) *sessiontree.Session {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return load(t, data)
}

// The sessions of sessiontree's own test data (Gemini CLI, Qwen Code,
// Copilot CLI), as fixture names them.
const (
	gemini  = "../sessiontree/testdata/gemini/session-2026-03-04T08-00-a1b2c3d4.jsonl"
	qwen    = "../sessiontree/testdata/qwen/3f1e0a52-qs-0001.jsonl"
	copilot = "../sessiontree/testdata/copilot/events.jsonl"
)

// TestLineFormats: a Claude Code transcript or a Codex rollout is cut in
// its own format, each entry kept with its id, its place in the tree and
// its bytes, but for what the options leave out.
func TestLineFormats(t *testing.T) {
	cases := []struct {
		file    string
		o       Options
		gone    []string // the entries left out
		changed []string // the entries whose line changed
		omitted []string
	}{
		{file: "claude/session.jsonl", o: Options{NoThinking: true},
			changed: []string{"a1"}, omitted: []string{"thinking (1 block)"}},
		{file: "claude/session.jsonl", o: Options{NoToolOutput: true},
			changed: []string{"r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "u4", "u6"},
			omitted: []string{"tool output (13 results)"}},
		{file: "claude/session.jsonl", o: Options{NoHidden: true},
			gone:    []string{"L1", "L2", "p1", "h1", "s1", "u3", "u8", "L50", "m1"},
			changed: []string{"a5", "a8", "u2", "u4", "e1"},
			omitted: []string{"custom messages hidden from the user (3 messages)", "extension state (6 entries)"}},
		{file: "claude/session.jsonl", o: Options{PathOnly: true},
			gone:    []string{"L1", "L2", "s3", "L50", "m1"},
			omitted: []string{"every branch but the one shown (5 entries)"}},
		{file: "claude/compaction.jsonl", o: Options{PathOnly: true, NoHidden: true},
			gone:    []string{"u2", "a2"},
			omitted: []string{"every branch but the one shown (2 entries)"}},
		{file: "claude/sidechains.jsonl", o: Options{PathOnly: true, NoToolOutput: true},
			changed: []string{"s3", "r1"}, omitted: []string{"tool output (3 results)"}},
		{file: "claude/old-1.0.jsonl", o: Options{PathOnly: true},
			gone: []string{"L2"}, omitted: []string{"every branch but the one shown (1 entry)"}},
		{file: "codex/rollout.jsonl", o: Options{NoThinking: true},
			gone: []string{"L7", "L8"}, omitted: []string{"thinking (1 block)"}},
		{file: "codex/rollout.jsonl", o: Options{NoToolOutput: true},
			changed: []string{"L11", "L12", "L14", "L15", "L17", "L19", "L41"},
			omitted: []string{"tool output (5 results)"}},
		{file: "codex/rollout.jsonl", o: Options{NoHidden: true},
			gone:    []string{"L2", "L4", "L7", "L12", "L14", "L23", "L28", "L32", "L37"}, // L42, extension state, is the leaf
			omitted: []string{"custom messages hidden from the user (1 message)", "extension state (8 entries)"}},
		{file: "codex/rollout.jsonl", o: Options{PathOnly: true}},
		{file: "codex/legacy-2025.jsonl", o: Options{NoThinking: true, NoToolOutput: true, NoHidden: true},
			gone:    []string{"L2", "L3", "L5", "L6"},
			changed: []string{"L8"},
			omitted: []string{"custom messages hidden from the user (1 message)", "thinking (1 block)", "tool output (1 result)", "extension state (2 entries)"}},
		{file: "codex/events-only.jsonl", o: Options{NoThinking: true},
			gone: []string{"L4"}, omitted: []string{"thinking (1 block)"}},
		{file: gemini, o: Options{PathOnly: true},
			gone: []string{"L3", "L6", "u2", "e1", "L11"}, omitted: []string{"every branch but the one shown (5 entries)"}},
		{file: gemini, o: Options{NoThinking: true, NoToolOutput: true},
			changed: []string{"g1", "g1/result-1", "g1/result-2"}, omitted: []string{"thinking (1 block)", "tool output (2 results)"}},
		{file: gemini, o: Options{NoHidden: true},
			gone: []string{"L3", "L6"}, omitted: []string{"extension state (2 entries)"}},
		{file: qwen, o: Options{PathOnly: true, NoThinking: true, NoToolOutput: true},
			gone:    []string{"q5", "q6", "q7", "q8"},
			changed: []string{"q2", "q3"},
			omitted: []string{"every branch but the one shown (4 entries)", "thinking (1 block)", "tool output (1 result)"}},
		{file: qwen, o: Options{NoHidden: true},
			gone: []string{"q8", "q12"}, changed: []string{"q13"}, omitted: []string{"extension state (2 entries)"}},
		{file: copilot, o: Options{NoThinking: true, NoToolOutput: true},
			changed: []string{"e5", "e7", "e13"}, omitted: []string{"thinking (1 block)", "tool output (2 results)"}},
		{file: copilot, o: Options{NoHidden: true},
			gone:    []string{"e2", "e4", "e6", "e9"},
			changed: []string{"e3", "e5", "e7", "e10"},
			omitted: []string{"extension state (4 entries)"}},
	}
	for _, c := range cases {
		t.Run(c.file+" "+optionNames(c.o), func(t *testing.T) {
			s := fixture(t, c.file)
			out, sum, err := Apply(s, s.Leaf, c.o)
			if err != nil {
				t.Fatal(err)
			}
			cut := load(t, out)
			if cut.Format != s.Format || cut.Header.ID != s.Header.ID || cut.Header.Title != s.Header.Title {
				t.Errorf("format %s, id %q, title %q; want %s, %q, %q", cut.Format, cut.Header.ID, cut.Header.Title, s.Format, s.Header.ID, s.Header.Title)
			}
			var want []string
			for _, e := range s.Entries {
				if !slices.Contains(c.gone, e.ID) {
					want = append(want, e.ID)
				}
			}
			if got := ids(cut.Entries); !slices.Equal(got, want) {
				t.Errorf("entries %v,\nwant %v", got, want)
			}
			if cut.Leaf == nil || cut.Leaf.ID != s.Leaf.ID {
				t.Errorf("leaf %v, want %s", cut.Leaf, s.Leaf.ID)
			}
			var changed []string
			for _, e := range cut.Entries {
				checkCutEntry(t, s, cut, e, c.o)
				a, _ := e.Raw()
				b, _ := s.Entry(e.ID).Raw()
				if !bytes.Equal(a, b) {
					changed = append(changed, e.ID)
				}
			}
			if !slices.Equal(changed, c.changed) {
				t.Errorf("changed %v, want %v", changed, c.changed)
			}
			if !slices.Equal(sum.Omitted, c.omitted) {
				t.Errorf("omitted %q, want %q", sum.Omitted, c.omitted)
			}
		})
	}
}

func optionNames(o Options) string {
	var n []string
	for _, f := range []struct {
		on   bool
		name string
	}{{o.PathOnly, "path"}, {o.NoThinking, "thinking"}, {o.NoToolOutput, "output"}, {o.NoHidden, "hidden"}} {
		if f.on {
			n = append(n, f.name)
		}
	}
	return strings.Join(n, "+")
}

// checkCutEntry checks an entry of the cut against the original: the same
// kind, its parent the nearest ancestor kept, and none of what o leaves
// out.
func checkCutEntry(t *testing.T, s, cut *sessiontree.Session, e *sessiontree.Entry, o Options) {
	t.Helper()
	orig := s.Entry(e.ID)
	if e.Type != orig.Type || e.Role != orig.Role || e.CustomType != orig.CustomType || e.Line != orig.Line {
		t.Errorf("%s: %s/%s/%s at line %d, was %s/%s/%s at %d", e.ID, e.Type, e.Role, e.CustomType, e.Line, orig.Type, orig.Role, orig.CustomType, orig.Line)
	}
	want := ""
	for p := orig.Parent; p != nil; p = p.Parent {
		if cut.Entry(p.ID) != nil {
			want = p.ID
			break
		}
	}
	if got := parentID(e); got != want {
		t.Errorf("%s: parent %q, want %q", e.ID, got, want)
	}
	b, err := e.Decode()
	if err != nil || b.Message == nil {
		return
	}
	for _, blk := range b.Message.Content {
		if o.NoThinking && blk.Type == "thinking" {
			t.Errorf("%s: thinking left: %+v", e.ID, blk)
		}
	}
	if o.NoToolOutput && e.Role == sessiontree.RoleToolResult && e.ToolName != "web_search" {
		for _, blk := range b.Message.Content {
			if blk.Type == "text" && blk.Text != OutputLeftOut {
				t.Errorf("%s: tool output left: %q", e.ID, blk.Text)
			}
		}
	}
}

func parentID(e *sessiontree.Entry) string {
	if e.Parent == nil {
		return ""
	}
	return e.Parent.ID
}

// TestLineFormatsFirstLine: a transcript's first line kept comes first
// when the lines left out before it are more than the reader looks at to
// tell the format; its id stays.
func TestLineFormatsFirstLine(t *testing.T) {
	var in bytes.Buffer
	for range 80 {
		in.WriteString(`{"type":"summary","summary":"another session","leafUuid":"elsewhere"}` + "\n")
	}
	in.WriteString(`{"type":"custom-title","customTitle":"Mine","sessionId":"s"}` + "\n")
	in.WriteString(`{"parentUuid":null,"isSidechain":false,"sessionId":"s","type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","timestamp":"2026-03-02T10:00:00.000Z"}` + "\n")
	s := load(t, in.Bytes())
	out, _, err := Apply(s, s.Leaf, Options{PathOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	cut := load(t, out)
	if got := ids(cut.Entries); !slices.Equal(got, []string{"L81", "u1"}) || cut.Header.Title != "Mine" {
		t.Errorf("entries %v, title %q:\n%s", got, cut.Header.Title, out)
	}
}

// TestCutKeepsGuessedParents: a cut of a Claude Code transcript whose
// compaction's parent is not in the file reads back with the same path:
// the reader guesses the same parents, and the prompts stay on it.
func TestCutKeepsGuessedParents(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "sessiontree", "testdata", "shape", "claude-forks.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	s := load(t, data)
	for _, o := range []Options{{PathOnly: true}, {PathOnly: true, NoHidden: true}, {NoHidden: true, NoThinking: true, NoToolOutput: true}} {
		out, _, err := Apply(s, s.Leaf, o)
		if err != nil {
			t.Fatal(err)
		}
		cut := load(t, out)
		if got, want := ids(cut.Path(cut.Leaf)), ids(s.Path(s.Leaf)); !slices.Equal(got, want) && !o.NoHidden {
			t.Errorf("%s: path %v, want %v", optionNames(o), got, want)
		}
		var prompts []string
		for _, e := range cut.Path(cut.Leaf) {
			if e.Role == sessiontree.RoleUser {
				prompts = append(prompts, e.ID)
			}
		}
		if !slices.Equal(prompts, []string{"u1", "u3", "u4", "u5"}) {
			t.Errorf("%s: prompts on the path %v", optionNames(o), prompts)
		}
		if leaves, forks := cut.Shape(); forks != 0 && o.PathOnly {
			t.Errorf("%s: %d leaves, %d branch points", optionNames(o), leaves, forks)
		}
	}
}
