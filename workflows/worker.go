package workflows

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// Options tune a Worker; nil means the defaults.
type Options struct {
	Logger *slog.Logger
	// Poll is how often an idle worker looks for due jobs. Default one second.
	Poll time.Duration
	// Lease is how long a claimed job is the worker's before another may take it; a live
	// worker renews the leases of its jobs every third of it, so a long model call keeps
	// its job while the jobs of a killed process are due again within one lease. Default
	// 30 seconds.
	Lease time.Duration
	// MaxAttempts before a job is given up. Default 5.
	MaxAttempts int
	// KeepEnded is how long jobs that ended stay in the table (for inspection) before the
	// worker deletes them. Default seven days.
	KeepEnded time.Duration
	// Concurrency is how many jobs run at once. Default 8: each AI provider bounds its own
	// calls (4 by default), so several projects' providers can be busy together.
	Concurrency int
	Now         func() time.Time
}

// Handler runs one job; an error retries it with backoff.
type Handler func(ctx context.Context, j model.Job) error

// kind is how a worker runs one job kind: the handler, and what to do when it gives up.
type kind struct {
	run    Handler
	giveUp func(ctx context.Context, j model.Job, cause error) error
}

// Worker runs durable jobs from the store.
type Worker struct {
	store model.Store
	opts  Options
	kinds map[string]kind

	mu   sync.Mutex
	held map[int64]bool // jobs this worker runs now, whose leases it renews
}

// New returns a worker with the catalogue's job handlers.
func New(cat *tools.Catalog, opts *Options) *Worker {
	w := &Worker{store: cat.Store(), kinds: map[string]kind{}, held: map[int64]bool{}}
	if opts != nil {
		w.opts = *opts
	}
	if w.opts.Logger == nil {
		w.opts.Logger = slog.Default()
	}
	if w.opts.Poll <= 0 {
		w.opts.Poll = time.Second
	}
	if w.opts.Lease <= 0 {
		w.opts.Lease = 30 * time.Second
	}
	if w.opts.MaxAttempts <= 0 {
		w.opts.MaxAttempts = 5
	}
	if w.opts.KeepEnded <= 0 {
		w.opts.KeepEnded = 7 * 24 * time.Hour
	}
	if w.opts.Concurrency <= 0 {
		w.opts.Concurrency = 8
	}
	if w.opts.Now == nil {
		w.opts.Now = time.Now
	}
	w.kinds[tools.JobCheckup] = kind{run: func(ctx context.Context, j model.Job) error {
		_, err := cat.RunCheckup(ctx, j.ProjectID, "job")
		return err
	}}
	w.kinds[tools.JobTranslate] = kind{run: cat.RunTranslateJob, giveUp: cat.TranslateJobGaveUp}
	return w
}

// Run works until ctx ends, running up to Concurrency jobs at once; a job cut short by
// the end is left leased and is claimed again after its lease, by this process or another.
func (w *Worker) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() { w.renew(ctx) })
	wg.Go(func() { w.prune(ctx) })
	for range w.opts.Concurrency {
		wg.Go(func() { w.loop(ctx) })
	}
	wg.Wait()
}

func (w *Worker) loop(ctx context.Context) {
	t := time.NewTicker(w.opts.Poll)
	defer t.Stop()
	for {
		// Drain what is due before sleeping again.
		for {
			ran, err := w.RunOnce(ctx)
			if err != nil && ctx.Err() == nil {
				w.opts.Logger.Warn("running job", "err", err)
			}
			if !ran || ctx.Err() != nil {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// renew extends the leases of the jobs this worker holds, every third of a lease.
func (w *Worker) renew(ctx context.Context) {
	t := time.NewTicker(w.opts.Lease / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		w.mu.Lock()
		ids := make([]int64, 0, len(w.held))
		for id := range w.held {
			ids = append(ids, id)
		}
		w.mu.Unlock()
		if len(ids) == 0 {
			continue
		}
		until := w.opts.Now().Add(w.opts.Lease)
		err := w.store.Update(ctx, "", func(tx model.Tx) error { return tx.RenewJobs(ctx, ids, until) })
		if err != nil && ctx.Err() == nil {
			w.opts.Logger.Warn("renewing job leases", "jobs", len(ids), "err", err)
		}
	}
}

// prune deletes ended jobs past KeepEnded, at start and then hourly: automatic translation
// leaves a row per batch, which must not pile up for ever.
func (w *Worker) prune(ctx context.Context) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		if _, err := w.Prune(ctx); err != nil && ctx.Err() == nil {
			w.opts.Logger.Warn("pruning ended jobs", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Prune deletes the jobs that ended more than KeepEnded ago and says how many.
func (w *Worker) Prune(ctx context.Context) (int, error) {
	var n int
	err := w.store.Update(ctx, "", func(tx model.Tx) (err error) {
		n, err = tx.PruneJobs(ctx, w.opts.Now().Add(-w.opts.KeepEnded))
		return err
	})
	return n, err
}

// RunOnce claims one due job and runs it; it reports whether there was one.
func (w *Worker) RunOnce(ctx context.Context) (bool, error) {
	ctx = model.WithPrincipal(ctx, tools.System)
	var job model.Job
	err := w.store.Update(ctx, "", func(tx model.Tx) error {
		var err error
		job, err = tx.ClaimJob(ctx, w.opts.Now(), w.opts.Lease)
		return err
	})
	if model.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("claiming job: %w", err)
	}
	w.mu.Lock()
	w.held[job.ID] = true
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		delete(w.held, job.ID)
		w.mu.Unlock()
	}()
	runErr := w.run(ctx, job)
	if ctx.Err() != nil {
		// Stopped mid-job: leave it leased; it is due again when the lease ends.
		return true, ctx.Err()
	}
	var retryAt time.Time
	if runErr != nil {
		w.opts.Logger.Warn("job failed", "kind", job.Kind, "id", job.ID, "attempt", job.Attempts, "err", runErr)
		if job.Attempts < w.opts.MaxAttempts {
			retryAt = w.opts.Now().Add(time.Duration(job.Attempts*job.Attempts) * 10 * time.Second)
		} else if k := w.kinds[job.Kind]; k.giveUp != nil {
			if err := k.giveUp(ctx, job, runErr); err != nil {
				w.opts.Logger.Warn("giving up job", "kind", job.Kind, "id", job.ID, "err", err)
			}
		}
	}
	if err := w.store.Update(ctx, "", func(tx model.Tx) error { return tx.FinishJob(ctx, job.ID, runErr, retryAt) }); err != nil {
		return true, fmt.Errorf("finishing job %d: %w", job.ID, err)
	}
	return true, nil
}

func (w *Worker) run(ctx context.Context, j model.Job) (err error) {
	k, ok := w.kinds[j.Kind]
	if !ok {
		return fmt.Errorf("no handler for job kind %q", j.Kind)
	}
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("job panicked: %v", v)
		}
	}()
	return k.run(ctx, j)
}
