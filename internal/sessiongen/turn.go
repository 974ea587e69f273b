package sessiongen

import (
	"encoding/base64"
	"strings"
)

// A turn: the occasional session event, a user prompt, and the agent's work on it.

// turn writes one user prompt and the agent's work on it, preceded by the
// occasional session event (branching back, model change, compaction, ...).
func (g *gen) turn() {
	g.pickFocus()

	if g.branch && len(g.turns) >= 3 && g.chance(0.045) {
		if !g.branchBack() {
			return
		}
	}
	if !g.named && len(g.turns) >= 1 {
		g.named = true
		if !g.emit("session_info", &sessionInfoEntry{Name: g.pick(sessionNames)}, g.between(200, 2000)) {
			return
		}
	} else if g.chance(0.0015) {
		if !g.emit("session_info", &sessionInfoEntry{Name: g.pick(sessionNames) + " (cont.)"}, g.between(200, 2000)) {
			return
		}
	}
	if g.chance(0.012) {
		g.model = (g.model + 1 + g.rng.IntN(len(models)-1)) % len(models)
		m := models[g.model]
		if !g.emit("model_change", &modelChangeEntry{Provider: m.provider, ModelID: m.id}, g.between(500, 20_000)) {
			return
		}
	}
	if g.chance(0.012) {
		g.thinking = (g.thinking + 1 + g.rng.IntN(len(thinkingLevels)-1)) % len(thinkingLevels)
		if !g.emit("thinking_level_change", &thinkingLevelEntry{ThinkingLevel: thinkingLevels[g.thinking]}, g.between(500, 20_000)) {
			return
		}
	}
	if g.chance(0.01) && !g.customEntry() {
		return
	}
	if !g.wide && len(g.turns) >= 4 && g.ctx > g.compactAt && !g.compaction() {
		return
	}
	if g.chance(0.012) && !g.customMessage() {
		return
	}
	if g.chance(0.025) && !g.bashExecution() {
		return
	}

	withImage := g.imagesLeft > 0 && g.n >= g.nextImageAt()
	if !g.userMessage(withImage) {
		return
	}
	ref := turnRef{start: g.leaf}
	g.work()
	ref.end, ref.ctx = g.leaf, g.ctx
	g.turns = append(g.turns, ref)
	if !g.branch && len(g.turns) > 64 {
		// Only recent turns are needed (compaction keeps the last few).
		g.turns = append(g.turns[:0], g.turns[len(g.turns)-8:]...)
	}

	if g.chance(0.02) {
		target := ref.start
		if g.chance(0.5) {
			target = ref.end
		}
		name := g.pick(labelNames)
		if g.emit("label", &labelEntry{TargetID: target, Label: &name}, g.between(1000, 30_000)) {
			g.labeled = append(g.labeled, target)
			if len(g.labeled) > 32 {
				g.labeled = g.labeled[1:]
			}
		}
	} else if len(g.labeled) > 0 && g.chance(0.006) {
		i := g.rng.IntN(len(g.labeled))
		if g.emit("label", &labelEntry{TargetID: g.labeled[i]}, g.between(1000, 30_000)) {
			g.labeled = append(g.labeled[:i], g.labeled[i+1:]...)
		}
	}
}

// pickFocus chooses the file and function a turn is about.
func (g *gen) pickFocus() {
	if g.code != nil {
		g.codeFocus()
		return
	}
	g.curFile = g.pickFile()
	g.curFunc = g.pick(funcNames)
}

func (g *gen) nextImageAt() int {
	return int(int64(g.imagesDone+1) * int64(g.cfg.Entries) / int64(g.cfg.Images+1))
}

// imageTurn is a minimal turn: a user message with an image and, if room
// is left, a short reply.
func (g *gen) imageTurn() {
	g.pickFocus()
	if !g.userMessage(true) {
		return
	}
	start := g.leaf
	if g.cfg.Entries-g.n > g.imagesLeft {
		g.assistantFinal()
	}
	g.turns = append(g.turns, turnRef{start: start, end: g.leaf, ctx: g.ctx})
	if !g.branch && len(g.turns) > 64 {
		g.turns = append(g.turns[:0], g.turns[len(g.turns)-8:]...)
	}
}

var imagePrompts = []string{
	"Here's a screenshot of the invoice table after switching to page 2. See the flicker artifact on the right?",
	"This is what the dashboard looks like on mobile. The totals column is cut off.",
	"Screenshot of the Grafana panel: p99 latency jumps every 10 minutes.",
	"The error dialog from staging:",
}

func (g *gen) userMessage(withImage bool) bool {
	var text string
	switch {
	case g.small:
		text = g.fill(g.pick(userPrompts))
	case g.code != nil:
		text = g.codeUserPrompt()
	default:
		text = g.userPromptFull()
	}
	m := &userMessage{Role: "user"}
	if withImage {
		data := g.pngBase64(g.cfg.ImageBytes)
		m.Content = []block{{Type: "text", Text: g.pick(imagePrompts)}, {Type: "image", Data: data, MimeType: "image/png"}}
	} else if g.chance(0.25) {
		m.Content = text
	} else {
		m.Content = []block{{Type: "text", Text: text}}
	}
	delay := g.between(4000, 180_000)
	if g.small {
		delay = g.between(2000, 40_000)
	}
	if !g.emitMessage(m, delay) {
		return false
	}
	if withImage {
		g.imagesLeft--
		g.imagesDone++
	}
	return true
}

func (g *gen) userPromptFull() string {
	var sb strings.Builder
	p := g.pick(userPrompts)
	sb.WriteString(g.fill(p))
	if strings.HasSuffix(p, ":") || g.chance(0.15) {
		sb.WriteString("\n\n```\n" + g.pick(errorLines) + "\n```")
	}
	if g.chance(0.3) {
		sb.WriteString("\n\nRequirements:\n")
		for _, b := range g.pickN(requirementBullets, g.between(2, 4)) {
			sb.WriteString("- " + b + "\n")
		}
	}
	if g.chance(0.1) {
		f := g.curFile
		sb.WriteString("\n\nFor reference, the current code:\n\n```" + fenceLang(f.lang) + "\n" + g.pick(codeFor(f.lang)) + "\n```")
	}
	return sb.String()
}

func (g *gen) pngBase64(n int) string {
	raw := make([]byte, n*3/4)
	if len(raw) < len(pngSignature) {
		raw = make([]byte, len(pngSignature))
	}
	copy(raw, pngSignature)
	for i := len(pngSignature); i < len(raw); i += 8 {
		v := g.rng.Uint64()
		for j := 0; j < 8 && i+j < len(raw); j++ {
			raw[i+j] = byte(v >> (8 * j))
		}
	}
	return base64.StdEncoding.EncodeToString(raw)
}
