// Package render turns a loaded session into one self-contained HTML page:
// every entry rendered once, at export time (Markdown by goldmark, code by
// chroma), a compact description of the tree for the sidebar script, and
// the original file for download; minified, with a Content-Security-Policy
// that lets nothing but our own inline script and style run.
package render

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/tdewolff/minify/v2"
	mincss "github.com/tdewolff/minify/v2/css"
	minhtml "github.com/tdewolff/minify/v2/html"
	minjs "github.com/tdewolff/minify/v2/js"
	"github.com/yuin/goldmark"

	"canopy/assets"
	"canopy/internal/text"
	"canopy/sessiontree"
	"canopy/templates"
)

// Options change what a page shows.
type Options struct {
	Leaf     *sessiontree.Entry // the conversation shown; nil means the session's leaf
	Theme    string             // auto (the default), light or dark
	Title    string             // the page title; default: the session name, else its id
	NoSource bool               // leave the original file out of the page
	Version  string             // the canopy version, written into the page

	// When the session rendered was cut down or redacted from another
	// file: what was left out (shown in the header), and that file's hash.
	Omitted        []string
	OriginalSHA256 string

	// Nav places the page among others (an archive's): breadcrumbs and
	// links to related sessions. nil for a page on its own.
	Nav *Nav
}

// Nav is a page's place in an archive. Hrefs are relative to the page, so
// that the archive works from any directory and from file://.
type Nav struct {
	Trail   []Link    // breadcrumbs: from the archive's index down to this page's parent
	Related []Related // forks, parents, child tasks, topics
}

// Link is one link of a Nav. A link with no Href is shown as text: a
// related session that is not in the archive.
type Link struct {
	Href, Text string
}

// Related is a kind of relation and the sessions it links to.
type Related struct {
	Name  string // "Forked from", "Forks", "Child tasks", …
	Links []Link
}

// Renderer renders pages. It is safe for concurrent use; make one and
// reuse it (building it compiles templates and minifies the assets).
type Renderer struct {
	md   goldmark.Markdown
	hl   *highlighter
	page *template.Template
	// mdBufs holds *mdBuffer: Markdown is converted into reused buffers.
	mdBufs sync.Pool
	costs  sync.Pool // *mdcost.Scratch, for mdcost.TooCostly
	css    string    // minified stylesheet, chroma's included
	js     string    // minified script
	csp    string
}

