package workflows_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/workflows"
)

// clock is a settable time for the catalogue and the worker.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestCheckupJobAfterWrites(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		clk := &clock{t: time.Now()}
		cat := storagetest.Catalog(db, &tools.Options{Now: clk.now})
		ctx := model.WithPrincipal(t.Context(), tools.System)
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

func TestMain(m *testing.M) { storagetest.Main(m) }

// claimOnly leases the due job as a worker would and then "dies" without finishing it.
func claimOnly(t *testing.T, cat *tools.Catalog, now time.Time) {
	t.Helper()
	ctx := model.WithPrincipal(context.Background(), tools.System)
	err := cat.Store().Update(ctx, "", func(tx model.Tx) error {
		_, err := tx.ClaimJob(ctx, now, time.Minute)
		return err
	})
	if err != nil {
		t.Fatalf("claiming: %v", err)
	}
}

// TestCheckupJobsOneRunsOneWaits: a project has at most one checkup job waiting and one
// running, however many writes trigger it and however many workers claim at once (on
// PostgreSQL the claims race on separate connections): later triggers coalesce into the
// pending job, which waits until the running one ends; a failed run whose retry would be a
// second pending job leaves the work to the pending one.
func TestCheckupJobsOneRunsOneWaits(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		clk := &clock{t: time.Now()}
		cat := storagetest.Catalog(db, &tools.Options{Now: clk.now})
		ctx := model.WithPrincipal(t.Context(), tools.System)
		p := f.Project
		write := func(v string) {
			t.Helper()
			ref := tools.NamespaceRef{ProjectID: p.ID, Language: "en", Namespace: "app"}
			if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ref, Translations: map[string]string{"hi": v}, Partial: true,
				PreserveSourceValues: new(bool)}); err != nil {
				t.Fatal(err)
			}
		}
		queued := func() (pending, running []int64) {
			t.Helper()
			var jobs []model.Job
			if err := db.View(ctx, func(tx model.Tx) (err error) { jobs, err = tx.QueuedJobs(ctx, p.ID, tools.JobCheckup); return err }); err != nil {
				t.Fatal(err)
			}
			for _, j := range jobs {
				if j.Status == "pending" {
					pending = append(pending, j.ID)
				} else {
					running = append(running, j.ID)
				}
			}
			return pending, running
		}
		// claimAll claims from n connections at once and returns the jobs claimed.
		claimAll := func(n int) []model.Job {
			t.Helper()
			var mu sync.Mutex
			var got []model.Job
			var wg sync.WaitGroup
			for range n {
				wg.Go(func() {
					var j model.Job
					err := db.Update(ctx, "", func(tx model.Tx) (err error) { j, err = tx.ClaimJob(ctx, clk.now(), time.Minute); return err })
					if err != nil && !model.IsNotFound(err) {
						t.Errorf("claiming: %v", err)
					}
					if err == nil {
						mu.Lock()
						got = append(got, j)
						mu.Unlock()
					}
				})
			}
			wg.Wait()
			return got
		}

		write("Hello")
		write("Hello again")
		if pending, running := queued(); len(pending) != 1 || len(running) != 0 {
			t.Fatalf("after two writes: %d pending, %d running checkups; want 1 pending", len(pending), len(running))
		}
		clk.t = clk.t.Add(tools.CheckupDelay + time.Second)
		first := claimAll(8)
		if len(first) != 1 || first[0].Kind != tools.JobCheckup {
			t.Fatalf("8 workers at once claimed %d jobs (%+v), want the one checkup", len(first), first)
		}

		// Writes while it runs: one job waits, however many writes.
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				// Enqueued from 8 connections at once, as 8 servers' writes would.
				err := db.Update(ctx, "", func(tx model.Tx) error {
					return tx.EnqueueJob(ctx, model.Job{Kind: tools.JobCheckup, ProjectID: p.ID, RunAt: clk.now()}, true)
				})
				if err != nil {
					t.Errorf("enqueue %d: %v", i, err)
				}
			})
		}
		wg.Wait()
		write("Hello a third time")
		pending, running := queued()
		if len(pending) != 1 || len(running) != 1 || running[0] != first[0].ID {
			t.Fatalf("during a checkup: pending %v, running %v; want one of each, running %d", pending, running, first[0].ID)
		}
		clk.t = clk.t.Add(tools.CheckupDelay + time.Second)
		if got := claimAll(8); len(got) != 0 {
			t.Fatalf("claimed %+v while the project's checkup runs, want nothing", got)
		}
		// Its worker died: the lease ends and the running job is due again, not the
		// pending one.
		clk.t = clk.t.Add(2 * time.Minute)
		if got := claimAll(8); len(got) != 1 || got[0].ID != first[0].ID {
			t.Fatalf("after the lease: claimed %+v, want job %d again", got, first[0].ID)
		}
		// It fails: a retry would be a second pending job; the pending one redoes it.
		if err := db.Update(ctx, "", func(tx model.Tx) error {
			return tx.FinishJob(ctx, first[0].ID, errors.New("boom"), clk.now().Add(time.Minute))
		}); err != nil {
			t.Fatal(err)
		}
		if pending2, running2 := queued(); !slices.Equal(pending2, pending) || len(running2) != 0 {
			t.Fatalf("after the failure: pending %v, running %v; want only %v pending", pending2, running2, pending)
		}
		if got := claimAll(8); len(got) != 1 || got[0].ID != pending[0] {
			t.Fatalf("claimed %+v, want the pending job %d", got, pending[0])
		}
	})
}
