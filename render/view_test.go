package render

import (
	"bytes"
	"fmt"
	"html/template"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"canopy/sessiontree"
)

func TestImageSrc(t *testing.T) {
	tests := []struct {
		name, mime, data string
		want             template.HTML
	}{
		{"png, + written as it is", "image/png", "ab+/cd==", `<img class="image" src="data:image/png;base64,ab+/cd==" alt="image">`},
		{"type lower-cased", "IMAGE/JPEG", "AAAA", `<img class="image" src="data:image/jpeg;base64,AAAA" alt="image">`},
		{"line breaks kept", "image/gif", "AAAA\nAAAA", "<img class=\"image\" src=\"data:image/gif;base64,AAAA\nAAAA\" alt=\"image\">"},
		{"svg refused", "image/svg+xml", "AAAA", ""},
		{"quote refused", "image/png", `AA"A`, ""},
		{"markup refused", "image/png", `AA<b>`, ""},
		{"not base64", "image/png", "AAA", ""},
		{"empty type", "", "AAAA", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := imageSrc(tt.mime, tt.data); got != tt.want {
				t.Errorf("imageSrc(%q, %q) = %q, want %q", tt.mime, tt.data, got, tt.want)
			}
		})
	}
}

func TestTextEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{`a "b" 'c'`, `a "b" 'c'`},
		{"<script>&amp;</script>", "&lt;script&gt;&amp;amp;&lt;/script&gt;"},
		{"nul\x00", "nul\uFFFD"},
		{"1+1", "1+1"},
	}
	for _, tt := range tests {
		if got := textEscape(tt.in); got != tt.want {
			t.Errorf("textEscape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRawSafe(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<article>plain</article>", "<article>plain</article>"},
		{"a</noscript>b", "a&lt;/noscript>b"},
		{"a</NoScRiPt b", "a&lt;/NoScRiPt b"},
		{"a</script>b</SCRIPT", "a&lt;/script>b&lt;/SCRIPT"},
		{"<!-- x -->", "&lt;!-- x -->"},
		{"</", "</"},
		{"<", "<"},
		{"</scrip", "</scrip"},
		{"<!-", "<!-"},
		{"</div></span><!--</script>", "</div></span>&lt;!--&lt;/script>"},
		{"</script</noscript<!--", "&lt;/script&lt;/noscript&lt;!--"},
		{"<</script", "<&lt;/script"},
		{"</sCrIpT</nOsCrIpT", "&lt;/sCrIpT&lt;/nOsCrIpT"},
		{"</sc</scr</no</nos</noscrip", "</sc</scr</no</nos</noscrip"},
		{"</s</n</S</N</x", "</s</n</S</N</x"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		writeRawSafe(&b, []byte(tt.in))
		if got := b.String(); got != tt.want {
			t.Errorf("writeRawSafe(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// Every string of a few thousand from the letters that matter,
	// against the rule said plainly: "<" becomes "&lt;" where what follows
	// it starts, in lower case, with "/script", "/noscript" or "!--".
	rng := rand.New(rand.NewPCG(1, 2))
	const letters = "<</!-sScCrRiIpPtTnNoO>"
	for n := 0; n < 20000; n++ {
		in := make([]byte, rng.IntN(24))
		for i := range in {
			in[i] = letters[rng.IntN(len(letters))]
		}
		var want strings.Builder
		for i, c := range in {
			rest := strings.ToLower(string(in[i+1:]))
			if c == '<' && (strings.HasPrefix(rest, "/script") || strings.HasPrefix(rest, "/noscript") || strings.HasPrefix(rest, "!--")) {
				want.WriteString("&lt;")
			} else {
				want.WriteByte(c)
			}
		}
		var b bytes.Buffer
		writeRawSafe(&b, in)
		if b.String() != want.String() {
			t.Fatalf("writeRawSafe(%q) = %q, want %q", in, b.String(), want.String())
		}
	}
}

// TestPageChunks checks the layout the page's script relies on: the
// store's <script type="text/x-canopy" data-i> chunks before the
// conversation, whose <noscript data-at> chunks hold the path's entries,
// writeBatch at most each, every entry one <article> that "<article " starts.
func TestPageChunks(t *testing.T) {
	// Five entries with a 700 KB picture each: chunks of about 1 MB.
	var big strings.Builder
	big.WriteString(`{"type":"session","version":3,"id":"big","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/w"}` + "\n")
	pic := strings.Repeat("QUJD", 700<<10/4)
	parent := "null"
	for i := range 5 {
		id := fmt.Sprintf(`"u%d"`, i)
		big.WriteString(`{"type":"message","id":` + id + `,"parentId":` + parent + `,"timestamp":"2026-03-01T10:00:01.000Z","message":{"role":"user","content":[{"type":"image","data":"` + pic + `","mimeType":"image/png"}]}}` + "\n")
		parent = id
	}
	bigFile := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(bigFile, []byte(big.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		file   string
		chunks int
	}{
		{filepath.Join("..", "testdata", "render", "kinds.jsonl"), 1},
		{bigFile, 5},
	} {
		t.Run(filepath.Base(tt.file), func(t *testing.T) { testPageChunks(t, tt.file, tt.chunks) })
	}
}

func testPageChunks(t *testing.T, file string, wantChunks int) {
	s, err := sessiontree.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.Render(&buf, s, Options{}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	script := strings.Index(page, `<script id="page-script">`)
	store := strings.Index(page, `<div id="store" hidden>`)
	conv := strings.Index(page, `<main id="conversation"`)
	end := strings.Index(page, `</main>`)
	if !(0 < script && script < store && store < conv && conv < end) {
		t.Fatalf("page order: script %d, store %d, conversation %d, end %d", script, store, conv, end)
	}
	// Entries on the path: the non-embedded ones, in order.
	ec := pair(s)
	var want []string
	for _, e := range s.Path(s.Leaf) {
		if ec.rows[e.Index].flags&flagEmbedded == 0 {
			want = append(want, `id="entry-`+e.ID+`"`)
		}
	}
	chunks := regexp.MustCompile(`(?s)<noscript data-at="([0-9]+)">(.*?)</noscript>`).FindAllStringSubmatch(page[conv:end], -1)
	var got []string
	for _, c := range chunks {
		if c[1] != strconv.Itoa(len(got)) {
			t.Errorf("a chunk starts at %s, want %d", c[1], len(got))
		}
		arts := strings.Split(c[2], "<article ")
		if arts[0] != "" {
			t.Errorf("a chunk starts with %q, not an <article>", arts[0])
		}
		if len(arts)-1 > writeBatch {
			t.Errorf("a chunk holds %d entries, more than %d", len(arts)-1, writeBatch)
		}
		for _, a := range arts[1:] {
			got = append(got, regexp.MustCompile(`id="entry-[^"]*"`).FindString(a))
		}
	}
	if len(chunks) != wantChunks {
		t.Errorf("%d chunks in the conversation, want %d", len(chunks), wantChunks)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("conversation chunks hold\n%v\nwant\n%v", got, want)
	}
	// The store: positions listed match the entries it holds.
	for _, m := range regexp.MustCompile(`(?s)<script type="text/x-canopy" data-i="([0-9 ]*)">(.*?)</script>`).FindAllStringSubmatch(page[store:conv], -1) {
		if n, arts := len(strings.Fields(m[1])), strings.Count(m[2], "<article "); n != arts {
			t.Errorf("a store chunk lists %d positions for %d entries", n, arts)
		}
	}
}

// TestImageHash pins imageHash to page.js's imageHash (values from node).
func TestImageHash(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "1aee8d83488bdcb8"},
		{"a", "82c97901501c2ba7"},
		{"iVBORw0KGgoAAAANSUhEUgAA+/==", "2bb0c675313087ba"},
	}
	for _, tt := range tests {
		h1, h2 := imageHash([]byte(tt.in))
		if got := fmt.Sprintf("%08x%08x", h1, h2); got != tt.want {
			t.Errorf("imageHash(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// restoreImages undoes dedupImages as page.js's withImages does.
func restoreImages(t *testing.T, src []byte, images []string) []byte {
	t.Helper()
	byKey := map[string]string{}
	for _, d := range images {
		h1, h2 := imageHash([]byte(d))
		byKey[fmt.Sprintf("%d:%08x%08x", len(d), h1, h2)] = d
	}
	var out []byte
	for {
		s := bytes.IndexByte(src, 0)
		if s < 0 {
			return append(out, src...)
		}
		e := bytes.IndexByte(src[s+1:], 0)
		if e < 0 {
			t.Fatalf("unterminated marker")
		}
		d, ok := byKey[string(src[s+1:s+1+e])]
		if !ok {
			t.Fatalf("marker %q names no picture", src[s+1:s+1+e])
		}
		out = append(append(out, src[:s]...), d...)
		src = src[s+2+e:]
	}
}

func TestDedupImages(t *testing.T) {
	big := strings.Repeat("AbC+/9", 400)    // 2400 characters
	big2 := strings.Repeat("xY0+", 300)     // 1200
	small := strings.Repeat("AAAA", 10)     // under minDedup
	escaped := strings.Repeat("Q/Q", 500)   // written with \/ in the file
	huge := strings.Repeat("AbC+", 400_000) // 1.6 MB: one line over dedupLines' buffer
	line := func(data string) string {
		return `{"type":"message","message":{"content":[{"type":"image","data":"` + data + `","mimeType":"image/png"}]}}` + "\n"
	}
	tests := []struct {
		name    string
		src     string
		shown   []string
		markers int
	}{
		{"one picture", line(big), []string{big}, 1},
		{"the same picture twice", line(big) + line(big), []string{big}, 2},
		{"two pictures", line(big) + line(big2), []string{big, big2}, 2},
		{"a picture the page does not show", line(big) + line(big2), []string{big}, 1},
		{"small pictures stay", line(small), []string{small}, 0},
		{"escaped pictures stay", line(strings.ReplaceAll(escaped, "/", `\/`)), []string{escaped}, 0},
		{"a file with NUL stays", line(big) + "\x00", []string{big}, 0},
		{"no pictures", `{"type":"message"}` + "\n", nil, 0},
		{"a line longer than the reader's buffer", line(huge) + line(big), []string{huge, big}, 2},
		{"no newline at the end", line(big) + strings.TrimSuffix(line(big2), "\n"), []string{big, big2}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := imageSet{}
			for _, d := range tt.shown {
				if len(d) >= minDedup {
					set.add([]byte(d))
				}
			}
			out, marked := dedupImages([]byte(tt.src), set)
			if n := bytes.Count(out, []byte{0}) / 2; n != tt.markers || marked != (tt.markers > 0) {
				t.Fatalf("%d markers (marked %v), want %d", n, marked, tt.markers)
			}
			// The page streams the file a line at a time (compressDeduped):
			// the same bytes.
			if clean, err := noNUL(strings.NewReader(tt.src)); err != nil || clean != !strings.Contains(tt.src, "\x00") {
				t.Errorf("noNUL = %v, %v", clean, err)
			} else if clean {
				var lines bytes.Buffer
				m, err := dedupLines(&lines, iotest.OneByteReader(strings.NewReader(tt.src)), set)
				if err != nil || m != marked || !bytes.Equal(lines.Bytes(), out) {
					t.Errorf("line by line: marked %v, err %v, same bytes %v", m, err, bytes.Equal(lines.Bytes(), out))
				}
			}
			if tt.markers > 0 {
				if got := restoreImages(t, out, tt.shown); string(got) != tt.src {
					t.Errorf("restored file differs:\n%q\nwant\n%q", got, tt.src)
				}
				if len(out) >= len(tt.src) {
					t.Errorf("deduplicated file is %d bytes, the original %d", len(out), len(tt.src))
				}
			}
		})
	}
}

func TestCollectImages(t *testing.T) {
	big := strings.Repeat("AbC+", 300)
	html := string(imageSrc("image/png", big)) + "<p>x</p>" + string(imageSrc("image/webp", big+"AAAA")) + string(imageSrc("image/png", "AAAA"))
	set := imageSet{}
	collectImages([]byte(html), set)
	if len(set) != 2 || !set.has([]byte(big)) || !set.has([]byte(big+"AAAA")) {
		t.Errorf("collectImages found %d pictures: %v", len(set), set)
	}
}

// TestResultsOfUnreadableCalls: a result is drawn in its call's card, so it
// has no block of its own; when the calling message cannot be decoded
// (a mistyped field) or its content is not what Load read (two "content"
// members: Load reads both, Decode the last), or the result itself cannot
// be decoded, the result is drawn after the message's JSON or content (its
// own JSON if need be), and its row is the tool's name.
func TestResultsOfUnreadableCalls(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"go"}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","stopReason":5,"content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}}]}}`,
		`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-01-01T00:00:03Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"FIRST-OUTPUT"}]}}`,
		`{"type":"message","id":"a2","parentId":"r1","timestamp":"2026-01-01T00:00:04Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c2","name":"read","arguments":{"path":"x"}}],"content":[{"type":"text","text":"second"}]}}`,
		`{"type":"message","id":"r2","parentId":"a2","timestamp":"2026-01-01T00:00:05Z","message":{"role":"toolResult","toolCallId":"c2","toolName":"read","content":[{"type":"text","text":"SECOND-OUTPUT"}]}}`,
		`{"type":"message","id":"a3","parentId":"r2","timestamp":"2026-01-01T00:00:06Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c3","name":"read","arguments":{"path":"y"}}]}}`,
		`{"type":"message","id":"r3","parentId":"a3","timestamp":"2026-01-01T00:00:07Z","message":{"role":"toolResult","toolCallId":"c3","toolName":"read","content":[{"type":"text","text":"THIRD-OUTPUT"}]}}`,
		`{"type":"message","id":"a4","parentId":"r3","timestamp":"2026-01-01T00:00:08Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c4","name":"read","arguments":{"path":"z"}}]}}`,
		`{"type":"message","id":"r4","parentId":"a4","timestamp":"2026-01-01T00:00:09Z","message":{"role":"toolResult","toolCallId":"c4","toolName":"grep","details":"FOURTH-OUTPUT","content":[{"type":"text","text":5}]}}`,
	}
	s, ec, html := gatherLines(t, lines)
	for _, c := range []struct {
		call, result, output, row string
	}{
		{"a1", "r1", "FIRST-OUTPUT", "[bash]"},
		{"a2", "r2", "SECOND-OUTPUT", "[read]"},
		{"a3", "r3", "THIRD-OUTPUT", "[read: y]"}, // drawn in the card, as always
		{"a4", "r4", "FOURTH-OUTPUT", "[grep]"},   // the result cannot be decoded: its JSON
	} {
		call, res := s.Entry(c.call), s.Entry(c.result)
		if n := strings.Count(html[call.Index], c.output); n != 1 {
			t.Errorf("%s: the output of %s is drawn %d times, want once", c.call, c.result, n)
		}
		if html[res.Index] != "" || ec.rows[res.Index].flags&flagEmbedded == 0 {
			t.Errorf("%s: drawn apart from %s's card", c.result, c.call)
		}
		if got := ec.rows[res.Index].text; got != c.row {
			t.Errorf("%s: row %q, want %q", c.result, got, c.row)
		}
	}
	if !strings.Contains(html[s.Entry("a1").Index], "could not be read in full") {
		t.Errorf("a1 is not shown as unreadable")
	}
}

// TestReusedCallIDs: some models number their calls afresh in every turn,
// so two messages make a call "call_0". Each card shows the result that
// answers its own call (the nearest call above the result), and no result
// is drawn twice or left apart from its card.
func TestReusedCallIDs(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"go"}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"call_0","name":"read","arguments":{"path":"one.txt"}}]}}`,
		`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-01-01T00:00:03Z","message":{"role":"toolResult","toolCallId":"call_0","toolName":"read","content":[{"type":"text","text":"FIRST-OUTPUT"}]}}`,
		`{"type":"message","id":"a2","parentId":"r1","timestamp":"2026-01-01T00:00:04Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"call_0","name":"read","arguments":{"path":"two.txt"}}]}}`,
		`{"type":"message","id":"r2","parentId":"a2","timestamp":"2026-01-01T00:00:05Z","message":{"role":"toolResult","toolCallId":"call_0","toolName":"read","content":[{"type":"text","text":"SECOND-OUTPUT"}]}}`,
		// A branch from a1: its result answers a1's call, which already has one.
		`{"type":"message","id":"r1b","parentId":"a1","timestamp":"2026-01-01T00:00:06Z","message":{"role":"toolResult","toolCallId":"call_0","toolName":"read","content":[{"type":"text","text":"RETRY-OUTPUT"}]}}`,
	}
	s, ec, html := gatherLines(t, lines)
	page := strings.Join(html, "")
	for _, c := range []struct {
		output, drawnIn, resultID, row string
	}{
		{"FIRST-OUTPUT", "a1", "r1", "[read: one.txt]"},
		{"SECOND-OUTPUT", "a2", "r2", "[read: two.txt]"},
		{"RETRY-OUTPUT", "r1b", "r1b", "[read: one.txt]"}, // an entry of its own
	} {
		if n := strings.Count(page, c.output); n != 1 {
			t.Errorf("%s is drawn %d times, want once", c.output, n)
		}
		if !strings.Contains(html[s.Entry(c.drawnIn).Index], c.output) {
			t.Errorf("%s is not drawn in %s", c.output, c.drawnIn)
		}
		if got := ec.rows[s.Entry(c.resultID).Index].text; got != c.row {
			t.Errorf("%s: row %q, want %q", c.resultID, got, c.row)
		}
	}
}

// gatherLines loads a session from its lines and renders every entry, as
// Render does: the rows and each entry's HTML (by index).
func gatherLines(t *testing.T, lines []string) (*sessiontree.Session, *entryContext, []string) {
	t.Helper()
	s, err := sessiontree.Load([]byte(strings.Join(lines, "\n")+"\n"), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	html := make([]string, len(s.Entries))
	return s, r.gather(s, html), html
}
