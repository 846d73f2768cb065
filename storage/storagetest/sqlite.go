package storagetest

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/gob"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// sqliteTpl holds the SQLite templates of this code: one file per state, each a single
// self-contained file (written by VACUUM INTO: no WAL beside it), in a directory of the
// system's temporary one named by sourceHash and shared by every binary built from the
// same code, as the PostgreSQL template is. The first binary builds it in a directory of
// its own and renames that into place, so a directory under the name is always complete.
var sqliteTpl struct {
	once    sync.Once
	err     error
	dir     string // the shared templates
	work    string // this binary's databases
	files   map[state]string
	fixture Fixture
}

// sqliteTplPrefix starts the directories of the SQLite templates, before the hash.
const sqliteTplPrefix = "lokal-storagetest-tpl-"

func sqliteTemplates() error {
	t := &sqliteTpl
	t.once.Do(func() {
		t.err = sqliteSetUp()
	})
	return t.err
}

func sqliteSetUp() error {
	t := &sqliteTpl
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	hash, err := sourceHash()
	if err != nil {
		return fmt.Errorf("hashing the sources a template depends on: %w", err)
	}
	if t.work, err = os.MkdirTemp("", "lokal-storagetest-"); err != nil {
		return fmt.Errorf("making the SQLite test directory: %w", err)
	}
	t.dir = filepath.Join(os.TempDir(), sqliteTplPrefix+hash)
	t.files = map[state]string{}
	for _, s := range []state{migrated, withFixture} {
		t.files[s] = filepath.Join(t.dir, fmt.Sprintf("template-%d.db", s))
	}
	go sqliteSweep(hash)
	if f, err := loadFixture(t.dir); err == nil {
		t.fixture = f
		now := time.Now()
		os.Chtimes(t.dir, now, now) // the sweep's clock
		return nil
	}
	tmp, err := os.MkdirTemp("", sqliteTplPrefix+"build-")
	if err != nil {
		return fmt.Errorf("making the SQLite template directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	work := filepath.Join(tmp, "work.db")
	f, err := build(ctx, "sqlite:"+work, func(s state) error {
		return vacuumInto(ctx, work, filepath.Join(tmp, filepath.Base(t.files[s])))
	})
	if err != nil {
		return err
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(work + suffix)
	}
	if err := saveFixture(tmp, f); err != nil {
		return err
	}
	// Another binary may have renamed its own first: then both are the same, and this one goes.
	if err := os.Rename(tmp, t.dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(t.dir, fixtureFile)); statErr != nil {
			return fmt.Errorf("putting the SQLite template in place: %w", err)
		}
	}
	t.fixture, err = loadFixture(t.dir)
	return err
}

// fixtureFile holds the template's Fixture, gob-encoded, beside its files.
const fixtureFile = "fixture.gob"

func saveFixture(dir string, f Fixture) error {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(f); err != nil {
		return fmt.Errorf("encoding the fixture: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, fixtureFile), b.Bytes(), 0o644)
}

func loadFixture(dir string) (Fixture, error) {
	var f Fixture
	b, err := os.ReadFile(filepath.Join(dir, fixtureFile))
	if err != nil {
		return f, err
	}
	return f, gob.NewDecoder(bytes.NewReader(b)).Decode(&f)
}

// sqliteSweep removes other code's templates that no binary started on for staleAfter,
// and build directories left by a binary that died.
func sqliteSweep(hash string) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), sqliteTplPrefix+"*"))
	for _, d := range dirs {
		if filepath.Base(d) == sqliteTplPrefix+hash {
			continue
		}
		if fi, err := os.Stat(d); err == nil && time.Since(fi.ModTime()) > staleAfter {
			os.RemoveAll(d)
		}
	}
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
	dir, err := os.MkdirTemp(sqliteTpl.work, "db-")
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
	if sqliteTpl.work != "" {
		os.RemoveAll(sqliteTpl.work)
	}
}
