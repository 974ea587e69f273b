package archive

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"canopy/internal/outpath"
)

// checkOutdir decides whether an archive may be made at dir (OUTDIR,
// absolute; name is how the user named it): dir is missing, or an empty
// directory, or an archive canopy made, whose manifest canopy wrote and
// lists every file in it. The swap replaces the whole directory, so
// anything else would be lost: a directory that merely holds a file
// named manifest.json (a web app, a package) is refused, and so is an
// archive someone put a file of their own in. It returns the archive's
// manifest (nil when there is none).
func checkOutdir(dir, name string) (*Manifest, error) {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s: is %s, not a directory", name, outpath.Kind(fi.Mode()))
	}
	m, err := readManifest(dir)
	if no := (*notOurs)(nil); errors.As(err, &no) {
		return nil, fmt.Errorf("%s: holds a %s that canopy did not write (%w): not replacing it (choose a missing or empty OUTDIR)", name, ManifestName, no.why)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: reading its %s: %w: not replacing it", name, ManifestName, err)
	}
	_, foreign, err := scanOutdir(dir, m, 2)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: not replacing it", name, err)
	}
	if len(foreign) == 0 {
		return m, nil
	}
	what := foreign[0]
	if len(foreign) > 1 {
		what += " (and more)"
	}
	if m == nil {
		return nil, fmt.Errorf("%s: holds %s and no %s: it is not a canopy archive; not replacing it (choose a missing or empty OUTDIR)", name, what, ManifestName)
	}
	return nil, fmt.Errorf("%s: holds %s, which is not in its manifest: not replacing it (move it out of the archive, or choose another OUTDIR)", name, what)
}

// scanOutdir walks dir, never following a link, and sorts what it holds:
// own, the paths of the files m lists (pages, the index, the manifest)
// and of the directories they are in, parents before their contents; and
// foreign, everything else, as paths relative to dir (a directory with a
// slash; a file that is not a regular file with what it is). It stops
// once it has found limit foreign paths (0: no limit). A file that is
// not a regular file where m lists a page (a FIFO, a link) is own: it
// holds nothing of anyone's, and the new archive has a page there.
func scanOutdir(dir string, m *Manifest, limit int) (own, foreign []string, err error) {
	listed := map[string]bool{}
	dirs := map[string]bool{}
	if m != nil {
		listed[ManifestName] = true
		for _, p := range m.Pages {
			p := path.Clean(p.Path)
			listed[p] = true
			for d := path.Dir(p); d != "."; d = path.Dir(d) {
				dirs[d] = true
			}
		}
	}
	var foreignDirs []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && dirs[rel]:
			own = append(own, p)
		case d.IsDir():
			// Named by the files in it, if any (they are what would be
			// lost); an empty one by itself.
			foreignDirs = append(foreignDirs, rel+"/")
		case listed[rel]:
			own = append(own, p)
		case d.Type().IsRegular():
			foreign = append(foreign, rel)
		default:
			foreign = append(foreign, rel+" ("+outpath.Kind(d.Type())+")")
		}
		if limit > 0 && len(foreign) >= limit {
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if len(foreign) == 0 && len(foreignDirs) > 0 {
		foreign = foreignDirs[:1]
		if len(foreignDirs) > 1 {
			foreign = foreignDirs[:2]
		}
	} else if len(foreignDirs) > 0 && limit == 0 {
		foreign = append(foreign, foreignDirs...)
	}
	return own, foreign, nil
}

// removeOwned removes a replaced archive: the files its manifest m lists
// and the directories they were in, nothing else. It returns what is
// left (files put there that m does not list); dir itself is removed
// when nothing is.
func removeOwned(dir string, m *Manifest) (left []string, err error) {
	own, foreign, err := scanOutdir(dir, m, 0)
	if err != nil {
		return nil, err
	}
	// Contents before the directories they are in.
	for i := len(own) - 1; i >= 0; i-- {
		os.Remove(own[i]) // a directory that still holds a foreign file stays
	}
	if len(foreign) > 0 {
		return foreign, nil
	}
	if err := os.Remove(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return nil, nil
}

// moveAside renames a replaced archive that still holds files it did not
// list to a new name beside out (out.canopy-leftover, -2, ...), where the
// user finds them and no later run removes them.
func moveAside(old, out string) (string, error) {
	base := out + ".canopy-leftover"
	for n := 1; n < 1000; n++ {
		p := base
		if n > 1 {
			p = fmt.Sprintf("%s-%d", base, n)
		}
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := os.Rename(old, p); err != nil {
			return "", fmt.Errorf("moving %s aside: %w", old, err)
		}
		return p, nil
	}
	return "", fmt.Errorf("moving %s aside: %s… all taken", old, base)
}

// makeParents makes dir and its missing parents, and returns those it
// made, deepest first, so that a run that fails can remove them again.
func makeParents(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; {
		_, err := os.Lstat(d)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		missing = append(missing, d)
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if len(missing) == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return missing, fmt.Errorf("making %s: %w", dir, err)
	}
	return missing, nil
}

// describe names the first few entries of a list for a message.
func describe(paths []string) string {
	if len(paths) > 3 {
		return strings.Join(paths[:3], ", ") + fmt.Sprintf(" and %d more", len(paths)-3)
	}
	return strings.Join(paths, ", ")
}
