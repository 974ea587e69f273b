package sessiongen

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Config describes one synthetic session.
type Config struct {
	Entries    int    // entries after the header
	Shape      string // branched, linear or wide
	Images     int    // user messages that carry an image block
	ImageBytes int    // approximate base64 length of each image
	Seed       uint64
	Content    string // full, small, code or auto (full for branched, small otherwise)
}

// Shapes.
const (
	ShapeBranched = "branched"
	ShapeLinear   = "linear"
	ShapeWide     = "wide"
)

// baseTime is the header timestamp; every entry time is derived from it.
var baseTime = time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC)

const tsLayout = "2006-01-02T15:04:05.000Z"

var pngSignature = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}

func (c *Config) normalize() error {
	if c.Entries < 0 {
		return errors.New("--entries must be >= 0")
	}
	switch c.Shape {
	case ShapeBranched, ShapeLinear, ShapeWide:
	default:
		return fmt.Errorf("--shape must be branched, linear or wide, not %q", c.Shape)
	}
	switch c.Content {
	case "", "auto":
		c.Content = "small"
		if c.Shape == ShapeBranched {
			c.Content = "full"
		}
	case "full", "small", "code":
	default:
		return fmt.Errorf("--content must be auto, full, small or code, not %q", c.Content)
	}
	if c.Images < 0 || c.Images > c.Entries {
		return fmt.Errorf("--images must be between 0 and --entries (%d)", c.Entries)
	}
	if c.ImageBytes < 16 {
		c.ImageBytes = 16
	}
	return nil
}

// Generate writes a session header and cfg.Entries entries to w. The output
// depends only on cfg: the same configuration gives the same bytes. Entries
// are encoded and written one at a time, so memory does not grow with the
// size of the session (the branched shape keeps one small record per turn on
// the active path to be able to branch back).
func Generate(w io.Writer, cfg Config) error {
	if err := cfg.normalize(); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	g := newGen(cfg, bw)
	g.writeHeader()
	for g.n < cfg.Entries && g.err == nil {
		left := cfg.Entries - g.n
		if g.imagesLeft > 0 && left <= 2*g.imagesLeft {
			// Not enough room left for normal turns: spend what is left on
			// image messages so that exactly cfg.Images are written.
			g.stop = cfg.Entries
			g.imageTurn()
			continue
		}
		g.stop = g.n + left - 2*g.imagesLeft
		g.turn()
	}
	if g.err != nil {
		return g.err
	}
	return bw.Flush()
}

