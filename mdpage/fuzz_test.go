package mdpage

import (
	"bufio"
	"bytes"
	"canopy/sessiontree"
	"errors"
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"
)

// FuzzWrite puts one text in every place of a session a Markdown export
// shows (user prompt, assistant text and thinking, tool arguments and
// output, a user command, an extension message, summaries, names, labels,
// models, an entry id) and checks the safety property on the export as
// GitHub renders it before sanitizing: no markup but Markdown's own and
// our <details>, no event handler, no link but http, https and mailto,
// every prompt and tool output wholly inside one code block; and, with a
// limit, that the export keeps to it.
func FuzzWrite(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	addPayloads(f)
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<16 {
			return
		}
		s := loadBytes(t, everywhere(text))
		for _, o := range []Options{{Link: "https://x.example/p?q=1"}, {Limit: 4000}} {
			checkExport(t, s, o)
		}
	})
}

// fuzzSeeds are FuzzWrite's own seeds.
var fuzzSeeds = []string{
	"", "plain text", "<script>alert(1)</script>", "</details>\n<details open ontoggle=alert(1)>",
	"```\n````\n~~~\n~~~~~", "`` ` ``", "[x](javascript:alert(1))", "[x][r]\n\n[r]: javascript:alert(1)",
	"<javascript:alert(1)>", "![i](https://t.example/p.png)", "&lt;b&gt; &#60;i&#62;", "<!-- x",
	"a\r\nb\rc\x00d", "\xff\xfe broken", "- a\n  - b\n    > c\n    > ```\n    > <b>", "| a |\n|---|\n| <b> |",
	"\\<b>", "* * *", "    <pre>", "x\n===", "[a](<https://x.example/a b>)", strings.Repeat("> ", 30) + "x\ny",
	strings.Repeat("*", 200) + "x" + strings.Repeat("*", 200), "<summary>x</summary>", "&#x3C;script&#x3E;",
	// GitHub's extended autolinks before raw HTML, terminal escapes,
	// bidi controls, nested emphasis, adjacent lists, live viewers.
	"x www.evil.com<img src=x onerror=alert(1)>", "www&#46;x.io<b>", "http://x.io<svg onload=alert(1)>",
	"a@b.co<b> xmpp:e@f.co/r<b> mailto:c@d.co", "\x1b[31mred\x1b[0m\rover\x1b]8;;javascript:x\x1b\\y",
	"\u202eevil\u2066x\u2069", "_*a*_ *a*_b_ **a**__b__", "* a\n\n- b\n\n1. c\n\n1) d",
	"```mermaid\ngraph TD\n```\n\n```math\nx\n```", "$x$ $$y$$ $`z`$",
}

// addPayloads adds the hostile payloads of the HTML page's corpus to f's
// seeds.
func addPayloads(f *testing.F) {
	if file, err := os.Open("../testdata/hostile/payloads.txt"); err == nil {
		sc := bufio.NewScanner(file)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "", strings.HasPrefix(line, "##"), strings.HasPrefix(line, "j:"):
			case strings.HasPrefix(line, "q:"):
				if s, err := strconv.Unquote(line[2:]); err == nil {
					f.Add(s)
				}
			default:
				f.Add(line)
			}
		}
		file.Close()
	}
}

// everywhere is a session with text in every place a Markdown export
// shows.
func everywhere(text string) []byte {
	return session(
		map[string]any{"type": "session_info", "name": text},
		map[string]any{"type": "model_change", "provider": "p", "modelId": text},
		map[string]any{"type": "message", "id": "u" + text, "message": map[string]any{"role": "user", "content": text}},
		map[string]any{"type": "message", "id": "a1", "message": map[string]any{"role": "assistant", "model": text,
			"stopReason": "error", "errorMessage": text, "content": []any{
				thinkingBlock(text), textBlock(text),
				callBlock("c1", "bash", map[string]any{"command": text}),
				callBlock("c2", "other", map[string]any{"x": text}),
				callBlock("c3", "write", map[string]any{"path": text, "content": text}),
			}}},
		result("c1", "bash", text),
		map[string]any{"type": "message", "message": map[string]any{"role": "toolResult", "toolCallId": "c2", "toolName": text,
			"content": []any{textBlock(text), map[string]any{"type": "image", "mimeType": text, "data": text}}, "isError": true,
			"details": map[string]any{"diff": text}}},
		map[string]any{"type": "message", "message": map[string]any{"role": "bashExecution", "command": text, "output": text, "exitCode": 1}},
		map[string]any{"type": "custom_message", "customType": text, "content": text, "display": true},
		map[string]any{"type": "compaction", "summary": text, "firstKeptEntryId": "a1", "tokensBefore": 1},
		map[string]any{"type": "branch_summary", "summary": text, "fromId": "a1"},
		map[string]any{"type": "label", "targetId": "a1", "label": text},
		map[string]any{"type": "thinking_level_change", "thinkingLevel": text},
		assistant(textBlock("end")),
	)
}

// checkExport exports s with o and checks the result: within the limit,
// no problem in the Markdown or in the HTML GitHub would make of it, and,
// without a limit, every prompt and tool output in one code block.
func checkExport(t *testing.T, s *sessiontree.Session, o Options) {
	t.Helper()
	var buf bytes.Buffer
	err := Write(&buf, s, o)
	if o.Limit > 0 && errors.Is(err, ErrLimitTooSmall) {
		return
	}
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	md := buf.String()
	if o.Limit > 0 && Length(md) > o.Limit {
		t.Fatalf("%d characters, over the limit of %d", Length(md), o.Limit)
	}
	out := githubHTML(md)
	for _, p := range mdProblems(md) {
		t.Errorf("Markdown: %s", p)
	}
	for _, p := range htmlProblems(md, out) {
		t.Errorf("HTML: %s", p)
	}
	if !fuzzing() {
		// The seeds, in every test run, also with cmark-gfm
		// (where installed): a process per input is too slow
		// for fuzzing.
		for _, p := range cmarkProblems(t, md) {
			t.Error(p)
		}
	}
	if o.Limit > 0 {
		return
	}
	blocks := codeBlocks(out)
	prompts, outputs := pathTexts(t, s, nil, s.Leaf)
	for _, p := range append(prompts, outputs...) {
		if !inOneBlock(blocks, p) {
			t.Errorf("not in one code block: %q", head(p, 80))
		}
	}
	if t.Failed() {
		t.Logf("Markdown:\n%s", md)
	}
}

// fuzzing reports whether the test runs with -fuzz (not only its seeds).
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}
