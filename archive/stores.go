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
	"path"
	"strings"

	"canopy/internal/outpath"
	"canopy/sessiontree"
)

// FormatStore is a database of sessions (OpenCode's, Crush's, Goose's,
// Cursor's), as the manifest names each of its sessions' sources.
const FormatStore = "store"

// A session of a database is a source of its own, named by the
// database's path and the session's id: <path>#session=<id>. The
// database's bytes are its bytes (their hash, what verify checks);
// storeFile gives the file back.
const storeSep = "#session="

// storeFile is the file a source names: the database of a session of a
// database (a name that is not a file, but for a file ending in
// #session=<id>), else the name itself.
func storeFile(p string) (file, session string) {
	i := strings.LastIndex(p, storeSep)
	if i < 0 {
		return p, ""
	}
	if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
		return p, "" // a file so named
	}
	return p[:i], p[i+len(storeSep):]
}

// expandStores replaces each database among the sources (named as an
// agent names its store, or named on the command line and found to be
// one) with a source per session it holds, each reading it from the one
// private copy of it opened here (closeStores closes them). One that
// cannot be read is a problem.
func expandStores(found []Source) ([]Source, []Problem) {
	var out []Source
	var problems []Problem
	for _, src := range found {
		if src.Format != FormatStore && !(src.Explicit && src.Format == "") {
			out = append(out, src)
			continue
		}
		st, ok, err := sessiontree.OpenStore(src.Path)
		var list []sessiontree.StoreSession
		if ok {
			if list, err = st.Sessions(); err != nil {
				st.Close()
			}
		}
		switch {
		case err != nil:
			problems = append(problems, Problem{src.Path, strings.TrimPrefix(err.Error(), src.Path+": ")})
			continue
		case !ok && src.Explicit:
			out = append(out, src) // the loader says what it is
			continue
		case !ok:
			continue // named like a store, but another program's file: no session
		}
		if len(list) == 0 {
			st.Close()
		}
		for _, s := range list {
			out = append(out, Source{Path: src.Path + storeSep + s.ID, Rel: path.Join(src.Rel, safeName(s.ID)) + ".json",
				Format: FormatStore, Explicit: src.Explicit, Session: s.ID, store: st})
		}
	}
	return out, problems
}

// safeName is a session's id as a file's name: letters, digits, '.', '-'
// and '_' kept, anything else '_' (an id is the database's text), at
// most 64 bytes.
func safeName(id string) string {
	b := []byte(id[:min(len(id), 64)])
	for i, c := range b {
		ok := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_' || c == '.' && i > 0
		if !ok {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b)
}

// first is the first of two results.
func first(a, _ string) string { return a }

// closeStores closes the databases the sources read their sessions from.
func closeStores(found []Source) {
	done := map[*sessiontree.Store]bool{}
	for _, s := range found {
		if s.store != nil && !done[s.store] {
			done[s.store] = true
			s.store.Close()
		}
	}
}

// fileSum is a file's size and SHA-256, or why it could not be read.
type fileSum struct {
	size int64
	sum  string
	err  error
}

// hashStores hashes each database the sources read sessions from, once:
// its sessions share its bytes.
func hashStores(ctx context.Context, found []Source) map[string]fileSum {
	out := map[string]fileSum{}
	for _, s := range found {
		if s.store == nil {
			continue
		}
		if file, _ := storeFile(s.Path); !hasKey(out, file) {
			var h fileSum
			h.size, h.sum, h.err = hashStore(ctx, file)
			out[file] = h
		}
	}
	return out
}

func hasKey(m map[string]fileSum, k string) bool {
	_, ok := m[k]
	return ok
}

// hashSource is the size and SHA-256 of the source's file.
func hashSource(ctx context.Context, src Source, stores map[string]fileSum) (int64, string, error) {
	file, _ := storeFile(src.Path)
	if h, ok := stores[file]; ok && src.store != nil {
		return h.size, h.sum, h.err
	}
	if src.Session != "" {
		return hashStore(ctx, file)
	}
	return hashFile(ctx, file)
}

// hashStore is the size and SHA-256 of a database and of the -wal log
// beside it, one after the other: its newest rows may be only in the
// log. A database with no log hashes as its file alone.
func hashStore(ctx context.Context, file string) (int64, string, error) {
	wal := file + "-wal"
	if fi, err := os.Lstat(wal); err != nil || !fi.Mode().IsRegular() {
		return hashFile(ctx, file)
	}
	h := sha256.New()
	var size int64
	for _, p := range []string{file, wal} {
		f, err := outpath.OpenRegular(p)
		if err != nil {
			return 0, "", err
		}
		n, err := io.Copy(h, ctxReader{ctx, f})
		f.Close()
		if err != nil {
			return 0, "", fmt.Errorf("reading %s: %w", p, err)
		}
		size += n
	}
	return size, hex.EncodeToString(h.Sum(nil)), nil
}

// second is the second of two results.
func second(_, b string) string { return b }
