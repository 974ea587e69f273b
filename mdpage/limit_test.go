package mdpage

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"canopy/internal/sessiongen"
	"canopy/sessiontree"
)

// report is what the header's "Shortened to fit" line says was cut.
type report struct {
	found                         bool
	tool, thinking, text, prompts int // parts shortened
	entries, entriesTotal         int // entries left out, of
	promptsLeftOut, promptsTotal  int
}

var (
	reportRe  = regexp.MustCompile(`(?m)^- \*\*Shortened to fit [\d,]+ characters:\*\* (.*); see the full session$`)
	partRe    = regexp.MustCompile(`(?:\*\*)?([\d,]+) (tool input or output|tool inputs and outputs|thinking blocks?|texts?|user prompts?)(?:\*\*)?`)
	omittedRe = regexp.MustCompile(`^([\d,]+) of ([\d,]+) entr(?:y|ies) left out(?: \(\*\*([\d,]+) of ([\d,]+) user prompts?\*\*\))?, a note where each run of them was$`)
	gapRe     = regexp.MustCompile(`^\*… ([\d,]+) entr(?:y|ies) left out here to fit the length limit(?: \((a user prompt|([\d,]+) user prompts? among them)\))?; see the full session\.\*$`)
	cutNoteRe = regexp.MustCompile(`\*… [\d,]+ more characters? cut to fit the length limit; see the full session\.\*|\*[A-Z][a-z]+ left out to fit the length limit \([\d,]+ characters?\); see the full session\.\*`)
)

func atoi(t testing.TB, s string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	if err != nil {
		t.Fatalf("count %q: %v", s, err)
	}
	return n
}

// readReport reads the header's account of what Limit cut.
func readReport(t testing.TB, md string) report {
	t.Helper()
	m := reportRe.FindStringSubmatch(md)
	if m == nil {
		return report{}
	}
	r := report{found: true}
	for _, clause := range strings.Split(m[1], "; ") {
		if o := omittedRe.FindStringSubmatch(clause); o != nil {
			r.entries, r.entriesTotal = atoi(t, o[1]), atoi(t, o[2])
			if o[3] != "" {
				r.promptsLeftOut, r.promptsTotal = atoi(t, o[3]), atoi(t, o[4])
			}
			continue
		}
		if !strings.HasSuffix(clause, " shortened") {
			t.Fatalf("header clause %q not understood", clause)
		}
		for _, p := range partRe.FindAllStringSubmatch(clause, -1) {
			n := atoi(t, p[1])
			switch {
			case strings.HasPrefix(p[2], "tool"):
				r.tool = n
			case strings.HasPrefix(p[2], "thinking"):
				r.thinking = n
			case strings.HasPrefix(p[2], "text"):
				r.text = n
			default:
				r.prompts = n
			}
		}
	}
	return r
}

// shown is what an export shows of its path, read from the Markdown: the
// ids of the entries, in order, the gap notes, the notes of parts cut.
type shown struct {
	ids                          []string
	gaps, gapEntries, gapPrompts int
	adjacentGaps                 bool
	cutNotes                     int
}

var (
	linkSuffix  = regexp.MustCompile(` · \[link\]\([^)]*\)$`)
	labelSuffix = regexp.MustCompile(` · label “[^”]*”$`)
)

// entryID reads the id of an entry's heading or one-line entry: the code
// span after its last " · ", before its label and link.
func entryID(line string) (string, bool) {
	if !strings.HasPrefix(line, "#### ") && !strings.HasPrefix(line, "*") {
		return "", false
	}
	line = linkSuffix.ReplaceAllString(line, "")
	line = labelSuffix.ReplaceAllString(line, "")
	k := len(line) - len(strings.TrimRight(line, "`"))
	if k == 0 {
		return "", false
	}
	mark := line[len(line)-k:]
	open := strings.LastIndex(line[:len(line)-k], " · "+mark)
	if open < 0 {
		return "", false
	}
	id := line[open+len(" · ")+k : len(line)-k]
	if len(id) > 1 && id[0] == ' ' && id[len(id)-1] == ' ' {
		id = id[1 : len(id)-1]
	}
	return id, true
}

