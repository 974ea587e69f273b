package mdpage

import (
	"bytes"
	"canopy/sessiontree"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

const (
	hostileFixture = "../testdata/markdown/hostile.jsonl"
	legacyHostile  = "../testdata/hostile/hostile.jsonl"
	demoFixture    = "../testdata/demo/demo.jsonl"
)

func load(t testing.TB, path string) *sessiontree.Session {
	t.Helper()
	s, err := sessiontree.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func loadBytes(t testing.TB, data []byte) *sessiontree.Session {
	t.Helper()
	s, err := sessiontree.Load(data, "test.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func export(t testing.TB, s *sessiontree.Session, o Options) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, s, o); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return buf.String()
}

// session writes a pi v3 session: a header, then the entries, each the
// child of the one before unless it names its parentId.
func session(entries ...map[string]any) []byte {
	var buf bytes.Buffer
	hdr, _ := json.Marshal(map[string]any{"type": "session", "version": 3, "id": "test-session",
		"timestamp": "2026-02-03T04:05:06.000Z", "cwd": "/tmp"})
	buf.Write(hdr)
	buf.WriteByte('\n')
	parent := any(nil)
	for i, e := range entries {
		if _, ok := e["id"]; !ok {
			e["id"] = fmt.Sprintf("e%d", i+1)
		}
		if _, ok := e["parentId"]; !ok {
			e["parentId"] = parent
		}
		if _, ok := e["timestamp"]; !ok {
			e["timestamp"] = fmt.Sprintf("2026-02-03T04:%02d:%02d.000Z", (i+1)/60, (i+1)%60)
		}
		parent = e["id"]
		line, err := json.Marshal(e)
		if err != nil {
			panic(err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

func user(text string) map[string]any {
	return map[string]any{"type": "message", "message": map[string]any{"role": "user", "content": text}}
}

func assistant(blocks ...map[string]any) map[string]any {
	return map[string]any{"type": "message", "message": map[string]any{"role": "assistant", "content": blocks,
		"provider": "anthropic", "model": "claude-test", "stopReason": "stop"}}
}

func textBlock(s string) map[string]any     { return map[string]any{"type": "text", "text": s} }
func thinkingBlock(s string) map[string]any { return map[string]any{"type": "thinking", "thinking": s} }
func callBlock(id, name string, args map[string]any) map[string]any {
	return map[string]any{"type": "toolCall", "id": id, "name": name, "arguments": args}
}

func result(callID, name, out string) map[string]any {
	return map[string]any{"type": "message", "message": map[string]any{"role": "toolResult", "toolCallId": callID,
		"toolName": name, "content": []any{textBlock(out)}, "isError": false}}
}

// pathTexts are the user prompts and tool outputs on the path from from
// to leaf, as the export must show them (normalize), read apart from the
// export's code.
func pathTexts(t testing.TB, s *sessiontree.Session, from, leaf *sessiontree.Entry) (prompts, outputs []string) {
	t.Helper()
	path := s.Path(leaf)
	if from != nil {
		for i, e := range path {
			if e == from {
				path = path[i:]
				break
			}
		}
	}
	for _, e := range path {
		if e.Type != sessiontree.TypeMessage {
			continue
		}
		b, err := e.Decode()
		if err != nil || b.Message == nil {
			continue
		}
		var texts []string
		for _, blk := range b.Message.Content {
			if blk.Type == "text" {
				texts = append(texts, blk.Text)
			}
		}
		switch b.Message.Role {
		case sessiontree.RoleUser:
			for _, tx := range texts {
				if strings.TrimSpace(tx) != "" {
					prompts = append(prompts, normalize(tx))
				}
			}
		case sessiontree.RoleToolResult:
			if out := normalizeOutput(strings.Join(texts, "\n")); strings.TrimSpace(out) != "" {
				outputs = append(outputs, out)
			}
		case sessiontree.RoleBashExecution:
			if out := normalizeOutput(b.Message.Output); strings.TrimSpace(out) != "" {
				outputs = append(outputs, out)
			}
		}
	}
	return prompts, outputs
}
