// Package storagetest opens real databases for tests: a fresh SQLite file, and a fresh
// schema on the PostgreSQL server named by LOKAL_TEST_POSTGRES.
package storagetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage"
	"github.com/uptrace/bun/driver/pgdriver"
)

// EnvPostgres names the variable holding the PostgreSQL DSN for tests.
const EnvPostgres = "LOKAL_TEST_POSTGRES"

// Dialects are the databases every storage and API test runs against.
var Dialects = []string{"sqlite", "postgres"}

// DSN returns a DSN of a fresh, empty database of dialect, removed when tb ends. Without
// LOKAL_TEST_POSTGRES the PostgreSQL case skips, and fails when CI=true: CI never passes by
// skipping.
func DSN(tb testing.TB, dialect string) string {
	tb.Helper()
	switch dialect {
	case "sqlite":
		return "sqlite:" + filepath.Join(tb.TempDir(), "lokal.db")
	case "postgres":
		base := os.Getenv(EnvPostgres)
		if base == "" {
			if os.Getenv("CI") == "true" {
				tb.Fatalf("%s is not set; CI must run the PostgreSQL tests", EnvPostgres)
			}
			tb.Skipf("set %s to a PostgreSQL DSN (e.g. postgres://postgres@127.0.0.1:5432/lokal_test?sslmode=disable) to run this test on PostgreSQL", EnvPostgres)
		}
		b := make([]byte, 6)
		rand.Read(b)
		schema := "t_" + hex.EncodeToString(b)
		admin := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(base)))
		defer admin.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
			tb.Fatalf("creating schema on %s: %v", EnvPostgres, err)
		}
		tb.Cleanup(func() {
			db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(base)))
			defer db.Close()
			db.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		})
		u, err := url.Parse(base)
		if err != nil {
			tb.Fatalf("parsing %s: %v", EnvPostgres, err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		return u.String()
	}
	tb.Fatalf("unknown dialect %q", dialect)
	return ""
}

// MustOpenDB opens a fresh database of dialect and closes it when tb ends.
func MustOpenDB(tb testing.TB, dialect string) *storage.DB {
	tb.Helper()
	db, err := storage.Open(context.Background(), DSN(tb, dialect), &storage.Options{PollInterval: 50 * time.Millisecond})
	if err != nil {
		tb.Fatalf("opening %s: %v", dialect, err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}
