package mdpage

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	cv "canopy/conversation"
	"canopy/internal/text"
	"canopy/pricing"
	"canopy/sessiontree"
)

// The comparison of two branches (Options.Compare), for a bug report: a
// header that names the session, the two leaves and the entry where
// their paths part (the fork), each side's figures from the fork (the
// sums Session.Stats makes of its entries), the files each side's calls
// wrote or edited (those both changed marked), then each side's entries
// from the fork, in order, as Write writes a path. With a Limit, the
// header keeps its figures and as many files as fit in a quarter of it,
// and the two sides share the rest: each is fitted as a path is (see
// fitter), with the room the other leaves.

// maxCompareFiles bounds the files listed (a hostile session may change
// thousands).
const maxCompareFiles = 200

// comparer holds what one comparison needs.
type comparer struct {
	s     *sessiontree.Session
	o     Options
	a, b  *sessiontree.Entry
	fork  cv.Fork
	model *cv.Context // the calls paired with their results: the files touched
}

// writeCompare writes the comparison of the paths to o.Leaf and
// o.Compare.
func writeCompare(w io.Writer, s *sessiontree.Session, o Options) error {
	c := &comparer{s: s, o: o, model: cv.New(s)}
	if o.Leaf == nil {
		return errors.New("markdown: a comparison needs two entries")
	}
	if c.a = s.Entry(o.Leaf.ID); c.a == nil {
		return fmt.Errorf("markdown: entry %q is not in the session", o.Leaf.ID)
	}
	if c.b = s.Entry(o.Compare.ID); c.b == nil {
		return fmt.Errorf("markdown: entry %q is not in the session", o.Compare.ID)
	}
	if o.Link != "" {
		if err := CheckLink(o.Link); err != nil {
			return fmt.Errorf("markdown: link: %w", err)
		}
	}
	c.fork = cv.ForkOf(s, c.a, c.b)
	var out string
	var err error
	if o.Limit > 0 {
		out, err = c.fitted()
	} else {
		out, err = c.whole()
	}
	if err != nil {
		return err
	}
	if _, err := io.WriteString(w, out); err != nil {
		return fmt.Errorf("markdown: writing: %w", err)
	}
	if err := s.Err(); err != nil {
		return fmt.Errorf("markdown: reading %s: %w", s.File, err)
	}
	return nil
}

// whole is the comparison with nothing cut.
func (c *comparer) whole() (string, error) {
	a, err := c.side("A", c.a, c.fork.A, 0)
	if err != nil {
		return "", err
	}
	b, err := c.side("B", c.b, c.fork.B, 0)
	if err != nil {
		return "", err
	}
	return c.head(-1) + "\n\n" + a + "\n\n" + b + "\n", nil
}

// fitted is the comparison in at most o.Limit characters (Length). The
// sides' limits below are those of their own outputs, each ending with a
// line break, which the comparison does not repeat.
func (c *comparer) fitted() (string, error) {
	limit, nl := c.o.Limit, Length("\n")
	// What the comparison adds around its sides: the header, two blank
	// lines and its last line break, less the sides' own line breaks.
	around := func(head string) int { return Length(head) + 2*Length("\n\n") + nl - 2*nl }
	needA, needB := c.sideNeed("A", c.a, c.fork.A), c.sideNeed("B", c.b, c.fork.B)
	// The files listed take a quarter of the limit at most, and only
	// room the sides do not need.
	head0 := c.head(0)
	spare := limit - around(head0) - needA - needB
	if spare < 0 {
		return "", &LimitError{Limit: limit, Need: around(head0) + needA + needB}
	}
	head := c.head(min(limit/4, spare))
	if room := limit - around(head); room < needA+needB {
		head = head0
	}
	room := limit - around(head)
	a, err := c.side("A", c.a, c.fork.A, max(needA, min(room/2, room-needB)))
	if err != nil {
		return "", err
	}
	b, err := c.side("B", c.b, c.fork.B, room-Length(a)-nl)
	if err != nil {
		return "", err
	}
	// B may have left room that A, cut to its share, can use.
	if a2, err := c.side("A", c.a, c.fork.A, room-Length(b)-nl); err == nil && Length(a2) > Length(a) {
		a = a2
	}
	return head + "\n\n" + a + "\n\n" + b + "\n", nil
}

// sideNeed is the smallest limit a side fits in (its output with its
// line break).
func (c *comparer) sideNeed(name string, leaf *sessiontree.Entry, entries []*sessiontree.Entry) int {
	out, err := c.side(name, leaf, entries, 1)
	var le *LimitError
	if errors.As(err, &le) {
		return le.Need
	}
	return Length(out) + Length("\n")
}

