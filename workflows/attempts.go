package workflows

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
)

// The delivery rules: what is due, what an answer means, when an endpoint is given up on.
// They are the deliverer's bookkeeping on its own rows (deliveries, leases, attempts), not
// catalogue writes: no user changes anything here, so no hook has anything to add.

// DefaultWebhookBackoff is the wait before each retry: three retries, four attempts.
var DefaultWebhookBackoff = []time.Duration{5 * time.Second, 30 * time.Second, 2 * time.Minute}

// DefaultWebhookDisableAfter is how long a webhook may fail every attempt before it is
// disabled: five days, so a receiver down over a long weekend is not given up on.
const DefaultWebhookDisableAfter = 5 * 24 * time.Hour

// DeliveryStore is the database as the deliverer uses it; storage's DB satisfies it.
type DeliveryStore interface {
	Update(ctx context.Context, projectID string, fn func(model.Tx) error) error
	View(ctx context.Context, fn func(model.Tx) error) error
}

// claimed is a webhook with its secret opened and the deliveries leased to this process.
// String leaves the secret out.
type claimed struct {
	id, url, secret string
	deliveries      []model.Delivery
}

func (w claimed) String() string {
	return fmt.Sprintf("webhook %s (%s), %d deliveries", w.id, w.url, len(w.deliveries))
}

// attemptResult is what one POST of a delivery got.
type attemptResult struct {
	at         time.Time
	httpStatus int   // 0 when nothing answered
	err        error // transport error, timeout or refusal by the outbound guard
	duration   time.Duration
}

// delivered reports whether the attempt counts: a 2xx answer in time.
func (r attemptResult) delivered() bool {
	return r.err == nil && r.httpStatus >= 200 && r.httpStatus < 300
}

// attemptRecord is one finished attempt of a delivery, to record.
type attemptRecord struct {
	delivery model.Delivery
	result   attemptResult
}

// expand turns up to limit outbox rows into deliveries, in one transaction each time, so a
// crash leaves either the row or its deliveries. It reports the rows taken. Webhooks
// disabled or unsubscribed since the write get nothing.
func (d *Deliverer) expand(ctx context.Context, limit int) (int, error) {
	n := 0
	err := d.store.Update(ctx, "", func(tx model.Tx) error {
		batches, err := tx.TakeWebhookBatches(ctx, limit)
		if err != nil {
			return err
		}
		n = len(batches)
		hooks := map[string]*model.Webhook{}
		var ds []model.Delivery
		for _, b := range batches {
			for _, id := range b.WebhookIDs {
				h, ok := hooks[id]
				if !ok {
					w, err := tx.Webhook(ctx, id)
					if err != nil && !model.IsNotFound(err) {
						return err
					}
					if err == nil && w.Enabled {
						h = &w
					}
					hooks[id] = h
				}
				if h == nil {
					continue
				}
				for _, e := range b.Events {
					if !slices.Contains(h.Events, e.Kind) {
						continue
					}
					ds = append(ds, model.Delivery{EventID: e.ID, WebhookID: id, ProjectID: b.ProjectID, Event: e.Kind, Key: e.Key,
						Locale: e.Locale, ProjectTitle: b.ProjectTitle, CreatedAt: b.CreatedAt, State: model.DeliveryPending, NextAt: b.CreatedAt})
				}
			}
		}
		if len(ds) == 0 {
			return nil
		}
		return tx.AddDeliveries(ctx, ds)
	})
	return n, err
}

// due lists the webhooks with deliveries due at now.
func (d *Deliverer) due(ctx context.Context, now time.Time) ([]string, error) {
	var ids []string
	err := d.store.View(ctx, func(tx model.Tx) error {
		var err error
		ids, err = tx.DueWebhooks(ctx, now.UTC())
		return err
	})
	return ids, err
}

// claim leases up to n due deliveries of a webhook to token for lease, and opens the
// webhook's secret. No deliveries (and no error) when none is due or it is disabled.
func (d *Deliverer) claim(ctx context.Context, webhookID string, now time.Time, lease time.Duration, token string, n int) (claimed, error) {
	var out claimed
	var h model.Webhook
	err := d.store.Update(ctx, "", func(tx model.Tx) error {
		var err error
		if h, err = tx.Webhook(ctx, webhookID); err != nil || !h.Enabled {
			return err
		}
		out.id, out.url = h.ID, h.URL
		out.deliveries, err = tx.ClaimDeliveries(ctx, webhookID, now.UTC(), now.UTC().Add(lease), token, n)
		return err
	})
	if err != nil || len(out.deliveries) == 0 {
		return out, err
	}
	if out.secret, err = d.cat.OpenWebhookSecret(ctx, h); err != nil {
		return claimed{}, err
	}
	return out, nil
}

// renew extends token's leases on ids to until.
func (d *Deliverer) renew(ctx context.Context, token string, ids []int64, until time.Time) error {
	return d.store.Update(ctx, "", func(tx model.Tx) error { return tx.RenewDeliveries(ctx, token, ids, until.UTC()) })
}

