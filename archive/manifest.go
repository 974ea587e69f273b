package archive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/outpath"
)

// ManifestName is the manifest's file name in an archive.
const ManifestName = "manifest.json"

// Manifest records what an archive was made from and what it holds: every
// source with its hash, every page with its hash and what made it, and
// what the index knows of each session (so that a re-run need not load
// sessions whose source is unchanged).
type Manifest struct {
	Canopy   string         `json:"canopy"` // the version that wrote it
	Flags    []string       `json:"flags"`  // the flags that shape pages
	Sources  []SourceRecord `json:"sources"`
	Pages    []PageRecord   `json:"pages"`
	Sessions []Session      `json:"sessions"`
	Skipped  []Problem      `json:"skipped"`
	// Shard is set in the manifest of one shard of a sharded run.
	Shard *ShardInfo `json:"shard,omitempty"`
}

// SourceRecord is one source file.
type SourceRecord struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	Format string `json:"format"`         // pi v3, oh-my-pi v3, flue v3, gateway-store, …
	Page   string `json:"page,omitempty"` // the session's page, if it has one
}

// PageRecord is one file of the archive.
type PageRecord struct {
	Path   string   `json:"path"` // relative to the archive's root, slash-separated
	SHA256 string   `json:"sha256"`
	Source string   `json:"source,omitempty"` // the session it shows; none for the index
	Canopy string   `json:"canopy"`
	Flags  []string `json:"flags"`
	// Key hashes everything the page was made from (source, version,
	// flags, links to other pages): a re-run with the same key keeps the
	// page as it is.
	Key string `json:"key"`
	// Stale, when set, says why the page is one kept from an earlier run
	// rather than made from its source by this one (the source missing,
	// unreadable, or changed while it was archived).
	Stale string `json:"stale,omitempty"`
}

// records are a manifest's records by path: pages by their path,
// sessions by their page, sources by their path (the last listed of
// each). A nil manifest has none.
type records struct {
	pages    map[string]PageRecord
	sessions map[string]Session
	sources  map[string]SourceRecord
}

func (m *Manifest) records() records {
	r := records{pages: map[string]PageRecord{}, sessions: map[string]Session{}, sources: map[string]SourceRecord{}}
	if m == nil {
		return r
	}
	for _, p := range m.Pages {
		r.pages[p.Path] = p
	}
	for _, s := range m.Sessions {
		r.sessions[s.Page] = s
	}
	for _, s := range m.Sources {
		r.sources[s.Path] = s
	}
	if sh := m.Shard; sh != nil {
		// What the shard learned of the other shards' sessions: their
		// pages' names are taken, their summaries known by hash.
		for _, s := range sh.Sessions {
			if _, ok := r.sessions[s.Page]; !ok {
				r.sessions[s.Page] = s
			}
		}
		for _, s := range sh.Sources {
			if _, ok := r.sources[s.Path]; !ok {
				r.sources[s.Path] = s
			}
		}
	}
	return r
}

// errNotOurs marks a manifest.json that canopy did not write (or that is
// no longer what canopy wrote): the directory holding it is not an archive
// canopy may replace.
var errNotOurs = errors.New("not a manifest canopy wrote")

// notOurs is the error for such a manifest: where, and what gives it away.
type notOurs struct {
	path string
	why  error
}

func (e *notOurs) Error() string   { return e.path + ": " + errNotOurs.Error() + ": " + e.why.Error() }
func (e *notOurs) Unwrap() []error { return []error{errNotOurs, e.why} }

// maxManifestSize bounds the manifest.json canopy reads (to tell whether
// a directory is its archive).
const maxManifestSize = 4 << 30

// readManifest reads dir's manifest; a missing one is (nil, nil). It is
// opened without blocking (a FIFO put in its place must not hang the run)
// and must have the shape canopy writes (see validate); an error wrapping
// errNotOurs says it does not.
func readManifest(dir string) (*Manifest, error) {
	m, err := parseManifest(dir)
	if m == nil || err != nil {
		return m, err
	}
	if err := m.validate(); err != nil {
		return nil, &notOurs{filepath.Join(dir, ManifestName), err}
	}
	return m, nil
}

// parseManifest reads dir's manifest as readManifest does, but does not
// validate it: verify reports what is wrong in it, page by page.
func parseManifest(dir string) (*Manifest, error) {
	p := filepath.Join(dir, ManifestName)
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &notOurs{p, fmt.Errorf("it is %s", outpath.Kind(fi.Mode()))}
	}
	if fi.Size() > maxManifestSize {
		// Not read into memory to find out: an archive of a million
		// sessions has a manifest of about a gigabyte, not four.
		return nil, &notOurs{p, fmt.Errorf("larger than %d GiB", maxManifestSize>>30)}
	}
	f, err := outpath.OpenRegular(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", p, err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, &notOurs{p, err}
	}
	return &m, nil
}

// validate checks that a manifest has what every manifest canopy writes
// has: the version that wrote it, and pages, the index among them, each
// a path inside the archive with a SHA-256. A manifest.json of some other
// program (a web app's, a package's) fails here, so that the directory it
// is in is never taken for an archive; and the paths that a replaced
// archive's files are removed by cannot lead outside it.
func (m *Manifest) validate() error {
	if m.Canopy == "" {
		return errors.New(`no "canopy" version`)
	}
	seen := map[string]bool{}
	for _, p := range m.Pages {
		switch {
		case !localPath(p.Path):
			return fmt.Errorf("page %q is not a path inside the archive", p.Path)
		case p.Path == ManifestName:
			return fmt.Errorf("page %q is the manifest itself", p.Path)
		case seen[p.Path]:
			return fmt.Errorf("page %q is listed twice", p.Path)
		case !isSHA256(p.SHA256):
			return fmt.Errorf("page %q has no SHA-256", p.Path)
		}
		seen[p.Path] = true
	}
	if !seen["index.html"] {
		return errors.New("no index.html among its pages")
	}
	return nil
}

func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// encode writes the manifest as indented JSON, deterministically; lists
// with nothing in them as [], not null.
func (m *Manifest) encode() ([]byte, error) {
	out := *m
	if out.Sources == nil {
		out.Sources = []SourceRecord{}
	}
	if out.Sessions == nil {
		out.Sessions = []Session{}
	}
	if out.Skipped == nil {
		out.Skipped = []Problem{}
	}
	b, err := json.Marshal(&out, json.Deterministic(true))
	if err != nil {
		return nil, err
	}
	v := jsontext.Value(b)
	if err := v.Indent(jsontext.WithIndent("  ")); err != nil {
		return nil, err
	}
	return append(v, '\n'), nil
}

// hashFile returns a file's size and SHA-256. The file is opened without
// blocking and must be a regular file: a FIFO or a device put where a
// page or a source was is refused at once, never read (or waited on). It
// stops, with ctx's error, once ctx is done.
func hashFile(ctx context.Context, p string) (int64, string, error) {
	f, err := outpath.OpenRegular(p)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, ctxReader{ctx, f})
	if err != nil {
		return 0, "", fmt.Errorf("reading %s: %w", p, err)
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// ctxReader reads from r until ctx is done: hashing a large file stops
// within one read of an interrupt.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// localPath reports whether a manifest path stays inside the archive.
func localPath(p string) bool {
	return filepath.IsLocal(filepath.FromSlash(p))
}
