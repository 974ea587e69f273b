package htmlpage

import (
	"html/template"
	"strings"
	"unicode/utf8"
)

// plainMarkdown writes src as goldmark writes it when src is only
// paragraphs of plain text, lists of one-line items ("- text", "- [x]
// text"), each a block of its own or right after a paragraph's lines, and
// code fenced with three backticks, a block of its own: no character that
// Markdown (with our extensions) could read as markup, no line that could
// open another block. ok is false for anything else, which goldmark
// converts. hl highlights fenced code, as renderFencedCode does.
// FuzzPlainMarkdown holds this to goldmark's output for every text it
// accepts.
//
// Why: about half the texts of an agent session are a line or two of plain
// prose ("Running the tests to see the current state."), and goldmark's
// parser costs the same 20 µs for those as for a page of Markdown. Of the
// texts left to goldmark, most were plain but for a list, a fenced block of
// code, a name_with underscores or an index in brackets (rows[len(rows)-1]).
// Measured (canopy export, CPU time, medians of 5-21 runs, against the same
// binary with goldmark for every text): it saves 24% of the export of
// gen-10k and 34-40% of gen-100k, 3% of code-10MB, and nothing measurable
// (within 2%) of the corpus sessions. It stays for the generated benchmark
// inputs (an export no slower on any of them), and in htmlpage, not
// internal/fastpath, because it writes what htmlpage's goldmark writes
// (safeRenderer, the highlighter's fences and notes), which its fuzz test
// holds it to.
func plainMarkdown(src string, hl *highlighter) (html string, ok bool) {
	src = strings.TrimRight(src, "\n")
	sc, ok := scanPlain(src)
	if !ok || !sc.plain(src) {
		return "", false
	}
	return writePlain(src, sc.prose, hl)
}

// plainScan is what scanPlain finds in a text.
type plainScan struct {
	prose          [][2]int // where the text is not fenced code
	colon, bracket bool
	link           bool // "http" or "ftp:"
}

// scanPlain reads the characters of src, and the start of each line: most
// texts that are not plain show it early, and the passes over the whole
// text after it (plain, writePlain) are for those that are. ok is false
// at the first character or line start that plainMarkdown leaves to
// goldmark.
func scanPlain(src string) (sc plainScan, ok bool) {
	lineStart := true
	from := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		if lineStart {
			if c == '\n' {
				continue // blank lines
			}
			if strings.HasPrefix(src[i:], "```") {
				end := fenceEnd(src, i)
				if end < 0 {
					return sc, false
				}
				sc.prose = append(sc.prose, [2]int{from, i})
				from = end
				i = end - 1 // at the "\n" after the fence, or the end
				continue
			}
			if i, ok = lineText(src, i); !ok {
				return sc, false
			}
			c = src[i]
			lineStart = false
		}
		if textByte[c] {
			// Where linkify's links start.
			switch c | 0x20 {
			case 'w':
				if hasPrefixFold(src[i:], "www.") {
					return sc, false
				}
			case 'h':
				sc.link = sc.link || hasPrefixFold(src[i:], "http")
			case 'f':
				sc.link = sc.link || hasPrefixFold(src[i:], "ftp:")
			}
			continue
		}
		if i, ok = sc.markByte(src, i); !ok {
			return sc, false
		}
		lineStart = c == '\n'
	}
	sc.prose = append(sc.prose, [2]int{from, len(src)})
	return sc, true
}

// lineText reads the start of a line of text at src[i] (not blank, not a
// fence): a list item's text starts as a line of text would, after a
// task's box if it has one. It returns where the line's text starts, and
// false when the line could open a block plainMarkdown does not write.
func lineText(src string, i int) (int, bool) {
	if src[i] == '-' && i+2 < len(src) && src[i+1] == ' ' {
		i += 2
		if taskBox(src[i:]) != "" && i+4 < len(src) {
			i += 4
		}
	}
	switch c := src[i]; {
	case c == ' ', c == '\t', c == '\n', c == '-', c == '+', c == '=', c == ':', c >= '0' && c <= '9':
		// Indented code, a list item, a setext underline, an
		// ordered list item, a table's delimiter row (":--"
		// makes a table of one column, with no "|"); an empty
		// or indented list item.
		return i, false
	case c == '[':
		return i, false // a task ("- [x]") or a link definition
	case c == '`':
		if n, _ := codeSpan(src[i:]); n >= 3 {
			return i, false // a code fence in a list item
		}
	}
	return i, true
}