// New builds a Renderer.
func New() (*Renderer, error) {
	hl := newHighlighter()
	r := &Renderer{md: newMarkdown(hl), hl: hl}
	// Everything is minified once, here: the stylesheet, the script, and
	// the templates as Go templates, so that what they produce needs no
	// minifying and the page is written straight out, without a second
	// pass over it.
	m := minify.New()
	m.AddFunc("text/css", mincss.Minify)
	m.AddFunc("application/javascript", minjs.Minify)
	// The templates get a minifier of their own, for HTML only: with CSS
	// and JS registered it would also "minify" the {{.CSS}} and {{.JS}}
	// actions inside <style> and <script>.
	tm := minify.New()
	tm.Add("text/html", &minhtml.Minifier{KeepDocumentTags: true, KeepEndTags: true, KeepQuotes: true,
		TemplateDelims: minhtml.GoTemplateDelims})
	t, err := templates.Parse(func(_, text string) (string, error) { return tm.String("text/html", text) },
		"page.html", "entry.html")
	if err != nil {
		return nil, err
	}
	r.page = t
	if r.css, err = m.String("text/css", assets.CSS+"\n"+chromaStylesheet); err != nil {
		return nil, fmt.Errorf("minifying page.css: %w", err)
	}
	if r.js, err = m.String("application/javascript", assets.JS); err != nil {
		return nil, fmt.Errorf("minifying page.js: %w", err)
	}
	// The inline script and style are written as they are: their hashes
	// are in the CSP. Workers may run only from blob: URLs, which only the
	// page's own script can make: its search workers (page.js,
	// startFinder).
	r.csp = "default-src 'none'; script-src '" + assets.CSPHash(r.js) + "'; style-src '" + assets.CSPHash(r.css) +
		"'; img-src data: blob:; worker-src blob:; base-uri 'none'; form-action 'none'"
	return r, nil
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
	ChildSessions                  []string
	Stats                          []statsRow
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

type filterButton struct {
	Mode, Label string
	On          bool
}

type statsRow struct {
	Name, Roles                                string
	Entries, Messages, ToolCalls               string
	Input, Output, CacheRead, CacheWrite, Cost string
}

// Render writes the page for s to w.
func (r *Renderer) Render(w io.Writer, s *sessiontree.Session, opts Options) error {
	leaf := opts.Leaf
	if leaf == nil {
		leaf = s.Leaf
	}
	theme := opts.Theme
	if theme == "" {
		theme = "auto"
	}
	// The embedded source is compressed while the entries are rendered.
	var src struct {
		gz   *spool
		err  error
		done chan struct{}
	}
	src.done = make(chan struct{})
	defer func() {
		<-src.done
		if src.gz != nil {
			src.gz.Close()
		}
	}()
	// A session with pictures embeds its source with each picture the page
	// shows replaced by a marker (see dedupImages): it is compressed once
	// the entries are written and the pictures known.
	images := !opts.NoSource && s.HasImages
	var shownImages imageSet
	if images {
		shownImages = imageSet{}
		close(src.done)
	} else {
		go func() {
			defer close(src.done)
			if !opts.NoSource {
				src.gz, src.err = compressSource(s.SourceReader())
			}
		}()
	}
	ec := pair(s)
	order := treeOrder(s)
	rows := ec.rows

	onPath := make([]bool, len(s.Entries))
	path := s.Path(leaf)
	d := pageData{
		Theme: theme, CSP: r.csp, Version: opts.Version,
		CSS: template.CSS(r.css), JS: template.JS(r.js),
		TotalEntries: len(s.Entries), PathLength: len(path),
		SessionID: text.Or(s.Header.ID, "(no id)"), Cwd: s.Header.Cwd,
		Format:     fmt.Sprintf("%s, version %d", s.Format, s.Version),
		SourceName: filepath.Base(s.File), SourceSize: byteSize(int(s.Size)),
		HasSource: !opts.NoSource,
	}
	d.Title = opts.Title
	if d.Title == "" {
		d.Title = text.Or(s.Name, "Session "+d.SessionID)
	}
	if t, ok := parseTime(s.Header.Timestamp); ok {
		d.Date = t
	}
	d.SHA256 = hex.EncodeToString(s.SHA256[:])
	d.Omitted = opts.Omitted
	if opts.NoSource {
		d.Omitted = append(d.Omitted, "the session file (not embedded for download)")
	}
	if opts.OriginalSHA256 != d.SHA256 {
		d.OriginalSHA256 = opts.OriginalSHA256
	}
	for _, m := range FilterModes {
		d.Filters = append(d.Filters, filterButton{m, filterLabel[m], m == "default"})
	}
	// What the conversation shows (the path, less results drawn in their
	// call's card), and what the store keeps inert (everything else, in
	// tree order, by tree position).
	var shown, stored, storedPos []int
	for _, e := range path {
		onPath[e.Index] = true
		if rows[e.Index].flags&flagEmbedded == 0 {
			shown = append(shown, e.Index)
		}
	}
	for pos, i := range order {
		if !onPath[i] && rows[i].flags&flagEmbedded == 0 {
			stored = append(stored, i)
			storedPos = append(storedPos, pos)
		}
	}
	pathStats, treeStats := s.Stats(path), s.Stats(s.Entries)
	d.Stats = []statsRow{statsRowOf("Active path", pathStats), statsRowOf("Whole tree", treeStats)}
	if len(path) == len(s.Entries) {
		d.Stats = d.Stats[:1] // one branch: the path is the tree
		d.Stats[0].Name = "Session"
	}
	var models []string
	for _, m := range treeStats.Models {
		models = append(models, modelName(m.Provider, m.ModelID))
	}
	d.Models = strings.Join(models, ", ")
	d.Nav = opts.Nav
	for _, e := range s.Entries {
		if e.Silent { // rowOf's flagSilent
			d.SilentTurns++
		}
	}
	for _, c := range s.ChildSessions {
		if d.Nav != nil {
			break // the archive links them
		}
		d.ChildSessions = append(d.ChildSessions, c.Session+text.Prefixed(" · task ", c.TaskID))
	}
	for _, dg := range s.Diagnostics {
		d.Diagnostics = append(d.Diagnostics, fmt.Sprintf("Line %d: %s: %s", dg.Line, dg.Severity, dg.Message))
	}
	d.TreeJSON = treeSlot

	// The entries are rendered first, the store's (off the path, in tree
	// order) and then the conversation's, into a spool (a temporary file
	// past a few MB): rendering them also gathers their tree rows, which
	// the page needs before them. The page is then written in its order:
	// the tree and the script first, the store, then the conversation,
	// so that the page's script draws the tree and the first entries while
	// the rest arrives.
	body := new(spool)
	defer body.Close()
	bw := bufio.NewWriterSize(body, 1<<20) // writeEntries writes entry by entry
	if err := r.writeEntries(bw, ec, stored, storedPos, shownImages); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	mid := body.n
	if err := r.writeEntries(bw, ec, shown, nil, shownImages); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := r.executeAround(w, "top", &d, treeSlot, func(w io.Writer) error {
		return treeJSON(w, s, order, rows, leaf)
	}); err != nil {
		return err
	}
	if err := body.copyTo(w, 0, mid); err != nil {
		return err
	}
	if err := r.page.ExecuteTemplate(w, "middle", &d); err != nil {
		return fmt.Errorf("executing page template: %w", err)
	}
	if err := body.copyTo(w, mid, body.n); err != nil {
		return err
	}
	<-src.done
	if images {
		src.gz, d.SourceImages, src.err = compressDeduped(s, shownImages)
	}
	if src.err != nil {
		return fmt.Errorf("embedding the source: %w", src.err)
	}
	// An entry that could not be read again (its file changed) was shown
	// as unreadable: the page is not what the file held.
	if err := s.Err(); err != nil {
		return err
	}
	d.SourceJSON = sourceSlot
	return r.executeAround(w, "bottom", &d, sourceSlot, src.gz.writeJSON)
}

// treeSlot stands for the tree's JSON in the page template's top part,
// which executeAround then writes around it.
const treeSlot template.JS = "__canopy_tree__"

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

// writeBatch is how many entries are rendered at once: enough to keep
// every core busy, few enough that memory holds only a small part of the
// page. It is also the most entries one chunk of the page holds (see
// writeEntries).
const writeBatch = 512

// batchBytes bounds a batch by the size of its entries in the file: twenty
// 5 MB pictures in one batch were 100 MB of HTML held at once.
const batchBytes = 8 << 20

// writeEntries renders the entries (by index) in order and writes them in
// chunks of at most writeBatch entries and about chunkBytes. The entries of
// the conversation (no positions) go in a <noscript data-at="index of the
// first"> per chunk: without JavaScript the browser
// parses and shows them as they are; with it, they are raw text, which the
// browser reads in a fraction of the time it takes to build their elements,
// and the page's script builds elements only for the entries in view. The
// stored entries (positions given: their places in tree order) go in a
// <script type="text/x-canopy" data-i="positions"> per chunk: inert text,
// with or without JavaScript, until the script shows one.
//
// Raw text ends at the first "</noscript" or "</script"; in a script, "<!--"
// starts an escaped state. Neither can come from a session: its text is
// escaped, so "<" only starts our own tags, and we write no noscript,
// script or comment; writeRawSafe makes sure of it.
func (r *Renderer) writeEntries(w io.Writer, ec *entryContext, entries, positions []int, images imageSet) error {
	// One buffer per place in a batch, reused batch after batch: growing a
	// fresh buffer for every entry was a tenth of the export's allocations.
	out := make([]bytes.Buffer, writeBatch)
	var chunk bytes.Buffer
	for lo, hi := 0, 0; lo < len(entries); lo = hi {
		// A batch ends at writeBatch entries or batchBytes of their JSON
		// (two entries at least, one for each core): its HTML is held until
		// it is written.
		for size := 0; hi < len(entries) && hi-lo < writeBatch && (hi-lo < 2 || size < batchBytes); hi++ {
			size += ec.s.Entries[entries[hi]].RawLen()
		}
		parallel(hi-lo, func(j int) {
			r.renderEntry(&out[j], ec, entries[lo+j])
			makeRawSafe(&out[j])
		})
		if err := writeChunks(w, &chunk, out[:hi-lo], lo, positions, images); err != nil {
			return err
		}
	}
	return nil
}

// writeChunks writes the HTML of one batch's entries (out; lo is the
// first one's place in the list written) in chunks of about chunkBytes,
// so that the script can use the first entries before big ones have
// arrived, and empties the buffers for the next batch.
func writeChunks(w io.Writer, chunk *bytes.Buffer, out []bytes.Buffer, lo int, positions []int, images imageSet) error {
	for j := 0; j < len(out); {
		k := j
		size := 0
		for k < len(out) && (k == j || size+out[k].Len() <= chunkBytes) {
			size += out[k].Len()
			k++
		}
		chunk.Reset()
		if positions != nil {
			chunk.WriteString(`<script type="text/x-canopy" data-i="`)
			for i := lo + j; i < lo+k; i++ {
				if i > lo+j {
					chunk.WriteByte(' ')
				}
				chunk.WriteString(strconv.Itoa(positions[i]))
			}
			chunk.WriteString(`">`)
		} else {
			chunk.WriteString(`<noscript data-at="` + strconv.Itoa(lo+j) + `">`)
		}
		if _, err := w.Write(chunk.Bytes()); err != nil {
			return err
		}
		for ; j < k; j++ {
			h := out[j].Bytes()
			if images != nil {
				collectImages(h, images)
			}
			if _, err := w.Write(h); err != nil {
				return err
			}
			out[j].Reset()
			if out[j].Cap() > 64<<10 {
				// A big entry: do not keep its room for the next
				// batch (512 places of the biggest entry each held
				// was 15 MB on the 100,000-entry session).
				out[j] = bytes.Buffer{}
			}
		}
		end := "</noscript>"
		if positions != nil {
			end = "</script>"
		}
		if _, err := io.WriteString(w, end); err != nil {
			return err
		}
	}
	return nil
}

// chunkBytes is about the most HTML one chunk holds (one entry may be
// more): the script uses a chunk once it is complete.
const chunkBytes = 1 << 20

// writeRawSafe writes an entry's HTML h to w, safe to put in a <noscript>
// or <script> as raw text: "</noscript", "</script" (any case) and "<!--"
// are written with "&lt;". Our HTML never holds them ("<" in session text
// is "&lt;"); if it ever did, it could only be in text or an attribute
// value, where "&lt;" reads as the same "<". Only "</" and "<!" are looked
// at, found with bytes.Index (vectorized), not byte by byte.
func writeRawSafe(w *bytes.Buffer, h []byte) {
	for len(h) > 0 {
		i := nextRawEnder(h)
		if i < 0 {
			w.Write(h)
			return
		}
		w.Write(h[:i])
		w.WriteString("&lt;")
		h = h[i+1:]
	}
}

// makeRawSafe makes an entry's HTML in b safe as raw text (writeRawSafe),
// copying it only when there is something to change, which there never
// should be.
func makeRawSafe(b *bytes.Buffer) {
	if nextRawEnder(b.Bytes()) < 0 {
		return
	}
	var safe bytes.Buffer
	writeRawSafe(&safe, b.Bytes())
	*b = safe
}

// nextRawEnder is the index of the first "<" in h that ends raw text or
// starts a comment, or -1. One pass from "<" to "<" (a vectorized search):
// an entry's HTML has a "<" every few dozen bytes, and most are rejected
// by the byte after it.
func nextRawEnder(h []byte) int {
	for i := 0; i < len(h); i++ {
		j := bytes.IndexByte(h[i:], '<')
		if j < 0 {
			return -1
		}
		i += j
		if rawEnder(h[i+1:]) {
			return i
		}
	}
	return -1
}

// rawEnder reports whether what follows a "<" ends raw text ("/script",
// "/noscript", any case) or starts a comment ("!--"). Two bytes are
// compared before the whole name: "</span" and "</strong" are in every
// entry, and comparing "script" with each was most of this check's time.
func rawEnder(rest []byte) bool {
	if len(rest) < 3 {
		return false
	}
	switch rest[0] {
	case '!':
		return rest[1] == '-' && rest[2] == '-'
	case '/':
		switch c1, c2 := rest[1]|0x20, rest[2]|0x20; {
		case c1 == 's' && c2 == 'c':
			return len(rest) > len("script") && bytes.EqualFold(rest[1:1+len("script")], []byte("script"))
		case c1 == 'n' && c2 == 'o':
			return len(rest) > len("noscript") && bytes.EqualFold(rest[1:1+len("noscript")], []byte("noscript"))
		}
	}
	return false
}

var roleName = map[string]string{
	"user": "user", "assistant": "assistant", "toolResult": "tool result", "bashExecution": "user command", "custom": "custom",
}

var roleNames = map[string]string{
	"user": "user", "assistant": "assistant", "toolResult": "tool results", "bashExecution": "user commands", "custom": "custom",
}

var filterLabel = map[string]string{
	"default": "Default", "no-tools": "No tools", "user-only": "User", "labeled-only": "Labeled", "all": "All",
}

func statsRowOf(name string, st sessiontree.Stats) statsRow {
	msgs := 0
	for _, n := range st.Messages {
		msgs += n
	}
	var parts []string
	for _, role := range []string{"user", "assistant", "toolResult", "bashExecution", "custom"} {
		if n := st.Messages[role]; n > 0 {
			name := roleNames[role]
			if n == 1 {
				name = roleName[role]
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, name))
		}
	}
	return statsRow{
		Name: name, Entries: text.Thousands(float64(st.Entries)),
		Messages:  text.Thousands(float64(msgs)),
		Roles:     "messages: " + text.Or(strings.Join(parts, " · "), "none"),
		ToolCalls: text.Thousands(float64(st.ToolCalls)),
		Input:     text.Thousands(st.Usage.Input), Output: text.Thousands(st.Usage.Output),
		CacheRead: text.Thousands(st.Usage.CacheRead), CacheWrite: text.Thousands(st.Usage.CacheWrite),
		Cost: fmt.Sprintf("$%.4f", st.Usage.Cost.Total+st.CompactionUsage.Cost.Total),
	}
}

