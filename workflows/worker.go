package workflows

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/lokal-dev/lokal/tools"
)

// Options tune a Worker; nil means the defaults.
type Options struct {
	Logger *slog.Logger
	// Poll is how often an idle worker looks for due jobs. Default one second.
	Poll time.Duration
	// Lease is how long a claimed job is the worker's; past it, a job whose worker died is
	// claimed again. Default five minutes.
	Lease time.Duration
	// MaxAttempts before a job is marked failed. Default 5.
	MaxAttempts int
	Now         func() time.Time
}

// Handler runs one job; an error retries it with backoff.
type Handler func(ctx context.Context, j tools.Job) error

// Worker runs durable jobs from the store.
type Worker struct {
	store    tools.Store
	opts     Options
	handlers map[string]Handler
}

// New returns a worker with the catalogue's job handlers.
func New(cat *tools.Catalog, opts *Options) *Worker {
	w := &Worker{store: cat.Store(), handlers: map[string]Handler{}}
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
		w.opts.Lease = 5 * time.Minute
	}
	if w.opts.MaxAttempts <= 0 {
		w.opts.MaxAttempts = 5
	}
	if w.opts.Now == nil {
		w.opts.Now = time.Now
	}
	w.handlers[tools.JobCheckup] = func(ctx context.Context, j tools.Job) error {
		_, err := cat.RunCheckup(ctx, j.ProjectID, "job")
		return err
	}
	return w
}

// Run works until ctx ends.
func (w *Worker) Run(ctx context.Context) {
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

// RunOnce claims one due job and runs it; it reports whether there was one.
func (w *Worker) RunOnce(ctx context.Context) (bool, error) {
	ctx = tools.WithPrincipal(ctx, tools.System)
	var job tools.Job
	err := w.store.Update(ctx, "", func(tx tools.Tx) error {
		var err error
		job, err = tx.ClaimJob(ctx, w.opts.Now(), w.opts.Lease)
		return err
	})
	if tools.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("claiming job: %w", err)
	}
	runErr := w.run(ctx, job)
	var retryAt time.Time
	if runErr != nil && job.Attempts < w.opts.MaxAttempts {
		retryAt = w.opts.Now().Add(time.Duration(job.Attempts*job.Attempts) * 10 * time.Second)
	}
	if runErr != nil {
		w.opts.Logger.Warn("job failed", "kind", job.Kind, "id", job.ID, "attempt", job.Attempts, "err", runErr)
	}
	if err := w.store.Update(ctx, "", func(tx tools.Tx) error { return tx.FinishJob(ctx, job.ID, runErr, retryAt) }); err != nil {
		return true, fmt.Errorf("finishing job %d: %w", job.ID, err)
	}
	return true, nil
}

func (w *Worker) run(ctx context.Context, j tools.Job) (err error) {
	h, ok := w.handlers[j.Kind]
	if !ok {
		return fmt.Errorf("no handler for job kind %q", j.Kind)
	}
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("job panicked: %v", v)
		}
	}()
	return h(ctx, j)
}
