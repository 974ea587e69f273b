package sessiontree

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Generated Claude Code transcripts and Codex rollouts, of the shape real
// ones have (streamed replies, file reads stored twice, patches, progress
// and token counts), for the benchmarks and for checks on big inputs.

// genText is n bytes of prose-like text, different for each seed.
func genText(seed, n int) string {
	words := []string{"parser", "returns", "the", "error", "when", "input", "ends", "early", "so", "callers",
		"can", "report", "it", "instead", "of", "panicking", "in", "production", "code", "paths"}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(words[(seed*7+i*3)%len(words)])
		if i%12 == 11 {
			b.WriteString(".\n")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()[:n]
}

// genCode is lines of Go-like code.
func genCode(seed, lines int) string {
	var b strings.Builder
	for i := range lines {
		fmt.Fprintf(&b, "\tif err := step%d(ctx, %d); err != nil { return fmt.Errorf(\"step %d: %%w\", err) }\n", (seed+i)%97, i, i)
	}
	return b.String()
}

// writeJSONL writes each value as one line.
func writeJSONL(b *bytes.Buffer, vs ...any) {
	for _, v := range vs {
		line, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
}

// claudeGenerated is a transcript of the given number of turns (about
// 10 KB each).
func claudeGenerated(turns int) []byte {
	var b bytes.Buffer
	prev := any(nil)
	n := 0
	line := func(typ string, extra map[string]any) string {
		n++
		id := fmt.Sprintf("%08x-0000-4000-8000-%012x", n, n)
		m := map[string]any{"type": typ, "uuid": id, "parentUuid": prev, "isSidechain": false, "userType": "external",
			"cwd": "/work/p", "sessionId": "gen", "version": "2.1.3", "gitBranch": "main",
			"timestamp": fmt.Sprintf("2026-03-02T%02d:%02d:%02d.000Z", n/3600%24, n/60%60, n%60)}
		for k, v := range extra {
			m[k] = v
		}
		writeJSONL(&b, m)
		prev = id
		return id
	}
	reply := func(i, part int, blocks ...any) {
		line("assistant", map[string]any{"requestId": fmt.Sprintf("req_%d", i), "message": map[string]any{
			"model": "claude-opus-4-5-20251101", "id": fmt.Sprintf("msg_%d_%d", i, part), "type": "message", "role": "assistant",
			"content": blocks, "stop_reason": nil, "usage": map[string]any{"input_tokens": 5, "output_tokens": 100 + i,
				"cache_read_input_tokens": 40000 + i, "cache_creation_input_tokens": 300}}})
	}
	result := func(id, content string, extra map[string]any) {
		m := map[string]any{"message": map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": id, "content": content}}}}
		for k, v := range extra {
			m[k] = v
		}
		line("user", m)
	}
	for i := range turns {
		line("user", map[string]any{"message": map[string]any{"role": "user", "content": genText(i, 300)}})
		reply(i, 0, map[string]any{"type": "thinking", "thinking": genText(i+1, 600), "signature": "c2ln"})
		reply(i, 0, map[string]any{"type": "text", "text": genText(i+2, 200)})
		read := fmt.Sprintf("toolu_r%d", i)
		reply(i, 0, map[string]any{"type": "tool_use", "id": read, "name": "Read", "input": map[string]any{"file_path": fmt.Sprintf("/work/p/f%d.go", i)}})
		code := genCode(i, 30)
		result(read, code, map[string]any{"toolUseResult": map[string]any{"type": "text", "file": map[string]any{
			"filePath": fmt.Sprintf("/work/p/f%d.go", i), "content": code, "numLines": 30, "startLine": 1, "totalLines": 30}}})
		edit := fmt.Sprintf("toolu_e%d", i)
		reply(i, 1, map[string]any{"type": "tool_use", "id": edit, "name": "Edit", "input": map[string]any{
			"file_path": fmt.Sprintf("/work/p/f%d.go", i), "old_string": genCode(i, 2), "new_string": genCode(i+1, 3)}})
		result(edit, "The file has been updated.", map[string]any{"toolUseResult": map[string]any{"structuredPatch": []any{
			map[string]any{"oldStart": 3, "oldLines": 4, "newStart": 3, "newLines": 5,
				"lines": []string{" ctx", "-" + genCode(i, 1), "-old", "+" + genCode(i+1, 1), "+new", "+more", " ctx"}}}}})
		line("progress", map[string]any{"data": map[string]any{"type": "hook_progress", "hookEvent": "PostToolUse", "command": "gofmt -l ."}})
		bash := fmt.Sprintf("toolu_b%d", i)
		reply(i, 2, map[string]any{"type": "tool_use", "id": bash, "name": "Bash", "input": map[string]any{"command": "go test ./...", "description": "Run the tests"}})
		result(bash, genText(i+3, 1000), nil)
		reply(i, 3, map[string]any{"type": "text", "text": genText(i+4, 500)})
	}
	return b.Bytes()
}

// codexGenerated is a rollout of the given number of turns (about 7 KB
// each).
func codexGenerated(turns int) []byte {
	var b bytes.Buffer
	n := 0
	add := func(typ string, payload any) {
		n++
		writeJSONL(&b, map[string]any{"timestamp": fmt.Sprintf("2026-03-03T%02d:%02d:%02d.000Z", n/3600%24, n/60%60, n%60),
			"type": typ, "payload": payload})
	}
	add("session_meta", map[string]any{"id": "gen", "cwd": "/work/p", "cli_version": "0.46.0", "originator": "codex_cli_rs"})
	total := 0
	count := func() {
		total += 5000
		add("event_msg", map[string]any{"type": "token_count", "info": map[string]any{
			"total_token_usage": map[string]any{"total_tokens": total},
			"last_token_usage":  map[string]any{"input_tokens": 4800, "cached_input_tokens": 4000, "output_tokens": 200, "total_tokens": 5000}}})
	}
	for i := range turns {
		prompt := genText(i, 300)
		add("response_item", map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": prompt}}})
		add("event_msg", map[string]any{"type": "user_message", "message": prompt, "kind": "plain"})
		add("turn_context", map[string]any{"cwd": "/work/p", "model": "gpt-5-codex", "effort": "medium", "summary": "auto"})
		thought := genText(i+1, 400)
		add("event_msg", map[string]any{"type": "agent_reasoning", "text": thought})
		add("response_item", map[string]any{"type": "reasoning", "summary": []any{map[string]any{"type": "summary_text", "text": thought}}, "encrypted_content": strings.Repeat("gAAA", 200)})
		args, _ := json.Marshal(map[string]any{"command": []string{"bash", "-lc", fmt.Sprintf("sed -n 1,40p f%d.go", i)}, "workdir": "/work/p"})
		add("response_item", map[string]any{"type": "function_call", "name": "shell", "arguments": string(args), "call_id": fmt.Sprintf("call_s%d", i)})
		count()
		out, _ := json.Marshal(map[string]any{"output": genCode(i, 40), "metadata": map[string]any{"exit_code": 0, "duration_seconds": 0.1}})
		add("response_item", map[string]any{"type": "function_call_output", "call_id": fmt.Sprintf("call_s%d", i), "output": string(out)})
		patch := "*** Begin Patch\n*** Update File: f.go\n@@\n-" + genCode(i, 1) + "+" + genCode(i+1, 1) + "*** End Patch\n"
		add("response_item", map[string]any{"type": "custom_tool_call", "name": "apply_patch", "call_id": fmt.Sprintf("call_p%d", i), "input": patch})
		add("response_item", map[string]any{"type": "custom_tool_call_output", "call_id": fmt.Sprintf("call_p%d", i), "output": `{"output":"Success. Updated the following files:\nM f.go\n","metadata":{"exit_code":0}}`})
		answer := genText(i+2, 500)
		add("event_msg", map[string]any{"type": "agent_message", "message": answer})
		add("response_item", map[string]any{"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": answer}}})
		count()
	}
	return b.Bytes()
}

// TestGenerated: the generated inputs read as their formats, every entry
// decoding, on one path.
func TestGenerated(t *testing.T) {
	for _, c := range []struct {
		name   string
		data   []byte
		format string
		turns  int
	}{
		{"claude", claudeGenerated(20), FormatClaude, 20},
		{"codex", codexGenerated(20), FormatCodex, 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Load(c.data, c.name)
			if err != nil {
				t.Fatal(err)
			}
			if s.Format != c.format || len(s.Path(s.Leaf)) != len(s.Entries) || len(s.Diagnostics) != 0 {
				t.Fatalf("format %s, path %d of %d, diagnostics %v", s.Format, len(s.Path(s.Leaf)), len(s.Entries), s.Diagnostics)
			}
			if st := s.Stats(s.Entries); st.Messages[RoleUser] != c.turns {
				t.Errorf("%d user messages", st.Messages[RoleUser])
			}
			for _, e := range s.Entries {
				if _, err := e.Decode(); err != nil {
					t.Fatalf("%s: %v", e.ID, err)
				}
			}
		})
	}
}
