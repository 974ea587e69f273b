package conversation

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"canopy/sessiontree"
)

// branched is a pi session that forks after its first reply: one branch
// edits a.go and writes b.go, the other edits a.go twice.
// branched is a pi session that forks after its first reply: one
// branch reads r.go, edits a.go, writes b.go and fails to edit z.go; the
// other edits a.go in two replies, runs a command and writes w.go, which
// never answers.
const branched = `{"type":"session","version":3,"id":"s1","timestamp":"2026-03-02T09:00:00.000Z","cwd":"/p"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-03-02T09:00:01.000Z","message":{"role":"user","content":"go"}}
{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-03-02T09:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"stopReason":"stop"}}
{"type":"message","id":"x1","parentId":"a1","timestamp":"2026-03-02T09:00:03.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"r.go"}},{"type":"toolCall","id":"c2","name":"edit","arguments":{"path":"a.go"}},{"type":"toolCall","id":"c3","name":"write","arguments":{"file_path":"b.go","content":"z"}},{"type":"toolCall","id":"c4","name":"edit","arguments":{"path":"z.go"}}],"stopReason":"toolUse"}}
{"type":"message","id":"x2","parentId":"x1","timestamp":"2026-03-02T09:00:04.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"ok"}],"isError":false}}
{"type":"message","id":"x3","parentId":"x2","timestamp":"2026-03-02T09:00:05.000Z","message":{"role":"toolResult","toolCallId":"c2","toolName":"edit","content":[{"type":"text","text":"ok"}],"isError":false}}
{"type":"message","id":"x4","parentId":"x3","timestamp":"2026-03-02T09:00:06.000Z","message":{"role":"toolResult","toolCallId":"c3","toolName":"write","content":[{"type":"text","text":"ok"}],"isError":false}}
{"type":"message","id":"x5","parentId":"x4","timestamp":"2026-03-02T09:00:59.000Z","message":{"role":"toolResult","toolCallId":"c4","toolName":"edit","content":[{"type":"text","text":"ok"}],"isError":true}}
{"type":"message","id":"y1","parentId":"a1","timestamp":"2026-03-02T09:00:07.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"d1","name":"edit","arguments":{"path":"a.go"}}],"stopReason":"toolUse"}}
{"type":"message","id":"y2","parentId":"y1","timestamp":"2026-03-02T09:00:08.000Z","message":{"role":"toolResult","toolCallId":"d1","toolName":"edit","content":[{"type":"text","text":"ok"}],"isError":false}}
{"type":"message","id":"y3","parentId":"y2","timestamp":"2026-03-02T09:00:09.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"d2","name":"edit","arguments":{"path":"a.go"}},{"type":"toolCall","id":"d3","name":"bash","arguments":{"command":"echo > c.go"}},{"type":"toolCall","id":"d4","name":"write","arguments":{"path":"w.go"}}],"stopReason":"toolUse"}}
{"type":"message","id":"y4","parentId":"y3","timestamp":"2026-03-02T09:00:10.000Z","message":{"role":"toolResult","toolCallId":"d2","toolName":"edit","content":[{"type":"text","text":"ok"}],"isError":false}}
{"type":"message","id":"y5","parentId":"y4","timestamp":"2026-03-02T09:00:12.000Z","message":{"role":"toolResult","toolCallId":"d3","toolName":"bash","content":[{"type":"text","text":"ok"}],"isError":false}}
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
		{"x3", "y2", "a1", "x1 x2 x3", "y1 y2"},
		{"y2", "x3", "a1", "y1 y2", "x1 x2 x3"},
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
	c := New(s)
	f := ForkOf(s, s.Entry("x5"), s.Entry("y5"))
	got := func(fs []TouchedFile) string {
		var out []string
		for _, x := range fs {
			out = append(out, fmt.Sprintf("%s@%s×%d", x.Path, x.Last.ID, x.Replies))
		}
		return strings.Join(out, " ")
	}
	// A read, a bash command and a call that failed or never answered
	// change nothing; a.go is changed by one reply on A, two on B.
	if g := got(c.FilesTouched(f.A)); g != "a.go@x1×1 b.go@x1×1" {
		t.Errorf("side A: %s", g)
	}
	if g := got(c.FilesTouched(f.B)); g != "a.go@y3×2" {
		t.Errorf("side B: %s", g)
	}
}

// FilesTouched reads every format's edits in pi's terms: Claude Code's
// Edit, MultiEdit and Write, Codex's apply_patch (each file its patch
// names).
func TestFilesTouchedFormats(t *testing.T) {
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
		for _, f := range New(s).FilesTouched(s.Entries) {
			all = append(all, f.Path)
		}
		slices.Sort(all)
		if g := strings.Join(all, " "); g != c.want {
			t.Errorf("%s: files touched %q, want %q", c.file, g, c.want)
		}
	}
}
