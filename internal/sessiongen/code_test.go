package sessiongen

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"canopy/sessiontree"
)

// codeMessage is what the code mode's tests read of a message line.
type codeMessage struct {
	Role       string `json:"role"`
	StopReason string `json:"stopReason"`
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	IsError    bool   `json:"isError"`
	Content    []struct {
		Type      string   `json:"type"`
		Text      string   `json:"text"`
		ID        string   `json:"id"`
		Name      string   `json:"name"`
		Arguments toolArgs `json:"arguments"`
	} `json:"content"`
}

// toolEvent is a tool call with its result, in file order.
type toolEvent struct {
	name    string
	args    toolArgs
	result  string
	isError bool
}

// codeEvents returns the tool calls with their results and the final
// replies' texts, in file order.
func codeEvents(t *testing.T, entries []line) (tools []toolEvent, replies []string) {
	t.Helper()
	calls := map[string]toolArgs{}
	for _, e := range entries {
		if e.Message == nil {
			continue
		}
		var m codeMessage
		if err := json.Unmarshal(e.Message, &m); err != nil {
			continue // user messages with string content
		}
		switch m.Role {
		case "assistant":
			for _, b := range m.Content {
				if b.Type == "toolCall" {
					calls[b.ID] = b.Arguments
				}
			}
			if m.StopReason == "stop" {
				var text []string
				for _, b := range m.Content {
					if b.Type == "text" {
						text = append(text, b.Text)
					}
				}
				replies = append(replies, strings.Join(text, "\n"))
			}
		case "toolResult":
			ev := toolEvent{name: m.ToolName, args: calls[m.ToolCallID], isError: m.IsError}
			if len(m.Content) > 0 {
				ev.result = m.Content[0].Text
			}
			tools = append(tools, ev)
		}
	}
	return tools, replies
}

func TestCodeContent(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"branched", Config{Entries: 3000, Shape: ShapeBranched, Seed: 1, Content: "code"}},
		{"branched other seed", Config{Entries: 3000, Shape: ShapeBranched, Seed: 99, Content: "code"}},
		{"linear", Config{Entries: 1500, Shape: ShapeLinear, Seed: 2, Content: "code"}},
		{"wide", Config{Entries: 500, Shape: ShapeWide, Seed: 3, Content: "code"}},
		{"images", Config{Entries: 300, Shape: ShapeBranched, Seed: 4, Content: "code", Images: 3, ImageBytes: 2000}},
		{"one entry", Config{Entries: 1, Shape: ShapeBranched, Seed: 1, Content: "code"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := generate(t, tt.cfg)
			if again := generate(t, tt.cfg); !bytes.Equal(data, again) {
				t.Fatal("same config produced different bytes")
			}
			_, entries := parse(t, data) // every line is JSON
			if len(entries) != tt.cfg.Entries {
				t.Fatalf("got %d entries, want %d", len(entries), tt.cfg.Entries)
			}
			s, err := sessiontree.Load(data, tt.name)
			if err != nil {
				t.Fatal(err)
			}
			if s.Version != 3 || len(s.Diagnostics) != 0 {
				t.Fatalf("version %d, diagnostics %v", s.Version, s.Diagnostics)
			}
			if len(s.Entries) != tt.cfg.Entries {
				t.Fatalf("sessiontree loaded %d entries, want %d", len(s.Entries), tt.cfg.Entries)
			}
			if got := countImages(t, entries); got != tt.cfg.Images {
				t.Fatalf("got %d image messages, want %d", got, tt.cfg.Images)
			}
		})
	}
	other := generate(t, Config{Entries: 500, Shape: ShapeBranched, Seed: 2, Content: "code"})
	if bytes.Equal(generate(t, Config{Entries: 500, Shape: ShapeBranched, Seed: 1, Content: "code"}), other) {
		t.Error("seeds 1 and 2 give the same session")
	}
}

