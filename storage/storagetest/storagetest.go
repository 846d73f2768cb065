package storagetest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/tools"
	"github.com/uptrace/bun/driver/pgdriver"
	_ "modernc.org/sqlite" // the "sqlite" driver of SQL's raw connections
)

// EnvPostgres names the variable holding the PostgreSQL DSN for tests. Its database is
// used only to create and drop the tests' own databases.
const EnvPostgres = "LOKAL_TEST_POSTGRES"

// EnvDialects names the variable that narrows the dialects (a comma-separated list, e.g.
// "postgres"): the race run sets it, since the detector looks at our goroutines, which
// are the same on both databases (see the Makefile). Unset, every dialect runs.
const EnvDialects = "LOKAL_TEST_DIALECTS"

// Dialects are the databases every storage and API test runs against.
var Dialects = dialects(os.Getenv(EnvDialects))

// dialects is every dialect, or those of list (unknown names are kept, so that a typo
// fails in dsn instead of silently running nothing).
func dialects(list string) []string {
	if strings.TrimSpace(list) == "" {
		return []string{"sqlite", "postgres"}
	}
	var out []string
	for _, d := range strings.Split(list, ",") {
		if d = strings.TrimSpace(d); d != "" {
			out = append(out, d)
		}
	}
	return out
}

// pollInterval is how often the stores opened here look for other processes' changes.
const pollInterval = 50 * time.Millisecond

// state is what a fresh database holds.
type state int

const (
	migrated    state = iota // the schema, no rows of ours
	withFixture              // the schema and the Fixture
	empty                    // nothing: not even the schema
)

// DSN returns the DSN of a fresh, migrated database of dialect without rows, removed (or
// handed back) when tb ends. Without LOKAL_TEST_POSTGRES the PostgreSQL case skips, and
// fails when CI=true: CI never passes by skipping.
func DSN(tb testing.TB, dialect string) string {
	tb.Helper()
	return dsn(tb, dialect, migrated)
}

// EmptyDSN is DSN of a database without even the schema, for tests of what creates it
// (a first `lokal serve`): on SQLite a path where no file exists yet.
func EmptyDSN(tb testing.TB, dialect string) string {
	tb.Helper()
	return dsn(tb, dialect, empty)
}

// FixtureDSN is DSN of a database holding the Fixture, which it returns too.
func FixtureDSN(tb testing.TB, dialect string) (string, Fixture) {
	tb.Helper()
	d := dsn(tb, dialect, withFixture)
	return d, fixtureOf(dialect)
}

// MustOpenDB opens a fresh migrated database of dialect and closes it when tb ends.
func MustOpenDB(tb testing.TB, dialect string) *storage.DB {
	tb.Helper()
	return MustOpen(tb, DSN(tb, dialect), nil)
}

// MustOpenFixture opens a fresh database of dialect holding the Fixture and closes it when
// tb ends.
func MustOpenFixture(tb testing.TB, dialect string) (*storage.DB, Fixture) {
	tb.Helper()
	d, f := FixtureDSN(tb, dialect)
	return MustOpen(tb, d, nil), f
}

// MustOpen opens dsn (another process's view of a database, when opened twice) and closes
// it when tb ends. Nil opts poll for other processes' changes every 50 ms.
func MustOpen(tb testing.TB, dsn string, opts *storage.Options) *storage.DB {
	tb.Helper()
	if opts == nil {
		opts = &storage.Options{PollInterval: pollInterval}
	}
	db, err := storage.Open(context.Background(), dsn, opts)
	if err != nil {
		tb.Fatalf("opening %s: %v", redact(dsn), err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// SQL is a plain database/sql connection to dsn, closed when tb ends, for checking rows
// that no port reads (the history, for one).
func SQL(tb testing.TB, dsn string) *sql.DB {
	tb.Helper()
	var db *sql.DB
	if path, ok := strings.CutPrefix(dsn, "sqlite:"); ok {
		var err error
		if db, err = sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)"); err != nil {
			tb.Fatalf("opening %s: %v", path, err)
		}
	} else {
		db = sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn)))
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// Main runs the tests of a package, removes its SQLite copies, hands back its PostgreSQL
// pool databases (closing the connections that hold them) and exits; call it from
// TestMain. Without it the process's end hands them back all the same, and the copies
// stay in the temporary directory.
func Main(m *testing.M) { os.Exit(Run(m)) }

// Run is Main for a TestMain that has more to do after the tests: it returns the code.
// Passwords hashed in the binary take one pass over 64 KiB instead of production's two
// over 19 MiB (a hash records its cost, so checks follow): sign-ins were most of the
// editor tests' CPU. cmd/lokal's tests check the real cost through the lokal binary.
func Run(m *testing.M) int {
	tools.SetPasswordCost(1, 64)
	code := m.Run()
	sqliteCleanup()
	if err := pgCleanup(); err != nil {
		fmt.Fprintln(os.Stderr, "storagetest:", err)
	}
	return code
}

func dsn(tb testing.TB, dialect string, s state) string {
	tb.Helper()
	switch dialect {
	case "sqlite":
		path, err := sqlitePath(s)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { os.RemoveAll(filepath.Dir(path)) })
		return "sqlite:" + path
	case "postgres":
		base := os.Getenv(EnvPostgres)
		if base == "" {
			if os.Getenv("CI") == "true" {
				tb.Fatalf("%s is not set; CI must run the PostgreSQL tests", EnvPostgres)
			}
			tb.Skipf("set %s to a PostgreSQL DSN (e.g. postgres://postgres@127.0.0.1:5432/lokal_test?sslmode=disable) to run this test on PostgreSQL", EnvPostgres)
		}
		d, release, err := pgLease(base, s)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(release)
		return d
	}
	tb.Fatalf("unknown dialect %q", dialect)
	return ""
}

// fixtureOf is the fixture of dialect's template, made by dsn before.
func fixtureOf(dialect string) Fixture {
	if dialect == "sqlite" {
		return sqliteTpl.fixture
	}
	return pgTpl.meta.Fixture
}

// redact hides a DSN's password in messages.
func redact(dsn string) string {
	if i, j := strings.Index(dsn, "://"), strings.LastIndex(dsn, "@"); i >= 0 && j > i {
		if k := strings.Index(dsn[i+3:j], ":"); k >= 0 {
			return dsn[:i+3+k] + ":***" + dsn[j:]
		}
	}
	return dsn
}

// build makes a template's rows in a database that has nothing yet: it migrates it (by
// opening it) and calls snapshot with the migrated rows, then writes the Fixture.
func build(ctx context.Context, dsn string, snapshot func(state) error) (Fixture, error) {
	db, err := storage.Open(ctx, dsn, &storage.Options{PollInterval: time.Hour})
	if err != nil {
		return Fixture{}, fmt.Errorf("migrating the template %s: %w", redact(dsn), err)
	}
	if err := snapshot(migrated); err != nil {
		db.Close()
		return Fixture{}, err
	}
	f, err := writeFixture(ctx, db)
	if cerr := db.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("closing the template: %w", cerr)
	}
	if err != nil {
		return Fixture{}, err
	}
	// Opened once more, the store indexes the fixture's trigram rows left pending
	// (PostgreSQL) and Close waits for it: copied with them, every test's store would
	// start with a pass of its own.
	if db, err = storage.Open(ctx, dsn, &storage.Options{PollInterval: time.Hour}); err != nil {
		return Fixture{}, fmt.Errorf("reopening the template %s: %w", redact(dsn), err)
	}
	if err := db.Close(); err != nil {
		return Fixture{}, fmt.Errorf("closing the template: %w", err)
	}
	return f, snapshot(withFixture)
}