func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

func parseTime(ts string) (string, bool) {
	e := &sessiontree.Entry{Timestamp: ts}
	if t, err := timeParse(ts); err == nil {
		e.Time, e.TimeOK = t, true
		return formatTime(e), true
	}
	return "", false
}

// renderEntry appends one entry's HTML to buf (nothing for a result drawn
// inside its call's card). It decodes the entry (and the results its tool calls show)
// afresh: bodies are not kept between the passes.
//
// Entries are not run through the HTML minifier: their markup is that of
// the minified "entry" template (writeEntry), and what goldmark and chroma
// add is close to minimal. Measured, minifying each entry saved 0.7-2% of a
// page for 14% of the export's time, and tdewolff's attribute handling is
// quadratic in the entities of one value (an image's data: URL, whose every
// "+" is "&#43;"): a 2 MB picture took 8 s.
func (r *Renderer) renderEntry(buf *bytes.Buffer, ec *entryContext, i int) {
	if ec.rows[i].flags&flagEmbedded != 0 {
		return
	}
	e := ec.s.Entries[i]
	b, err := e.Decode() // nil when err is not
	ec.gatherRow(i, b)
	writeEntry(buf, r.view(ec, e, b, err))
}

// gather renders every entry with a block of its own, in file order, into
// html (by index; nil: nowhere), and returns the context with every row
// filled in: the two passes of Render, without a page.
func (r *Renderer) gather(s *sessiontree.Session, html []string) *entryContext {
	ec := pair(s)
	var buf bytes.Buffer
	for i := range s.Entries {
		buf.Reset()
		r.renderEntry(&buf, ec, i)
		if html != nil {
			html[i] = buf.String()
		}
	}
	return ec
}

