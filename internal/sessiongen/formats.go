package sessiongen

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Generated Claude Code transcripts and Codex rollouts, of the shape real
// ones have (replies streamed over several lines with thinking, file reads
// recorded twice, edits with their structured patch, shell output, progress
// lines, token counts), about 15.7 KB (Claude Code) and 9.5 KB (Codex) a
// turn: for the tests and benchmarks of the formats canopy reads besides
// pi's, and canopybench's inputs whose reference is claude-replay.

// The formats GenerateAgent writes, named as sessiontree names them.
const (
	FormatClaude = "claude-code"
	FormatCodex  = "codex"
)

// AgentConfig describes a generated session of another agent's format.
// The output is a pure function of it.
type AgentConfig struct {
	Format string `json:"format"` // FormatClaude or FormatCodex
	Turns  int    `json:"turns"`
}

// GenerateAgent writes the session cfg describes to w: one line per entry,
// each the child of the one before (one path, no branch).
func GenerateAgent(w io.Writer, cfg AgentConfig) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	var err error
	switch cfg.Format {
	case FormatClaude:
		err = genClaude(enc, cfg.Turns)
	case FormatCodex:
		err = genCodex(enc, cfg.Turns)
	default:
		err = fmt.Errorf("no generator for %q", cfg.Format)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// agentProse is n bytes of text, different for each seed.
func agentProse(seed, n int) string {
	words := []string{"parser", "returns", "the", "error", "when", "input", "ends", "early", "so", "callers",
		"can", "report", "it", "instead", "of", "panicking", "in", "production", "code", "paths", "`Parse`", "**note**"}
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

// agentCode is lines of Go-like code.
func agentCode(seed, lines int) string {
	var b strings.Builder
	for i := range lines {
		fmt.Fprintf(&b, "\tif err := step%d(ctx, %d); err != nil { return fmt.Errorf(\"step %d: %%w\", err) }\n", (seed+i)%97, i, i)
	}
	return b.String()
}

// readNumbered is code as Claude Code's Read returns it to the model: each
// line after its number and an arrow.
func readNumbered(code string) string {
	var b strings.Builder
	for i, l := range strings.Split(strings.TrimSuffix(code, "\n"), "\n") {
		fmt.Fprintf(&b, "%6d→%s\n", i+1, l)
	}
	return b.String()
}

type obj = map[string]any

// claudeGen writes a transcript's lines, each the child of the one before.
type claudeGen struct {
	enc  *json.Encoder
	prev any
	n    int
	err  error
}

func (c *claudeGen) line(typ string, extra obj) {
	c.n++
	id := fmt.Sprintf("%08x-0000-4000-8000-%012x", c.n, c.n)
	m := obj{"type": typ, "uuid": id, "parentUuid": c.prev, "isSidechain": false, "userType": "external",
		"cwd": "/work/p", "sessionId": "0b5e7f3a-9c2d-4e1f-8a6b-3c4d5e6f7a8b", "version": "2.1.3", "gitBranch": "main",
		"timestamp": fmt.Sprintf("2026-03-02T%02d:%02d:%02d.%03dZ", c.n/3600%24, c.n/60%60, c.n%60, c.n%1000)}
	for k, v := range extra {
		m[k] = v
	}
	if c.err == nil {
		c.err = c.enc.Encode(m)
	}
	c.prev = id
}

func (c *claudeGen) reply(turn, part int, block obj) {
	c.line("assistant", obj{"requestId": fmt.Sprintf("req_%d_%d", turn, part), "message": obj{
		"model": "claude-opus-4-5-20251101", "id": fmt.Sprintf("msg_%d_%d", turn, part), "type": "message", "role": "assistant",
		"content": []any{block}, "stop_reason": nil, "usage": obj{"input_tokens": 5, "output_tokens": 100 + turn,
			"cache_read_input_tokens": 40000 + turn, "cache_creation_input_tokens": 300}}})
}

func (c *claudeGen) result(id, content string, toolUseResult any) {
	m := obj{"message": obj{"role": "user", "content": []any{obj{"type": "tool_result", "tool_use_id": id, "content": content}}}}
	if toolUseResult != nil {
		m["toolUseResult"] = toolUseResult
	}
	c.line("user", m)
}

func genClaude(enc *json.Encoder, turns int) error {
	c := &claudeGen{enc: enc}
	for i := range turns {
		c.line("user", obj{"message": obj{"role": "user", "content": agentProse(i, 300)}})
		c.reply(i, 0, obj{"type": "thinking", "thinking": agentProse(i+1, 600), "signature": "c2lnbmF0dXJl"})
		c.reply(i, 0, obj{"type": "text", "text": agentProse(i+2, 200)})
		file := fmt.Sprintf("/work/p/f%d.go", i)
		read := fmt.Sprintf("toolu_r%d", i)
		c.reply(i, 0, obj{"type": "tool_use", "id": read, "name": "Read", "input": obj{"file_path": file}})
		code := agentCode(i, 30)
		c.result(read, readNumbered(code), obj{"type": "text", "file": obj{"filePath": file, "content": code,
			"numLines": 30, "startLine": 1, "totalLines": 30}})
		edit := fmt.Sprintf("toolu_e%d", i)
		c.reply(i, 1, obj{"type": "tool_use", "id": edit, "name": "Edit", "input": obj{"file_path": file,
			"old_string": agentCode(i, 2), "new_string": agentCode(i+1, 3)}})
		c.result(edit, "The file "+file+" has been updated.", obj{"filePath": file, "structuredPatch": []any{
			obj{"oldStart": 3, "oldLines": 4, "newStart": 3, "newLines": 5,
				"lines": []string{" ctx", "-" + agentCode(i, 1), "-old", "+" + agentCode(i+1, 1), "+new", "+more", " ctx"}}}})
		c.line("progress", obj{"data": obj{"type": "hook_progress", "hookEvent": "PostToolUse", "command": "gofmt -l ."}})
		bash := fmt.Sprintf("toolu_b%d", i)
		c.reply(i, 2, obj{"type": "tool_use", "id": bash, "name": "Bash", "input": obj{"command": "go test ./...", "description": "Run the tests"}})
		c.result(bash, agentProse(i+3, 1000), obj{"stdout": agentProse(i+3, 1000), "stderr": "", "interrupted": false})
		c.reply(i, 3, obj{"type": "text", "text": agentProse(i+4, 500)})
	}
	return c.err
}

func genCodex(enc *json.Encoder, turns int) error {
	n := 0
	var err error
	add := func(typ string, payload any) {
		n++
		if err == nil {
			err = enc.Encode(obj{"timestamp": fmt.Sprintf("2026-03-03T%02d:%02d:%02d.%03dZ", n/3600%24, n/60%60, n%60, n%1000),
				"type": typ, "payload": payload})
		}
	}
	add("session_meta", obj{"id": "0199a213-81c0-7800-8aa1-bbab2a035a53", "cwd": "/work/p", "cli_version": "0.46.0", "originator": "codex_cli_rs"})
	total := 0
	count := func() {
		total += 5000
		add("event_msg", obj{"type": "token_count", "info": obj{
			"total_token_usage": obj{"total_tokens": total},
			"last_token_usage":  obj{"input_tokens": 4800, "cached_input_tokens": 4000, "output_tokens": 200, "total_tokens": 5000}}})
	}
	for i := range turns {
		add("event_msg", obj{"type": "task_started", "model_context_window": 272000})
		prompt := agentProse(i, 300)
		add("response_item", obj{"type": "message", "role": "user", "content": []any{obj{"type": "input_text", "text": prompt}}})
		add("event_msg", obj{"type": "user_message", "message": prompt, "kind": "plain"})
		add("turn_context", obj{"cwd": "/work/p", "model": "gpt-5-codex", "effort": "medium", "summary": "auto"})
		thought := agentProse(i+1, 400)
		add("event_msg", obj{"type": "agent_reasoning", "text": thought})
		add("response_item", obj{"type": "reasoning", "summary": []any{obj{"type": "summary_text", "text": thought}}, "encrypted_content": strings.Repeat("gAAA", 200)})
		args, _ := json.Marshal(obj{"command": []string{"bash", "-lc", fmt.Sprintf("sed -n 1,40p f%d.go", i)}, "workdir": "/work/p"})
		add("response_item", obj{"type": "function_call", "name": "shell", "arguments": string(args), "call_id": fmt.Sprintf("call_s%d", i)})
		count()
		out, _ := json.Marshal(obj{"output": agentCode(i, 40), "metadata": obj{"exit_code": 0, "duration_seconds": 0.1}})
		add("response_item", obj{"type": "function_call_output", "call_id": fmt.Sprintf("call_s%d", i), "output": string(out)})
		patch := "*** Begin Patch\n*** Update File: f.go\n@@\n-" + agentCode(i, 1) + "+" + agentCode(i+1, 1) + "*** End Patch\n"
		add("response_item", obj{"type": "custom_tool_call", "name": "apply_patch", "call_id": fmt.Sprintf("call_p%d", i), "input": patch})
		add("response_item", obj{"type": "custom_tool_call_output", "call_id": fmt.Sprintf("call_p%d", i), "output": `{"output":"Success. Updated the following files:\nM f.go\n","metadata":{"exit_code":0}}`})
		answer := agentProse(i+2, 500)
		add("event_msg", obj{"type": "agent_message", "message": answer})
		add("response_item", obj{"type": "message", "role": "assistant", "content": []any{obj{"type": "output_text", "text": answer}}})
		count()
		add("event_msg", obj{"type": "task_complete", "last_agent_message": answer})
	}
	return err
}
