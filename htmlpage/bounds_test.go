package htmlpage

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"canopy/internal/mdcost"
	"canopy/internal/pagetest"

	"github.com/go-json-experiment/json/jsontext"

	"canopy/sessiontree"
)

// The bounds on rendering cost (MaxIndentDepth, MaxHighlightBytes,
// MaxHighlightLineBytes, mdcost.MaxBytes, mdcost.TooCostly): each case
// here took seconds to minutes, or hundreds of MB, before them. None is
// timed: they check the page's size, or what is shown plain and the note
// that says so, and that what is within the bounds is drawn as before.

// boundsSession loads a pi session of the given entry lines, after a
// header.
func boundsSession(t testing.TB, lines ...string) *sessiontree.Session {
	t.Helper()
	head := `{"type":"session","version":3,"id":"bounds","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/x"}`
	s, err := sessiontree.Load([]byte(head+"\n"+strings.Join(lines, "\n")+"\n"), "bounds.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func jsonQuote(s string) string {
	v, err := jsontext.AppendQuote(nil, s)
	if err != nil {
		panic(err)
	}
	return string(v)
}

func userLine(id, parent, text string) string {
	p := "null"
	if parent != "" {
		p = jsonQuote(parent)
	}
	return fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"timestamp":"2026-03-01T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":%s}]}}`, id, p, jsonQuote(text))
}

func callLine(id, parent, name, args string) string {
	return fmt.Sprintf(`{"type":"message","id":%q,"parentId":%q,"timestamp":"2026-03-01T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c-%s","name":%s,"arguments":%s}],"provider":"p","model":"m","stopReason":"toolUse"}}`, id, parent, id, jsonQuote(name), args)
}

func resultLine(id, parent, call, name, text string) string {
	return fmt.Sprintf(`{"type":"message","id":%q,"parentId":%q,"timestamp":"2026-03-01T10:00:03.000Z","message":{"role":"toolResult","toolCallId":"c-%s","toolName":%s,"content":[{"type":"text","text":%s}],"isError":false}}`, id, parent, call, jsonQuote(name), jsonQuote(text))
}

func renderPage(t testing.TB, s *sessiontree.Session) string {
	t.Helper()
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := r.Render(&page, s, Options{NoSource: true}); err != nil {
		t.Fatal(err)
	}
	return pagetest.InflateStore(t, page.String())
}

func nestedArrays(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// Deep JSON in each place a page shows JSON: a custom entry's data, an
// unknown tool's arguments, an entry of an unknown type.
func TestRenderDeepJSON(t *testing.T) {
	deep := nestedArrays(9990)
	s := boundsSession(t,
		userLine("u", "", "hi"),
		`{"type":"custom","id":"c","parentId":"u","timestamp":"2026-03-01T10:00:02.000Z","customType":"x","data":`+deep+`}`,
		callLine("a", "c", "mytool", `{"x":`+deep+`}`),
		`{"type":"weird","id":"w","parentId":"a","timestamp":"2026-03-01T10:00:04.000Z","data":`+deep+`}`,
	)
	page := renderPage(t, s)
	// Each of the three is about 20 KB of JSON; indented at every level,
	// each was 200 MB.
	if len(page) > 2<<20 {
		t.Fatalf("page of %d bytes for 60 KB of nested JSON", len(page))
	}
	for _, id := range []string{"c", "a", "w"} {
		if !strings.Contains(page, `id="entry-`+id+`"`) {
			t.Errorf("entry %s is not on the page", id)
		}
	}
}

// Highlighting stops at MaxHighlightBytes a block and
// MaxHighlightLineBytes a line: past them the text is escaped, in the
// same markup, and the note says why.
func TestHighlightBounds(t *testing.T) {
	comments := func(n int) string { // Go comments, cheap to highlight
		line := "// " + strings.Repeat("x", 60) + "\n"
		s := strings.Repeat(line, n/len(line)+1)[:n-1]
		return s + "\n"
	}
	for _, tc := range []struct {
		name, src, lang string
		note            string // "" when highlighted, or when no lexer fits
		plain           bool
	}{
		{"block at the limit", comments(MaxHighlightBytes), "go", "", false},
		{"block over the limit", comments(MaxHighlightBytes + 1), "go", "shown without highlighting: 512.0 KB is over the 512 KB limit", true},
		{"4 MB JSON string", `{"s":"` + strings.Repeat("x", 4<<20) + `"}`, "json", "shown without highlighting: 4.0 MB is over the 512 KB limit", true},
		{"line at the limit", "// " + strings.Repeat("y", MaxHighlightLineBytes-3) + "\nx := 1\n", "go", "", false},
		{"line over the limit", "// " + strings.Repeat("y", MaxHighlightLineBytes-2) + "\nx := 1\n", "go", "shown without highlighting: a line of 4.0 KB is over the 4 KB limit for one line", true},
		{"last line over the limit", "x := 1\n" + strings.Repeat("z", MaxHighlightLineBytes+1), "go", "shown without highlighting: a line of 4.0 KB is over the 4 KB limit for one line", true},
		{"no lexer", strings.Repeat("w", MaxHighlightBytes+1), "no-such-language", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHighlighter()
			html, note := h.code(tc.src, tc.lang, "")
			if note != tc.note {
				t.Errorf("note %q, want %q", note, tc.note)
			}
			if plain := string(html) == textEscape(tc.src); plain != tc.plain {
				t.Errorf("shown plain: %v, want %v", plain, tc.plain)
			}
		})
	}
	// The note's numbers are the text's: 4.2 MB, not the limit's.
	if _, note := newHighlighter().code(strings.Repeat("a\n", 2_200_000), "go", ""); note != "shown without highlighting: 4.2 MB is over the 512 KB limit" {
		t.Errorf("note %q", note)
	}
}

// The note is on the page next to the block shown plain, wherever code is
// highlighted: a file read, an unknown tool's arguments, a custom entry's
// data, a fenced block in Markdown (goldmark's and plainMarkdown's).
func TestHighlightNotesOnPage(t *testing.T) {
	big := strings.Repeat("x", 4<<20)
	longLine := `{"k":"` + strings.Repeat("v", MaxHighlightLineBytes) + `"}`
	s := boundsSession(t,
		userLine("u", "", "```json\n"+longLine+"\n```"),
		userLine("u2", "u", "# Heading\n\n```json\n"+longLine+"\n```"),
		callLine("a", "u2", "read", `{"path":"/x/big.json"}`),
		resultLine("r", "a", "a", "read", `{"s":"`+big+`"}`+"\n{}"),
		callLine("a2", "r", "mytool", `{"s":`+jsonQuote(big)+`}`),
		`{"type":"custom","id":"c","parentId":"a2","timestamp":"2026-03-01T10:00:05.000Z","customType":"x","data":{"s":`+jsonQuote(big)+`}}`,
	)
	page := renderPage(t, s)
	sizeNote := `<p class="note note-info">shown without highlighting: 4.0 MB is over the 512 KB limit</p>`
	lineNote := `<p class="note note-info">shown without highlighting: a line of 4.0 KB is over the 4 KB limit for one line</p>`
	for _, tc := range []struct {
		note  string
		count int // read, arguments, custom data; both fenced blocks
	}{{sizeNote, 3}, {lineNote, 2}} {
		parts := strings.Split(page, tc.note)
		if len(parts)-1 != tc.count {
			t.Errorf("%d notes %q, want %d", len(parts)-1, tc.note, tc.count)
		}
		for _, before := range parts[:len(parts)-1] {
			// Right after the block it is about.
			if !strings.HasSuffix(before, "</pre>") && !strings.HasSuffix(before, "</pre></details>") && !strings.HasSuffix(before, "</code></pre>\n") {
				t.Errorf("a note not after a block: …%q", before[max(0, len(before)-40):])
			}
		}
	}
	if strings.Contains(page, `<span class=s2>"xxxx`) || strings.Contains(page, `<span class=err>`) {
		t.Error("the big string was highlighted")
	}
}

