package sessiongen

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// synth writes one source file of the code content mode, line by line.
// Every choice comes from its own random source, seeded from the session's
// seed and the file's path, so a file's content does not depend on when in
// the session it is first read.
type synth struct {
	rng    *rand.Rand
	lines  []string
	unit   string // one level of indentation
	depth  int
	noun   string   // what the file is about (from its name): "invoice"
	funcs  []string // functions and methods declared, for prompts and grep
	target int      // lines to reach
}

func newSynth(seed uint64, path, unit string, target int) *synth {
	h := fnv64(path)
	return &synth{
		rng:    rand.New(rand.NewPCG(seed^h, h*0x9e3779b97f4a7c15+1)),
		unit:   unit,
		noun:   nounOf(path),
		target: target,
	}
}

// fnv64 is FNV-1a: a stable hash of a path, for seeding.
func fnv64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// nounOf picks the noun a file is named after ("invoice_test.go":
// "invoice"), or one from the bank when its name holds none.
func nounOf(path string) string {
	base := strings.ToLower(path[strings.LastIndexByte(path, '/')+1:])
	for _, n := range idNouns {
		if strings.Contains(base, n) {
			return n
		}
	}
	return idNouns[int(fnv64(path)%uint64(len(idNouns)))]
}

func (s *synth) full() bool { return len(s.lines) >= s.target }

func (s *synth) chance(p float64) bool { return s.rng.Float64() < p }

func (s *synth) between(lo, hi int) int { return lo + s.rng.IntN(hi-lo+1) }

func (s *synth) pick(list []string) string { return list[s.rng.IntN(len(list))] }

// ln writes one line at the current depth; an empty text writes an empty
// line.
func (s *synth) ln(text string) {
	if text == "" {
		s.lines = append(s.lines, "")
		return
	}
	s.lines = append(s.lines, strings.Repeat(s.unit, s.depth)+text)
}

// open writes a line and indents what follows; close dedents and writes.
func (s *synth) open(text string) { s.ln(text); s.depth++ }

func (s *synth) close(text string) {
	s.depth = max(0, s.depth-1)
	s.ln(text)
}

// --- identifiers ------------------------------------------------------------

func (s *synth) nounOrOwn() string {
	if s.chance(0.4) {
		return s.noun
	}
	return s.pick(idNouns)
}

// words returns 1-3 words naming a value: "total", "invoice", "next cursor".
func (s *synth) words() []string {
	switch s.rng.IntN(5) {
	case 0:
		return []string{s.pick(idQualifiers), s.nounOrOwn()}
	case 1:
		return []string{s.nounOrOwn(), s.pick(idNouns)}
	case 2:
		return []string{s.pick(idQualifiers), s.nounOrOwn(), s.pick([]string{"id", "count", "at", "key", "ids", "map"})}
	default:
		return []string{s.nounOrOwn()}
	}
}

func (s *synth) camel() string { return camelCase(s.words()) }

func (s *synth) pascal() string { return pascalCase(s.words()) }

func (s *synth) snake() string { return strings.Join(s.words(), "_") }

// funcWords names a function: a verb and a noun ("list invoices",
// "apply discount"), sometimes with more.
func (s *synth) funcWords() []string {
	w := []string{s.pick(idVerbs), s.nounOrOwn()}
	if s.chance(0.3) {
		w = append(w, s.pick([]string{"s", "by id", "for period", "batch", "once", "locked"}))
	}
	return w
}

func camelCase(words []string) string {
	var b strings.Builder
	for i, w := range words {
		for j, part := range strings.Fields(w) {
			if i == 0 && j == 0 {
				b.WriteString(part)
			} else if part == "s" {
				b.WriteString("s")
			} else {
				b.WriteString(strings.ToUpper(part[:1]) + part[1:])
			}
		}
	}
	return b.String()
}

func pascalCase(words []string) string {
	c := camelCase(words)
	return strings.ToUpper(c[:1]) + c[1:]
}

func snakeCase(words []string) string {
	var parts []string
	for _, w := range words {
		for _, p := range strings.Fields(w) {
			if p == "s" && len(parts) > 0 {
				parts[len(parts)-1] += "s"
				continue
			}
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "_")
}

// --- literals and phrases ----------------------------------------------------

// number is a numeric literal of the kinds code holds.
func (s *synth) number() string {
	switch s.rng.IntN(8) {
	case 0:
		return "0"
	case 1:
		return "1"
	case 2:
		return strconv.Itoa(s.between(2, 64))
	case 3:
		return strconv.Itoa(s.between(100, 9999))
	case 4:
		return strconv.Itoa(s.between(1, 99)) + "_000"
	case 5:
		return strconv.FormatFloat(float64(s.between(1, 999))/100, 'f', 2, 64)
	case 6:
		return "0x" + strconv.FormatInt(int64(s.between(16, 65535)), 16)
	default:
		return strconv.Itoa(s.between(-10, 10))
	}
}

// message is a short human text: an error or a log line.
func (s *synth) message() string {
	if s.chance(0.5) {
		return s.nounOrOwn() + " " + s.pick(errPhrases)
	}
	return s.pick(idVerbs) + " " + s.pick(idNouns) + ": " + s.pick(logWords)
}

// sentence is a comment or doc sentence about name.
func (s *synth) sentence(name string) string {
	switch s.rng.IntN(5) {
	case 0:
		return name + " " + s.pick(docVerbs) + " the " + s.pick(idQualifiers) + " " + s.nounOrOwn() + "s of a " + s.pick(idNouns) + "."
	case 1:
		return name + " " + s.pick(docVerbs) + " the " + s.nounOrOwn() + " for the given " + s.pick(idNouns) + ". " + s.pick(docTails)
	case 2:
		return name + " " + s.pick(docVerbs) + " " + s.pick(idNouns) + "s in batches of " + strconv.Itoa(s.between(10, 500)) + "."
	case 3:
		return "The " + s.pick(idNouns) + " is " + s.pick(idQualifiers) + " until " + s.pick(idVerbs) + " is called. " + s.pick(docTails)
	default:
		return s.pick(docTails)
	}
}

// prose is a paragraph of documentation: a few sentences.
func (s *synth) prose() string {
	var parts []string
	for range s.between(2, 4) {
		subject := "The " + s.pick(idNouns) + " service"
		if s.chance(0.5) {
			subject = "`" + camelCase([]string{s.pick(idVerbs), s.pick(idNouns)}) + "`"
		}
		parts = append(parts, s.sentence(subject))
	}
	return strings.Join(parts, " ")
}