// markByte reads the byte at src[i] that is not a textByte, past a line's
// start, and what it starts: it returns the index of the last byte read,
// and false when it is markup that plainMarkdown leaves to goldmark.
func (sc *plainScan) markByte(src string, i int) (int, bool) {
	switch c := src[i]; {
	case c == '\n':
		if src[i-1] == ' ' || src[i-1] == '\t' {
			return i, false // trailing spaces: a hard break; or cut
		}
	case c == ':':
		sc.colon = true
	case c == '[', c == ']':
		sc.bracket = true
	case c == '_':
		// Within a word (snake_case) "_" can neither open nor close
		// emphasis.
		j := i
		for j < len(src) && src[j] == '_' {
			j++
		}
		if i == 0 || !isAlnum(src[i-1]) || j == len(src) || !isAlnum(src[j]) {
			return i, false
		}
		return j - 1, true
	case c == '\t': // within a line (at its start, it indents)
	case c == '`':
		_, end := codeSpan(src[i:])
		if end < 0 {
			return i, false
		}
		span := src[i : i+end]
		if containsFold(span, "www.") {
			return i, false
		}
		sc.link = sc.link || containsFold(span, "http") || containsFold(span, "ftp:")
		return i + end - 1, true
	default:
		return i, false
	}
	return i, true
}

// plain reports whether a text that scanPlain read through is plain as a
// whole: no trailing white space, valid UTF-8, and no ":" or bracket that
// makes a link.
func (sc *plainScan) plain(src string) bool {
	if src == "" || src[len(src)-1] == ' ' || src[len(src)-1] == '\t' {
		return false
	}
	if !utf8.ValidString(src) {
		return false // broken UTF-8
	}
	// ":" is markup only in linkify's links (http://, https://, ftp://;
	// the other links that hold one start with "<" or "["): it is in a
	// third of the texts goldmark was given ("The plan:").
	if sc.colon && sc.link {
		return false
	}
	// Brackets are text unless they make a link: "[text](url)", or
	// "[text]" with a definition ("[text]: url") somewhere.
	for _, p := range sc.prose {
		if text := src[p[0]:p[1]]; sc.bracket && (strings.Contains(text, "](") || strings.Contains(text, "]:")) {
			return false
		}
	}
	return true
}

