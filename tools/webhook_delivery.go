package tools

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// The delivery rules: the deliverer (workflows) does the HTTP and the scheduling, these
// decide what is due, what an answer means and when an endpoint is given up on.

// DefaultWebhookBackoff is the wait before each retry: three retries, four attempts.
var DefaultWebhookBackoff = []time.Duration{5 * time.Second, 30 * time.Second, 2 * time.Minute}

// DefaultWebhookDisableAfter is how long a webhook may fail every attempt before it is
// disabled: five days, so a receiver down over a long weekend is not given up on.
const DefaultWebhookDisableAfter = 5 * 24 * time.Hour

// DeliveryPolicy is what the deliverer was configured with.
type DeliveryPolicy struct {
	Backoff      []time.Duration // one wait per retry
	DisableAfter time.Duration
}

// ClaimedWebhook is a webhook with its secret opened and the deliveries leased to the
// caller. It is for the deliverer only: String leaves the secret out.
type ClaimedWebhook struct {
	ID         string
	URL        string
	Secret     string
	Deliveries []model.Delivery
}

func (w ClaimedWebhook) String() string {
	return fmt.Sprintf("webhook %s (%s), %d deliveries", w.ID, w.URL, len(w.Deliveries))
}

// ExpandWebhookBatches turns up to limit outbox rows into deliveries, in one transaction
// each time, so a crash leaves either the row or its deliveries. It reports the rows
// taken. Webhooks disabled or unsubscribed since the write get nothing. System only.
func (c *Catalog) ExpandWebhookBatches(ctx context.Context, limit int) (int, error) {
	if err := requireSystem(ctx); err != nil {
		return 0, err
	}
	n := 0
	err := c.store.Update(ctx, "", func(tx model.Tx) error {
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
					if !containsString(h.Events, e.Kind) {
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

// DueWebhooks lists the webhooks with deliveries due at now. System only.
func (c *Catalog) DueWebhooks(ctx context.Context, now time.Time) ([]string, error) {
	if err := requireSystem(ctx); err != nil {
		return nil, err
	}
	var ids []string
	err := c.store.View(ctx, func(tx model.Tx) error {
		var err error
		ids, err = tx.DueWebhooks(ctx, now.UTC())
		return err
	})
	return ids, err
}

// ClaimDeliveries leases up to n due deliveries of a webhook to token for lease, and opens
// the webhook's secret. No deliveries (and no error) when none is due or it is disabled.
// System only.
func (c *Catalog) ClaimDeliveries(ctx context.Context, webhookID string, now time.Time, lease time.Duration, token string, n int) (ClaimedWebhook, error) {
	if err := requireSystem(ctx); err != nil {
		return ClaimedWebhook{}, err
	}
	var out ClaimedWebhook
	var sealed string
	err := c.store.Update(ctx, "", func(tx model.Tx) error {
		h, err := tx.Webhook(ctx, webhookID)
		if err != nil || !h.Enabled {
			return err
		}
		out.ID, out.URL, sealed = h.ID, h.URL, h.SecretEnc
		out.Deliveries, err = tx.ClaimDeliveries(ctx, webhookID, now.UTC(), now.UTC().Add(lease), token, n)
		return err
	})
	if err != nil || len(out.Deliveries) == 0 {
		return out, err
	}
	if out.Secret, err = c.opts.Secrets.Open(sealed, webhookSecretPurpose(webhookID)); err != nil {
		return ClaimedWebhook{}, fmt.Errorf("opening the secret of webhook %s: %w", webhookID, err)
	}
	return out, nil
}

// RenewDeliveries extends token's leases on ids to until. System only.
func (c *Catalog) RenewDeliveries(ctx context.Context, token string, ids []int64, until time.Time) error {
	if err := requireSystem(ctx); err != nil {
		return err
	}
	return c.store.Update(ctx, "", func(tx model.Tx) error { return tx.RenewDeliveries(ctx, token, ids, until.UTC()) })
}

// AttemptResult is what one POST of a delivery got.
type AttemptResult struct {
	At         time.Time
	HTTPStatus int   // 0 when nothing answered
	Err        error // transport error, timeout or refusal by the outbound guard
	Duration   time.Duration
}

// Delivered reports whether the attempt counts: a 2xx answer in time.
func (r AttemptResult) Delivered() bool {
	return r.Err == nil && r.HTTPStatus >= 200 && r.HTTPStatus < 300
}

// AttemptRecord is one finished attempt of a delivery, to record.
type AttemptRecord struct {
	Delivery model.Delivery
	Result   AttemptResult
}

// RecordAttempt records one attempt; see RecordAttempts.
func (c *Catalog) RecordAttempt(ctx context.Context, d model.Delivery, r AttemptResult, p DeliveryPolicy) (model.Delivery, error) {
	out, _, err := c.RecordAttempts(ctx, []AttemptRecord{{Delivery: d, Result: r}}, p)
	if err != nil {
		return model.Delivery{}, err
	}
	return out[0], nil
}

// RecordAttempts stores attempts in one transaction and applies the rules to each: delivered
// on a 2xx; else retried after the policy's next wait, or failed once the retries are spent.
// Each webhook keeps its newest outcome as its last; one failing every attempt for
// DisableAfter is disabled and its pending deliveries end. It returns the deliveries' new
// states and the webhooks it disabled. System only.
func (c *Catalog) RecordAttempts(ctx context.Context, recs []AttemptRecord, p DeliveryPolicy) ([]model.Delivery, []string, error) {
	if err := requireSystem(ctx); err != nil {
		return nil, nil, err
	}
	var disabled []string
	out := make([]model.Delivery, len(recs))
	attempts := make([]model.DeliveryAttempt, len(recs))
	outcomes := make([]model.WebhookOutcome, len(recs))
	for i, rec := range recs {
		d, r := rec.Delivery, rec.Result
		at := r.At.UTC()
		d.Attempts++
		a := model.DeliveryAttempt{DeliveryID: d.ID, WebhookID: d.WebhookID, Attempt: d.Attempts, At: at, HTTPStatus: r.HTTPStatus, Duration: r.Duration}
		o := model.WebhookOutcome{At: at, Status: model.DeliveryDelivered}
		if r.HTTPStatus != 0 {
			s := r.HTTPStatus
			o.HTTPStatus = &s
		}
		d.HTTPStatus = r.HTTPStatus
		if r.Delivered() {
			d.State, d.LastError, d.DeliveredAt = model.DeliveryDelivered, "", &at
		} else {
			a.Error = attemptError(r)
			o.Status, o.Error, d.LastError = model.DeliveryFailed, a.Error, a.Error
			if d.Attempts <= len(p.Backoff) {
				d.State, d.NextAt = model.DeliveryPending, at.Add(p.Backoff[d.Attempts-1])
			} else {
				d.State = model.DeliveryFailed
			}
		}
		out[i], attempts[i], outcomes[i] = d, a, o
	}
	err := c.store.Update(ctx, "", func(tx model.Tx) error {
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
			off, err := c.applyOutcomes(ctx, tx, id, byHook[id], outcomes, p)
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
// when the streak is DisableAfter long (it reports whether it did).
func (c *Catalog) applyOutcomes(ctx context.Context, tx model.Tx, id string, idx []int, outcomes []model.WebhookOutcome, p DeliveryPolicy) (bool, error) {
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
	if since != nil && h.Enabled && p.DisableAfter > 0 && last.At.Sub(*since) >= p.DisableAfter {
		reason := fmt.Sprintf("disabled automatically: every delivery attempt failed since %s (%s)",
			since.Format(time.RFC3339), last.Error)
		if err := tx.FailPendingDeliveries(ctx, h.ID, "the webhook was disabled after failing since "+since.Format(time.RFC3339)); err != nil {
			return false, err
		}
		return true, tx.SetWebhookEnabled(ctx, h.ID, false, last.At, reason)
	}
	return false, nil
}

// attemptError says why an attempt did not count, for the Connect page.
func attemptError(r AttemptResult) string {
	switch {
	case r.Err != nil:
		s := r.Err.Error()
		if len(s) > 500 {
			s = s[:500]
		}
		return s
	case r.HTTPStatus >= 300 && r.HTTPStatus < 400:
		return fmt.Sprintf("answered %d: redirects are not followed", r.HTTPStatus)
	default:
		return fmt.Sprintf("answered %d, want 2xx", r.HTTPStatus)
	}
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

// DeliveryBody is the JSON body of d: the same bytes on every attempt.
func DeliveryBody(d model.Delivery) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	// Encoding strings cannot fail.
	_ = enc.Encode(webhookBody{Event: d.Event, Timestamp: d.CreatedAt.UTC().Format("2006-01-02T15:04:05.000Z"),
		Data: webhookBodyData{Key: d.Key, Locale: d.Locale, Project: d.ProjectTitle}})
	return bytes.TrimRight(b.Bytes(), "\n")
}

// SignWebhook is the Standard Webhooks signature header value: "v1," and the base64
// HMAC-SHA256 of "<id>.<timestamp>.<body>", keyed with the base64-decoded part of the
// secret after whsec_.
func SignWebhook(secret, id string, timestamp int64, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, WebhookSecretPrefix))
	if err != nil {
		return "", fmt.Errorf("webhook secret is not whsec_ and base64: %w", err)
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + strconv.FormatInt(timestamp, 10) + "."))
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil)), nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
