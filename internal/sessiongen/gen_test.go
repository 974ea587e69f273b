package sessiongen

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

type line struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	ParentID  *string         `json:"parentId"`
	Version   int             `json:"version"`
	Message   json.RawMessage `json:"message"`
	TargetID  string          `json:"targetId"`
	FromID    string          `json:"fromId"`
	FirstKept string          `json:"firstKeptEntryId"`
}

func generate(t *testing.T, cfg Config) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Generate(&buf, cfg); err != nil {
		t.Fatalf("Generate(%+v): %v", cfg, err)
	}
	return buf.Bytes()
}

func parse(t *testing.T, data []byte) (header line, entries []line) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	n := 0
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("line %d is not valid JSON: %v", n+1, err)
		}
		if n == 0 {
			header = l
		} else {
			entries = append(entries, l)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		t.Fatal("output does not end with a newline")
	}
	return header, entries
}

// generateCases are TestGenerate's configurations.
var generateCases = []struct {
	name string
	cfg  Config
}{
	{"branched", Config{Entries: 3000, Shape: ShapeBranched, Seed: 1}},
	{"branched other seed", Config{Entries: 3000, Shape: ShapeBranched, Seed: 42}},
	{"branched small content", Config{Entries: 2000, Shape: ShapeBranched, Seed: 7, Content: "small"}},
	{"linear", Config{Entries: 5000, Shape: ShapeLinear, Seed: 1}},
	{"linear full content", Config{Entries: 1500, Shape: ShapeLinear, Seed: 3, Content: "full"}},
	{"wide", Config{Entries: 2000, Shape: ShapeWide, Seed: 1}},
	{"one entry", Config{Entries: 1, Shape: ShapeBranched, Seed: 1}},
	{"no entries", Config{Entries: 0, Shape: ShapeLinear, Seed: 1}},
	{"images", Config{Entries: 400, Shape: ShapeBranched, Seed: 5, Images: 7, ImageBytes: 3000}},
	{"many images", Config{Entries: 40, Shape: ShapeBranched, Seed: 5, Images: 30, ImageBytes: 100}},
	{"images everywhere", Config{Entries: 10, Shape: ShapeLinear, Seed: 5, Images: 10, ImageBytes: 64}},
	{"wide images", Config{Entries: 100, Shape: ShapeWide, Seed: 9, Images: 3, ImageBytes: 500}},
}

func TestGenerate(t *testing.T) {
	for _, tt := range generateCases {
		t.Run(tt.name, func(t *testing.T) {
			data := generate(t, tt.cfg)
			if again := generate(t, tt.cfg); !bytes.Equal(data, again) {
				t.Fatal("same config produced different bytes")
			}
			header, entries := parse(t, data)
			if header.Type != "session" || header.Version != 3 || header.ID == "" {
				t.Fatalf("bad header %+v", header)
			}
			if len(entries) != tt.cfg.Entries {
				t.Fatalf("got %d entries, want %d", len(entries), tt.cfg.Entries)
			}
			index := checkIDs(t, entries)
			checkCompactions(t, entries, index)
			checkShape(t, tt.cfg.Shape, entries)
			if got := countImages(t, entries); got != tt.cfg.Images {
				t.Fatalf("got %d image messages, want %d", got, tt.cfg.Images)
			}
		})
	}
}

// checkIDs checks that every id is unique and made of 8 hex digits, and
// that every parent and reference is an earlier entry. It returns the
// entries' indexes by id.
func checkIDs(t *testing.T, entries []line) map[string]int {
	t.Helper()
	index := map[string]int{}
	for i, e := range entries {
		if len(e.ID) != 8 || strings.Trim(e.ID, "0123456789abcdef") != "" {
			t.Fatalf("entry %d: id %q is not 8 hex chars", i, e.ID)
		}
		if _, dup := index[e.ID]; dup {
			t.Fatalf("entry %d: duplicate id %q", i, e.ID)
		}
		if e.ParentID == nil {
			if i != 0 {
				t.Fatalf("entry %d: unexpected root", i)
			}
		} else if _, ok := index[*e.ParentID]; !ok {
			t.Fatalf("entry %d: parent %q is not an earlier entry", i, *e.ParentID)
		}
		for _, ref := range []string{e.TargetID, e.FirstKept} {
			if _, ok := index[ref]; ref != "" && !ok {
				t.Fatalf("entry %d (%s): reference %q is not an earlier entry", i, e.Type, ref)
			}
		}
		index[e.ID] = i
	}
	return index
}

