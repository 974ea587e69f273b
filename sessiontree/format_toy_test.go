package sessiontree

import (
	"bytes"
	"os"
	"slices"
	"testing"
)

func TestToy(t *testing.T) {
	data, err := os.ReadFile("testdata/toy/chat.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Load(data, "chat.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, s)
	var pk Peeker // canopy list
	if p, err := pk.Peek(bytes.NewReader(data), int64(len(data))); err != nil || p.Format != FormatToy || p.Prompt != "hello" {
		t.Errorf("peek %+v, %v", p, err)
	}
	if s.Format != FormatToy || len(s.Entries) != 6 || len(s.Diagnostics) != 0 {
		t.Fatalf("%s, %d entries, %v", s.Format, len(s.Entries), s.Diagnostics)
	}
	if got := ids(s.Path(s.Leaf)); !slices.Equal(got, []string{"1", "2", "5", "6"}) {
		t.Errorf("path %v", got)
	}
	if leaves, forks := s.Shape(); leaves != 2 || forks != 1 {
		t.Errorf("shape %d, %d", leaves, forks)
	}
	b, err := s.Entry("6").Decode()
	if err != nil || b.Message.Role != RoleAssistant || b.Message.Content[0].Text != "a blog it is" {
		t.Errorf("decode %+v, %v", b, err)
	}
	keep := make([]bool, len(s.Entries))
	for _, e := range s.Path(s.Leaf) {
		keep[e.Index] = true
	}
	keep[1] = false // "2": "5" now answers "1"
	out, err := s.Cut().Write(keep, s.Leaf, CutOptions{}, &CutCounts{})
	if err != nil {
		t.Fatal(err)
	}
	cut, err := Load(out, "cut.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(cut.Path(cut.Leaf)); !slices.Equal(got, []string{"1", "5", "6"}) || cut.Format != FormatToy {
		t.Errorf("cut: %s, path %v\n%s", cut.Format, got, out)
	}
}