func readShown(t testing.TB, md string) shown {
	t.Helper()
	var s shown
	lastWasGap := false
	for _, line := range strings.Split(md, "\n") {
		if id, ok := entryID(line); ok {
			s.ids = append(s.ids, id)
			lastWasGap = false
			continue
		}
		if m := gapRe.FindStringSubmatch(line); m != nil {
			if lastWasGap {
				s.adjacentGaps = true
			}
			lastWasGap = true
			s.gaps++
			s.gapEntries += atoi(t, m[1])
			switch {
			case m[2] == "a user prompt":
				s.gapPrompts++
			case m[3] != "":
				s.gapPrompts += atoi(t, m[3])
			}
		}
	}
	s.cutNotes = len(cutNoteRe.FindAllString(md, -1))
	return s
}

// checkFitted holds an export made with a limit to what it must be: under
// the limit; the leaf, and the prompt that began its turn, shown; one
// note for each run of entries left out, never two in a row; the
// header's counts those of the output; and safe, as goldmark and
// cmark-gfm read it.
func checkFitted(t *testing.T, s *sessiontree.Session, o Options, md string, withCmark bool) {
	t.Helper()
	if n := Length(md); n > o.Limit {
		t.Errorf("%d characters, over the limit of %d", n, o.Limit)
	}
	leaf := s.Leaf
	if o.Leaf != nil {
		leaf = s.Entry(o.Leaf.ID)
	}
	path := s.Path(leaf)
	if o.From != nil {
		for i, e := range path {
			if e.ID == o.From.ID {
				path = path[i:]
				break
			}
		}
	}
	prompts := 0
	isPrompt := map[string]bool{}
	turn := "" // the prompt that began the leaf's turn
	for _, e := range path {
		if e.Type == sessiontree.TypeMessage && e.Role == sessiontree.RoleUser {
			prompts++
			isPrompt[e.ID] = true
			turn = e.ID
		}
	}
	sh := readShown(t, md)
	shownPrompts := 0
	for _, id := range sh.ids {
		if isPrompt[id] {
			shownPrompts++
		}
	}
	r := readReport(t, md)
	if len(sh.ids) == 0 || sh.ids[len(sh.ids)-1] != leaf.ID {
		t.Errorf("the leaf %s is not the last entry shown (%d shown)", leaf.ID, len(sh.ids))
	}
	if turn != "" && !slices.Contains(sh.ids, turn) {
		t.Errorf("the prompt %s that began the leaf's turn is left out", turn)
	}
	if sh.adjacentGaps {
		t.Error("two notes of entries left out in a row")
	}
	if left := len(path) - len(sh.ids); left != sh.gapEntries || left != r.entries {
		t.Errorf("%d entries not shown; the notes say %d, the header %d", left, sh.gapEntries, r.entries)
	}
	if r.entries > 0 && r.entriesTotal != len(path) {
		t.Errorf("the header says %d entries on the path, not %d", r.entriesTotal, len(path))
	}
	if left := prompts - shownPrompts; left != sh.gapPrompts || left != r.promptsLeftOut {
		t.Errorf("%d prompts not shown; the notes say %d, the header %d", left, sh.gapPrompts, r.promptsLeftOut)
	}
	if r.promptsLeftOut > 0 && r.promptsTotal != prompts {
		t.Errorf("the header says %d prompts, not %d", r.promptsTotal, prompts)
	}
	if cut := r.tool + r.thinking + r.text + r.prompts; cut != sh.cutNotes {
		t.Errorf("%d parts cut short; the header says %d", sh.cutNotes, cut)
	}
	if !r.found && (sh.gaps > 0 || sh.cutNotes > 0) {
		t.Error("the header does not say the export was shortened")
	}
	for _, p := range mdProblems(md) {
		t.Errorf("Markdown: %s", p)
	}
	for _, p := range htmlProblems(md, githubHTML(md)) {
		t.Errorf("HTML: %s", p)
	}
	if withCmark {
		for _, p := range cmarkProblems(t, md) {
			t.Error(p)
		}
	}
	if t.Failed() {
		t.Logf("Markdown:\n%s", head(md, 6000))
	}
}

