package tools

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"strconv"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// webhookEvents maps a write's changes to events. A value created or changed in any
// language (the source included) is translation.created or translation.updated; a row
// approved without a text change is translation.approved, and so is a translation (not a
// source value, which is approved by definition) stored as approved with its new text.
// Refreshed rows (text unchanged, stamped current), flags and moves back to needs_review
// emit nothing.
func webhookEvents(ev model.WriteEvent, source string) []model.WebhookEvent {
	var out []model.WebhookEvent
	for ch := range ev.All() {
		switch ch.Kind {
		case model.ChangeValueCreated, model.ChangeValueUpdated:
			kind := EventCreated
			if ch.Kind == model.ChangeValueUpdated {
				kind = EventUpdated
			}
			out = append(out, model.WebhookEvent{Kind: kind, Key: ch.Key, Locale: ch.Language})
			if ch.Status == model.StatusApproved && ch.Language != source {
				out = append(out, model.WebhookEvent{Kind: EventApproved, Key: ch.Key, Locale: ch.Language})
			}
		case model.ChangeStatusChanged:
			if ch.Status == model.StatusApproved {
				out = append(out, model.WebhookEvent{Kind: EventApproved, Key: ch.Key, Locale: ch.Language})
			}
		}
	}
	return out
}

// WebhookHook writes a write's events to the outbox in the write's transaction: a
// committed change always has its events, a rolled-back one never does. One row per write
// keeps the write fast; the deliverer fans it out into deliveries.
func WebhookHook(now func() time.Time) WriteHook {
	return func(ctx context.Context, tx model.Tx, ev model.WriteEvent) error {
		if ev.ProjectID == "" || !ev.Has(model.ChangeValueCreated, model.ChangeValueUpdated, model.ChangeStatusChanged) {
			return nil
		}
		t, err := tx.WebhookTargets(ctx, ev.ProjectID)
		if err != nil || len(t.Hooks) == 0 {
			return err
		}
		wanted := map[string]bool{}
		var ids []string
		for _, h := range t.Hooks {
			ids = append(ids, h.ID)
			for _, e := range h.Events {
				wanted[e] = true
			}
		}
		var events []model.WebhookEvent
		prefix := eventIDPrefix()
		for _, e := range webhookEvents(ev, t.SourceLanguage) {
			if wanted[e.Kind] {
				e.ID = prefix + strconv.Itoa(len(events))
				events = append(events, e)
			}
		}
		if len(events) == 0 {
			return nil
		}
		return tx.AddWebhookBatch(ctx, model.WebhookBatch{ProjectID: ev.ProjectID, ProjectTitle: t.Title, WebhookIDs: ids,
			Events: events, CreatedAt: now().UTC()})
	}
}

// eventIDPrefix is random per write; an event's id adds its index: unique without a
// random read per event.
func eventIDPrefix() string {
	b := make([]byte, 10)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return "msg_" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b)) + "_"
}