// markdownFamilies are texts of n bytes: shapes that goldmark lays out in
// the square of their length or worse (slow) and ordinary ones of the same
// characters (fast), for TestMarkdownCostModels.
var markdownFamilies = []struct {
	name string
	slow bool
	text func(n int) string
}{
	{"unclosed links", true, repeatTo("[a](")},
	{"unclosed <links", true, repeatTo("[a](<")},
	{"unclosed images", true, repeatTo("![a](")},
	{"emphasis closers after openers", true, repeatTo("*a_ ")},
	{"rule of three", true, func(n int) string { return "a**b" + repeatTo("c* ")(n-4) }},
	{"nested brackets", true, func(n int) string { return strings.Repeat("[", n/2) + strings.Repeat("]", n/2) }},
	{"nested quotes", true, func(n int) string { return strings.Repeat("> ", n/2) }},
	{"nested list, lazy lines", true, func(n int) string { return strings.Repeat("- ", n/4) + "a\n" + repeatTo("b\n")(n/2) }},
	{"link titles on lines", true, repeatTo("[a](b \"\n")},
	{"wide table, short rows", true, func(n int) string {
		return repeatTo("|a")(n/4) + "\n" + repeatTo("|-")(n/4) + "\n" + repeatTo("x\n")(n/2)
	}},

	{"prose with links", false, repeatTo("See [the docs](https://example.com/docs/page_one) and **note** the `code_span` here. ")},
	{"snake_case and emphasis", false, repeatTo("the value_of some_var and other_name with *emphasis* here\n")},
	{"bold in a table", false, func(n int) string {
		return "| file | lines | state |\n|---|---:|---|\n" + repeatTo("| **htmlpage/x.go** | 120 | *ok* |\n")(n)
	}},
	{"list of bold items", false, repeatTo("- **item_name**: description of the item with `code`\n")},
	{"log with brackets", false, repeatTo("2026-01-01 12:00:00 [INFO] server: handled in 12ms (path=/api/v1/items, user_id=42)\n")},
	{"quotes and lists", false, repeatTo("> - a point, *made*\n> - [x] done\n\n1. first\n2. second\n")},
	{"nested emphasis", false, repeatTo("***bold italic*** and **bold _italic_ bold** and ~~struck~~ ")},
}