// oneLongTurn is a session of one prompt and then n tool calls and their
// output, and a last answer.
func oneLongTurn(n int) []byte {
	entries := []map[string]any{user("Find why the build is slow.")}
	for i := range n {
		id := fmt.Sprintf("c%d", i)
		entries = append(entries,
			assistant(textBlock(fmt.Sprintf("Step %d: looking further.", i)), callBlock(id, "bash", map[string]any{"command": fmt.Sprintf("go build -x ./pkg%d", i)})),
			result(id, "bash", strings.Repeat(fmt.Sprintf("pkg%d: compile line\n", i), 30)))
	}
	return session(append(entries, assistant(textBlock("The slow package is pkg7: its generated file is 40 MB.")))...)
}

// manyTurns is a session of n turns: a prompt, an answer with a call, its
// output, a closing answer.
func manyTurns(n int) []byte {
	var entries []map[string]any
	for i := range n {
		id := fmt.Sprintf("c%d", i)
		entries = append(entries,
			user(fmt.Sprintf("Prompt %d: please fix issue %d.", i, i)),
			assistant(thinkingBlock(strings.Repeat("Considering it. ", 40)), textBlock(fmt.Sprintf("Answer %d.", i)), callBlock(id, "read", map[string]any{"path": "src/x.go"})),
			result(id, "read", strings.Repeat("package x\n", 200)),
			assistant(textBlock(strings.Repeat(fmt.Sprintf("Done with %d. ", i), 30))))
	}
	return session(entries...)
}