type countWriter struct {
	w   *bufio.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

type turnRef struct {
	start string // the user message that opened the turn
	end   string // the last entry of the turn
	ctx   int    // context tokens at end
}

type gen struct {
	cfg    Config
	rng    *rand.Rand
	out    *countWriter
	enc    *json.Encoder
	small  bool
	branch bool
	wide   bool
	err    error

	n     int // entries written
	stop  int // emit refuses once n reaches stop
	idKey uint32
	ms    int64 // time of the last entry, Unix ms
	leaf  string
	root  string

	turns     []turnRef
	ctx       int // estimated context tokens on the active path
	compactAt int
	model     int
	thinking  int
	named     bool
	labeled   []string
	readFiles []string
	modFiles  []string
	callSeq   int

	imagesLeft int
	imagesDone int

	curFile srcFile
	curFunc string

	code *codeGen // the code content mode's state; nil in the others
}

func newGen(cfg Config, bw *bufio.Writer) *gen {
	g := &gen{
		cfg:        cfg,
		rng:        rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
		small:      cfg.Content == "small",
		branch:     cfg.Shape == ShapeBranched,
		wide:       cfg.Shape == ShapeWide,
		ms:         baseTime.UnixMilli(),
		imagesLeft: cfg.Images,
	}
	g.out = &countWriter{w: bw}
	g.enc = json.NewEncoder(g.out)
	g.enc.SetEscapeHTML(false)
	g.idKey = g.rng.Uint32()
	g.compactAt = g.between(110_000, 170_000)
	g.thinking = 3 // medium
	if cfg.Content == "code" {
		g.code = newCodeGen(cfg.Seed)
	}
	return g
}

// --- small helpers ---------------------------------------------------------

func (g *gen) chance(p float64) bool { return g.rng.Float64() < p }

// between returns a value in [lo, hi].
func (g *gen) between(lo, hi int) int { return lo + g.rng.IntN(hi-lo+1) }

func (g *gen) pick(list []string) string { return list[g.rng.IntN(len(list))] }

// pickN returns k distinct elements of list (k is capped at len(list)).
func (g *gen) pickN(list []string, k int) []string {
	k = min(k, len(list))
	idx := make([]int, len(list))
	for i := range idx {
		idx[i] = i
	}
	out := make([]string, k)
	for i := range k {
		j := i + g.rng.IntN(len(idx)-i)
		idx[i], idx[j] = idx[j], idx[i]
		out[i] = list[idx[i]]
	}
	return out
}

func (g *gen) pickFile() srcFile { return projectFiles[g.rng.IntN(len(projectFiles))] }

func (g *gen) fill(s string) string {
	if !strings.Contains(s, "{") {
		return s
	}
	s = strings.ReplaceAll(s, "{file}", g.curFile.path)
	return strings.ReplaceAll(s, "{func}", g.curFunc)
}

// mix32 is a bijection on uint32, so distinct counters give distinct ids.
func mix32(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x7feb352d
	x ^= x >> 15
	x *= 0x846ca68b
	x ^= x >> 16
	return x
}

const hexDigits = "0123456789abcdef"

func (g *gen) nextID() string {
	v := mix32(uint32(g.n) + g.idKey)
	var b [8]byte
	for i := 7; i >= 0; i-- {
		b[i] = hexDigits[v&0xf]
		v >>= 4
	}
	return string(b[:])
}

func (g *gen) toolCallID() string {
	g.callSeq++
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	var b [30]byte
	copy(b[:], "toolu_")
	for i := 6; i < len(b); i++ {
		b[i] = alnum[g.rng.IntN(len(alnum))]
	}
	return string(b[:])
}

func (g *gen) randBase64(n int) string {
	raw := make([]byte, n*3/4+3)
	for i := 0; i < len(raw); i += 8 {
		v := g.rng.Uint64()
		for j := 0; j < 8 && i+j < len(raw); j++ {
			raw[i+j] = byte(v >> (8 * j))
		}
	}
	s := base64.StdEncoding.EncodeToString(raw)
	return s[:n]
}

// --- writing ---------------------------------------------------------------

func (g *gen) writeHeader() {
	// A UUIDv7-shaped id derived from the base time and the seed.
	ms := uint64(baseTime.UnixMilli())
	a, b := g.rng.Uint64(), g.rng.Uint64()
	id := fmt.Sprintf("%08x-%04x-7%03x-%04x-%012x", ms>>16, ms&0xffff, a&0xfff, 0x8000|(b>>48)&0x3fff, b&0xffffffffffff)
	h := header{Type: "session", Version: 3, ID: id, Timestamp: baseTime.Format(tsLayout), Cwd: "/home/dev/src/ledgerline"}
	if err := g.enc.Encode(&h); err != nil {
		g.err = err
	}
}

// emit assigns id, parent and time to e and writes it. It returns false,
// writing nothing, once the current budget is spent.
func (g *gen) emit(typ string, e entryValue, delayMs int) bool {
	if g.n >= g.stop || g.err != nil {
		return false
	}
	prev := g.ms
	g.ms += int64(delayMs)
	b := e.head()
	b.Type = typ
	b.ID = g.nextID()
	parent := g.leaf
	if g.wide {
		parent = g.root
	}
	if parent != "" {
		b.ParentID = &parent
	}
	b.Timestamp = time.UnixMilli(g.ms).UTC().Format(tsLayout)
	if me, ok := e.(*messageEntry); ok {
		me.Message.stamp(g.ms, prev)
	}
	before := g.out.n
	if err := g.enc.Encode(e); err != nil {
		g.err = err
		return false
	}
	tokens := int(g.out.n-before) / 4
	if tokens > 12_000 {
		tokens = 12_000
	}
	g.ctx += tokens
	g.leaf = b.ID
	if g.root == "" {
		g.root = b.ID
	}
	g.n++
	return true
}

func (g *gen) emitMessage(m stamper, delayMs int) bool {
	return g.emit("message", &messageEntry{Message: m}, delayMs)
}

// --- turns -----------------------------------------------------------------

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

// branchBack moves the leaf back to the end of an earlier turn, as /tree
// does, and usually records a summary of the abandoned branch. Like pi, the
// summary's parentId and fromId are both the entry navigated to.
func (g *gen) branchBack() bool {
	maxBack := min(8, len(g.turns)-1)
	k := 1
	for k < maxBack && g.chance(0.45) {
		k++
	}
	target := g.turns[len(g.turns)-1-k]
	g.turns = g.turns[:len(g.turns)-k]
	g.leaf, g.ctx = target.end, target.ctx
	if !g.chance(0.7) {
		return true
	}
	var sb strings.Builder
	sb.WriteString("## Goal\n")
	sb.WriteString(g.pick(summaryGoals))
	sb.WriteString("\n\n## Progress\n### Done\n")
	for _, b := range g.pickN(bulletPoints, g.between(1, 3)) {
		sb.WriteString("- [x] " + b + "\n")
	}
	sb.WriteString("\n## Key Decisions\n- **Abandoned**: " + g.fill(g.pick(thinkingSentences)) + "\n")
	details := g.fileDetails()
	writeFileTags(&sb, details)
	return g.emit("branch_summary", &branchSummaryEntry{FromID: target.end, Summary: sb.String(), Details: details}, g.between(3000, 25_000))
}

func (g *gen) compaction() bool {
	k := g.between(1, 3)
	first := g.turns[len(g.turns)-k].start
	var sb strings.Builder
	sb.WriteString("## Goal\n" + g.pick(summaryGoals) + "\n\n## Constraints & Preferences\n")
	for _, b := range g.pickN(requirementBullets, g.between(1, 3)) {
		sb.WriteString("- " + b + "\n")
	}
	sb.WriteString("\n## Progress\n### Done\n")
	items := g.pickN(bulletPoints, g.between(3, 6))
	for _, b := range items[:len(items)-1] {
		sb.WriteString("- [x] " + b + "\n")
	}
	sb.WriteString("\n### In Progress\n- [ ] " + items[len(items)-1] + "\n\n## Key Decisions\n")
	for _, t := range g.pickN(thinkingSentences, g.between(1, 3)) {
		sb.WriteString("- " + g.fill(t) + "\n")
	}
	sb.WriteString("\n## Next Steps\n1. " + g.pick(bulletPoints) + "\n2. " + g.pick(bulletPoints) + "\n\n## Critical Context\n- `" +
		g.curFile.path + "` is the file under change\n")
	details := g.fileDetails()
	writeFileTags(&sb, details)
	before := g.ctx
	ok := g.emit("compaction", &compactionEntry{Summary: sb.String(), FirstKeptEntryID: first, TokensBefore: before, Details: details}, g.between(8000, 40_000))
	g.ctx = g.between(6000, 20_000)
	g.compactAt = g.between(110_000, 170_000)
	g.readFiles, g.modFiles = g.readFiles[:0], g.modFiles[:0]
	return ok
}

func writeFileTags(sb *strings.Builder, d *fileDetails) {
	if len(d.ReadFiles) > 0 {
		sb.WriteString("\n<read-files>\n" + strings.Join(d.ReadFiles, "\n") + "\n</read-files>\n")
	}
	if len(d.ModifiedFiles) > 0 {
		sb.WriteString("\n<modified-files>\n" + strings.Join(d.ModifiedFiles, "\n") + "\n</modified-files>\n")
	}
}

func (g *gen) fileDetails() *fileDetails {
	return &fileDetails{ReadFiles: dedup(g.readFiles), ModifiedFiles: dedup(g.modFiles)}
}

func dedup(in []string) []string {
	out := []string{}
	for _, s := range in {
		seen := false
		for _, o := range out {
			if o == s {
				seen = true
				break
			}
		}
		if !seen {
			out = append(out, s)
		}
	}
	return out
}

func (g *gen) noteFile(list *[]string, path string) {
	*list = append(*list, path)
	if len(*list) > 12 {
		*list = (*list)[1:]
	}
}

func (g *gen) customEntry() bool {
	e := &customEntry{}
	if g.chance(0.5) {
		st := todoState{}
		for i, b := range g.pickN(bulletPoints, g.between(2, 5)) {
			st.Items = append(st.Items, todoItem{ID: i + 1, Text: b, Done: g.chance(0.5)})
		}
		e.CustomType, e.Data = "todo", st
	} else {
		e.CustomType = "git-checkpoint"
		e.Data = checkpointState{Ref: "refs/pi-checkpoints/" + g.leaf, EntryID: g.leaf, Dirty: g.chance(0.6)}
	}
	return g.emit("custom", e, g.between(50, 500))
}

func (g *gen) customMessage() bool {
	e := &customMessageEntry{}
	if g.chance(0.5) {
		e.CustomType = "git-status"
		e.Content = "**Working tree:** 2 files modified\n\n```\n M " + g.curFile.path + "\n M internal/api/handler_test.go\n```"
		e.Display = true
	} else {
		e.CustomType = "reminder"
		e.Content = []block{{Type: "text", Text: "Reminder: " + g.pick(requirementBullets) + "."}}
		e.Details = customDetails{Source: "extension"}
	}
	return g.emit("custom_message", e, g.between(100, 2000))
}

func (g *gen) bashExecution() bool {
	if g.code != nil {
		return g.codeBashExecution()
	}
	c := shellCmds[g.rng.IntN(len(shellCmds))]
	out := g.pick(c.output)
	m := &bashExecutionMessage{Role: "bashExecution", Command: c.cmd, Output: out}
	if g.chance(0.04) {
		m.Cancelled = true
	} else {
		code := 0
		m.ExitCode = &code
	}
	m.ExcludeFromContext = g.chance(0.15)
	return g.emitMessage(m, g.between(5000, 90_000))
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

// --- the agent's work on a prompt -----------------------------------------

type toolRun struct {
	call    block
	result  string
	details any
	isError bool
}

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

// --- tools -----------------------------------------------------------------

func (g *gen) toolRun() toolRun {
	if g.code != nil {
		return g.codeToolRun()
	}
	r := g.rng.IntN(100)
	switch {
	case r < 28:
		return g.toolRead()
	case r < 54:
		return g.toolBash()
	case r < 76:
		return g.toolEdit()
	case r < 84:
		return g.toolGrep()
	case r < 89:
		return g.toolWrite()
	case r < 94:
		return g.toolFind()
	default:
		return g.toolLs()
	}
}

func (g *gen) call(name string, args *toolArgs) block {
	return block{Type: "toolCall", ID: g.toolCallID(), Name: name, Arguments: args}
}

func (g *gen) fileText(f srcFile) string {
	snips := codeFor(f.lang)
	if g.small {
		lines := strings.Split(g.pick(snips), "\n")
		return strings.Join(lines[:min(len(lines), 8)], "\n")
	}
	var sb strings.Builder
	sb.WriteString(fileHeaders[f.lang])
	for i, c := range g.pickN(snips, g.between(1, 3)) {
		if i > 0 {
			sb.WriteString("\n\n")
		}
		sb.WriteString(c)
	}
	return sb.String()
}

func (g *gen) toolRead() toolRun {
	f := g.curFile
	if g.chance(0.4) {
		f = g.pickFile()
	}
	args := &toolArgs{Path: f.path}
	text := g.fileText(f)
	if !g.small && g.chance(0.2) {
		args.Offset = g.between(1, 120)
		args.Limit = g.between(20, 200)
	}
	g.noteFile(&g.readFiles, f.path)
	if g.chance(0.02) {
		return toolRun{call: g.call("read", args), result: "ENOENT: no such file or directory, access '/home/dev/src/ledgerline/" + f.path + "'", isError: true}
	}
	return toolRun{call: g.call("read", args), result: text}
}

func (g *gen) toolWrite() toolRun {
	f := g.curFile
	content := g.fileText(f)
	g.noteFile(&g.modFiles, f.path)
	return toolRun{call: g.call("write", &toolArgs{Path: f.path, Content: content}),
		result: fmt.Sprintf("Successfully wrote %d bytes to %s", len(content), f.path)}
}

func (g *gen) toolEdit() toolRun {
	f := g.curFile
	lines := strings.Split(g.pick(codeFor(f.lang)), "\n")
	k := g.between(1, min(4, len(lines)))
	if g.small {
		k = 1
	}
	at := g.rng.IntN(len(lines) - k + 1)
	old := lines[at : at+k]
	repl := make([]string, 0, k+2)
	repl = append(repl, old...)
	i := g.rng.IntN(len(repl))
	repl[i] = mutateLine(repl[i], f.lang)
	if !g.small && g.chance(0.5) {
		indent := repl[i][:len(repl[i])-len(strings.TrimLeft(repl[i], " \t"))]
		repl = append(repl[:i+1], append([]string{indent + insertLine(f.lang)}, repl[i+1:]...)...)
	}
	oldText, newText := strings.Join(old, "\n"), strings.Join(repl, "\n")
	if g.chance(0.03) {
		return toolRun{call: g.call("edit", &toolArgs{Path: f.path, OldText: oldText, NewText: newText}), isError: true,
			result: "Could not find the exact text in " + f.path + ". The old text must match exactly including all whitespace and newlines."}
	}
	g.noteFile(&g.modFiles, f.path)

	base := g.between(1, 180) // line number of lines[0] in the file
	width := len(strconv.Itoa(base + len(lines) + len(repl)))
	var sb strings.Builder
	line := func(mark byte, n int, s string) {
		sb.WriteByte(mark)
		ns := strconv.Itoa(n)
		sb.WriteString(strings.Repeat(" ", width-len(ns)))
		sb.WriteString(ns)
		sb.WriteByte(' ')
		sb.WriteString(s)
		sb.WriteByte('\n')
	}
	// Only line at+i changed (and maybe one line was inserted after it):
	// context lines and removed lines carry old line numbers, added lines
	// new ones.
	changed := at + i
	for j := max(0, changed-4); j < changed; j++ {
		line(' ', base+j, lines[j])
	}
	line('-', base+changed, lines[changed])
	for j, s := range repl[i : len(repl)-(k-1-i)] {
		line('+', base+changed+j, s)
	}
	for j := changed + 1; j < min(len(lines), changed+5); j++ {
		line(' ', base+j, lines[j])
	}
	diff := strings.TrimSuffix(sb.String(), "\n")
	return toolRun{call: g.call("edit", &toolArgs{Path: f.path, OldText: oldText, NewText: newText}),
		result:  fmt.Sprintf("Successfully replaced text in %s.", f.path),
		details: editDetails{Diff: diff, FirstChangedLine: base + changed}}
}

func mutateLine(s, lang string) string {
	switch {
	case strings.Contains(s, "return"):
		return strings.Replace(s, "return", "return /* checked */", 1)
	case strings.Contains(s, "err"):
		return strings.Replace(s, "err", "lookupErr", 1)
	case strings.TrimSpace(s) == "":
		return s + commentFor(lang) + " keep"
	}
	return s + " " + commentFor(lang) + " updated"
}

func commentFor(lang string) string {
	switch lang {
	case "python", "bash", "yaml":
		return "#"
	case "markdown":
		return "<!-- -->"
	}
	return "//"
}

func insertLine(lang string) string {
	switch lang {
	case "go":
		return `if cursor > total { return Page{Items: []Invoice{}}, nil }`
	case "python":
		return `if dry_run: log.info("dry run, not writing")`
	case "ts":
		return `if (!page) return;`
	case "bash":
		return `echo "done"`
	case "yaml":
		return `timeout-minutes: 10`
	}
	return "See also the docs."
}

func (g *gen) toolBash() toolRun {
	c := shellCmds[g.rng.IntN(len(shellCmds))]
	args := &toolArgs{Command: c.cmd}
	if g.chance(0.1) {
		args.Timeout = 120
	}
	if c.fail > 0 && g.chance(c.fail) {
		return toolRun{call: g.call("bash", args), result: c.errOut + "\n\nCommand exited with code 1", isError: true}
	}
	out := g.pick(c.output)
	if out == "" {
		out = "(no output)"
	}
	return toolRun{call: g.call("bash", args), result: out}
}

func (g *gen) toolGrep() toolRun {
	pat := g.pick(grepPatterns)
	dir := g.pick(dirs)
	args := &toolArgs{Pattern: pat, Path: dir}
	if g.chance(0.2) {
		args.IgnoreCase = true
	}
	if g.chance(0.15) {
		args.Glob = "*.go"
	}
	n := g.between(0, 8)
	if g.small {
		n = min(n, 3)
	}
	if n == 0 {
		return toolRun{call: g.call("grep", args), result: "No matches found"}
	}
	var sb strings.Builder
	for i := range n {
		f := g.pickFile()
		lines := strings.Split(g.pick(codeFor(f.lang)), "\n")
		fmt.Fprintf(&sb, "%s:%d: %s", f.path, g.between(1, 300), strings.TrimSpace(lines[g.rng.IntN(len(lines))]))
		if i < n-1 {
			sb.WriteByte('\n')
		}
	}
	return toolRun{call: g.call("grep", args), result: sb.String()}
}

func (g *gen) toolFind() toolRun {
	pat := g.pick(findPatterns)
	dir := g.pick(dirs)
	suffix := strings.TrimPrefix(pat, "*")
	var out []string
	for _, f := range projectFiles {
		if strings.HasSuffix(f.path, suffix) && (dir == "." || strings.HasPrefix(f.path, dir+"/")) {
			rel := f.path
			if dir != "." {
				rel = strings.TrimPrefix(f.path, dir+"/")
			}
			out = append(out, rel)
		}
	}
	res := strings.Join(out, "\n")
	if res == "" {
		res = "No files found matching pattern"
	}
	return toolRun{call: g.call("find", &toolArgs{Pattern: pat, Path: dir}), result: res}
}

func (g *gen) toolLs() toolRun {
	dir := g.pick(dirs)
	var out []string
	seen := map[string]bool{}
	for _, f := range projectFiles {
		rel := f.path
		if dir != "." {
			if !strings.HasPrefix(f.path, dir+"/") {
				continue
			}
			rel = strings.TrimPrefix(f.path, dir+"/")
		}
		if i := strings.IndexByte(rel, '/'); i >= 0 {
			rel = rel[:i+1]
		}
		if !seen[rel] {
			seen[rel] = true
			out = append(out, rel)
		}
	}
	sort.Strings(out)
	res := strings.Join(out, "\n")
	if res == "" {
		res = "(empty directory)"
	}
	args := &toolArgs{Path: dir}
	return toolRun{call: g.call("ls", args), result: res}
}
