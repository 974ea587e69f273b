package mdpage

import (
	"canopy/internal/text"
	"canopy/pricing"
	"canopy/sessiontree"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// cuts is what Limit shortened or left out, for the header.
type cuts struct {
	limit                         int
	tool, thinking, text, prompts int // parts shortened, by class
	entries                       int // entries left out
	gaps                          int // runs of them, each one note
	promptsLeftOut                int // of which user prompts
	promptsTotal                  int // on the path
	entriesTotal                  int
}

func (c cuts) any() bool {
	return c.tool+c.thinking+c.text+c.prompts+c.entries > 0
}

// header is the block that identifies the session.
func (x *exporter) header(c cuts) string {
	if x.section != nil {
		return x.section(c)
	}
	var sb strings.Builder
	sb.WriteString(x.title())
	sb.WriteString("\n")
	item := func(name, value string) {
		sb.WriteString("\n- **" + name + ":** " + value)
	}
	if d := x.date(); d != "" {
		item("Date", d)
	}
	item("Conversation", x.conversation())
	if x.links != nil && x.leaf != nil {
		item("Page", x.links.markdown("open the conversation", x.leaf.ID))
	}
	st := x.s.Stats(x.path)
	if len(st.Models) > 0 {
		var ms []string
		for _, m := range st.Models {
			ms = append(ms, idSpan(modelName(m.Provider, m.ModelID)))
		}
		item("Models", strings.Join(ms, ", "))
	}
	if u := st.Usage; u.Input+u.Output+u.CacheRead+u.CacheWrite > 0 {
		item("Usage", usageLine(&st))
	}
	x.checksums(item)
	if len(x.o.Omitted) > 0 {
		var left []string
		for _, o := range x.o.Omitted {
			left = append(left, inlineText(o))
		}
		item("Left out", strings.Join(left, "; "))
	}
	if c.any() {
		item("Shortened to fit "+text.Thousands(float64(c.limit))+" characters", c.summary())
	}
	made := "canopy"
	if x.o.Version != "" {
		made += " " + inlineText(x.o.Version)
	}
	item("Exported by", made+" (`canopy export --format markdown`)")
	return sb.String()
}

// title is the header's heading: the session's id and title
// (Session.Title: its name, else its first prompt's line).
func (x *exporter) title() string {
	s := x.s
	t := "### Agent session"
	if s.Header.ID != "" {
		t += " " + idSpan(s.Header.ID)
	}
	if title := s.Title(); title != "" {
		t += ": " + inlineText(title)
	}
	return t
}

// conversation says which entries are exported: how many, on the path to
// which leaf, from where.
func (x *exporter) conversation() string {
	conv := text.Count(len(x.path), "entry", "entries")
	switch {
	case x.leaf == nil:
		conv = "none (the session has no entries)"
	case x.skip > 0:
		conv += " on the path from " + idSpan(x.path[0].ID) + " to " + idSpan(x.leaf.ID) +
			" (" + text.Count(x.skip, "earlier entry", "earlier entries") + " not included)"
	default:
		conv += " on the path to " + idSpan(x.leaf.ID)
	}
	if x.leaf != nil && x.leaf == x.s.Leaf {
		conv += ", the session's leaf"
	}
	return conv
}

// usageLine is the tokens the path's assistant messages used, and their
// cost: as recorded; estimated, and said so, for the formats that record
// none; unknown, never \$0, when nothing priced them.
func usageLine(st *sessiontree.Stats) string {
	u := st.Usage
	usage := tokens(u.Input) + " input, " + tokens(u.Output) + " output, " +
		tokens(u.CacheRead) + " cache read, " + tokens(u.CacheWrite) + " cache write tokens"
	c := st.Cost()
	switch {
	case c.Unknown:
		usage += "; cost unknown"
	case c.Estimated:
		usage += "; cost " + strings.Replace(pricing.Approx(c.USD), "$", "\\$", 1) + " (estimated from " + inlineText(pricing.Source()) + ")"
	case u.Cost.Total > 0:
		usage += fmt.Sprintf("; cost \\$%.4f", u.Cost.Total)
	}
	if len(c.Unpriced) > 0 {
		var names []string
		for _, m := range c.Unpriced {
			names = append(names, idSpan(text.Or(modelName(m.Provider, m.ModelID), "(no model named)")))
		}
		usage += "; no price for " + strings.Join(names, ", ") + " in " + inlineText(pricing.Source())
	}
	return usage
}

// checksums writes the SHA-256 of the session file the user has and,
// when the export was made from a cut-down or redacted copy of it, of
// that copy.
func (x *exporter) checksums(item func(name, value string)) {
	shared := hex.EncodeToString(x.s.SHA256[:])
	original := strings.ToLower(strings.TrimSpace(x.o.OriginalSHA256))
	if original == "" {
		original = shared
	}
	item("Session file SHA-256", idSpan(original))
	if original != shared {
		item("Shared copy SHA-256", idSpan(shared)+" (the cut-down or redacted copy of that file this export was made from)")
	}
}

// summary says what Limit shortened and left out.
func (c cuts) summary() string {
	// Every count is a number or a plural form, never longer for a
	// smaller count: the fitter reserves room for the largest.
	var what []string
	if c.tool > 0 {
		what = append(what, text.Count(c.tool, "tool input or output", "tool inputs and outputs"))
	}
	if c.thinking > 0 {
		what = append(what, text.Count(c.thinking, "thinking block", "thinking blocks"))
	}
	if c.text > 0 {
		what = append(what, text.Count(c.text, "text", "texts"))
	}
	if c.prompts > 0 {
		what = append(what, "**"+text.Count(c.prompts, "user prompt", "user prompts")+"**")
	}
	var v []string
	if len(what) > 0 {
		v = append(v, list(what)+" shortened")
	}
	if c.entries > 0 {
		s := text.Thousands(float64(c.entries)) + " of " + text.Count(c.entriesTotal, "entry", "entries") + " left out"
		if c.promptsLeftOut > 0 {
			s += " (**" + text.Thousands(float64(c.promptsLeftOut)) + " of " + text.Count(c.promptsTotal, "user prompt", "user prompts") + "**)"
		}
		v = append(v, s+", a note where each run of them was")
	}
	return strings.Join(v, "; ") + "; see the full session"
}

// list joins items as a sentence does: "a", "a and b", "a, b and c".
func list(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// tokens writes a count read from the session, whatever its value.
func tokens(f float64) string {
	return text.Thousands(float64(int(max(-1e15, min(f, 1e15)))))
}

// date is when the session started: its header's time, else its first
// entry's.
func (x *exporter) date() string {
	if t, err := time.Parse(time.RFC3339Nano, x.s.Header.Timestamp); err == nil {
		return t.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	for _, e := range x.s.Entries {
		if e.TimeOK {
			return e.Time.UTC().Format("2006-01-02 15:04:05 UTC")
		}
	}
	if ts := x.s.Header.Timestamp; ts != "" {
		return inlineText(shorten(ts, 64))
	}
	return ""
}
