package sessiongen

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"
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
