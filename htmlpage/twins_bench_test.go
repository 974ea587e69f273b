package htmlpage

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/internal/mdcost"
	"canopy/sessiontree"
)

// BenchmarkRenderTwins measures htmlpage's hand-written twins against the
// library path they stand in for, on the texts and views of real sessions:
// plainMarkdown (markdown/own: as an export converts every text; library:
// goldmark for every text) and writeEntry (entry/own; library: the "entry"
// template). The inputs are the corpus sessions and any listed in
// CANOPY_TWIN_INPUTS (comma-separated paths, e.g. the code-heavy and
// generated sessions canopybench writes). What a twin saves is its library
// time less its own, to be compared with the whole export's CPU time.
func BenchmarkRenderTwins(b *testing.B) {
	r, err := New()
	if err != nil {
		b.Fatal(err)
	}
	paths := []string{sharedFile(b, "corpus/large-session.jsonl"), sharedFile(b, "corpus/before-compaction.jsonl")}
	if more := os.Getenv("CANOPY_TWIN_INPUTS"); more != "" {
		paths = append(paths, strings.Split(more, ",")...)
	}
	for _, path := range paths {
		s, err := sessiontree.LoadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		texts, views := twinInputs(r, s)
		b.Run(filepath.Base(path), func(b *testing.B) {
			b.Run("markdown/own", func(b *testing.B) {
				for b.Loop() {
					for _, t := range texts {
						_ = r.markdown(t)
					}
				}
			})
			b.Run("markdown/library", func(b *testing.B) {
				for b.Loop() {
					for _, t := range texts {
						_ = r.convert(t)
					}
				}
			})
			var buf bytes.Buffer
			b.Run("entry/own", func(b *testing.B) {
				for b.Loop() {
					for _, v := range views {
						buf.Reset()
						writeEntry(&buf, v)
					}
				}
			})
			b.Run("entry/library", func(b *testing.B) {
				for b.Loop() {
					for _, v := range views {
						buf.Reset()
						if err := r.page.ExecuteTemplate(&buf, "entry", v); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		})
		s.Close()
	}
}

// twinInputs are the Markdown texts of a session that markdown would
// convert (text and thinking blocks, summaries) and the views of its
// entries with a block of their own.
func twinInputs(r *Renderer, s *sessiontree.Session) (texts []string, views []*entryView) {
	ec := r.gather(s, nil)
	for i, e := range s.Entries {
		if ec.rows[i].flags&flagEmbedded != 0 {
			continue
		}
		b, err := e.Decode()
		views = append(views, r.view(ec, e, b, err))
		if err != nil {
			continue
		}
		blocks := b.Content
		if b.Message != nil {
			blocks = b.Message.Content
		}
		all := []string{e.Summary}
		for _, blk := range blocks {
			all = append(all, blk.Text, blk.Thinking)
		}
		for _, t := range all {
			if strings.TrimSpace(t) != "" && len(t) <= mdcost.MaxBytes {
				texts = append(texts, t)
			}
		}
	}
	return texts, views
}