func repeatTo(s string) func(int) string {
	return func(n int) string { return strings.Repeat(s, n/len(s)) }
}

// The estimate puts the slow shapes over the budget, and ordinary ones of
// the largest size laid out far under it.
func TestMarkdownCostModels(t *testing.T) {
	for _, f := range markdownFamilies {
		t.Run(f.name, func(t *testing.T) {
			n := 64 << 10
			if !f.slow {
				n = mdcost.MaxBytes
			}
			src := f.text(n)
			budget := mdcost.CostBase + mdcost.CostPerByte*int64(len(src))
			cost := mdcost.Cost(src)
			if f.slow && cost <= budget {
				t.Errorf("estimate %d under the budget %d for a slow shape", cost, budget)
			}
			if !f.slow && cost > budget/2 {
				t.Errorf("estimate %d over half the budget %d for ordinary text", cost, budget)
			}
		})
	}
}

// Past mdcost.MaxBytes, or past the cost budget, a text is shown as plain
// preformatted text with a note; up to them, as goldmark lays it out.
func TestMarkdownBounds(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	prose := repeatTo("Some *Markdown* with a [link](https://example.com) and `code`.\n")
	atLimit := prose(mdcost.MaxBytes)
	atLimit += strings.Repeat("x", mdcost.MaxBytes-len(atLimit))
	const sizeNote = "shown as plain text: 256.0 KB is over the 256 KB limit for Markdown"
	const costNote = "shown as plain text: laid out as Markdown, this text would take too long"
	for _, tc := range []struct {
		name, src, note string
	}{
		{"at the size limit", atLimit, ""},
		{"over the size limit", atLimit + "y", sizeNote},
		{"200,000 unclosed links", strings.Repeat("[a](", 200_000), "shown as plain text: 781.2 KB is over the 256 KB limit for Markdown"},
		{"64 KB of unclosed links", strings.Repeat("[a](", 16<<10), costNote},
		{"64 KB of mismatched emphasis", strings.Repeat("*a_ ", 16<<10), costNote},
		{"64 KB of ordinary Markdown", prose(64 << 10), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := string(r.markdown(tc.src))
			if tc.note == "" {
				var want mdBuffer
				if err := r.md.Convert([]byte(tc.src), &want); err != nil {
					t.Fatal(err)
				}
				if got != want.String() {
					t.Error("not laid out as goldmark lays it out")
				}
				return
			}
			want := `<pre class="plain">` + textEscape(tc.src) + "</pre>\n" + `<p class="note note-info">` + tc.note + "</p>\n"
			if got != want {
				t.Errorf("got %.200q…, want %.200q…", got, want)
			}
		})
	}
}

