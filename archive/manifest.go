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
	"sort"

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

// encode writes the manifest as indented JSON, deterministically.
func (m *Manifest) encode() ([]byte, error) {
	b, err := json.Marshal(m, json.Deterministic(true))
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

// Finding is one thing Verify found wrong (or could not check).
type Finding struct {
	Path    string `json:"path"`
	Problem string `json:"problem"` // changed, missing, not a regular file, unexpected, stale, source changed, source missing, ...
	Fatal   bool   `json:"fatal"`   // a mismatch, not a note
}

// Verify re-checks an archive against its manifest: every page's hash,
// files the manifest does not list, and every source that is still where
// it was (a source that is gone is noted, not counted as a mismatch: an
// archive outlives its sources). ok is false on any mismatch. Nothing is
// opened in a way that could block: a page replaced by a FIFO is a
// finding, not a hang.
func Verify(dir string) (findings []Finding, ok bool, err error) {
	ctx := context.Background()
	m, err := parseManifest(dir)
	if err == nil && m != nil && m.Canopy == "" {
		err = &notOurs{filepath.Join(dir, ManifestName), errors.New(`no "canopy" version`)}
	}
	if err != nil {
		if errors.Is(err, errNotOurs) {
			return nil, false, fmt.Errorf("%s: not a canopy archive: %w", dir, err)
		}
		return nil, false, err
	}
	if m == nil {
		return nil, false, fmt.Errorf("%s: no %s: not a canopy archive", dir, ManifestName)
	}
	listed := map[string]bool{ManifestName: true}
	for _, p := range m.Pages {
		listed[p.Path] = true
		if p.Stale != "" {
			findings = append(findings, Finding{p.Path, "stale: kept from an earlier run, not made from its source: " + p.Stale, false})
		}
		if !localPath(p.Path) {
			findings = append(findings, Finding{p.Path, "not a path inside the archive", true})
			continue
		}
		name := filepath.Join(dir, filepath.FromSlash(p.Path))
		// Lstat first: a page must be the file itself, not a link to one
		// that could be anywhere, nor a FIFO or a device.
		fi, err := os.Lstat(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			findings = append(findings, Finding{p.Path, "missing", true})
			continue
		case err != nil:
			findings = append(findings, Finding{p.Path, err.Error(), true})
			continue
		case !fi.Mode().IsRegular():
			findings = append(findings, Finding{p.Path, "not a regular file: " + outpath.Kind(fi.Mode()), true})
			continue
		}
		_, sum, err := hashFile(ctx, name)
		switch {
		case err != nil:
			findings = append(findings, Finding{p.Path, err.Error(), true})
		case sum != p.SHA256:
			findings = append(findings, Finding{p.Path, "changed: SHA-256 " + sum + ", manifest says " + p.SHA256, true})
		}
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if !listed[filepath.ToSlash(rel)] {
			findings = append(findings, Finding{filepath.ToSlash(rel), "unexpected: not in the manifest", true})
		}
		return nil
	})
	if err != nil {
		return findings, false, err
	}
	for _, s := range m.Sources {
		_, sum, err := hashFile(ctx, s.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			findings = append(findings, Finding{s.Path, "source missing: not checked", false})
		case err != nil:
			findings = append(findings, Finding{s.Path, "source unreadable: " + err.Error(), false})
		case sum != s.SHA256:
			findings = append(findings, Finding{s.Path, "source changed since it was archived: SHA-256 " + sum + ", manifest says " + s.SHA256, true})
		}
	}
	sort.SliceStable(findings, func(i, j int) bool { return findings[i].Path < findings[j].Path })
	ok = true
	for _, f := range findings {
		if f.Fatal {
			ok = false
		}
	}
	return findings, ok, nil
}

// localPath reports whether a manifest path stays inside the archive.
func localPath(p string) bool {
	return filepath.IsLocal(filepath.FromSlash(p))
}
