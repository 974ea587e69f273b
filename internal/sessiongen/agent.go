package sessiongen

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The agent's side of a turn: rounds of tool calls and results, then a final reply.

// work writes rounds of tool calls and results, then a final reply.
func (g *gen) work() {
	rounds := 0
	if g.small {
		if g.chance(0.3) {
			rounds = 1
		}
	} else {
		for rounds < 10 && g.chance(0.7) {
			rounds++
		}
	}
	for range rounds {
		m := g.assistantBase()
		var content []block
		if th, ok := g.thinkingBlock(); ok {
			content = append(content, th)
		}
		if !g.small && g.chance(0.4) {
			content = append(content, block{Type: "text", Text: g.fill(g.pick(toolPreambles))})
		}
		if g.chance(0.008) {
			// The user pressed Escape while the model was streaming.
			if len(content) == 0 {
				content = append(content, block{Type: "text", Text: "Let me"})
			}
			m.Content, m.StopReason, m.ErrorMessage = content, "aborted", "Request was aborted"
			g.emitMessage(m, g.between(500, 8000))
			return
		}
		n := 1
		if !g.small && g.chance(0.25) {
			n = g.between(2, 3)
		}
		runs := make([]toolRun, n)
		for i := range runs {
			runs[i] = g.toolRun()
			content = append(content, runs[i].call)
		}
		m.Content, m.StopReason = content, "toolUse"
		m.Usage = g.usage(60 + len(runs)*g.between(40, 600))
		if !g.emitMessage(m, g.between(1500, 25_000)) {
			return
		}
		for _, r := range runs {
			tr := &toolResultMessage{Role: "toolResult", ToolCallID: r.call.ID, ToolName: r.call.Name,
				Content: []block{{Type: "text", Text: r.result}}, Details: r.details, IsError: r.isError}
			delay := g.between(20, 900)
			if r.call.Name == "bash" {
				delay = g.between(200, 30_000)
			}
			if !g.emitMessage(tr, delay) {
				return
			}
		}
	}
	g.assistantFinal()
}

var toolPreambles = []string{
	"Let me look at the handler first.",
	"I'll check how `{func}` is used.",
	"Running the tests to see the current state.",
	"Now I'll make the change.",
	"Let me verify that.",
	"Checking the rest of the package for the same pattern.",
}

func (g *gen) assistantBase() *assistantMessage {
	m := models[g.model]
	return &assistantMessage{Role: "assistant", API: m.api, Provider: m.provider, Model: m.id}
}

func (g *gen) thinkingBlock() (block, bool) {
	if thinkingLevels[g.thinking] == "off" {
		return block{}, false
	}
	if g.small {
		if !g.chance(0.2) {
			return block{}, false
		}
		return block{Type: "thinking", Thinking: g.fill(g.pick(thinkingSentences))}, true
	}
	if !g.chance(0.7) {
		return block{}, false
	}
	var sb strings.Builder
	for i, t := range g.pickN(thinkingSentences, g.between(2, 6)) {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(g.fill(t))
	}
	b := block{Type: "thinking", Thinking: sb.String()}
	if models[g.model].signs {
		b.ThinkingSignature = g.randBase64(g.between(200, 420))
	}
	return b, true
}

func (g *gen) assistantFinal() {
	m := g.assistantBase()
	var content []block
	if th, ok := g.thinkingBlock(); ok {
		content = append(content, th)
	}
	text := g.fill(g.pick(assistantIntros))
	if !g.small {
		text = g.finalText(text)
	}
	r := g.rng.Float64()
	switch {
	case r < 0.012:
		m.StopReason, m.ErrorMessage = "error", g.pick(errorMessages)
		m.Content = content
		if content == nil {
			m.Content = []block{}
		}
	case r < 0.022:
		m.StopReason, m.ErrorMessage = "aborted", "Request was aborted"
		cut := min(len(text), g.between(10, 120))
		for cut < len(text) && !utf8.RuneStart(text[cut]) {
			cut++
		}
		m.Content = append(content, block{Type: "text", Text: strings.TrimSpace(text[:cut])})
		m.Usage = g.usage(cut / 4)
	case r < 0.027:
		m.StopReason = "length"
		m.Content = append(content, block{Type: "text", Text: text})
		m.Usage = g.usage(8192)
	default:
		m.StopReason = "stop"
		m.Content = append(content, block{Type: "text", Text: text})
		m.Usage = g.usage(len(text)/4 + g.between(10, 200))
	}
	g.emitMessage(m, g.between(1500, 40_000))
}

func (g *gen) finalText(intro string) string {
	if g.code != nil {
		return g.codeFinalText(intro)
	}
	var sb strings.Builder
	sb.WriteString(intro)
	if g.chance(0.6) {
		sb.WriteString("\n\n")
		for _, b := range g.pickN(bulletPoints, g.between(2, 5)) {
			sb.WriteString("- " + b + "\n")
		}
	}
	if g.chance(0.5) {
		lang := g.curFile.lang
		if g.chance(0.3) {
			lang = []string{"go", "python", "ts", "bash"}[g.rng.IntN(4)]
		}
		sb.WriteString("\n\n```" + fenceLang(lang) + "\n" + g.pick(codeFor(lang)) + "\n```")
	}
	if g.chance(0.08) {
		sb.WriteString("\n\n| Package | Before | After |\n|---|---:|---:|\n")
		for range g.between(2, 4) {
			f := g.pickFile()
			fmt.Fprintf(&sb, "| `%s` | %d ms | %d ms |\n", f.path, g.between(80, 900), g.between(20, 300))
		}
	}
	if g.chance(0.06) {
		sb.WriteString("\n\nRemaining:\n\n")
		for _, b := range g.pickN(bulletPoints, g.between(2, 4)) {
			mark := " "
			if g.chance(0.5) {
				mark = "x"
			}
			sb.WriteString("- [" + mark + "] " + b + "\n")
		}
	}
	if g.chance(0.4) {
		sb.WriteString("\n\n" + g.pick(closings))
	}
	return strings.TrimRight(sb.String(), "\n")
}

func (g *gen) usage(output int) usage {
	m := models[g.model]
	u := usage{Input: g.between(3, 2500), Output: output, CacheRead: g.ctx * g.between(80, 98) / 100}
	if m.pCacheWrt > 0 {
		u.CacheWrite = g.between(150, 6000)
	}
	u.TotalTokens = u.Input + u.Output + u.CacheRead + u.CacheWrite
	c := &u.Cost
	c.Input = float64(u.Input) * m.pIn / 1e6
	c.Output = float64(u.Output) * m.pOut / 1e6
	c.CacheRead = float64(u.CacheRead) * m.pCacheRead / 1e6
	c.CacheWrite = float64(u.CacheWrite) * m.pCacheWrt / 1e6
	c.Total = c.Input + c.Output + c.CacheRead + c.CacheWrite
	return u
}