// Fifty 64 KB texts of unclosed links took 28 s; each is now shown plain.
func TestManySlowMarkdownTexts(t *testing.T) {
	lines := []string{userLine("u0", "", "hi")}
	for i := 1; i <= 50; i++ {
		lines = append(lines, userLine(fmt.Sprint("u", i), fmt.Sprint("u", i-1), strings.Repeat("[a](", 16<<10)))
	}
	page := renderPage(t, boundsSession(t, lines...))
	if n := strings.Count(page, "laid out as Markdown, this text would take too long"); n != 50 {
		t.Errorf("%d texts shown plain, want 50", n)
	}
}

// A tool's card has a class from a fixed set: the tool's own for the
// tools we know, "tool-other" for the rest. The name is session text.
func TestToolClass(t *testing.T) {
	names := []string{"bash", "read", "web_fetch", "x is-error", "head", "other in-path target", `a"b`, "", "READ", "tool-read"}
	var lines []string
	parent := ""
	for i, name := range names {
		id := fmt.Sprint("a", i)
		if parent == "" {
			lines = append(lines, userLine("u", "", "hi"))
			parent = "u"
		}
		lines = append(lines, callLine(id, parent, name, `{"k":"v"}`))
		parent = id
	}
	page := renderPage(t, boundsSession(t, lines...))
	classes := regexp.MustCompile(`<div class="tool ([^"]*)"`).FindAllStringSubmatch(page, -1)
	if len(classes) != len(names) {
		t.Fatalf("%d tool cards, want %d", len(classes), len(names))
	}
	for i, m := range classes {
		want := "tool-other"
		if knownTools[names[i]] {
			want = "tool-" + names[i]
		}
		if m[1] != want {
			t.Errorf("tool %q: class %q, want %q", names[i], m[1], want)
		}
	}
}

