package archive

import (
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
}

// readManifest reads dir's manifest; a missing one is (nil, nil).
func readManifest(dir string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestName), err)
	}
	return &m, nil
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

// hashFile returns a file's size and SHA-256.
func hashFile(p string) (int64, string, error) {
	f, err := os.Open(p)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", fmt.Errorf("reading %s: %w", p, err)
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// Finding is one thing Verify found wrong (or could not check).
type Finding struct {
	Path    string `json:"path"`
	Problem string `json:"problem"` // changed, missing, unexpected, source changed, source missing
	Fatal   bool   `json:"fatal"`   // a mismatch, not a note
}

// Verify re-checks an archive against its manifest: every page's hash,
// files the manifest does not list, and every source that is still where
// it was (a source that is gone is noted, not counted as a mismatch: an
// archive outlives its sources). ok is false on any mismatch.
func Verify(dir string) (findings []Finding, ok bool, err error) {
	m, err := readManifest(dir)
	if err != nil {
		return nil, false, err
	}
	if m == nil {
		return nil, false, fmt.Errorf("%s: no %s: not a canopy archive", dir, ManifestName)
	}
	listed := map[string]bool{ManifestName: true}
	for _, p := range m.Pages {
		listed[p.Path] = true
		if !localPath(p.Path) {
			findings = append(findings, Finding{p.Path, "not a path inside the archive", true})
			continue
		}
		_, sum, err := hashFile(filepath.Join(dir, filepath.FromSlash(p.Path)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			findings = append(findings, Finding{p.Path, "missing", true})
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
		_, sum, err := hashFile(s.Path)
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