// The proportions of real coding sessions, on a 5,000-entry sample: tool
// results about half of the bytes, read about 18%, bash about 25%.
func TestCodeProportions(t *testing.T) {
	for _, seed := range []uint64{1, 7} {
		data := generate(t, Config{Entries: 5000, Shape: ShapeBranched, Seed: seed, Content: "code"})
		st, err := Measure(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if st.Bytes != int64(len(data)) || st.Entries != 5000 {
			t.Fatalf("seed %d: Measure counted %d bytes, %d entries; want %d, 5000", seed, st.Bytes, st.Entries, len(data))
		}
		bash := st.Share("message/toolResult/bash") + st.Share("message/bashExecution")
		for _, c := range []struct {
			what     string
			got      float64
			from, to float64
		}{
			{"tool results", st.Share("message/toolResult"), 0.40, 0.60},
			{"read", st.Share("message/toolResult/read"), 0.13, 0.23},
			{"bash", bash, 0.19, 0.31},
			{"assistant", st.Share("message/assistant"), 0.30, 0.55},
		} {
			if c.got < c.from || c.got > c.to {
				t.Errorf("seed %d: %s are %.1f%% of the bytes, want %.0f%% to %.0f%%", seed, c.what, 100*c.got, 100*c.from, 100*c.to)
			}
		}
		// About 2 KB per entry: the 10 MB input is about 5,000 entries.
		if per := len(data) / 5000; per < 1500 || per > 2600 {
			t.Errorf("seed %d: %d bytes per entry, want about 2,000", seed, per)
		}
	}
}

// Reads come back to the same files, whole or a slice, and show the
// edits made before them.
func TestCodeReads(t *testing.T) {
	data := generate(t, Config{Entries: 5000, Shape: ShapeLinear, Seed: 3, Content: "code"})
	_, entries := parse(t, data)
	tools, _ := codeEvents(t, entries)
	seen := map[string]bool{}
	lastEdit := map[string]string{} // path: newText of its last edit, while no read has checked it
	reads, rereads, whole, slices, long, checked := 0, 0, 0, 0, 0, 0
	for _, ev := range tools {
		p := ev.args.Path
		switch {
		case ev.isError:
		case ev.name == "edit":
			lastEdit[p] = ev.args.NewText
		case ev.name == "write":
			delete(lastEdit, p)
		case ev.name == "read":
			reads++
			if seen[p] {
				rereads++
			}
			seen[p] = true
			if ev.args.Limit > 0 {
				slices++
				continue
			}
			whole++
			if strings.Count(ev.result, "\n") >= 80 {
				long++
			}
			if want, ok := lastEdit[p]; ok && !strings.Contains(ev.result, "Showing lines") {
				if !strings.Contains(ev.result, want) {
					t.Errorf("a read of %s does not show the edit made before it:\n%s", p, want)
				}
				delete(lastEdit, p)
				checked++
			}
		}
	}
	if reads < 200 || float64(rereads) < 0.7*float64(reads) {
		t.Errorf("%d of %d reads re-read a file, want most", rereads, reads)
	}
	if whole < reads/4 || slices < reads/4 || long < whole/3 {
		t.Errorf("%d whole reads (%d of 80 lines or more), %d slices", whole, long, slices)
	}
	if checked < 20 {
		t.Errorf("only %d reads came after an edit of their file", checked)
	}
}

// Most replies carry fenced code of 10 to 60 lines, some several blocks.
func TestCodeReplies(t *testing.T) {
	data := generate(t, Config{Entries: 5000, Shape: ShapeBranched, Seed: 5, Content: "code"})
	_, entries := parse(t, data)
	_, replies := codeEvents(t, entries)
	fenced, several, langs := 0, 0, map[string]int{}
	for _, r := range replies {
		blocks := fencedBlocks(r)
		if len(blocks) > 0 {
			fenced++
		}
		if len(blocks) > 1 {
			several++
		}
		for _, b := range blocks {
			langs[b.lang]++
			if b.lang != "diff" && b.lang != "bash" && (b.lines < 10 || b.lines > 60) {
				t.Errorf("a %s block of %d lines, want 10 to 60", b.lang, b.lines)
			}
		}
	}
	if len(replies) < 300 || fenced < len(replies)*7/10 || several < len(replies)/10 {
		t.Errorf("%d replies, %d with fenced code, %d with several blocks", len(replies), fenced, several)
	}
	for _, l := range []string{"go", "typescript", "tsx", "python", "sh", "json", "md", "yaml", "diff", "bash"} {
		if langs[l] == 0 {
			t.Errorf("no %s block in the replies (%v)", l, langs)
		}
	}
}

type fence struct {
	lang  string
	lines int
}

// fencedBlocks lists the fenced blocks of a Markdown text: a block opened
// by a run of backticks is closed by a line of the same run (a Markdown
// file quoted in a reply holds fences of its own, inside a longer one).
func fencedBlocks(text string) []fence {
	var out []fence
	var cur *fence
	mark := ""
	for _, l := range strings.Split(text, "\n") {
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			info := strings.TrimLeft(l, "`")
			mark = l[:len(l)-len(info)]
			cur = &fence{lang: info}
		case cur != nil && l == mark:
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.lines++
		}
	}
	return out
}

// Files are synthesized from the seed and the path alone, at the sizes of
// a real project's files, in every language of the project.
func TestCodeProjectFiles(t *testing.T) {
	p := newProject(1)
	sizes := map[string]int{}
	inRange, over1000 := 0, 0
	for i := range p.files {
		f := p.file(i)
		n := len(f.lines)
		sizes[f.lang] += n
		if n >= 80 && n <= 600 {
			inRange++
		}
		if n > 1000 {
			over1000++
		}
	}
	if inRange < len(p.files)*6/10 || over1000 == 0 || over1000 > len(p.files)/10 {
		t.Errorf("%d of %d files have 80-600 lines, %d over 1,000", inRange, len(p.files), over1000)
	}
	for _, lang := range []string{"go", "ts", "python", "bash", "json", "markdown", "yaml"} {
		if sizes[lang] == 0 {
			t.Errorf("no %s lines", lang)
		}
	}
	// The same file whatever was made before it; another seed, another file.
	q := newProject(1)
	last := len(q.files) - 1
	if q.file(last).content() != p.file(last).content() {
		t.Error("a file's content depends on the files made before it")
	}
	if newProject(2).file(last).content() == p.file(last).content() {
		t.Error("seeds 1 and 2 give the same file")
	}
}

func BenchmarkCode(b *testing.B) {
	for b.Loop() {
		if err := Generate(&bytes.Buffer{}, Config{Entries: 10000, Shape: ShapeBranched, Seed: 1, Content: "code"}); err != nil {
			b.Fatal(err)
		}
	}
}
