package archive

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"canopy/internal/outpath"
)

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
	findings = checkPages(dir, m)
	unlisted, err := unexpected(dir, m)
	findings = append(findings, unlisted...)
	if err != nil {
		return findings, false, err
	}
	findings = append(findings, checkSources(m)...)
	sort.SliceStable(findings, func(i, j int) bool { return findings[i].Path < findings[j].Path })
	ok = true
	for _, f := range findings {
		if f.Fatal {
			ok = false
		}
	}
	return findings, ok, nil
}

// checkPages checks that every page m lists is in dir, a regular file
// with the hash m gives, and notes the stale ones.
func checkPages(dir string, m *Manifest) []Finding {
	var findings []Finding
	for _, p := range m.Pages {
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
		_, sum, err := hashFile(context.Background(), name)
		switch {
		case err != nil:
			findings = append(findings, Finding{p.Path, err.Error(), true})
		case sum != p.SHA256:
			findings = append(findings, Finding{p.Path, "changed: SHA-256 " + sum + ", manifest says " + p.SHA256, true})
		}
	}
	return findings
}

// unexpected lists the files in dir that m does not list.
func unexpected(dir string, m *Manifest) ([]Finding, error) {
	listed := map[string]bool{ManifestName: true}
	for _, p := range m.Pages {
		listed[p.Path] = true
	}
	var findings []Finding
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
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
	return findings, err
}

// checkSources checks the sources that are still where m says they were
// against their hashes.
func checkSources(m *Manifest) []Finding {
	var findings []Finding
	for _, s := range m.Sources {
		_, sum, err := hashSource(context.Background(), Source{Path: s.Path, Session: second(storeFile(s.Path))}, nil)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			findings = append(findings, Finding{s.Path, "source missing: not checked", false})
		case err != nil:
			findings = append(findings, Finding{s.Path, "source unreadable: " + err.Error(), false})
		case sum != s.SHA256:
			findings = append(findings, Finding{s.Path, "source changed since it was archived: SHA-256 " + sum + ", manifest says " + s.SHA256, true})
		}
	}
	return findings
}
