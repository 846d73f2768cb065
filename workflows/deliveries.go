package workflows

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
)

// DeliveryOptions tune a Deliverer; zero fields take the defaults.
type DeliveryOptions struct {
	Logger *slog.Logger
	// Store is the database the deliveries live in (storage's DB); nil means the catalogue's.
	Store DeliveryStore
	// Guard checks every connection of a delivery (after DNS, on every attempt); nil
	// refuses every private network.
	Guard *outbound.Guard
	// Timeout is what a receiver gets to answer (default the spec's 10 s).
	Timeout time.Duration
	// Backoff is the wait before each retry (default 5s, 30s, 2m: four attempts in all).
	Backoff []time.Duration
	// DisableAfter disables a webhook that failed every attempt this long (default 5 days).
	DisableAfter time.Duration
	// Lease is how long a claimed delivery is this process's; it is renewed every third of
	// it while the POST is in flight, so one a killed process held is claimed again at most
	// Lease after it died. Default 30 s.
	Lease time.Duration
	// PerEndpoint bounds the POSTs in flight to one webhook from this process (default 4),
	// so a slow receiver holds at most that many of the MaxInFlight (default 32).
	PerEndpoint int
	MaxInFlight int
	// Batch is how many deliveries of one webhook are claimed at once (default 64): fewer,
	// larger transactions. Their leases are renewed while they wait.
	Batch int
	// Poll is how often an idle deliverer looks for due deliveries (default 1 s).
	Poll time.Duration
	Now  func() time.Time
}

// Deliverer posts webhook deliveries: it fans the outbox out into deliveries, claims due
// ones under a lease, posts them through the outbound guard and records every attempt.
// Delivery is at least once: a delivery is marked only after its answer, so one in flight
// when the process dies is posted again (with the same webhook-id) once its lease ends.
type Deliverer struct {
	cat    *tools.Catalog // opens the webhooks' secrets
	store  DeliveryStore
	opts   DeliveryOptions
	client *http.Client
	token  string // this process's lease holder name

	wake  chan struct{}
	wg    sync.WaitGroup // one per delivery held, until its attempt is recorded
	slots chan struct{}  // MaxInFlight POSTs at once

	mu    sync.Mutex
	hooks map[string]*hookQueue
	held  map[int64]bool // claimed and not yet recorded: their leases are renewed
	start int            // rotates the first webhook served, so none waits behind the others

	rmu      sync.Mutex
	records  []attemptRecord
	flushing bool
}

// hookQueue is what this process holds of one webhook: claimed deliveries waiting for one
// of its (at most PerEndpoint) workers.
type hookQueue struct {
	w       claimed
	queue   []model.Delivery
	held    int // queued, in flight, or waiting to be recorded
	workers int
}

