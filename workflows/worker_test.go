package workflows_test

import (
	"context"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/workflows"
)

// clock is a settable time for the catalogue and the worker.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestCheckupJobAfterWrites(t *testing.T) {
	t.Parallel()
	for _, dialect := range storagetest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			db, f := storagetest.MustOpenFixture(t, dialect)
			clk := &clock{t: time.Now()}
			cat := tools.NewCatalog(db, &tools.Options{Now: clk.now})
			ctx := tools.WithPrincipal(t.Context(), tools.System)
			p := f.Project
			ref := tools.NamespaceRef{ProjectID: p.ID, Language: "en", Namespace: "app"}
			for _, tr := range []map[string]string{{"hi": "Hello %{name}"}, {"hi": "Hello %{name}", "bye": "Goodbye"}} {
				if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ref, Translations: tr}); err != nil {
					t.Fatal(err)
				}
			}

			worker := workflows.New(cat, &workflows.Options{Now: clk.now, Lease: time.Minute})
			if ran, err := worker.RunOnce(ctx); err != nil || ran {
				t.Fatalf("a job ran before its delay: ran=%v err=%v", ran, err)
			}
			// A first worker claims the due job and dies holding it.
			clk.t = clk.t.Add(tools.CheckupDelay + time.Second)
			claimOnly(t, cat, clk.now())
			if ran, _ := worker.RunOnce(ctx); ran {
				t.Fatal("a leased job ran again before its lease ended")
			}
			clk.t = clk.t.Add(2 * time.Minute)
			if ran, err := worker.RunOnce(ctx); err != nil || !ran {
				t.Fatalf("job of the dead worker not run: ran=%v err=%v", ran, err)
			}
			if ran, _ := worker.RunOnce(ctx); ran {
				t.Fatal("the two syncs made two checkup jobs; they should coalesce")
			}
			r, err := cat.GetCheckupReport(ctx, tools.CheckupIn{ProjectArg: tools.ProjectArg{ProjectID: p.ID}})
			if err != nil {
				t.Fatal(err)
			}
			// Both keys of the two syncs, missing in each target language (nb and sv).
			if r.Trigger != "job" || r.Summary.ByKind["missing_translation"] != 4 || r.Summary.ByLanguage["nb"] != 2 || r.Summary.ByLanguage["sv"] != 2 {
				t.Fatalf("report %s trigger %q summary %+v, want 2 missing translations in nb and 2 in sv from the job", r.ID, r.Trigger, r.Summary)
			}
		})
	}
}

func TestMain(m *testing.M) { storagetest.Main(m) }

// claimOnly leases the due job as a worker would and then "dies" without finishing it.
func claimOnly(t *testing.T, cat *tools.Catalog, now time.Time) {
	t.Helper()
	ctx := tools.WithPrincipal(context.Background(), tools.System)
	err := cat.Store().Update(ctx, "", func(tx tools.Tx) error {
		_, err := tx.ClaimJob(ctx, now, time.Minute)
		return err
	})
	if err != nil {
		t.Fatalf("claiming: %v", err)
	}
}
