package sessiongen

import (
	"database/sql"
	"fmt"

	_ "modernc.org/sqlite" // the driver canopy reads the agents' databases with
)

// OpenCodeDB writes an OpenCode database at path: the tables canopy reads
// of opencode.db (session, message, part), as OpenCode's migrations make
// them, and the rows the statements insert.
func OpenCodeDB(path string, inserts ...string) error {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	defer db.Close()
	stmts := append([]string{
		`CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT, directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT, time_created INTEGER, time_updated INTEGER)`,
		`CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER, data TEXT NOT NULL)`,
		`CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, data TEXT NOT NULL)`,
	}, inserts...)
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return db.Close()
}