// parallel runs f(0..n-1) on every core.
func parallel(n int, f func(i int)) {
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	// Indexes are taken a few at a time (fewer locks), but never so many
	// that one core gets a small batch (big entries) all to itself.
	batch := min(64, max(1, n/(4*workers)))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				lo := next
				next += batch
				mu.Unlock()
				if lo >= n {
					return
				}
				for i := lo; i < min(lo+batch, n); i++ {
					f(i)
				}
			}
		}()
	}
	wg.Wait()
}

// treeOrder lists entry indexes in tree order: roots in file order, each
// followed by its subtree, children in the session's order. Iterative, so
// a deep chain costs no stack.
func treeOrder(s *sessiontree.Session) []int {
	order := make([]int, 0, len(s.Entries))
	stack := make([]*sessiontree.Entry, 0, 64)
	for i := len(s.Roots) - 1; i >= 0; i-- {
		stack = append(stack, s.Roots[i])
	}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		order = append(order, e.Index)
		for i := len(e.Children) - 1; i >= 0; i-- {
			stack = append(stack, e.Children[i])
		}
	}
	return order
}

// rowKind is a short class for a row's colour.
func rowKind(e *sessiontree.Entry) string {
	switch e.Type {
	case sessiontree.TypeMessage:
		switch e.Role {
		case sessiontree.RoleUser:
			return "u"
		case sessiontree.RoleAssistant:
			return "a"
		case sessiontree.RoleToolResult:
			return "t"
		}
		return "m"
	case sessiontree.TypeCompaction, sessiontree.TypeBranchSummary:
		return "s"
	}
	if e.IsSettings() {
		return "x"
	}
	return "o"
}

