package conversation

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"canopy/sessiontree"
)

// branched is a pi session that forks after its first reply: one branch
// edits a.go and writes b.go, the other edits a.go twice.
const branched = `{"type":"session","version":3,"id":"s1","timestamp":"2026-03-02T09:00:00.000Z","cwd":"/p"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-03-02T09:00:01.000Z","message":{"role":"user","content":"go"}}
{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-03-02T09:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"stopReason":"stop"}}
{"type":"message","id":"x1","parentId":"a1","timestamp":"2026-03-02T09:00:03.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"r.go"}},{"type":"toolCall","id":"c2","name":"edit","arguments":{"path":"a.go","oldText":"x","newText":"y"}},{"type":"toolCall","id":"c3","name":"write","arguments":{"file_path":"b.go","content":"z"}}],"stopReason":"toolUse"}}
{"type":"message","id":"x2","parentId":"x1","timestamp":"2026-03-02T09:01:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"r"}]}}
{"type":"message","id":"y1","parentId":"a1","timestamp":"2026-03-02T09:00:04.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"d1","name":"edit","arguments":{"path":"a.go"}}],"stopReason":"toolUse"}}
{"type":"message","id":"y2","parentId":"y1","timestamp":"2026-03-02T09:00:09.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"d2","name":"edit","arguments":{"path":"a.go"}},{"type":"toolCall","id":"d3","name":"bash","arguments":{"command":"echo > c.go"}}],"stopReason":"toolUse"}}
`

func loadText(t *testing.T, text, name string) *sessiontree.Session {
	t.Helper()
	s, err := sessiontree.Load([]byte(text), name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func ids(es []*sessiontree.Entry) string {
	var out []string
	for _, e := range es {
		out = append(out, e.ID)
	}
	return strings.Join(out, " ")
}

func TestForkOf(t *testing.T) {
	s := loadText(t, branched, "b.jsonl")
	for _, c := range []struct {
		a, b, at, sideA, sideB string
	}{
		{"x2", "y2", "a1", "x1 x2", "y1 y2"},
		{"y2", "x2", "a1", "y1 y2", "x1 x2"},
		{"x2", "x2", "x2", "", ""},
		{"a1", "y2", "a1", "", "y1 y2"}, // a's end is on b's path
		{"u1", "x1", "u1", "", "a1 x1"},
	} {
		f := ForkOf(s, s.Entry(c.a), s.Entry(c.b))
		at := ""
		if f.At != nil {
			at = f.At.ID
		}
		if at != c.at || ids(f.A) != c.sideA || ids(f.B) != c.sideB {
			t.Errorf("ForkOf(%s, %s) = at %q, A %q, B %q; want %q, %q, %q", c.a, c.b, at, ids(f.A), ids(f.B), c.at, c.sideA, c.sideB)
		}
	}
}

// Two roots share nothing: no fork entry, each side its whole path.
func TestForkOfRoots(t *testing.T) {
	s := loadText(t, `{"type":"session","version":3,"id":"s","timestamp":"2026-03-02T09:00:00.000Z"}
{"type":"message","id":"r1","parentId":null,"timestamp":"2026-03-02T09:00:01.000Z","message":{"role":"user","content":"a"}}
{"type":"message","id":"r2","parentId":null,"timestamp":"2026-03-02T09:00:02.000Z","message":{"role":"user","content":"b"}}
`, "roots.jsonl")
	f := ForkOf(s, s.Entry("r1"), s.Entry("r2"))
	if f.At != nil || ids(f.A) != "r1" || ids(f.B) != "r2" {
		t.Errorf("ForkOf of two roots = %v, %q, %q", f.At, ids(f.A), ids(f.B))
	}
}

func TestFilesTouched(t *testing.T) {
	s := loadText(t, branched, "b.jsonl")
	f := ForkOf(s, s.Entry("x2"), s.Entry("y2"))
	got := func(fs []TouchedFile) string {
		var out []string
		for _, x := range fs {
			out = append(out, x.Path+"@"+x.Entry.ID+"#"+string(rune('0'+x.Call))+"x"+string(rune('0'+x.Count)))
		}
		return strings.Join(out, " ")
	}
	// read and bash change nothing; a.go is changed once on A, twice on
	// B (the last by y2's first call).
	if g := got(FilesTouched(f.A)); g != "a.go@x1#1x1 b.go@x1#2x1" {
		t.Errorf("side A: %s", g)
	}
	if g := got(FilesTouched(f.B)); g != "a.go@y2#0x2" {
		t.Errorf("side B: %s", g)
	}
}

// FilesChanged reads every format's edits in pi's terms: Claude Code's
// Edit, MultiEdit and Write, Codex's apply_patch (each file its patch
// names).
func TestFilesChangedFormats(t *testing.T) {
	for _, c := range []struct {
		file string
		want string
	}{
		{"../testdata/claude/session.jsonl", "/work/p/main.go /work/p/parse.go /work/p/parse_test.go"},
		{"../testdata/codex/rollout.jsonl", "VERBOSE.md main.go"},
	} {
		s, err := sessiontree.LoadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		var all []string
		seen := map[string]bool{}
		for _, e := range s.Entries {
			for _, fc := range FilesChanged(e) {
				if !seen[fc.Path] {
					seen[fc.Path] = true
					all = append(all, fc.Path)
				}
			}
		}
		slices.Sort(all)
		if g := strings.Join(all, " "); g != c.want {
			t.Errorf("%s: files changed %q, want %q", c.file, g, c.want)
		}
	}
}

// A hostile path is cut to MaxPathLen bytes at a rune.
func TestClip(t *testing.T) {
	long := strings.Repeat("é", MaxPathLen)
	c := clip(long)
	if len(c) > MaxPathLen+len("…") || !utf8.ValidString(c) || !strings.HasSuffix(c, "…") {
		t.Errorf("clip: %d bytes, valid %v", len(c), utf8.ValidString(c))
	}
	if clip("a.go") != "a.go" {
		t.Error("clip changed a short path")
	}
}

func TestSpan(t *testing.T) {
	s := loadText(t, branched, "b.jsonl")
	f := ForkOf(s, s.Entry("x2"), s.Entry("y2"))
	if d, ok := Span(f.A); !ok || d != time.Minute {
		t.Errorf("Span(A) = %v, %v; want 1m", d, ok)
	}
	if d, ok := Span(f.B); !ok || d != 5*time.Second {
		t.Errorf("Span(B) = %v, %v; want 5s", d, ok)
	}
	if _, ok := Span(nil); ok {
		t.Error("Span of nothing is known")
	}
}
