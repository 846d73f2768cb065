package tools

import (
	"context"
	"sync"
	"time"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// Recounts of a project's syntax off the request path. A write that may have taken a
// syntax away (keepSyntax) leaves the stored evidence as it was, wider than the values,
// and marked stale; once it committed, this process reads every source value of the
// project in the background and stores what they show, unless a write came in between
// (Gen), and then tries again. One recount per project runs at a time in a process; a
// write meanwhile asks for one more after it. A project's recounts are spaced by as long
// as the last one took (at least syntaxRecountPause), so a stream of source edits to a
// big project keeps at most about half of a connection busy. A process that stops first
// leaves the evidence stale: reads still use it, and the next such write, or the next
// lokal serve at its start (RecountSyntaxes), recounts.

const (
	syntaxRecountPause   = time.Second
	syntaxRecountTimeout = 10 * time.Minute
)

// syntaxRecounts is a Catalog's state for background recounts.
type syntaxRecounts struct {
	mu      sync.Mutex
	running map[string]*recountRun // by project
	pause   time.Duration          // tests set it; 0 is syntaxRecountPause
	paused  bool                   // pause was set
	hold    chan struct{}          // tests: while set, a recount waits for it to close
}

type recountRun struct{ again bool }

// recountSyntaxLater starts a background recount of the project's syntax, or asks the
// running one for another pass.
func (c *Catalog) recountSyntaxLater(projectID string) {
	r := &c.recounts
	r.mu.Lock()
	defer r.mu.Unlock()
	if run := r.running[projectID]; run != nil {
		run.again = true
		return
	}
	if r.running == nil {
		r.running = map[string]*recountRun{}
	}
	run := &recountRun{}
	r.running[projectID] = run
	c.syntaxWork.Add(1)
	go func() {
		defer c.syntaxWork.Done()
		c.recountSyntax(projectID, run)
	}()
}

// recountSyntax recounts until a recount lands or finds nothing to do, and no write asked
// for another meanwhile. An error ends it (logged for debugging, as a store closing under
// it is no fault): the evidence stays wide, which only protects more.
func (c *Catalog) recountSyntax(projectID string, run *recountRun) {
	r := &c.recounts
	r.mu.Lock()
	pause := syntaxRecountPause
	if r.paused {
		pause = r.pause
	}
	hold := r.hold
	r.mu.Unlock()
	if hold != nil {
		<-hold
	}
	for {
		began := time.Now()
		done, err := c.recountSyntaxOnce(context.Background(), projectID)
		if err != nil {
			c.opts.Logger.Debug("recounting the project's syntax; the stored one stays, wider", "project", projectID, "err", err)
		}
		r.mu.Lock()
		if err != nil || (done && !run.again) {
			delete(r.running, projectID)
			r.mu.Unlock()
			return
		}
		run.again = false
		r.mu.Unlock()
		time.Sleep(max(pause, time.Since(began)))
	}
}

// RecountSyntaxes detects, one project at a time, the syntax of every project whose stored
// detection is missing or stale: a project made before detections were stored, which a
// read would otherwise detect on its request path, or one whose recount a stopped process
// never ran. lokal serve runs it in the background at start; it returns when done or when
// ctx ends, with the first error (the others are left for the next start).
func (c *Catalog) RecountSyntaxes(ctx context.Context) error {
	var ids []string
	if err := c.store.View(ctx, func(tx model.Tx) (err error) { ids, err = tx.SyntaxWanted(ctx); return err }); err != nil {
		return err
	}
	var first error
	for _, id := range ids {
		if _, err := c.recountSyntaxOnce(ctx, id); err != nil && first == nil {
			first = err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return first
}

// recountSyntaxOnce detects the project's syntax from every source value and stores it if
// no write came in between; done reports that it landed or that none was wanted.
func (c *Catalog) recountSyntaxOnce(ctx context.Context, projectID string) (done bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, syntaxRecountTimeout)
	defer cancel()
	var st model.SyntaxState
	var found message.SyntaxEvidence
	err = c.store.View(ctx, func(tx model.Tx) error {
		p, err := tx.Project(ctx, projectID)
		if err != nil {
			return err
		}
		if st, err = tx.SyntaxState(ctx, projectID); err != nil || (st.Valid && !st.Stale) {
			return err
		}
		found, st, err = readSyntax(ctx, tx, p)
		return err
	})
	if err != nil || (st.Valid && !st.Stale) {
		return err == nil, err
	}
	c.syntaxRecounts.Add(1)
	return c.storeSyntax(ctx, projectID, found, st.Gen)
}