func generatedSession(t testing.TB, entries int, shape string, seed uint64) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := sessiongen.Generate(&buf, sessiongen.Config{Entries: entries, Shape: shape, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestLimitKeepsLeaf exports sessions of many shapes at many limits and
// holds each to checkFitted: the leaf and its turn's prompt always there,
// one note per run of entries left out, the header's counts exact.
func TestLimitKeepsLeaf(t *testing.T) {
	sessions := []struct {
		name string
		s    *sessiontree.Session
	}{
		{"demo", load(t, demoFixture)},
		{"hostile", load(t, hostileFixture)},
		{"one long turn", loadBytes(t, oneLongTurn(300))},
		{"many turns", loadBytes(t, manyTurns(200))},
		{"generated branched", loadBytes(t, generatedSession(t, 3000, sessiongen.ShapeBranched, 3))},
		{"generated linear", loadBytes(t, generatedSession(t, 2000, sessiongen.ShapeLinear, 5))},
		{"leaf is a prompt", loadBytes(t, session(append(manyTurnsEntries(40), user("And now this?"))...))},
		{"no prompt", loadBytes(t, session(assistant(textBlock(strings.Repeat("x ", 3000))), assistant(textBlock(strings.Repeat("y ", 3000))), assistant(textBlock("end"))))},
	}
	for _, ss := range sessions {
		path := ss.s.Path(ss.s.Leaf)
		opts := []Options{{}, {Link: "https://x.example/s.html"}}
		if len(path) > 10 {
			opts = append(opts, Options{From: path[3], Leaf: path[len(path)-3]})
		}
		for oi, o := range opts {
			for li, limit := range []int{65536, 20000, 8000, 4000, 2500} {
				o.Limit = limit
				t.Run(fmt.Sprintf("%s/%d/%d", ss.name, oi, limit), func(t *testing.T) {
					var buf bytes.Buffer
					err := Write(&buf, ss.s, o)
					if errors.Is(err, ErrLimitTooSmall) {
						t.Logf("too small: %v", err)
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					checkFitted(t, ss.s, o, buf.String(), oi == 0 && li < 3)
				})
			}
		}
	}
}

func manyTurnsEntries(n int) []map[string]any {
	var entries []map[string]any
	for i := range n {
		entries = append(entries, user(fmt.Sprintf("Prompt %d %s", i, strings.Repeat("words ", 50))), assistant(textBlock(strings.Repeat("An answer. ", 60))))
	}
	return entries
}

// TestLimitLongSession: a long session cut to a GitHub comment keeps the
// end of the conversation whole (not hundreds of headings of prompts cut
// to nothing): its last turns with their assistant text and tool output.
func TestLimitLongSession(t *testing.T) {
	s := loadBytes(t, manyTurns(2000))
	const limit = 65536
	o := Options{Limit: limit}
	md := export(t, s, o)
	checkFitted(t, s, o, md, true)
	sh := readShown(t, md)
	if sh.gaps > 3 {
		t.Errorf("%d notes of entries left out: the entries kept are not the end of the conversation", sh.gaps)
	}
	// The last 10 turns, whole but their tool output.
	for i := 1990; i < 2000; i++ {
		for _, want := range []string{fmt.Sprintf("Prompt %d: please fix issue %d.", i, i), fmt.Sprintf("Answer %d.", i), strings.Repeat(fmt.Sprintf("Done with %d. ", i), 30)[:200], "package x\npackage x\n"} {
			if !strings.Contains(md, want) {
				t.Errorf("turn %d: %q missing", i, want)
			}
		}
	}
	// And the first prompt: what the session was about.
	if !strings.Contains(md, "Prompt 0: please fix issue 0.") {
		t.Error("the first prompt is left out")
	}
	if strings.Contains(md, "Prompt left out") {
		t.Error("a prompt cut to nothing")
	}
}

// TestLimitOrder lowers the limit step by step and checks what is cut,
// in order: tool output, then thinking, then texts, then entries (the
// oldest turns), then the prompts of older turns, then the parts of the
// leaf's turn; and that a stage keeps what later stages cut.
func TestLimitOrder(t *testing.T) {
	bigOut := strings.Repeat("tool output\n", 400)
	bigThink := strings.Repeat("thinking hard ", 300)
	bigText := strings.TrimSpace(strings.Repeat("A long answer. ", 300))
	data := session(
		user("first prompt"),
		assistant(thinkingBlock(bigThink), textBlock(bigText), callBlock("c1", "bash", map[string]any{"command": "run"})),
		result("c1", "bash", bigOut),
		user("second prompt "+strings.Repeat("please ", 30)),
		assistant(textBlock("short answer")),
	)
	s := loadBytes(t, data)
	full := Length(export(t, s, Options{}))
	stages := []string{"nothing", "tool output", "thinking", "text", "entries", "older prompts", "the leaf's turn"}
	seen := map[int]bool{}
	last := 0
	for limit := full; limit > 0; limit -= max(10, limit/60) {
		o := Options{Limit: limit}
		var buf bytes.Buffer
		err := Write(&buf, s, o)
		if errors.Is(err, ErrLimitTooSmall) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		md := buf.String()
		checkFitted(t, s, o, md, false)
		r := readReport(t, md)
		stage := 0
		switch {
		case r.prompts > 0:
			stage = 6
		case r.promptsLeftOut > 0:
			stage = 5
		case r.entries > 0:
			stage = 4
		case r.text > 0:
			stage = 3
		case r.thinking > 0:
			stage = 2
		case r.tool > 0:
			stage = 1
		}
		if stage < last {
			t.Errorf("at %d: %s cut, after %s at a larger limit", limit, stages[stage], stages[last])
		}
		last, seen[stage] = stage, true
		if stage <= 1 && !(strings.Contains(md, bigText) && strings.Contains(md, bigThink[:100])) {
			t.Errorf("at %d: thinking or text cut with tool output only (%+v)", limit, r)
		}
		if stage <= 2 && !strings.Contains(md, bigText) {
			t.Errorf("at %d: text cut before thinking (%+v)", limit, r)
		}
		if stage <= 4 && !(strings.Contains(md, "first prompt") && strings.Contains(md, "second prompt "+strings.Repeat("please ", 30))) {
			t.Errorf("at %d: a prompt cut or left out (%+v)", limit, r)
		}
		if stage <= 5 && !strings.Contains(md, "short answer") {
			t.Errorf("at %d: the leaf cut (%+v)", limit, r)
		}
		if strings.Contains(md, "Command left out") {
			t.Errorf("at %d: a command shorter than its note was cut", limit)
		}
	}
	for i, name := range stages {
		if !seen[i] {
			t.Errorf("no limit cut %s", name)
		}
	}
}

// TestLimitPrompts: long prompts are cut to keep whole turns, each kept
// prompt keeps its start, the first and the last are kept.
func TestLimitPrompts(t *testing.T) {
	var entries []map[string]any
	for i := range 30 {
		entries = append(entries, user(fmt.Sprintf("prompt %d: %s", i, strings.Repeat("words ", 1000))), assistant(textBlock(fmt.Sprintf("ok %d", i))))
	}
	s := loadBytes(t, session(entries...))
	o := Options{Limit: 20000}
	md := export(t, s, o)
	checkFitted(t, s, o, md, true)
	for _, i := range []int{0, 28, 29} {
		if !strings.Contains(md, fmt.Sprintf("prompt %d: words words", i)) {
			t.Errorf("prompt %d lost", i)
		}
	}
	if !strings.Contains(md, "ok 28") {
		t.Error("the turn before the leaf's is not whole")
	}
}

// TestLimitTooSmall: the error says the smallest limit that works, and
// that limit works.
func TestLimitTooSmall(t *testing.T) {
	for _, s := range []*sessiontree.Session{load(t, demoFixture), loadBytes(t, session()), loadBytes(t, oneLongTurn(50))} {
		var buf bytes.Buffer
		err := Write(&buf, s, Options{Limit: 200})
		var le *LimitError
		if !errors.As(err, &le) || !errors.Is(err, ErrLimitTooSmall) {
			t.Fatalf("error %v, want a LimitError", err)
		}
		if le.Limit != 200 || le.Need <= 200 {
			t.Errorf("limit %d, need %d", le.Limit, le.Need)
		}
		o := Options{Limit: le.Need}
		md := export(t, s, o)
		if s.Leaf != nil {
			checkFitted(t, s, o, md, false)
		}
		if err := Write(&buf, s, Options{Limit: le.Need - 1}); !errors.Is(err, ErrLimitTooSmall) {
			t.Errorf("limit %d, one under what the error says is needed: %v", le.Need-1, err)
		}
	}
}

// TestFitTotal: the length the fitter computes for its choice, without
// writing it, is the length of what it writes.
func TestFitTotal(t *testing.T) {
	for _, s := range []*sessiontree.Session{load(t, demoFixture), load(t, hostileFixture), loadBytes(t, manyTurns(100)), loadBytes(t, oneLongTurn(100))} {
		for _, limit := range []int{3000, 9000, 30000} {
			x, err := newExporter(s, Options{Limit: limit, Link: "https://x.example/"})
			if err != nil {
				t.Fatal(err)
			}
			f := x.newFitter()
			c, err := f.fit()
			if err != nil {
				t.Fatal(err)
			}
			header := x.header(c)
			f.header = Length(header)
			if got, want := f.total(-1), Length(f.assemble(header)); got != want {
				t.Errorf("limit %d: computed %d, written %d", limit, got, want)
			}
		}
	}
}
