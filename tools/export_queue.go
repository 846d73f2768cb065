package tools

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// exportFills is the queue of the exports' cold fills (a file the cache lacks): a read-only
// key may ask for every format of a 50,000-key namespace at once, and each fill reads and
// encodes the whole namespace. Requests for one file wait for one fill; the fills of one
// project and format run one at a time; at most slots run at once across the server, so
// that the other requests keep a core; at most maxQueued wait, past which a request is
// answered 503 with Retry-After.
type exportFills struct {
	once      sync.Once
	mu        sync.Mutex
	slots     chan struct{}
	lanes     map[string]*lane // project + format → its turn
	flights   map[string]*flight
	maxQueued int

	running atomic.Int64
	// onFill, when set, is told each fill that starts and how many are running with it
	// (tests).
	onFill func(file string, running int64)
}

const (
	// exportQueueMax is how many distinct cold fills may wait at once.
	exportQueueMax = 64
	// exportRetryAfter is what a refused request is told.
	exportRetryAfter = 5 * time.Second
)

// exportSlots is how many cold fills run at once: half the cores, at least one, so that a
// small read never waits behind them for a core.
func exportSlots() int { return max(1, runtime.GOMAXPROCS(0)/2) }

// lane is a project and format's turn: one fill at a time; refs counts the fills holding
// or waiting for it, so that an idle lane is dropped.
type lane struct {
	turn chan struct{}
	refs int
}

// flight is one fill that requests for one file wait on; it is cancelled when every one
// of them has gone.
type flight struct {
	done   chan struct{}
	file   *model.File
	err    error
	refs   int
	cancel context.CancelFunc
}

func (q *exportFills) init() {
	q.once.Do(func() {
		if q.slots == nil {
			q.slots = make(chan struct{}, exportSlots())
		}
		if q.maxQueued <= 0 {
			q.maxQueued = exportQueueMax
		}
		q.lanes = map[string]*lane{}
		q.flights = map[string]*flight{}
	})
}

// do returns what fill makes of the file named key, in the lane laneKey: a request for a
// file being filled waits for that fill. The fill runs on a context of its own, cancelled
// once no request waits for it; a request whose context ends stops waiting.
func (q *exportFills) do(ctx context.Context, key, laneKey string, fill func(context.Context) (*model.File, error)) (*model.File, error) {
	q.init()
	q.mu.Lock()
	f := q.flights[key]
	if f == nil {
		if len(q.flights) >= q.maxQueued {
			q.mu.Unlock()
			return nil, &model.Error{Code: model.CodeUnavailable, RetryAfter: exportRetryAfter,
				Message: "too many files are being exported: retry later"}
		}
		fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		f = &flight{done: make(chan struct{}), cancel: cancel}
		q.flights[key] = f
		l := q.lanes[laneKey]
		if l == nil {
			l = &lane{turn: make(chan struct{}, 1)}
			q.lanes[laneKey] = l
		}
		l.refs++
		go q.run(fctx, key, laneKey, l, f, fill)
	}
	f.refs++
	q.mu.Unlock()
	select {
	case <-f.done:
		return f.file, f.err
	case <-ctx.Done():
		q.mu.Lock()
		f.refs--
		if f.refs == 0 && q.flights[key] == f {
			delete(q.flights, key)
			f.cancel()
		}
		q.mu.Unlock()
		return nil, model.Errorf(model.CodeUnavailable, "the request ended before its file was ready")
	}
}

// run waits for the lane's turn and a slot, then fills.
func (q *exportFills) run(ctx context.Context, key, laneKey string, l *lane, f *flight, fill func(context.Context) (*model.File, error)) {
	defer func() {
		q.mu.Lock()
		if q.flights[key] == f {
			delete(q.flights, key)
		}
		if l.refs--; l.refs == 0 {
			delete(q.lanes, laneKey)
		}
		q.mu.Unlock()
		f.cancel()
		close(f.done)
	}()
	select {
	case l.turn <- struct{}{}:
		defer func() { <-l.turn }()
	case <-ctx.Done():
		f.err = ctx.Err()
		return
	}
	select {
	case q.slots <- struct{}{}:
		defer func() { <-q.slots }()
	case <-ctx.Done():
		f.err = ctx.Err()
		return
	}
	n := q.running.Add(1)
	defer q.running.Add(-1)
	if q.onFill != nil {
		q.onFill(key, n)
	}
	f.file, f.err = fill(ctx)
}
