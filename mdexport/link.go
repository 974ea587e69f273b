package mdexport

import (
	"errors"
	"fmt"
	"net/url"
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
