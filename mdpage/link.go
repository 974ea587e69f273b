package mdpage

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// linker makes deep links into a page of the session: the page's address
// with ?leafId=<leaf>&targetId=<entry>, the parameters canopy's pages and
// the reference exporter's read.
type linker struct {
	u    url.URL // the page, without leafId and targetId in its query
	leaf string
}

// newLinker checks the page's address: an absolute http or https URL (a
// bug tracker shows no other kind as a link). Parameters already in its
// query are kept as they are written, but leafId and targetId, which the
// links set.
func newLinker(page, leaf string) (*linker, error) {
	// The messages do not repeat the address: it may hold a password.
	u, err := url.Parse(page)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("not a URL (%v)", err)
	}
	if s := strings.ToLower(u.Scheme); (s != "http" && s != "https") || u.Host == "" {
		return nil, errors.New("an absolute http or https URL is needed")
	}
	if u.User != nil {
		// It would be copied into every link of the export.
		return nil, errors.New("the URL holds a user name or password, which every link would repeat: leave it out")
	}
	var keep []string
	if u.RawQuery != "" {
		for _, p := range strings.Split(u.RawQuery, "&") {
			name, _, _ := strings.Cut(p, "=")
			if n, err := url.QueryUnescape(name); err == nil {
				name = n
			}
			if p == "" || name == "leafId" || name == "targetId" {
				continue
			}
			keep = append(keep, p)
		}
	}
	u.RawQuery = strings.Join(keep, "&")
	u.ForceQuery = false
	return &linker{u: *u, leaf: leaf}, nil
}

// link is the address that opens the conversation at the leaf and shows
// the entry target.
func (l *linker) link(target string) string {
	u := l.u
	q := "leafId=" + url.QueryEscape(l.leaf) + "&targetId=" + url.QueryEscape(target)
	if u.RawQuery != "" {
		q = u.RawQuery + "&" + q
	}
	u.RawQuery = q
	return u.String()
}

// markdown is a Markdown link to target, labelled text (ours, escaped).
func (l *linker) markdown(text, target string) string {
	return "[" + text + "](" + destination(l.link(target)) + ")"
}

// safeDestination reports whether a link target may stay a link: web and
// mail links only. Everything else (javascript:, vbscript:, data:, file:,
// relative and unknown schemes) is shown as text. It returns the target
// trimmed as it will be written.
func safeDestination(dest string) (string, bool) {
	d := strings.TrimFunc(dest, func(r rune) bool { return r <= ' ' || r == 0x7f })
	lower := strings.ToLower(d)
	for _, scheme := range []string{"https://", "http://", "mailto:"} {
		if strings.HasPrefix(lower, scheme) && len(d) > len(scheme) {
			return d, true
		}
	}
	return "", false
}

// destination writes a safe link target (see safeDestination) for an
// inline link "[text](here)": white space and control characters
// percent-encoded, and the characters that could end the target, open
// an entity, split a table cell or escape something escaped with a
// backslash. The scheme at its start is written as it is, so the link's
// target starts with it whatever parser reads it.
func destination(d string) string {
	var sb strings.Builder
	for i := 0; i < len(d); i++ {
		c := d[i]
		switch {
		case c <= ' ' || c == 0x7f:
			sb.WriteString("%" + strings.ToUpper(strconv.FormatUint(uint64(c)|0x100, 16)[1:]))
		case c == '&' && !entityLike(d[i:]):
			// A query's separator, left as it is when it cannot be
			// read as an entity ("&copy;" would be ©).
			sb.WriteByte(c)
		case strings.IndexByte("\\()<>&|\"'[]`", c) >= 0:
			sb.WriteByte('\\')
			sb.WriteByte(c)
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// entityLike reports whether s starts with something an entity reference
// could be read from: "&", letters, digits or "#", then ";".
func entityLike(s string) bool {
	for i := 1; i < len(s) && i < 40; i++ {
		c := s[i]
		switch {
		case c == ';':
			return i > 1
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '#':
		default:
			return false
		}
	}
	return false
}