// minDedup is the shortest picture (base64 characters) that the embedded
// source refers to rather than holds: below it, a marker saves little.
const minDedup = 1024

// imgPrefix starts every embedded picture the page writes (imageSrc).
const imgPrefix = `<img class="image" src="data:image/`

// imageSet is a set of pictures' base64 data, by SHA-256: the data of
// twenty 5 MB pictures held as keys was most of the memory of their
// session's export (194 MB for a 100 MB file); their hashes are 32 bytes
// each.
type imageSet map[[sha256.Size]byte]bool

func (set imageSet) add(data []byte)      { set[sha256.Sum256(data)] = true }
func (set imageSet) has(data []byte) bool { return set[sha256.Sum256(data)] }

// collectImages adds to set the base64 data of the pictures in an entry's
// HTML, as the page's script finds them (imagesOf in page.js).
func collectImages(html []byte, set imageSet) {
	prefix := []byte(imgPrefix)
	for {
		i := bytes.Index(html, prefix)
		if i < 0 {
			return
		}
		html = html[i+len(prefix):]
		_, rest, ok := bytes.Cut(html, []byte(";base64,"))
		if !ok {
			return
		}
		end := bytes.IndexByte(rest, '"')
		if end < 0 {
			return
		}
		if end >= minDedup {
			set.add(rest[:end])
		}
		html = rest[end:]
	}
}

