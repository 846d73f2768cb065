package storage_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/internal/dbdump"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/secrets"
)

// releasesDir holds a database per landed release that changed the schema, as that
// release's own `lokal serve` created it and its CLI and MCP filled it
// (testdata/releases/make-fixture.sh).
const releasesDir = "testdata/releases"

// releases lists the fixtures, oldest first.
func releases(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(releasesDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		t.Fatal("no release fixtures")
	}
	return names
}

// loadRelease restores a release's database of dialect into an empty database and returns
// its DSN and the dump.
func loadRelease(t *testing.T, dialect, release string) (string, *dbdump.Dump) {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(releasesDir, release, dialect+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := dbdump.Parse(text)
	if err != nil {
		t.Fatalf("reading the %s fixture: %v", release, err)
	}
	dsn := storagetest.EmptyDSN(t, dialect)
	raw := rawDB(t, dsn)
	if err := dbdump.Load(t.Context(), raw, d); err != nil {
		t.Fatalf("restoring the %s fixture: %v", release, err)
	}
	return dsn, d
}

// rawDB is dbdump's connection to dsn, closed when t ends.
func rawDB(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	db, _, err := dbdump.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func schemaOf(t *testing.T, dsn, dialect string) string {
	t.Helper()
	s, err := dbdump.Schema(t.Context(), rawDB(t, dsn), dialect)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// upgrade opens dsn as today's lokal does, running the migrations it lacks. The fixtures
// seal secrets with 32 zero bytes; so does the upgrade.
func upgrade(t *testing.T, dsn string) {
	t.Helper()
	box, err := secrets.New(make([]byte, secrets.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(t.Context(), dsn, &storage.Options{Secrets: box, MustExist: true})
	if err != nil {
		t.Fatalf("upgrading: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestUpgradedReleasesHaveTheFreshSchema upgrades the database of every earlier release
// with today's migrations: each ends with the schema a fresh database gets, to the
// column type, default and index.
func TestUpgradedReleasesHaveTheFreshSchema(t *testing.T) {
	skipUpgradeInShort(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		fresh := schemaOf(t, storagetest.DSN(t, dialect), dialect)
		for _, r := range releases(t) {
			t.Run(r, func(t *testing.T) {
				dsn, _ := loadRelease(t, dialect, r)
				upgrade(t, dsn)
				if got := schemaOf(t, dsn, dialect); got != fresh {
					t.Errorf("the %s database upgraded differs from a fresh one:\n%s", r, lineDiff(fresh, got))
				}
			})
		}
	})
}

// TestUpgradeKeepsEveryRow upgrades every release's database and finds each of its rows
// again, value for value, except what a migration changes on purpose.
func TestUpgradeKeepsEveryRow(t *testing.T) {
	skipUpgradeInShort(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		for _, r := range releases(t) {
			t.Run(r, func(t *testing.T) {
				dsn, d := loadRelease(t, dialect, r)
				upgrade(t, dsn)
				raw := rawDB(t, dsn)
				tables, err := dbdump.TableNames(t.Context(), raw, dialect)
				if err != nil {
					t.Fatal(err)
				}
				seeded := 0
				for _, tb := range d.Tables {
					if tb.Name == "sqlite_sequence" {
						checkCounters(t, raw, tb)
						continue
					}
					if tb.Name == "bun_migration_locks" {
						continue
					}
					seeded += len(tb.Rows)
					if !slices.Contains(tables, tb.Name) {
						t.Errorf("table %s is gone", tb.Name)
						continue
					}
					cols := tb.Columns
					if tb.Name == "checkup_reports" && !applied(d, "20261124103001") {
						cols = []string{"id"} // the table is new: only its rows are counted
					}
					got, err := dbdump.Rows(t.Context(), raw, dialect, tb.Name, cols)
					if err != nil {
						t.Fatal(err)
					}
					want, got := expectAfterUpgrade(t, d, tb, got)
					if !slices.EqualFunc(want, got, slices.Equal) {
						t.Errorf("%s: %d rows before, %d after; rows that differ:\n%s", tb.Name, len(tb.Rows), len(got),
							lineDiff(rowsText(want), rowsText(got)))
					}
				}
				if seeded < 40 {
					t.Errorf("the %s fixture holds %d rows: too few to show anything", r, seeded)
				}
			})
		}
	})
}

// checkCounters checks that no AUTOINCREMENT counter went back: a rebuilt table must not
// hand out the id of a row deleted before the upgrade.
func checkCounters(t *testing.T, raw *sql.DB, tb dbdump.Table) {
	t.Helper()
	for _, r := range tb.Rows {
		before, err := strconv.ParseInt(r[1], 10, 64)
		if err != nil {
			t.Fatalf("the fixture's counter of %s: %v", r[0], err)
		}
		var seq int64
		if err := raw.QueryRowContext(t.Context(), `SELECT seq FROM sqlite_sequence WHERE name = `+r[0]).Scan(&seq); err != nil {
			t.Errorf("the counter of %s: %v", r[0], err)
		} else if seq < before {
			t.Errorf("the counter of %s went from %d to %d", r[0], before, seq)
		}
	}
}

// applied reports whether the release had run migration version.
func applied(d *dbdump.Dump, version string) bool {
	for _, tb := range d.Tables {
		if tb.Name != "bun_migrations" {
			continue
		}
		i := slices.Index(tb.Columns, "name")
		for _, r := range tb.Rows {
			if r[i] == "'"+version+"'" {
				return true
			}
		}
	}
	return false
}

// expectAfterUpgrade turns a table's rows before the upgrade into the rows the upgrade
// must leave, and filters the rows read after it to those comparable: the migrations that
// change data on purpose say so here.
func expectAfterUpgrade(t *testing.T, d *dbdump.Dump, tb dbdump.Table, got [][]string) (want, after [][]string) {
	col := func(name string) int {
		i := slices.Index(tb.Columns, name)
		if i < 0 {
			t.Fatalf("%s has no column %s", tb.Name, name)
		}
		return i
	}
	want = make([][]string, 0, len(tb.Rows))
	for _, r := range tb.Rows {
		want = append(want, slices.Clone(r))
	}
	after = got
	switch tb.Name {
	case "bun_migrations":
		// The upgrade adds its own rows after the release's.
		after = nil
		for _, r := range got {
			if slices.ContainsFunc(want, func(w []string) bool { return slices.Equal(w, r) }) {
				after = append(after, r)
			}
		}
	case "translation_history":
		if !applied(d, "20261123100002") {
			renamed := map[string]string{"'created'": "'value_created'", "'value'": "'value_updated'",
				"'status'": "'status_changed'", "'flag'": "'flag_changed'", "'refresh'": "'value_refreshed'"}
			c := col("change")
			for _, r := range want {
				if n, ok := renamed[r[c]]; ok {
					r[c] = n
				}
			}
		}
	case "checkup_reports":
		if !applied(d, "20261124103001") {
			// Reports of one JSON document each are dropped; the next checkup recomputes them.
			want = nil
		}
	case "jobs":
		if !applied(d, "20261124103001") {
			// Queued checkups become one due checkup per project that had a report or a
			// queued checkup: compare the other jobs, and count those.
			kind, status, project := col("kind"), col("status"), col("project_id")
			other := func(r []string) bool {
				return r[kind] != "'checkup'" || (r[status] != "'pending'" && r[status] != "'running'")
			}
			wantCheckups := map[string]bool{}
			for _, rt := range d.Tables {
				if rt.Name == "checkup_reports" {
					p := slices.Index(rt.Columns, "project_id")
					for _, r := range rt.Rows {
						wantCheckups[r[p]] = true
					}
				}
			}
			for _, r := range want {
				if !other(r) {
					wantCheckups[r[project]] = true
				}
			}
			want = slices.DeleteFunc(want, func(r []string) bool { return !other(r) })
			gotCheckups := map[string]bool{}
			after = nil
			for _, r := range got {
				if other(r) {
					after = append(after, r)
				} else if r[status] == "'pending'" {
					gotCheckups[r[project]] = true
				}
			}
			if fmt.Sprint(wantCheckups) != fmt.Sprint(gotCheckups) {
				t.Errorf("projects with a checkup due after the upgrade: %v, want %v", gotCheckups, wantCheckups)
			}
		}
	case "projects":
		if c := slices.Index(tb.Columns, "deploy_url"); c >= 0 && !applied(d, "20261124500001") {
			// Deploy hook URLs stored in plain text are sealed.
			for i, r := range want {
				if r[c] == "''" || strings.HasPrefix(r[c], "'v1:") {
					continue
				}
				j := slices.IndexFunc(got, func(g []string) bool { return g[0] == r[0] })
				if j < 0 || !strings.HasPrefix(got[j][c], "'v1:") {
					t.Errorf("project %s: deploy_url not sealed by the upgrade", r[0])
					continue
				}
				want[i][c] = got[j][c]
			}
		}
	}
	return want, after
}

func rowsText(rows [][]string) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strings.Join(r, ", ") + "\n")
	}
	return b.String()
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for _, l := range w {
		if !slices.Contains(g, l) {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range g {
		if !slices.Contains(w, l) {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}

// skipUpgradeInShort leaves the upgrade tests to the plain run: they migrate a database
// release by release, one statement after another, so the race run (-short) learns nothing
// from them that the plain run does not, at a tenth of its storage package's time.
func skipUpgradeInShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: an upgrade release by release, nothing concurrent; the plain run keeps it")
	}
}
