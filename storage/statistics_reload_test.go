package storage_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/uptrace/bun"
)

// A reading connection that was open before a statistics pass plans with what the pass
// found, not with what it read when it opened: SQLite reads its statistics with the schema,
// and a server that imported a million keys searched with the statistics of its first
// 20,000 rows. A table whose best index changes between two ANALYZEs shows it: the held
// reader must pick the index the later statistics favour.
func TestStatisticsReachOpenReaders(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		db := storagetest.MustOpenDB(t, dialect)
		w, err := storage.WriterConn(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		// The pool hands this database to the binary's next test: it must find the schema
		// it expects (the schema tests compare it with a fresh one).
		t.Cleanup(func() {
			if c, err := storage.WriterConn(ctx, db); err == nil {
				c.ExecContext(ctx, `DROP TABLE IF EXISTS plan_probe`)
				c.Close()
			}
		})
		exec := func(c bun.Conn, stmts ...string) {
			t.Helper()
			for _, s := range stmts {
				if _, err := c.ExecContext(ctx, s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
		}
		fill := `INSERT INTO plan_probe (id, a, b) SELECT x, x, x % 2 FROM generate_series(1, 4000) AS g(x)`
		if dialect == "sqlite" {
			fill = `WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < 4000)
INSERT INTO plan_probe (id, a, b) SELECT x, x, x % 2 FROM g`
		}
		// a selective, b not: the probe's query is best served by plan_probe_a.
		exec(w, `CREATE TABLE plan_probe (id INTEGER PRIMARY KEY, a INTEGER NOT NULL, b INTEGER NOT NULL)`,
			`CREATE INDEX plan_probe_a ON plan_probe (a)`, `CREATE INDEX plan_probe_b ON plan_probe (b)`, fill, `ANALYZE plan_probe`)
		w.Close()
		r, err := storage.ReaderConn(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if dialect == "postgres" {
			exec(r, `SET enable_seqscan = off`, `SET enable_bitmapscan = off`)
		}
		plan := func() string {
			t.Helper()
			// A statement first, as a search runs one: a changed schema is noticed there.
			if _, err := r.ExecContext(ctx, `SELECT COUNT(*) FROM plan_probe`); err != nil {
				t.Fatal(err)
			}
			rows, err := r.QueryContext(ctx, `EXPLAIN QUERY PLAN SELECT id FROM plan_probe WHERE a = 1 AND b = 1`)
			if dialect == "postgres" {
				rows, err = r.QueryContext(ctx, `EXPLAIN SELECT id FROM plan_probe WHERE a = 1 AND b = 1`)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			cols, _ := rows.Columns()
			var out []string
			for rows.Next() {
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := rows.Scan(ptrs...); err != nil {
					t.Fatal(err)
				}
				if s, ok := vals[len(vals)-1].(string); ok {
					out = append(out, s)
				}
			}
			return strings.Join(out, "; ")
		}
		if p := plan(); !strings.Contains(p, "plan_probe_a") {
			t.Fatalf("before the change the plan is %q, want plan_probe_a", p)
		}
		// Now b is selective and a not; the statistics pass follows the second ANALYZE.
		w, err = storage.WriterConn(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		exec(w, `UPDATE plan_probe SET a = id % 2, b = id`, `ANALYZE plan_probe`)
		w.Close()
		if err := storage.AnalyzeTables(ctx, db); err != nil {
			t.Fatal(err)
		}
		if p := plan(); !strings.Contains(p, "plan_probe_b") {
			t.Errorf("a reader open before the statistics pass plans %q, want plan_probe_b: it kept the statistics it opened with", p)
		}
	})
}