// dedupImages replaces, in a session file, every JSON string value of a
// "data" member that is one of the pictures the page shows (set) by a
// marker: NUL, its length, ":", a 64-bit hash (imageHash) in hex, NUL. The
// page's script puts the pictures back from its own <img> elements when
// the file is downloaded, byte for byte: a page of twenty 5 MB pictures
// holds them once, not twice. A file that holds a NUL byte (no valid JSON
// does) is left as it is, as are pictures written with escapes.
func dedupImages(src []byte, set imageSet) ([]byte, bool) {
	if len(set) == 0 || bytes.IndexByte(src, 0) >= 0 {
		return src, false
	}
	key := []byte(`"data":"`)
	var out bytes.Buffer
	last, i := 0, 0
	for {
		j := bytes.Index(src[i:], key)
		if j < 0 {
			break
		}
		p := i + j + len(key)
		q := bytes.IndexByte(src[p:], '"')
		if q < 0 {
			break
		}
		if q >= minDedup && set.has(src[p:p+q]) {
			if out.Len() == 0 {
				out.Grow(len(src) / 4)
			}
			out.Write(src[last:p])
			h1, h2 := imageHash(src[p : p+q])
			fmt.Fprintf(&out, "\x00%d:%08x%08x\x00", q, h1, h2)
			last = p + q
		}
		i = p + q
	}
	if last == 0 {
		return src, false
	}
	out.Write(src[last:])
	return out.Bytes(), true
}

