package storagetest_test

import (
	"reflect"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

// TestFreshDatabases: each test gets the template's rows and nothing another test wrote,
// on both dialects, including a PostgreSQL database handed back to the pool and leased
// again.
func TestFreshDatabases(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		ctx := model.WithPrincipal(t.Context(), tools.System)
		var first storagetest.Fixture
		for i := range 3 {
			t.Run("with the fixture", func(t *testing.T) {
				dsn, f := storagetest.FixtureDSN(t, dialect)
				cat := storagetest.Catalog(storagetest.MustOpen(t, dsn, nil), nil)
				if i == 0 {
					first = f
				} else if !reflect.DeepEqual(f, first) {
					t.Fatalf("the fixture changed between tests: %+v, then %+v", first, f)
				}
				me, err := cat.Authenticate(ctx, f.RW)
				if err != nil || me.ProjectID != f.Project.ID {
					t.Fatalf("the fixture's read/write key: %+v, %v", me, err)
				}
				wantRows(t, dsn, "workspaces", 2)
				if _, err := cat.CreateWorkspace(ctx, tools.CreateWorkspaceIn{Name: "Written by a test"}); err != nil {
					t.Fatal(err)
				}
				wantRows(t, dsn, "workspaces", 3)
			})
			t.Run("migrated", func(t *testing.T) {
				dsn := storagetest.DSN(t, dialect)
				storagetest.MustOpen(t, dsn, nil)
				wantRows(t, dsn, "workspaces", 0)
				wantRows(t, dsn, "tokens", 0)
			})
		}
		t.Run("empty", func(t *testing.T) {
			db := storagetest.SQL(t, storagetest.EmptyDSN(t, dialect))
			var n int
			q := `SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()`
			if dialect == "sqlite" {
				q = `SELECT count(*) FROM sqlite_master WHERE type = 'table'`
			}
			if err := db.QueryRow(q).Scan(&n); err != nil || n != 0 {
				t.Fatalf("an empty database has %d tables (%v)", n, err)
			}
		})
	})
}

func wantRows(t *testing.T, dsn, table string, want int) {
	t.Helper()
	var n int
	if err := storagetest.SQL(t, dsn).QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatalf("counting %s: %v", table, err)
	}
	if n != want {
		t.Errorf("%d rows in %s, want %d", n, table, want)
	}
}
