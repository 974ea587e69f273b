package sessiontree

import (
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // the SQLite driver, pure Go: no cgo
)

// snapshot is a private copy of a SQLite database and of its write-ahead
// log, opened for reading. The user's files are only ever opened
// read-only, to be copied: SQLite itself never sees them, so it can
// create no -shm, journal or lock file beside them, nor checkpoint their
// log. The copy holds the log's committed rows (an agent that keeps its
// database open keeps its newest rows there: a real store may hold all
// of them in its -wal beside a 4 KB main file), which SQLite reads as it
// opens the copy; a connection to the user's file with immutable=1 would
// not read them, and one with mode=ro needs to write the -shm. The copy
// costs a read of the files; they are deleted when the snapshot is
// closed.
type snapshot struct {
	name string // the database's path, as given
	dir  string
	db   *sql.DB
	cols map[string]bool // tables and "table.column"s, read as it opens (tables)
}

// openSnapshot copies the database src holds (its bytes, as loaded) and
// the -wal file beside it, if any, to a private temporary directory, and
// opens the copy.
func openSnapshot(src *source) (*snapshot, error) {
	dir, err := os.MkdirTemp("", "canopy-db-")
	if err != nil {
		return nil, fmt.Errorf("making a private copy of the database: %w", err)
	}
	s := &snapshot{name: src.name, dir: dir}
	main := filepath.Join(dir, "db")
	if err := copyTo(main, io.NewSectionReader(src.readerAt(), 0, 1<<62)); err != nil {
		s.close()
		return nil, fmt.Errorf("copying the database: %w", err)
	}
	// The log beside the file named: also for a file read into memory
	// whole (canopy scan reads its input so); standard input has none.
	if src.name != "" && src.name != "-" {
		if err := copyWAL(src.name+"-wal", main+"-wal"); err != nil {
			s.close()
			return nil, err
		}
	}
	// query_only: nothing this connection runs may change even the copy.
	dsn := "file:" + (&url.URL{Path: main}).EscapedPath() + "?_pragma=query_only(1)"
	if s.db, err = sql.Open("sqlite", dsn); err != nil {
		s.close()
		return nil, fmt.Errorf("opening the copy of the database: %w", err)
	}
	s.db.SetMaxOpenConns(1)
	if err := s.db.Ping(); err != nil {
		s.close()
		return nil, fmt.Errorf("opening the copy of the database: %w", err)
	}
	// The tables are read now, once: a snapshot is then only read, by
	// as many goroutines as load its sessions (canopy archive).
	if _, err := s.tables(); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// copyWAL copies the write-ahead log at from, when there is one: a
// regular file, opened read-only.
func copyWAL(from, to string) error {
	fi, err := os.Stat(from)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("reading the database's log: %w", err)
	case !fi.Mode().IsRegular():
		return nil
	}
	f, err := os.Open(from)
	if err != nil {
		return fmt.Errorf("reading the database's log: %w", err)
	}
	defer f.Close()
	if err := copyTo(to, f); err != nil {
		return fmt.Errorf("copying the database's log: %w", err)
	}
	return nil
}

// copyTo writes what r reads to a new file at path.
func copyTo(path string, r io.Reader) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	return errors.Join(err, f.Close())
}

// close closes the copy and deletes it.
func (s *snapshot) close() {
	if s.db != nil {
		s.db.Close()
	}
	os.RemoveAll(s.dir)
}

// tables are the names of the database's tables, and of their columns as
// "table.column".
func (s *snapshot) tables() (map[string]bool, error) {
	if s.cols != nil {
		return s.cols, nil
	}
	rows, err := s.db.Query(`SELECT m.name, p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table'`)
	if err != nil {
		return nil, fmt.Errorf("reading the database's tables: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var t, c string
		if err := rows.Scan(&t, &c); err != nil {
			return nil, fmt.Errorf("reading the database's tables: %w", err)
		}
		out[t], out[t+"."+c] = true, true
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	s.cols = out
	return out, nil
}

// col is the SQL for column name of table, or else when the database's
// table has no such column (an older version of the agent's schema):
// the agents added columns over time, and a query naming one that is not
// there fails whole.
func (s *snapshot) col(table, name, orElse string) string {
	if t, err := s.tables(); err == nil && t[table+"."+name] {
		return name
	}
	return orElse
}

// hasAll tells that tables names every one of names.
func hasAll(tables map[string]bool, names ...string) bool {
	for _, n := range names {
		if !tables[n] {
			return false
		}
	}
	return true
}

// each runs query and calls row for each row it gives, with scan to read
// the row's columns.
func (s *snapshot) each(query string, args []any, row func(scan func(...any) error) error) error {
	rows, err := s.db.Query(query, args...)
	if err != nil {
		return fmt.Errorf("reading the database: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows.Scan); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading the database: %w", err)
	}
	return nil
}