// A message with 10,000 calls, each result below the one before: the
// results past the 256 entries sessiontree.Pairs looks up were each drawn by
// decoding the whole message again (85 s), and each call's result was
// looked up through all the message's ids.
func TestManyToolCalls(t *testing.T) {
	const n = 10_000
	calls := make([]string, n)
	for i := range calls {
		calls[i] = fmt.Sprintf(`{"type":"toolCall","id":"c%d","name":"ls","arguments":{"path":"/d%d"}}`, i, i)
	}
	lines := []string{userLine("u", "", "hi"), `{"type":"message","id":"a","parentId":"u","timestamp":"2026-03-01T10:00:02.000Z","message":{"role":"assistant","content":[` + strings.Join(calls, ",") + `],"provider":"p","model":"m","stopReason":"toolUse"}}`}
	parent := "a"
	for i := range n {
		id := fmt.Sprint("r", i)
		lines = append(lines, fmt.Sprintf(`{"type":"message","id":%q,"parentId":%q,"timestamp":"2026-03-01T10:00:03.000Z","message":{"role":"toolResult","toolCallId":"c%d","toolName":"ls","content":[{"type":"text","text":"out%d"}],"isError":false}}`, id, parent, i, i))
		parent = id
	}
	s := boundsSession(t, lines...)
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	html := make([]string, len(s.Entries))
	ec := r.gather(s, html)
	all := strings.Join(html, "")
	for i := 0; i < n; i += 997 {
		e := s.Entry(fmt.Sprint("r", i))
		if want := fmt.Sprintf("[ls: /d%d]", i); ec.rows[e.Index].text != want {
			t.Errorf("r%d: row %q, want %q", i, ec.rows[e.Index].text, want)
		}
		if !strings.Contains(all, fmt.Sprintf(`id="entry-r%d"`, i)) || !strings.Contains(all, fmt.Sprintf(">out%d<", i)) {
			t.Errorf("r%d is not on the page", i)
		}
	}
}

// diffFromTexts compares lines by number, not by text: the same table.
func TestDiffInternedLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "b", "c", "", "func x() {", "}", "\treturn 1", "<b>&amp;</b>"}
	text := func() string {
		n := rng.IntN(30)
		lines := make([]string, n)
		for i := range lines {
			lines[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(lines, "\n")
	}
	for range 500 {
		a, b := text(), text()
		if got, want := string(diffFromTexts(a, b)), diffByText(a, b); got != want {
			t.Fatalf("diff of %q and %q:\n%s\nwant\n%s", a, b, got, want)
		}
	}
}

// diffByText is diffFromTexts as it was, comparing lines as strings.
func diffByText(oldText, newText string) string {
	if oldText == "" && newText == "" {
		return ""
	}
	a := strings.Split(oldText, "\n")
	bl := strings.Split(newText, "\n")
	var b strings.Builder
	b.WriteString(`<table class="diff">`)
	w := len(bl) + 1
	lcs := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(bl) - 1; j >= 0; j-- {
			if a[i] == bl[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(bl) {
		switch {
		case i < len(a) && j < len(bl) && a[i] == bl[j]:
			diffRow(&b, "ctx", "", a[i])
			i, j = i+1, j+1
		case j < len(bl) && (i == len(a) || lcs[i*w+j+1] >= lcs[(i+1)*w+j]):
			diffRow(&b, "add", "", bl[j])
			j++
		default:
			diffRow(&b, "del", "", a[i])
			i++
		}
	}
	b.WriteString(`</table>`)
	return b.String()
}

// FuzzMarkdownCost: the estimate is defined for any text (no negative
// count, no index out of range), and a text is either laid out by goldmark
// or shown plain with the note.
func FuzzMarkdownCost(f *testing.F) {
	r, err := New()
	if err != nil {
		f.Fatal(err)
	}
	for _, fam := range markdownFamilies {
		f.Add(fam.text(64))
	}
	f.Add("| a | b |\n|---|:-:|\n| **x** | `y` |\n> - [z](http://u \"t\")\n")
	f.Add("]( ") // a destination read after spaces, not from them
	f.Fuzz(func(t *testing.T, src string) {
		if c := mdcost.Cost(src); c < 0 {
			t.Fatalf("cost %d", c)
		}
		got := string(r.markdown(src))
		if strings.HasPrefix(got, `<pre class="plain">`) {
			if !mdcost.TooCostly(new(mdcost.Scratch), src) {
				t.Fatal("shown plain within the budget")
			}
			return
		}
		if _, plain := plainMarkdown(src, r.hl); plain || strings.TrimSpace(src) == "" {
			return
		}
		var want mdBuffer
		if err := r.md.Convert([]byte(src), &want); err != nil {
			t.Fatal(err)
		}
		if got != want.String() {
			t.Fatalf("not goldmark's HTML")
		}
	})
}
