package fastlex

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"canopy/internal/sessiongen"
)

// TestRealText holds the engine to chroma on the text sessions hold: the
// files read by path (lexed by their names) and the fenced code (by its
// language) of the sessions in testdata and ../shared/corpus, and of a
// code-heavy session generated as canopybench's code-10MB is.
func TestRealText(t *testing.T) {
	sessions := [][]byte{generated(t, 3000)}
	var files []string
	for _, glob := range []string{"../../testdata/*/*.jsonl", "../../testdata/*/*/*.jsonl", "../../testdata/*/*/*/*.jsonl", sharedDir() + "/corpus/*.jsonl"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sessions = append(sessions, data)
	}
	samples := newSampler(400 << 10)
	for _, data := range sessions {
		samples.session(data)
	}
	e := New()
	names := samples.lexerNames()
	if len(names) < 8 {
		t.Fatalf("only %d lexers in the samples: %v", len(names), names)
	}
	driven := 0
	for _, name := range names {
		l := samples.lexers[name]
		// A lexer the engine leaves to chroma compares chroma with itself:
		// the comparison holds the engine only where it drives the lexer.
		if Driven(e.Lexer(l)) {
			driven++
		} else {
			t.Logf("%s: left to chroma", name)
		}
		for _, text := range samples.texts[name] {
			sameTokens(t, e, l, text)
		}
		t.Logf("%s: %d texts, %d bytes", name, len(samples.texts[name]), samples.bytes[name])
	}
	if driven < 8 {
		t.Errorf("the engine drives only %d of the %d lexers of real text", driven, len(names))
	}
}

// generated is a code-heavy session of n entries, as canopybench makes.
func generated(t testing.TB, n int) []byte {
	var gen bytes.Buffer
	if err := sessiongen.Generate(&gen, sessiongen.Config{Entries: n, Shape: sessiongen.ShapeBranched, Content: "code", Seed: 7}); err != nil {
		t.Fatal(err)
	}
	return gen.Bytes()
}

// BenchmarkRealText lexes the code of a generated code-heavy session, as
// render does (each text once, lexers coalesced), with chroma and with
// the engine.
func BenchmarkRealText(b *testing.B) {
	samples := newSampler(4 << 20)
	samples.session(generated(b, 3000))
	e := New()
	total := 0
	for _, name := range samples.lexerNames() {
		total += samples.bytes[name]
	}
	for _, c := range []struct {
		name string
		wrap func(chroma.Lexer) chroma.Lexer
	}{{"chroma", chroma.Coalesce}, {"fastlex", func(l chroma.Lexer) chroma.Lexer { return chroma.Coalesce(e.Lexer(l)) }}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for b.Loop() {
				for _, name := range samples.lexerNames() {
					l := c.wrap(samples.lexers[name])
					for _, text := range samples.texts[name] {
						collect(l, text)
					}
				}
			}
		})
	}
}

func sharedDir() string {
	if dir := os.Getenv("CANOPY_SHARED"); dir != "" {
		return dir
	}
	return "../../../shared"
}

// sampler keeps distinct texts per lexer, up to a number of bytes each.
type sampler struct {
	limit  int
	lexers map[string]chroma.Lexer
	texts  map[string][]string
	bytes  map[string]int
	seen   map[string]bool
	paths  map[string]string // tool call id -> path read
}

func newSampler(limit int) *sampler {
	return &sampler{limit: limit, lexers: map[string]chroma.Lexer{}, texts: map[string][]string{},
		bytes: map[string]int{}, seen: map[string]bool{}, paths: map[string]string{}}
}

func (s *sampler) lexerNames() []string {
	var names []string
	for name := range s.texts {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func (s *sampler) add(l chroma.Lexer, text string) {
	if l == nil || text == "" || len(text) > 64<<10 {
		return
	}
	name := l.Config().Name
	if s.bytes[name]+len(text) > s.limit || s.seen[name+"\x00"+text] {
		return
	}
	s.seen[name+"\x00"+text] = true
	s.lexers[name] = l
	s.texts[name] = append(s.texts[name], text)
	s.bytes[name] += len(text)
}

var fence = regexp.MustCompile("(?ms)^```([\\w+#-]+)[ \t]*\n(.*?)^```")

// session samples one JSONL session: tool calls' paths, the results of
// those calls, and every fenced block in any string.
func (s *sampler) session(data []byte) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var v any
		if json.Unmarshal(sc.Bytes(), &v) == nil {
			s.walk(v)
		}
	}
}

func (s *sampler) walk(v any) {
	switch v := v.(type) {
	case map[string]any:
		s.object(v)
		for _, c := range v {
			s.walk(c)
		}
	case []any:
		for _, c := range v {
			s.walk(c)
		}
	case string:
		for _, m := range fence.FindAllStringSubmatch(v, -1) {
			s.add(lexers.Get(m[1]), m[2])
		}
	}
}

// object notes a tool call's path (pi: arguments.path; Claude Code:
// input.file_path) and samples a result of a call whose path it knows.
func (s *sampler) object(o map[string]any) {
	id, _ := o["id"].(string)
	for _, k := range []string{"arguments", "input"} {
		if args, ok := o[k].(map[string]any); ok && id != "" {
			for _, p := range []string{"path", "file_path"} {
				if path, ok := args[p].(string); ok {
					s.paths[id] = path
				}
			}
		}
	}
	for _, k := range []string{"toolCallId", "tool_use_id"} {
		call, _ := o[k].(string)
		path := s.paths[call]
		if path == "" {
			continue
		}
		l := lexers.Match(filepath.Base(path))
		switch c := o["content"].(type) {
		case string:
			s.add(l, c)
		case []any:
			for _, b := range c {
				if b, ok := b.(map[string]any); ok {
					text, _ := b["text"].(string)
					s.add(l, strings.TrimSuffix(text, "\n"))
				}
			}
		}
	}
}
