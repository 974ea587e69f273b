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

func load(t *testing.T, data []byte) *sessiontree.Session {
	t.Helper()
	s, err := sessiontree.Load(data, "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range s.Diagnostics {
		if d.Severity != sessiontree.SevInfo { // a parent guessed, which the cut keeps
			t.Errorf("diagnostic: %+v", d)
		}
	}
	return s
}

func ids(entries []*sessiontree.Entry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.ID)
	}
	return out
}

func kinds(t *testing.T) *sessiontree.Session {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "render", "kinds.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return load(t, data)
}

func TestPathOnly(t *testing.T) {
	s := kinds(t)
	// The branch summary hangs off assistant-bash: a second branch.
	leaf := s.Entry("assistant-final")
	out, sum, err := Apply(s, leaf, Options{PathOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	got := load(t, out)
	if want := ids(s.Path(leaf)); !slices.Equal(ids(got.Entries), want) {
		t.Errorf("entries %v, want the path %v", ids(got.Entries), want)
	}
	if got.Leaf.ID != leaf.ID || !slices.Equal(ids(got.Path(got.Leaf)), ids(s.Path(leaf))) {
		t.Errorf("leaf %s, path %v", got.Leaf.ID, ids(got.Path(got.Leaf)))
	}
	if bytes.Contains(out, []byte("branch-summary")) {
		t.Error("the other branch is still in the file")
	}
	if len(sum.Omitted) != 1 || !strings.Contains(sum.Omitted[0], "(1 entry)") {
		t.Errorf("summary %q", sum.Omitted)
	}
}

func TestLegacyIDsKept(t *testing.T) {
	v1 := strings.Join([]string{
		`{"type":"session","id":"s","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/x"}`,
		`{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}`,
		``,
		`{"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"hello"}]}}`,
	}, "\n")
	s := load(t, []byte(v1))
	out, _, err := Apply(s, s.Leaf, Options{NoThinking: true})
	if err != nil {
		t.Fatal(err)
	}
	got := load(t, out)
	if got.Version != 3 {
		t.Errorf("version %d, want 3", got.Version)
	}
	if want := []string{"L2", "L4"}; !slices.Equal(ids(got.Entries), want) {
		t.Errorf("ids %v, want %v (deep links into the full page must still work)", ids(got.Entries), want)
	}
	if got.Entries[1].ParentID != "L2" {
		t.Errorf("parent %q", got.Entries[1].ParentID)
	}
	if bytes.Contains(out, []byte("hmm")) {
		t.Error("thinking survived")
	}
	if !bytes.Contains(out, []byte("hello")) {
		t.Error("text was lost")
	}
}

func TestNoToolOutputAndNoHidden(t *testing.T) {
	s := kinds(t)
	out, sum, err := Apply(s, s.Leaf, Options{NoToolOutput: true, NoHidden: true})
	if err != nil {
		t.Fatal(err)
	}
	got := load(t, out)
	for _, secret := range []string{"net.Listen(", `"diff"`, "Wrote 2 lines", "hidden note", `"k":[1,2]`, " M server_test.go"} {
		if bytes.Contains(out, []byte(secret)) {
			t.Errorf("%q survived", secret)
		}
	}
	// Tool calls (inputs) stay; results stay as entries, with a placeholder.
	if !bytes.Contains(out, []byte("go test ./... -run TestServe")) {
		t.Error("a tool call's arguments were removed")
	}
	if got.Entry("result-read") == nil || got.Entry("custom-hidden") != nil {
		t.Error("wrong entries kept")
	}
	// The hidden message's child now hangs from its parent.
	if c := got.Entry("custom-entry"); c == nil || c.ParentID != "custom-shown" {
		t.Errorf("child of the removed entry: %+v", c)
	}
	if got.Entry("custom-shown") == nil {
		t.Error("a displayed custom message was removed")
	}
	if len(sum.Omitted) != 3 {
		t.Errorf("summary %q, want tool output, hidden messages and extension state", sum.Omitted)
	}
}

func TestFlueStaysFlue(t *testing.T) {
	doc := `{"version":3,"entries":[` +
		`{"type":"message","id":"a","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"q"}},` +
		`{"type":"message","id":"b","parentId":"a","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"x"}]}},` +
		`{"type":"message","id":"c","parentId":"a","timestamp":"2025-01-01T00:00:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":"y"}]}}` +
		`],"leafId":"b","metadata":{"taskSessions":[{"session":"t1","taskId":"k"}]}}`
	s := load(t, []byte(doc))
	out, _, err := Apply(s, s.Leaf, Options{PathOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	got := load(t, out)
	if got.Format != sessiontree.FormatFlue || got.Leaf == nil || got.Leaf.ID != "b" || len(got.Entries) != 2 || len(got.ChildSessions) != 1 {
		t.Errorf("format %s, leaf %v, entries %v, children %v", got.Format, got.Leaf, ids(got.Entries), got.ChildSessions)
	}
}