// checkCompactions: a compaction keeps entries from firstKeptEntryId on,
// which must be an ancestor of the compaction.
func checkCompactions(t *testing.T, entries []line, index map[string]int) {
	t.Helper()
	for i, e := range entries {
		if e.Type != "compaction" {
			continue
		}
		found := false
		for p := e.ParentID; p != nil && !found; p = entries[index[*p]].ParentID {
			found = *p == e.FirstKept
		}
		if !found {
			t.Fatalf("entry %d: firstKeptEntryId %q is not on the compaction's path", i, e.FirstKept)
		}
	}
}

// checkShape checks the parents of a linear session (each entry's is the
// one before) and of a wide one (every entry's is the root).
func checkShape(t *testing.T, shape string, entries []line) {
	t.Helper()
	switch shape {
	case ShapeLinear:
		for i, e := range entries[min(1, len(entries)):] {
			if *e.ParentID != entries[i].ID {
				t.Fatalf("entry %d: parent %q, want previous entry %q", i+1, *e.ParentID, entries[i].ID)
			}
		}
	case ShapeWide:
		for i, e := range entries[min(1, len(entries)):] {
			if *e.ParentID != entries[0].ID {
				t.Fatalf("entry %d: parent %q, want root %q", i+1, *e.ParentID, entries[0].ID)
			}
		}
	}
}

func countImages(t *testing.T, entries []line) int {
	n := 0
	for _, e := range entries {
		if e.Message == nil {
			continue
		}
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(e.Message, &m); err != nil {
			t.Fatal(err)
		}
		var blocks []struct {
			Type     string `json:"type"`
			Data     string `json:"data"`
			MimeType string `json:"mimeType"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue // string content
		}
		for _, b := range blocks {
			if b.Type != "image" {
				continue
			}
			if m.Role != "user" || b.MimeType != "image/png" {
				t.Fatalf("image in a %s message with type %q", m.Role, b.MimeType)
			}
			raw, err := base64.StdEncoding.DecodeString(b.Data)
			if err != nil || !bytes.HasPrefix(raw, pngSignature) {
				t.Fatalf("image data is not base64 PNG: %v", err)
			}
			n++
		}
	}
	return n
}

// The branched shape must actually branch, and carry the other entry types.
func TestBranchedHasVariety(t *testing.T) {
	data := generate(t, Config{Entries: 20000, Shape: ShapeBranched, Seed: 1})
	_, entries := parse(t, data)
	types := map[string]int{}
	children := map[string]int{}
	for _, e := range entries {
		types[e.Type]++
		if e.ParentID != nil {
			children[*e.ParentID]++
		}
	}
	branchPoints := 0
	for _, n := range children {
		if n > 1 {
			branchPoints++
		}
	}
	if branchPoints < 10 {
		t.Errorf("only %d branch points", branchPoints)
	}
	for _, typ := range []string{"message", "branch_summary", "label", "compaction", "model_change",
		"thinking_level_change", "session_info", "custom", "custom_message"} {
		if types[typ] == 0 {
			t.Errorf("no %s entries", typ)
		}
	}
	for _, want := range []string{`"role":"toolResult"`, `"role":"bashExecution"`, `"stopReason":"error"`,
		`"stopReason":"aborted"`, `"stopReason":"length"`, `"type":"thinking"`, `"diff":"`,
		`"name":"read"`, `"name":"write"`, `"name":"edit"`, `"name":"bash"`, `"name":"grep"`, `"name":"find"`, `"name":"ls"`} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("output has no %s", want)
		}
	}
	// About 850 bytes per entry on average.
	if per := len(data) / len(entries); per < 650 || per > 1100 {
		t.Errorf("average entry size %d bytes, want about 850", per)
	}
}

func TestBadConfig(t *testing.T) {
	for _, cfg := range []Config{
		{Entries: -1, Shape: ShapeLinear},
		{Entries: 10, Shape: "round"},
		{Entries: 10, Shape: ShapeLinear, Images: 11},
		{Entries: 10, Shape: ShapeLinear, Content: "huge"},
	} {
		if err := Generate(io.Discard, cfg); err == nil {
			t.Errorf("Generate(%+v) succeeded, want an error", cfg)
		}
	}
}

func BenchmarkBranched(b *testing.B) {
	for b.Loop() {
		if err := Generate(io.Discard, Config{Entries: 10000, Shape: ShapeBranched, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLinear(b *testing.B) {
	for b.Loop() {
		if err := Generate(io.Discard, Config{Entries: 10000, Shape: ShapeLinear, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