// side is one side's entries from the fork, fitted to limit (0: whole;
// below 0: too small),
// under its heading, without the final line break.
func (c *comparer) side(name string, leaf *sessiontree.Entry, entries []*sessiontree.Entry, limit int) (string, error) {
	title := "### Branch " + name + ": the path to " + idSpan(leaf.ID)
	if len(entries) == 0 {
		return title + "\n\n*No entries after the fork: this branch ends there, on the other's path.*", nil
	}
	if limit < 0 {
		return "", &LimitError{Limit: limit, Need: 1}
	}
	o := Options{Leaf: leaf, From: entries[0], Link: c.o.Link, Limit: limit}
	x, err := newExporter(c.s, o)
	if err != nil {
		return "", err
	}
	x.section = func(ct cuts) string {
		h := title + " (" + text.Count(len(entries), "entry", "entries") + " after the fork)"
		if ct.any() {
			h += "\n\n*Shortened to fit: " + ct.summary() + ".*"
		}
		return h
	}
	var buf bytes.Buffer
	if limit > 0 {
		err = x.writeFitted(&buf)
	} else {
		err = x.writeAll(&buf)
	}
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

// head is the comparison's header: the session, the two leaves, the
// fork, the figures and the files (as many as fit in fileRoom
// characters; -1: all of them, up to maxCompareFiles).
func (c *comparer) head(fileRoom int) string {
	var sb strings.Builder
	x := &exporter{s: c.s, o: c.o}
	title := "### Comparing two branches of agent session"
	if id := c.s.Header.ID; id != "" {
		title += " " + idSpan(id)
	}
	if t := c.s.Title(); t != "" {
		title += ": " + inlineText(t)
	}
	sb.WriteString(title + "\n")
	item := func(name, value string) { sb.WriteString("\n- **" + name + ":** " + value) }
	if d := x.date(); d != "" {
		item("Date", d)
	}
	for _, sd := range []struct {
		name string
		leaf *sessiontree.Entry
	}{{"A", c.a}, {"B", c.b}} {
		v := "the path to " + idSpan(sd.leaf.ID) + " (" + text.Count(len(c.s.Path(sd.leaf)), "entry", "entries") + ")"
		if sd.leaf == c.s.Leaf {
			v += ", the session's leaf"
		}
		item("Branch "+sd.name, v)
	}
	item("Fork", c.forkLine())
	if c.o.Link != "" {
		if l := compareLink(c.o.Link, c.a.ID, c.b.ID); l != "" {
			item("Page", "[open the comparison]("+destination(l)+")")
		}
	}
	x.checksums(item)
	if len(c.o.Omitted) > 0 {
		var left []string
		for _, o := range c.o.Omitted {
			left = append(left, inlineText(o))
		}
		item("Left out", strings.Join(left, "; "))
	}
	made := "canopy"
	if c.o.Version != "" {
		made += " " + inlineText(c.o.Version)
	}
	item("Exported by", made+" (`canopy export --format markdown --compare`)")
	sb.WriteString("\n\n" + c.figures())
	sb.WriteString("\n\n" + c.files(fileRoom))
	return sb.String()
}

// forkLine says where the branches part.
func (c *comparer) forkLine() string {
	f := c.fork
	if f.At == nil {
		return "none: the branches start at different roots"
	}
	shared := len(c.s.Path(f.At))
	s := idSpan(f.At.ID) + ", the last of the " + text.Count(shared, "entry", "entries") + " both paths hold"
	switch {
	case len(f.A) == 0 && len(f.B) == 0:
		s += " (the two branches are the same path)"
	case len(f.A) == 0:
		s += " (branch A ends there)"
	case len(f.B) == 0:
		s += " (branch B ends there)"
	}
	return s
}

// compareLink is the page's address with ?compare=A,B (the page's deep
// link to its compare view), other query parameters kept; "" when page
// is not a link canopy writes.
func compareLink(page, a, b string) string {
	u, err := url.Parse(page)
	if err != nil || CheckLink(page) != nil {
		return ""
	}
	q := "compare=" + url.QueryEscape(a) + "," + url.QueryEscape(b)
	if u.RawQuery != "" {
		q = u.RawQuery + "&" + q
	}
	u.RawQuery = q
	return u.String()
}

// figures is the table of each side's figures from the fork.
func (c *comparer) figures() string {
	sa, sb := c.s.Stats(c.fork.A), c.s.Stats(c.fork.B)
	fa, fb := c.model.FilesTouched(c.fork.A), c.model.FilesTouched(c.fork.B)
	num := func(n int) string { return text.Thousands(float64(n)) }
	rows := [][3]string{
		{"Entries", num(sa.Entries), num(sb.Entries)},
		{"Prompts", num(sa.Messages[sessiontree.RoleUser]), num(sb.Messages[sessiontree.RoleUser])},
		{"Replies", num(sa.Messages[sessiontree.RoleAssistant]), num(sb.Messages[sessiontree.RoleAssistant])},
		{"Tool calls", num(sa.ToolCalls), num(sb.ToolCalls)},
		{"Tokens in / out", tokens(sa.Usage.Input) + " / " + tokens(sa.Usage.Output), tokens(sb.Usage.Input) + " / " + tokens(sb.Usage.Output)},
		{"Cache read / write", tokens(sa.Usage.CacheRead) + " / " + tokens(sa.Usage.CacheWrite), tokens(sb.Usage.CacheRead) + " / " + tokens(sb.Usage.CacheWrite)},
		{"Cost", costCell(&sa), costCell(&sb)},
		{"Time spent", span(c.s, c.fork.A), span(c.s, c.fork.B)},
		{"Files touched", num(len(fa)), num(len(fb))},
	}
	var sb2 strings.Builder
	sb2.WriteString("#### Figures from the fork\n\n| | Branch A | Branch B |\n|---|---:|---:|")
	for _, r := range rows {
		sb2.WriteString("\n| " + r[0] + " | " + r[1] + " | " + r[2] + " |")
	}
	return sb2.String()
}

// costCell is a side's cost: recorded; estimated (≈, from the price
// table); "unknown" when nothing priced its tokens, never \$0.
func costCell(st *sessiontree.Stats) string {
	c := st.Cost()
	switch {
	case c.Unknown:
		return "unknown"
	case c.Estimated:
		return strings.Replace(pricing.Approx(c.USD), "$", "\\$", 1) + " (estimated)"
	}
	return fmt.Sprintf("\\$%.4f", c.USD)
}

// span is the time from a side's earliest timestamp to its latest, as
// the page's figures write it.
func span(s *sessiontree.Session, es []*sessiontree.Entry) string {
	f := s.Figures(es, nil)
	if f.First.IsZero() {
		return "—"
	}
	return text.Spent(f.Spent())
}

// files lists the files each side changed, those both changed first
// marked, with how many calls changed each and the entry of the last,
// as many as fit in room characters (-1: no bound but maxCompareFiles).
func (c *comparer) files(room int) string {
	fa, fb := c.model.FilesTouched(c.fork.A), c.model.FilesTouched(c.fork.B)
	type pair struct {
		path string
		a, b *cv.TouchedFile
	}
	var list []*pair
	at := map[string]*pair{}
	for k, fs := range [][]cv.TouchedFile{fa, fb} {
		for i := range fs {
			p := at[fs[i].Path]
			if p == nil {
				p = &pair{path: fs[i].Path}
				at[p.path] = p
				list = append(list, p)
			}
			if k == 0 {
				p.a = &fs[i]
			} else {
				p.b = &fs[i]
			}
		}
	}
	head := "#### Files touched"
	if len(list) == 0 {
		return head + "\n\nNeither branch wrote or edited a file."
	}
	change := func(name string, f *cv.TouchedFile) string {
		return name + ": changed in " + text.Count(f.Replies, "reply", "replies") + ", the last " + idSpan(f.Last.ID)
	}
	var sb strings.Builder
	sb.WriteString(head)
	used, shown := Length(head), 0
	for _, p := range list {
		line := "\n- " + idSpan(p.path)
		if shown == 0 {
			line = "\n" + line
		}
		var sides []string
		if p.a != nil {
			sides = append(sides, change("A", p.a))
		}
		if p.b != nil {
			sides = append(sides, change("B", p.b))
		}
		if p.a != nil && p.b != nil {
			line += " · **changed on both branches**"
		}
		line += " · " + strings.Join(sides, "; ")
		if shown == maxCompareFiles || (room >= 0 && used+Length(line) > room-80) {
			break
		}
		sb.WriteString(line)
		used += Length(line)
		shown++
	}
	switch {
	case shown == 0:
		sb.WriteString("\n\n*" + text.Count(len(list), "file", "files") + ", not listed here to fit the length limit; see the full session.*")
	case shown < len(list):
		sb.WriteString("\n\n*… and " + text.Count(len(list)-shown, "more file", "more files") + ", not listed here.*")
	}
	return sb.String()
}