// writePlain writes a plain text, block by block: paragraphs, lists and
// fenced code (prose: where the text is not fenced code). ok is false for
// a block that is neither a paragraph nor a list of the kinds
// plainMarkdown writes.
func writePlain(src string, prose [][2]int, hl *highlighter) (html string, ok bool) {
	var b strings.Builder
	b.Grow(len(src) + 16)
	list := false // the block before was a list (blank lines between)
	lines := strings.Split(src, "\n")
	fence := 0 // fence k is from the end of prose[k] to the start of prose[k+1]
	for i := 0; i < len(lines); {
		if lines[i] == "" {
			i++
			continue
		}
		j := i + 1
		if strings.HasPrefix(lines[i], "```") {
			for lines[j] != "```" {
				j++
			}
			list = false
			// The code: its lines, each with its "\n", as they are in src.
			start, end := prose[fence][1], prose[fence+1][0]
			code := src[start+len(lines[i])+1 : end-len("```")]
			fence++
			writeFence(&b, lines[i][3:], code, hl)
			i = j + 1
			continue
		}
		for j < len(lines) && lines[j] != "" {
			j++
		}
		block := lines[i:j]
		i = j
		// first is the block's first list item, after the lines of a
		// paragraph if any: a list item with text interrupts a
		// paragraph ("Changes:\n- one\n- two").
		first, items := -1, 0
		for k, line := range block {
			if strings.HasPrefix(line, "- ") {
				items++
				if first < 0 {
					first = k
				}
			}
		}
		switch {
		case items == 0:
			list = false
			writeParagraph(&b, block)
		case first > 0 && items == len(block)-first:
			writeParagraph(&b, block[:first])
			list = true
			writeList(&b, block[first:])
		case items == len(block) && !list:
			// A tight list. Two lists with only blank lines between them
			// are one loose list, and a line of text after a list item
			// continues it: goldmark's.
			list = true
			writeList(&b, block)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// writeParagraph writes lines of prose as one paragraph, with a hard break
// between lines (WithHardWraps).
func writeParagraph(b *strings.Builder, lines []string) {
	b.WriteString("<p>")
	for k, line := range lines {
		if k > 0 {
			b.WriteString("<br>\n")
		}
		writePlainLine(b, line)
	}
	b.WriteString("</p>\n")
}

// writeList writes lines "- text" as a tight list.
func writeList(b *strings.Builder, lines []string) {
	b.WriteString("<ul>\n")
	for _, line := range lines {
		b.WriteString("<li>")
		text := line[2:]
		if box := taskBox(text); box != "" {
			b.WriteString(box)
			text = text[4:]
		}
		writePlainLine(b, text)
		b.WriteString("</li>\n")
	}
	b.WriteString("</ul>\n")
}

// taskBox is the check box TaskList writes for a list item whose text
// starts with "[ ] ", "[x] " or "[X] ", or "".
func taskBox(text string) string {
	if len(text) < 4 || text[0] != '[' || text[2] != ']' || text[3] != ' ' {
		return ""
	}
	switch text[1] {
	case ' ':
		return `<input disabled="" type="checkbox"> `
	case 'x', 'X':
		return `<input checked="" disabled="" type="checkbox"> `
	}
	return ""
}

// fenceEnd reads the fenced code block that starts at src[i], a line's
// start, when plainMarkdown can write it: a blank line (or the text's
// start) before it, "```" and a plain language name (or none), lines of
// code with no control character but tabs and none that could close or
// open a fence but the last, "```", and then a blank line or the text's
// end. It returns where the block ends (its closing fence's end), or -1.
func fenceEnd(src string, i int) int {
	if i > 0 && (i < 2 || src[i-2] != '\n') {
		return -1 // right after a line of text
	}
	nl := strings.IndexByte(src[i:], '\n')
	if nl < 0 {
		return -1 // unclosed
	}
	for _, c := range []byte(src[i+3 : i+nl]) {
		if !isAlnum(c) && strings.IndexByte("_+#.-", c) < 0 {
			return -1
		}
	}
	for at := i + nl + 1; at < len(src); {
		line := src[at:]
		if k := strings.IndexByte(line, '\n'); k >= 0 {
			line = line[:k]
		}
		end := at + len(line)
		if line == "```" {
			if end < len(src) && (end+1 >= len(src) || src[end+1] != '\n') {
				return -1 // right before a line of text
			}
			return end
		}
		if strings.HasPrefix(strings.TrimLeft(line, " "), "```") || strings.HasPrefix(strings.TrimLeft(line, " "), "~~~") {
			return -1
		}
		for _, c := range []byte(line) {
			if c < ' ' && c != '\t' || c == 0x7f {
				return -1
			}
		}
		at = end + 1
	}
	return -1 // unclosed
}

// writeFence writes a fenced block as renderFencedCode does.
func writeFence(b *strings.Builder, lang, code string, hl *highlighter) {
	b.WriteString(`<pre class="chroma"><code>`)
	note := ""
	if lang == "" {
		textEscaper.WriteString(b, code)
	} else {
		var html template.HTML
		html, note = hl.code(code, lang, "")
		b.WriteString(string(html))
	}
	b.WriteString("</code></pre>\n")
	writeNote(b, note)
}

// textByte: the bytes that are text wherever they are in a line of prose
// (past its start).
var textByte = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x80 || isAlnum(byte(c)) || strings.IndexByte(" .,;?'\"%/()-!=+{}^$", byte(c)) >= 0
	}
	return t
}()

// hasPrefixFold reports whether s starts with prefix, an ASCII word of
// lower-case letters and punctuation, in any case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if c := s[i]; c != prefix[i] && !(c|0x20 == prefix[i] && 'a' <= prefix[i] && prefix[i] <= 'z') {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// codeSpan reads the run of backticks that s starts with: its length, and
// where the code span it opens ends on the same line (past its closing
// run, as long as the opening one), or -1 if it does not end there or
// holds what plainMarkdown leaves to goldmark: a control character (a
// carriage return ends a line), or "@" (linkify may read "`a@b.c" as an
// address before it reads a code span).
func codeSpan(s string) (n, end int) {
	for n < len(s) && s[n] == '`' {
		n++
	}
	for j := n; j < len(s); {
		switch c := s[j]; {
		case c == '`':
			k := j
			for k < len(s) && s[k] == '`' {
				k++
			}
			if k-j == n {
				return n, k
			}
			j = k
		case c < ' ' && c != '\t', c == '@':
			return n, -1
		default:
			j++
		}
	}
	return n, -1
}

// writePlainLine writes one line of a text plainMarkdown accepts, as
// goldmark does: text with its quotes escaped, and code spans.
func writePlainLine(b *strings.Builder, line string) {
	for line != "" {
		i := strings.IndexByte(line, '`')
		if i < 0 {
			b.WriteString(strings.ReplaceAll(line, `"`, "&quot;"))
			return
		}
		b.WriteString(strings.ReplaceAll(line[:i], `"`, "&quot;"))
		n, end := codeSpan(line[i:])
		code := line[i+n : i+end-n]
		// One space is cut at each end when both ends have one and the
		// code is not all white space (goldmark's IsBlank).
		if len(code) >= 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " \t") != "" {
			code = code[1 : len(code)-1]
		}
		b.WriteString("<code>")
		b.WriteString(codeEscaper.Replace(code))
		b.WriteString("</code>")
		line = line[i+end:]
	}
}

// codeEscaper escapes code as goldmark's RawWrite does.
var codeEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// containsFold reports whether s contains sub, an ASCII word of lower-case
// letters and punctuation, in any case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if hasPrefixFold(s[i:], sub) {
			return true
		}
	}
	return false
}