// recordAttempts stores attempts in one transaction and applies the rules to each:
// delivered on a 2xx; else retried after the next wait of Backoff, or failed once the
// retries are spent. Each webhook keeps its newest outcome as its last; one failing every
// attempt for DisableAfter is disabled and its pending deliveries end. It returns the
// deliveries' new states and the webhooks it disabled.
func (d *Deliverer) recordAttempts(ctx context.Context, recs []attemptRecord) ([]model.Delivery, []string, error) {
	var disabled []string
	out := make([]model.Delivery, len(recs))
	attempts := make([]model.DeliveryAttempt, len(recs))
	outcomes := make([]model.WebhookOutcome, len(recs))
	for i, rec := range recs {
		dl, r := rec.delivery, rec.result
		at := r.at.UTC()
		dl.Attempts++
		a := model.DeliveryAttempt{DeliveryID: dl.ID, WebhookID: dl.WebhookID, Attempt: dl.Attempts, At: at, HTTPStatus: r.httpStatus, Duration: r.duration}
		o := model.WebhookOutcome{At: at, Status: model.DeliveryDelivered}
		if r.httpStatus != 0 {
			s := r.httpStatus
			o.HTTPStatus = &s
		}
		dl.HTTPStatus = r.httpStatus
		if r.delivered() {
			dl.State, dl.LastError, dl.DeliveredAt = model.DeliveryDelivered, "", &at
		} else {
			a.Error = attemptError(r)
			o.Status, o.Error, dl.LastError = model.DeliveryFailed, a.Error, a.Error
			if dl.Attempts <= len(d.opts.Backoff) {
				dl.State, dl.NextAt = model.DeliveryPending, at.Add(d.opts.Backoff[dl.Attempts-1])
			} else {
				dl.State = model.DeliveryFailed
			}
		}
		out[i], attempts[i], outcomes[i] = dl, a, o
	}
	err := d.store.Update(ctx, "", func(tx model.Tx) error {
		var order []string
		byHook := map[string][]int{}
		for i := range out {
			if err := tx.FinishDelivery(ctx, out[i], attempts[i]); err != nil {
				return err
			}
			id := out[i].WebhookID
			if _, ok := byHook[id]; !ok {
				order = append(order, id)
			}
			byHook[id] = append(byHook[id], i)
		}
		disabled = nil
		for _, id := range order {
			off, err := applyOutcomes(ctx, tx, id, byHook[id], outcomes, d.opts.DisableAfter)
			if err != nil {
				return err
			}
			if off {
				disabled = append(disabled, id)
			}
		}
		return nil
	})
	return out, disabled, err
}

// applyOutcomes keeps a webhook's newest outcome and its failure streak, and disables it
// when the streak is disableAfter long (it reports whether it did).
func applyOutcomes(ctx context.Context, tx model.Tx, id string, idx []int, outcomes []model.WebhookOutcome, disableAfter time.Duration) (bool, error) {
	h, err := tx.Webhook(ctx, id)
	if model.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	sort.SliceStable(idx, func(a, b int) bool { return outcomes[idx[a]].At.Before(outcomes[idx[b]].At) })
	since := h.FailingSince
	for _, i := range idx {
		if outcomes[i].Status == model.DeliveryDelivered {
			since = nil
		} else if since == nil {
			at := outcomes[i].At
			since = &at
		}
	}
	last := outcomes[idx[len(idx)-1]]
	if err := tx.SetWebhookOutcome(ctx, h.ID, last, since); err != nil {
		return false, err
	}
	if since != nil && h.Enabled && disableAfter > 0 && last.At.Sub(*since) >= disableAfter {
		reason := fmt.Sprintf("disabled automatically: every delivery attempt failed since %s (%s)",
			since.Format(time.RFC3339), last.Error)
		if err := tx.FailPendingDeliveries(ctx, h.ID, "the webhook was disabled after failing since "+since.Format(time.RFC3339)); err != nil {
			return false, err
		}
		return true, tx.SetWebhookEnabled(ctx, h.ID, false, last.At, reason)
	}
	return false, nil
}

// attemptError says why an attempt did not count, for the Connect page: lokal's own
// words (a bad secret) or outbound.Fail's, never the receiver's answer.
func attemptError(r attemptResult) string {
	if r.err == nil {
		return outbound.Fail(outbound.Receiver, r.httpStatus, nil).Error()
	}
	s := r.err.Error()
	if len(s) > 500 {
		s = s[:500]
	}
	return s
}

// webhookBody is the spec's body.
type webhookBody struct {
	Event     string          `json:"event"`
	Timestamp string          `json:"timestamp"`
	Data      webhookBodyData `json:"data"`
}

type webhookBodyData struct {
	Key     string `json:"key"`
	Locale  string `json:"locale"`
	Project string `json:"project"`
}

// deliveryBody is the JSON body of d: the same bytes on every attempt.
func deliveryBody(d model.Delivery) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	// Encoding strings cannot fail.
	_ = enc.Encode(webhookBody{Event: d.Event, Timestamp: d.CreatedAt.UTC().Format("2006-01-02T15:04:05.000Z"),
		Data: webhookBodyData{Key: d.Key, Locale: d.Locale, Project: d.ProjectTitle}})
	return bytes.TrimRight(b.Bytes(), "\n")
}

// signWebhook is the Standard Webhooks signature header value: "v1," and the base64
// HMAC-SHA256 of "<id>.<timestamp>.<body>", keyed with the base64-decoded part of the
// secret after whsec_.
func signWebhook(secret, id string, timestamp int64, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, tools.WebhookSecretPrefix))
	if err != nil {
		return "", fmt.Errorf("webhook secret is not whsec_ and base64: %w", err)
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + strconv.FormatInt(timestamp, 10) + "."))
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil)), nil
}
