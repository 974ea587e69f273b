package htmlpage

import (
	"bytes"
	"fmt"
	"html/template"
	"io"

	"canopy/sessiontree"
)

// Render writes the page for s to w: its header, its entries rendered on
// every core (which also fills in the tree's rows), and the original file
// compressed for download while they are rendered; then the page, in its
// order.
func (r *Renderer) Render(w io.Writer, s *sessiontree.Session, opts Options) error {
	leaf := opts.Leaf
	if leaf == nil {
		leaf = s.Leaf
	}
	src := embedSource(s, opts.NoSource)
	defer src.close()
	order := treeOrder(s)
	ec := newEntryContext(s, order)
	ec.decoded = opts.Decoded
	path := s.Path(leaf)
	d := r.header(s, path, opts)
	body, err := r.renderBody(ec, order, path, src.shown)
	if err != nil {
		return err
	}
	defer body.Close()
	// The page's figures beside the tree's JSON, both from the rows the
	// entries filled in (they only read the session).
	var figs pageFigures
	tree, err := encodeTree(s, order, positions(s, order), ec.rows, leaf, func() map[*sessiontree.Entry][2]string {
		figs = figuresOf(s, leaf, ec.rows)
		return figs.rows
	})
	if err != nil {
		return err
	}
	d.Stats = figureRows(s, d.Stats, &figs)
	return r.writePage(w, d, tree.writeTo, body, src, s.Err)
}

// writePage writes the page in its order: the tree and the script first,
// the store, then the conversation, so that the page's script draws the
// tree and the first entries while the rest arrives; the source last.
// bodyErr tells, once the entries are written, whether one could not be
// read again (its file changed) and was shown as unreadable: the page is
// then not what the file held.
func (r *Renderer) writePage(w io.Writer, d *pageData, tree func(io.Writer) error, body *renderedBody,
	src *embeddedSource, bodyErr func() error) error {
	if err := r.executeAround(w, "top", d, treeSlot, tree); err != nil {
		return err
	}
	if err := body.writeStore(w); err != nil {
		return err
	}
	if err := r.page.ExecuteTemplate(w, "middle", d); err != nil {
		return fmt.Errorf("executing page template: %w", err)
	}
	if err := body.writeConversation(w); err != nil {
		return err
	}
	gz, deduped, err := src.finish()
	if err != nil {
		return err
	}
	d.SourceImages = deduped
	if err := bodyErr(); err != nil {
		return err
	}
	return r.executeAround(w, "bottom", d, sourceSlot, gz.writeJSON)
}

// pageData is what page.html is executed with.
type pageData struct {
	Theme, CSP, Version, Title     string
	CSS                            template.CSS
	JS                             template.JS
	Filters                        []filterButton
	TotalEntries, PathLength       int
	SessionID, Date, Cwd, Format   string
	Models                         string
	SourceName, SourceSize, SHA256 string
	DownloadName                   string // the embedded session's, never compressed: SourceName without .gz or .zst
	ChildSessions                  []string
	Stats                          []statsRow
	CostNotes                      []string // what an estimated or unknown cost in Stats means
	Diagnostics                    []string
	Omitted                        []string
	OriginalSHA256                 string
	Nav                            *Nav
	SilentTurns                    int
	TreeJSON                       template.JS
	SourceImages                   bool // the source's pictures are markers (dedupImages)
	HasSource                      bool
	SourceJSON                     template.JS
}

// treeSlot and sourceSlot stand for the tree's JSON in the page
// template's top part and the embedded source in its bottom part, which
// executeAround then writes around them.
const (
	treeSlot   template.JS = "__canopy_tree__"
	sourceSlot template.JS = "__canopy_source__"
)

// executeAround executes the page template's part name to w, with what
// fill writes in the place of slot, a placeholder among d's values: a
// value of tens of MB goes to the page as it is made, not through a
// string held whole in memory.
func (r *Renderer) executeAround(w io.Writer, name string, d *pageData, slot template.JS, fill func(io.Writer) error) error {
	var part bytes.Buffer
	if err := r.page.ExecuteTemplate(&part, name, d); err != nil {
		return fmt.Errorf("executing page template: %w", err)
	}
	// The LAST occurrence: session text (a title, a working directory)
	// comes before the slot in the template and may hold the slot's
	// string; nothing after it does.
	h := part.Bytes()
	i := bytes.LastIndex(h, []byte(slot))
	if i < 0 {
		_, err := w.Write(h)
		return err
	}
	if _, err := w.Write(h[:i]); err != nil {
		return err
	}
	if err := fill(w); err != nil {
		return err
	}
	_, err := w.Write(h[i+len(slot):])
	return err
}
