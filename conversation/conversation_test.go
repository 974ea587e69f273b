package conversation

import (
	"strings"
	"testing"

	"canopy/sessiontree"
)

const head = `{"type":"session","version":3,"id":"s","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/x"}`

func load(t *testing.T, lines ...string) *sessiontree.Session {
	t.Helper()
	s, err := sessiontree.Load([]byte(head+"\n"+strings.Join(lines, "\n")+"\n"), "test.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestClassifyAndCalls(t *testing.T) {
	s := load(t,
		`{"type":"message","id":"u","parentId":null,"timestamp":"2026-03-01T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}`,
		`{"type":"message","id":"a","parentId":"u","timestamp":"2026-03-01T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a.go"}}],"stopReason":"aborted"}}`,
		`{"type":"message","id":"a2","parentId":"a","timestamp":"2026-03-01T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"wait"}],"stopReason":"length"}}`,
		`{"type":"message","id":"r","parentId":"a2","timestamp":"2026-03-01T10:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"package a"}],"details":{"diff":"-a\n+b"}}}`,
		`{"type":"message","id":"o","parentId":"r","timestamp":"2026-03-01T10:00:03.000Z","message":{"role":"toolResult","toolCallId":"nowhere","toolName":"read","content":[]}}`,
		`{"type":"model_change","id":"m","parentId":"o","timestamp":"2026-03-01T10:00:04.000Z","provider":"p","modelId":"x"}`,
		`{"type":"message","id":"w","parentId":"m","timestamp":"2026-03-01T10:00:04.000Z","message":{"role":"weird","content":[]}}`,
		`{"type":"strange","id":"z","parentId":"w","timestamp":"2026-03-01T10:00:04.000Z"}`,
	)
	c := New(s)
	kinds := map[string]Kind{"u": Prompt, "a": Reply, "a2": Reply, "r": ToolResult, "o": ToolResult, "m": ModelChange, "w": UnknownRole, "z": Unknown}
	for id, want := range kinds {
		e := s.Entry(id)
		if e == nil {
			t.Fatalf("no entry %s", id)
		}
		var b *sessiontree.Body
		var err error
		if NeedsBody(e) {
			b, err = e.Decode()
		}
		if got := Classify(e, b, err); got != want {
			t.Errorf("%s: kind %d, want %d", id, got, want)
		}
	}
	call, ok := c.CallOf(s.Entry("r"))
	if !ok || call.Name != "read" || call.Message.ID != "a" || !strings.Contains(string(call.Args), "a.go") {
		t.Errorf("the result's call: %+v, %v", call, ok)
	}
	if _, ok := c.CallOf(s.Entry("o")); ok {
		t.Error("a result answering no call has one")
	}
	b, _ := s.Entry("r").Decode()
	if d := EditDiff(b.Message.Details); d != "-a\n+b" {
		t.Errorf("EditDiff: %q", d)
	}
	for id, want := range map[string]Stop{"a": Aborted, "a2": Cut} {
		b, _ := s.Entry(id).Decode()
		if got := StopOf(b.Message); got != want {
			t.Errorf("%s: stop %d, want %d", id, got, want)
		}
	}
	if ModelName("", "m") != "m" || ModelName("p", "m") != "p/m" {
		t.Error("ModelName")
	}
}