// NewDeliverer returns a deliverer; the catalogue opens the webhooks' secrets.
func NewDeliverer(cat *tools.Catalog, opts *DeliveryOptions) *Deliverer {
	d := &Deliverer{cat: cat, wake: make(chan struct{}, 1), hooks: map[string]*hookQueue{}, held: map[int64]bool{}}
	if opts != nil {
		d.opts = *opts
	}
	o := &d.opts
	if d.store = o.Store; d.store == nil {
		d.store = cat.Store()
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Backoff == nil {
		o.Backoff = DefaultWebhookBackoff
	}
	if o.DisableAfter <= 0 {
		o.DisableAfter = DefaultWebhookDisableAfter
	}
	if o.Lease <= 0 {
		o.Lease = 30 * time.Second
	}
	if o.PerEndpoint <= 0 {
		o.PerEndpoint = 4
	}
	if o.MaxInFlight <= 0 {
		o.MaxInFlight = 32
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.Batch <= 0 {
		o.Batch = 64
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	d.slots = make(chan struct{}, o.MaxInFlight)
	// No redirect is followed: a 3xx is a failed attempt, never a second destination.
	d.client = o.Guard.Client(outbound.ClientOptions{Timeout: o.Timeout})
	b := make([]byte, 8)
	rand.Read(b) //nolint:errcheck // crypto/rand does not fail on supported platforms
	d.token = hex.EncodeToString(b)
	return d
}

// Run delivers until ctx ends, then waits for the POSTs in flight.
func (d *Deliverer) Run(ctx context.Context) {
	ctx = model.WithPrincipal(ctx, tools.System)
	poll := time.NewTicker(d.opts.Poll)
	defer poll.Stop()
	renew := time.NewTicker(d.opts.Lease / 3)
	defer renew.Stop()
	for {
		if _, err := d.Pump(ctx); err != nil && ctx.Err() == nil {
			d.opts.Logger.Warn("webhook deliveries", "err", err)
		}
		select {
		case <-ctx.Done():
			d.Wait()
			return
		case <-renew.C:
			if err := d.Renew(ctx); err != nil && ctx.Err() == nil {
				d.opts.Logger.Warn("renewing webhook delivery leases", "err", err)
			}
		case <-poll.C:
		case <-d.wake:
		}
	}
}

// Pump fans the outbox out, then claims and starts the deliveries that are due and fit
// the concurrency bounds. It reports how many it started; they run in the background
// (Wait waits for them).
func (d *Deliverer) Pump(ctx context.Context) (int, error) {
	ctx = model.WithPrincipal(ctx, tools.System)
	for i := 0; i < 100; i++ {
		n, err := d.expand(ctx, 20)
		if err != nil {
			return 0, fmt.Errorf("expanding the webhook outbox: %w", err)
		}
		if n == 0 {
			break
		}
	}
	now := d.opts.Now()
	ids, err := d.due(ctx, now)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	d.mu.Lock()
	d.start++
	first := d.start % len(ids)
	d.mu.Unlock()
	started := 0
	for i := range ids {
		id := ids[(first+i)%len(ids)]
		d.mu.Lock()
		held := 0
		if q := d.hooks[id]; q != nil {
			held = q.held
		}
		d.mu.Unlock()
		n := d.opts.Batch - held
		if n <= 0 {
			continue
		}
		w, err := d.claim(ctx, id, now, d.opts.Lease, d.token, n)
		if err != nil {
			return started, fmt.Errorf("claiming deliveries of webhook %s: %w", id, err)
		}
		if len(w.deliveries) == 0 {
			continue
		}
		started += len(w.deliveries)
		d.wg.Add(len(w.deliveries))
		d.mu.Lock()
		q := d.hooks[id]
		if q == nil {
			q = &hookQueue{}
			d.hooks[id] = q
		}
		q.w = w // the newest URL and secret
		q.queue = append(q.queue, w.deliveries...)
		q.held += len(w.deliveries)
		for _, dl := range w.deliveries {
			d.held[dl.ID] = true
		}
		for q.workers < d.opts.PerEndpoint && q.workers < len(q.queue) {
			q.workers++
			go d.work(ctx, id, q)
		}
		d.mu.Unlock()
	}
	return started, nil
}

// Wait waits for the POSTs in flight.
func (d *Deliverer) Wait() { d.wg.Wait() }

// Drain pumps and waits until nothing is due now: what tests and benchmarks call instead
// of sleeping.
func (d *Deliverer) Drain(ctx context.Context) error {
	for {
		n, err := d.Pump(ctx)
		d.mu.Lock()
		busy := len(d.held)
		d.mu.Unlock()
		d.Wait()
		// Deliveries that were in flight may have freed slots for ones not yet claimed.
		if err != nil || (n == 0 && busy == 0) {
			return err
		}
	}
}

// Renew extends the leases of the deliveries in flight.
func (d *Deliverer) Renew(ctx context.Context) error {
	d.mu.Lock()
	ids := make([]int64, 0, len(d.held))
	for id := range d.held {
		ids = append(ids, id)
	}
	d.mu.Unlock()
	if len(ids) == 0 {
		return nil
	}
	return d.renew(ctx, d.token, ids, d.opts.Now().Add(d.opts.Lease))
}

// work posts the queued deliveries of one webhook, one at a time, until none is left.
func (d *Deliverer) work(ctx context.Context, id string, q *hookQueue) {
	for {
		d.mu.Lock()
		if len(q.queue) == 0 || ctx.Err() != nil {
			q.workers--
			// Shutting down: what is still queued is let go; its leases run out and it is
			// posted again.
			for _, dl := range q.queue {
				d.release(q, dl)
			}
			q.queue = nil
			d.mu.Unlock()
			return
		}
		dl := q.queue[0]
		q.queue = q.queue[1:]
		w := q.w
		d.mu.Unlock()

		var res attemptResult
		select {
		case d.slots <- struct{}{}:
			res = d.post(ctx, w, dl)
			<-d.slots
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			// The attempt was cut short by us, not by the receiver: not recorded.
			d.mu.Lock()
			d.release(q, dl)
			d.mu.Unlock()
			continue
		}
		d.record(ctx, attemptRecord{delivery: dl, result: res})
	}
}

// release forgets a held delivery; d.mu is held.
func (d *Deliverer) release(q *hookQueue, dl model.Delivery) {
	q.held--
	delete(d.held, dl.ID)
	d.wg.Done()
}

// record stores an attempt. Attempts finishing together are stored in one transaction: the
// first worker to arrive writes what has gathered until nothing is left.
func (d *Deliverer) record(ctx context.Context, rec attemptRecord) {
	d.rmu.Lock()
	d.records = append(d.records, rec)
	if d.flushing {
		d.rmu.Unlock()
		return
	}
	d.flushing = true
	for {
		batch := d.records
		d.records = nil
		d.rmu.Unlock()
		recCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		_, disabled, err := d.recordAttempts(recCtx, batch)
		if err != nil {
			// Not recorded: the lease runs out and the deliveries are posted again.
			d.opts.Logger.Warn("recording webhook attempts", "attempts", len(batch), "err", err)
		}
		cancel()
		d.mu.Lock()
		for _, id := range disabled {
			// Its pending deliveries were ended: what is queued here is not posted.
			if hq := d.hooks[id]; hq != nil {
				for _, dl := range hq.queue {
					d.release(hq, dl)
				}
				hq.queue = nil
			}
		}
		for _, r := range batch {
			if hq := d.hooks[r.delivery.WebhookID]; hq != nil {
				d.release(hq, r.delivery)
			}
		}
		d.mu.Unlock()
		select {
		case d.wake <- struct{}{}:
		default:
		}
		d.rmu.Lock()
		if len(d.records) == 0 {
			d.flushing = false
			d.rmu.Unlock()
			return
		}
	}
}

// post makes one attempt: the spec's body and X-Webhook-Secret, and the Standard Webhooks
// headers signed with the secret.
func (d *Deliverer) post(ctx context.Context, w claimed, dl model.Delivery) attemptResult {
	at := d.opts.Now()
	res := attemptResult{at: at}
	body := deliveryBody(dl)
	ts := at.Unix()
	sig, err := signWebhook(w.secret, dl.EventID, ts, body)
	if err != nil {
		res.err = err
		return res
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
	if err != nil {
		res.err = fmt.Errorf("building the request: %w", err)
		return res
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "lokal-webhooks/1")
	h.Set("X-Webhook-Secret", w.secret)
	h.Set("webhook-id", dl.EventID)
	h.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	h.Set("webhook-signature", sig)
	start := time.Now()
	resp, err := d.client.Do(req)
	res.duration = time.Since(start)
	if err != nil {
		res.err = outbound.Fail(outbound.Receiver, 0, err)
		return res
	}
	// The answer's body is read so that the connection is reused, up to a cap: past it the
	// attempt fails and the connection is closed unread.
	_, rerr := io.Copy(io.Discard, outbound.LimitBody(resp.Body, outbound.MaxHookAnswer))
	resp.Body.Close()
	res.httpStatus = resp.StatusCode
	if errors.Is(rerr, outbound.ErrTooLarge) || (rerr != nil && isTimeout(rerr)) {
		res.err = outbound.Fail(outbound.Receiver, res.httpStatus, rerr)
	}
	return res
}

func isTimeout(err error) bool {
	var te interface{ Timeout() bool }
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &te) && te.Timeout())
}