// compressDeduped compresses the source with the pictures the page shows
// replaced by markers (dedupImages), reading it line by line: memory holds
// one line (a JSON string, and so a picture, never spans lines), not the
// file. A first pass makes sure the file holds no NUL byte, which the page
// would take for a marker's; if it does, it is compressed as it is.
func compressDeduped(s *sessiontree.Session, shown imageSet) (*spool, bool, error) {
	clean := len(shown) > 0
	if clean {
		var err error
		if clean, err = noNUL(s.SourceReader()); err != nil {
			return nil, false, err
		}
	}
	if !clean {
		gz, err := compressSource(s.SourceReader())
		return gz, false, err
	}
	pr, pw := io.Pipe()
	var marked bool
	go func() {
		var err error
		marked, err = dedupLines(pw, s.SourceReader(), shown)
		pw.CloseWithError(err)
	}()
	gz, err := compressSource(pr)
	pr.Close()
	return gz, marked, err
}

// noNUL reports whether r holds no NUL byte.
func noNUL(r io.Reader) (bool, error) {
	buf := make([]byte, 256<<10)
	for {
		n, err := r.Read(buf)
		if bytes.IndexByte(buf[:n], 0) >= 0 {
			return false, nil
		}
		if err == io.EOF {
			return true, nil
		}
		if err != nil {
			return false, err
		}
	}
}

// dedupLines copies r to w a line at a time, each through dedupImages, and
// reports whether any picture was replaced.
func dedupLines(w io.Writer, r io.Reader, shown imageSet) (bool, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	marked := false
	var long []byte
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull { // a line over 1 MB: gather it
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		out, m := dedupImages(line, shown)
		marked = marked || m
		if _, werr := w.Write(out); werr != nil {
			return marked, werr
		}
		if err == io.EOF {
			return marked, nil
		}
		if err != nil {
			return marked, err
		}
	}
}

// imageHash is cyrb53's two 32-bit halves over b (imageHash in page.js).
func imageHash(b []byte) (uint32, uint32) {
	h1, h2 := uint32(0xdeadbeef), uint32(0x41c6ce57)
	for _, c := range b {
		h1 = (h1 ^ uint32(c)) * 2654435761
		h2 = (h2 ^ uint32(c)) * 1597334677
	}
	h1 = (h1 ^ h1>>16) * 2246822507
	h1 ^= (h2 ^ h2>>13) * 3266489909
	h2 = (h2 ^ h2>>16) * 2246822507
	h2 ^= (h1 ^ h1>>13) * 3266489909
	return h1, h2
}

// compressSource is the original file, gzip-compressed and in base64, for
// the download button (spool.writeJSON puts it in the page). gzip without a
// name or time is deterministic: same input, same page.
//
// klauspost/compress rather than compress/gzip: on the 84.7 MB benchmark
// session, its level 5 makes the same size as the standard library's
// level 4 (18.1 MB) in 0.86 s instead of 1.39 s, CPU that the rendering on
// the other core wants. Its level 2 makes 19.9 MB in 0.60 s, where level 3
// made 19.4 MB in 0.73 s and level 5 took 1.2-1.5 s (medians of 5 runs of
// each in turn): the page is 111.7 MB, the reference's 113.2 MB. Level 1
// is no faster than 2 and makes 21.4 MB.
func compressSource(source io.Reader) (*spool, error) {
	z := new(spool)
	// Buffered: the compressor writes a few hundred bytes at a time, and
	// past spoolMemory each write was a system call (56,000 of them for an
	// 85 MB session). In base64 already, as the page holds it: encoding it
	// here, while the entries are rendered on the other core, took 40 ms
	// off the end of an export of 85 MB, when nothing else runs.
	bz := bufio.NewWriterSize(z, 256<<10)
	b64 := base64.NewEncoder(base64.StdEncoding, bz)
	zw, err := gzip.NewWriterLevel(b64, 2)
	if err == nil {
		_, err = io.Copy(zw, source)
	}
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = b64.Close()
	}
	if err == nil {
		err = bz.Flush()
	}
	if err != nil {
		z.Close()
		return nil, err
	}
	return z, nil
}
