package dbdump_test

import (
	"database/sql"
	"slices"
	"testing"

	"github.com/lokal-dev/lokal/storage/internal/dbdump"
	"github.com/lokal-dev/lokal/storage/storagetest"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

// TestRoundTrip dumps a database holding the test fixture, reads the text back and loads
// it into an empty database: the copy has the same schema and the same rows, so what the
// migration tests restore is the release's database.
func TestRoundTrip(t *testing.T) {
	for _, dialect := range storagetest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			src, _ := storagetest.FixtureDSN(t, dialect)
			from := open(t, src)
			d, err := dbdump.Take(t.Context(), from, dialect)
			if err != nil {
				t.Fatal(err)
			}
			back, err := dbdump.Parse(d.Format())
			if err != nil {
				t.Fatal(err)
			}
			to := open(t, storagetest.EmptyDSN(t, dialect))
			if err := dbdump.Load(t.Context(), to, back); err != nil {
				t.Fatal(err)
			}

			want, err := dbdump.Schema(t.Context(), from, dialect)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := dbdump.Schema(t.Context(), to, dialect); err != nil || got != want {
				t.Fatalf("the copy's schema (%v):\n%s\nwant:\n%s", err, got, want)
			}
			rows := 0
			for _, tb := range d.Tables {
				got, err := dbdump.Rows(t.Context(), to, dialect, tb.Name, tb.Columns)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.EqualFunc(got, tb.Rows, slices.Equal) {
					t.Errorf("%s in the copy: %v, want %v", tb.Name, got, tb.Rows)
				}
				rows += len(tb.Rows)
			}
			if rows < 20 {
				t.Errorf("the fixture dumped %d rows: too few to show a copy", rows)
			}
		})
	}
}

func open(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	db, _, err := dbdump.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
