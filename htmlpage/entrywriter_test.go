package htmlpage

import (
	"bytes"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/sessiontree"
)

// templateEntry is the reference markup of an entry: the "entry" template
// executed by html/template, contextual escaping included.
func templateEntry(t *testing.T, r *Renderer, v *entryView) string {
	t.Helper()
	var buf bytes.Buffer
	if err := r.page.ExecuteTemplate(&buf, "entry", v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// testdataSessions lists the .jsonl files under testdata: every kind,
// tool, conformance case and hostile text the tests have.
func testdataSessions(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(filepath.Join("..", "testdata"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestEntryWriterMatchesTemplate checks writeEntry against the template it
// stands in for, byte for byte: on every entry of every session in
// testdata (every kind, tool, conformance case, hostile text), and on views
// whose every string holds what html/template must escape.
func TestEntryWriterMatchesTemplate(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	files := testdataSessions(t)
	if len(files) < 30 {
		t.Fatalf("found %d sessions in testdata", len(files))
	}
	entries := 0
	for _, f := range files {
		s, err := sessiontree.LoadFile(f)
		if err != nil {
			continue // not a session (a broken fixture): nothing to render
		}
		ec := newEntryContext(s, treeOrder(s))
		for i, e := range s.Entries {
			if ec.rows[i].flags&flagEmbedded != 0 {
				continue
			}
			b, err := e.Decode()
			v := r.view(ec, e, b, err)
			var got bytes.Buffer
			writeEntry(&got, v)
			if want := templateEntry(t, r, v); got.String() != want {
				t.Errorf("%s: entry %s (line %d):\nwriter:   %q\ntemplate: %q", f, e.ID, e.Line, got.String(), want)
			}
			entries++
		}
	}
	t.Logf("%d entries of %d sessions", entries, len(files))

	// Every string field, and every kind of part, with text to escape.
	const nasty = "a\"b'c&d<e>f+g\x00h\xff\xfe\u2028</script><!--x=`y`"
	fd := &fold{Summary: nasty, HTML: "<b>ok</b>", Open: true}
	parts := []part{
		{Markdown: "<p>m</p>"}, {Code: "<span>c</span>"}, {More: fd}, {Thinking: fd},
		{Thinking: &fold{Summary: nasty}}, {Command: "ls"}, {Image: `<img class="image" src="data:image/png;base64,AAAA" alt="image">`},
		{JSON: fd}, {JSON: &fold{Summary: nasty}}, {Diff: "<del>d</del>"}, {Text: "t"}, {Note: nasty},
		{Tool: &toolView{ResultID: nasty, Name: nasty, Class: nasty, Summary: nasty, Input: []part{{Code: "i"}, {Note: "n"}}, Output: []part{{Text: "o"}}, IsError: true}},
		{Tool: &toolView{Name: "read", Class: "tool-read", Pending: true}},
		{Tool: &toolView{Name: "Task", Class: "tool-other", Agents: []*subagentView{
			{Summary: nasty, Entries: []*entryView{{ID: nasty, Kind: "user", Heading: nasty, Parts: []part{{Text: "t"}, {Tool: &toolView{Name: "x",
				Agents: []*subagentView{{Summary: "nested", Note: nasty}}}}}}, {ID: "y"}}},
			{Summary: "none"}}}},
	}
	for _, v := range []*entryView{
		{},
		{ID: nasty, Kind: nasty, Heading: nasty, Time: nasty, Label: nasty, Meta: nasty, Silent: true,
			Notes: []note{{nasty, nasty}, {"info", "x"}}, Parts: parts},
		{ID: "x", Kind: "user", Heading: "User", Parts: parts[:1]},
	} {
		var got bytes.Buffer
		writeEntry(&got, v)
		if want := templateEntry(t, r, v); got.String() != want {
			t.Errorf("view %+v:\nwriter:   %q\ntemplate: %q", v, got.String(), want)
		}
	}
}

// FuzzEntryWriter: for any text in a view's strings, the writer and the
// template agree.
func FuzzEntryWriter(f *testing.F) {
	r, err := New()
	if err != nil {
		f.Fatal(err)
	}
	f.Add("id", "user", "heading", "label", "meta", "note")
	f.Add("\x00", "a b", "<script>", "'\"", "+&", "\xff")
	f.Fuzz(func(t *testing.T, id, kind, heading, label, meta, text string) {
		v := &entryView{ID: id, Kind: kind, Heading: heading, Label: label, Meta: meta, Time: text,
			Notes: []note{{kind, text}},
			Parts: []part{{Thinking: &fold{Summary: text, HTML: template.HTML("<p>x</p>")}},
				{Tool: &toolView{ResultID: id, Name: kind, Class: label, Summary: text,
					Agents: []*subagentView{{Summary: text, Note: meta, Entries: []*entryView{{ID: id, Heading: heading}}}}}}, {Note: meta}}}
		var got bytes.Buffer
		writeEntry(&got, v)
		if want := templateEntry(t, r, v); got.String() != want {
			t.Errorf("writer %q, template %q", got.String(), want)
		}
	})
}
