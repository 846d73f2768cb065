package storagetest

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// sqliteTpl holds the binary's SQLite templates: one file per state, each a single
// self-contained file (written by VACUUM INTO: no WAL beside it).
var sqliteTpl struct {
	once    sync.Once
	err     error
	dir     string
	files   map[state]string
	fixture Fixture
}

func sqliteTemplates() error {
	t := &sqliteTpl
	t.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if t.dir, t.err = os.MkdirTemp("", "lokal-storagetest-"); t.err != nil {
			t.err = fmt.Errorf("making the SQLite template directory: %w", t.err)
			return
		}
		work := filepath.Join(t.dir, "work.db")
		t.files = map[state]string{}
		t.fixture, t.err = build(ctx, "sqlite:"+work, func(s state) error {
			out := filepath.Join(t.dir, fmt.Sprintf("template-%d.db", s))
			if err := vacuumInto(ctx, work, out); err != nil {
				return err
			}
			t.files[s] = out
			return nil
		})
	})
	return t.err
}

// vacuumInto writes a consistent single-file copy of the database at src to dst.
func vacuumInto(ctx context.Context, src, dst string) error {
	db, err := sql.Open("sqlite", "file:"+src+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return fmt.Errorf("opening the SQLite template: %w", err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "VACUUM INTO ?", dst); err != nil {
		return fmt.Errorf("copying the SQLite template: %w", err)
	}
	return nil
}

// sqlitePath returns the path of a new database in state s, in a directory of its own.
// Not under tb.TempDir: its name carries the test's, and storage opens the path as a
// file: URI, where a subtest's "#01" would cut it short.
func sqlitePath(s state) (string, error) {
	if err := sqliteTemplates(); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(sqliteTpl.dir, "db-")
	if err != nil {
		return "", fmt.Errorf("making a test database directory: %w", err)
	}
	path := filepath.Join(dir, "lokal.db")
	if s == empty {
		return path, nil
	}
	return path, sqliteCopy(s, path)
}

// sqliteCopy writes the template of state s to path.
func sqliteCopy(s state, path string) error {
	src, err := os.Open(sqliteTpl.files[s])
	if err != nil {
		return fmt.Errorf("opening the SQLite template: %w", err)
	}
	defer src.Close()
	dst, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("creating the test database: %w", err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return fmt.Errorf("copying the SQLite template: %w", err)
	}
	if err := dst.Close(); err != nil {
		return fmt.Errorf("writing the test database: %w", err)
	}
	return nil
}

func sqliteCleanup() {
	if sqliteTpl.dir != "" {
		os.RemoveAll(sqliteTpl.dir)
	}
}
