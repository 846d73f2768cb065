package tools

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
)

// Webhook event kinds (the spec's Events).
const (
	EventCreated  = "translation.created"
	EventUpdated  = "translation.updated"
	EventApproved = "translation.approved"
)

// EventKinds are every event kind, the default subscription of a new webhook.
var EventKinds = []string{EventCreated, EventUpdated, EventApproved}

// WebhookSecretPrefix starts every webhook secret, as Standard Webhooks writes them.
const WebhookSecretPrefix = "whsec_"

const maxWebhookURL = 2000

// WebhookCreated is what `webhook add` prints: the secret, this once.
type WebhookCreated struct {
	ID     string   `json:"id"`
	URL    string   `json:"url"`
	Events []string `json:"events"`
	Secret string   `json:"secret"`
}

// DeliveryView is one delivery as `webhook deliveries` prints it.
type DeliveryView struct {
	EventID     string     `json:"event_id"`
	Event       string     `json:"event"`
	Key         string     `json:"key"`
	Locale      string     `json:"locale"`
	Attempts    int        `json:"attempts"`
	State       string     `json:"state"`
	HTTPStatus  *int       `json:"http_status"`
	LastError   string     `json:"last_error"`
	CreatedAt   time.Time  `json:"created_at"`
	DeliveredAt *time.Time `json:"delivered_at"`
}

// AddWebhook adds an endpoint to a project. The URL must pass the outbound guard now (it is
// checked again on every delivery); events nil or empty subscribes to every kind. The
// secret is returned this once and stored sealed.
func (c *Catalog) AddWebhook(ctx context.Context, projectID, rawURL string, events []string) (WebhookCreated, error) {
	if err := c.admit(ctx, model.OpWebhookAdd, on{project: projectID}); err != nil {
		return WebhookCreated{}, err
	}
	u, err := c.checkCallURL(ctx, "webhook URL", rawURL)
	if err != nil {
		return WebhookCreated{}, err
	}
	if events, err = checkEventKinds(events); err != nil {
		return WebhookCreated{}, err
	}
	id := newID()
	secret, sealed, err := c.newWebhookSecret(id)
	if err != nil {
		return WebhookCreated{}, err
	}
	err = c.write(ctx, write{op: model.OpWebhookAdd, project: projectID, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		return []model.Change{{Kind: model.ChangeProjectSettings}}, tx.CreateWebhook(ctx, model.Webhook{ID: id, ProjectID: projectID, URL: u,
			Events: events, SecretEnc: sealed, Enabled: true, CreatedAt: c.opts.Now().UTC()})
	}})
	if err != nil {
		return WebhookCreated{}, err
	}
	return WebhookCreated{ID: id, URL: u, Events: events, Secret: secret}, nil
}

// SetWebhookURL points a webhook at another URL. Its secret is lokal's own, so it is
// rotated: the new secret is returned this once, and the old one is never sent to the new
// URL (nor anything after it to the old). The URL passes the outbound guard as on AddWebhook.
func (c *Catalog) SetWebhookURL(ctx context.Context, id, rawURL string) (WebhookCreated, error) {
	h, err := c.webhookOf(ctx, model.OpWebhookURL, id)
	if err != nil {
		return WebhookCreated{}, err
	}
	u, err := c.checkCallURL(ctx, "webhook URL", rawURL)
	if err != nil {
		return WebhookCreated{}, err
	}
	secret, sealed, err := c.newWebhookSecret(id)
	if err != nil {
		return WebhookCreated{}, err
	}
	err = c.write(ctx, write{op: model.OpWebhookURL, project: h.ProjectID, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		return []model.Change{{Kind: model.ChangeProjectSettings}}, tx.SetWebhookURL(ctx, id, u, sealed)
	}})
	if err != nil {
		return WebhookCreated{}, err
	}
	return WebhookCreated{ID: id, URL: u, Events: h.Events, Secret: secret}, nil
}

// newWebhookSecret makes a webhook's secret and seals it for the webhook.
func (c *Catalog) newWebhookSecret(id string) (secret, sealed string, err error) {
	raw := make([]byte, 24)
	if _, err := rand.Read(raw); err != nil {
		return "", "", err
	}
	secret = WebhookSecretPrefix + base64.StdEncoding.EncodeToString(raw)
	if sealed, err = c.opts.Secrets.Seal(secret, webhookSecretPurpose(id)); err != nil {
		return "", "", fmt.Errorf("storing the webhook secret: %w", err)
	}
	return secret, sealed, nil
}

// ListWebhooks returns a project's webhooks with their last outcome, oldest first.
func (c *Catalog) ListWebhooks(ctx context.Context, projectID string) ([]model.WebhookView, error) {
	if err := c.gate(ctx, model.OpWebhookList, on{project: projectID}); err != nil {
		return nil, err
	}
	out := []model.WebhookView{}
	err := c.read(ctx, projectID, func(tx model.Tx, _ model.Project) error {
		hooks, err := tx.ProjectWebhooks(ctx, projectID)
		for _, h := range hooks {
			out = append(out, h.View())
		}
		return err
	})
	return out, err
}

// SetWebhookEnabled turns a webhook off or on again. Turning it off ends its pending
// deliveries as failed; turning it on clears the failure streak that disabled it.
func (c *Catalog) SetWebhookEnabled(ctx context.Context, id string, enabled bool) (model.WebhookView, error) {
	h, err := c.webhookOf(ctx, model.OpWebhookState, id)
	if err != nil {
		return model.WebhookView{}, err
	}
	var out model.WebhookView
	err = c.write(ctx, write{op: model.OpWebhookState, project: h.ProjectID, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		reason := ""
		if !enabled {
			reason = "disabled by " + model.PrincipalFrom(ctx).Actor()
			if err := tx.FailPendingDeliveries(ctx, id, "the webhook was disabled"); err != nil {
				return nil, err
			}
		}
		if err := tx.SetWebhookEnabled(ctx, id, enabled, c.opts.Now().UTC(), reason); err != nil {
			return nil, err
		}
		cur, err := tx.Webhook(ctx, id)
		out = cur.View()
		return []model.Change{{Kind: model.ChangeProjectSettings}}, err
	}})
	return out, err
}

// WebhookDeliveries lists a webhook's newest deliveries (limit 1 to 1000, default 50).
func (c *Catalog) WebhookDeliveries(ctx context.Context, id string, limit int) ([]DeliveryView, error) {
	if limit == 0 {
		limit = 50
	}
	if limit < 1 || limit > 1000 {
		return nil, model.Errorf(model.CodeInvalid, "limit must be 1 to 1000")
	}
	h, err := c.webhookOf(ctx, model.OpWebhookLog, id)
	if err != nil {
		return nil, err
	}
	out := []DeliveryView{}
	err = c.read(ctx, h.ProjectID, func(tx model.Tx, _ model.Project) error {
		ds, err := tx.WebhookDeliveries(ctx, id, limit)
		for _, d := range ds {
			v := DeliveryView{EventID: d.EventID, Event: d.Event, Key: d.Key, Locale: d.Locale, Attempts: d.Attempts,
				State: d.State, LastError: d.LastError, CreatedAt: d.CreatedAt, DeliveredAt: d.DeliveredAt}
			if d.HTTPStatus != 0 {
				s := d.HTTPStatus
				v.HTTPStatus = &s
			}
			out = append(out, v)
		}
		return err
	})
	return out, err
}

// webhookOf loads a webhook by id and authorizes its project; an id that is not a UUID is
// unknown without asking the database.
func (c *Catalog) webhookOf(ctx context.Context, op model.Operation, id string) (model.Webhook, error) {
	if !validID(id) {
		return model.Webhook{}, model.Errorf(model.CodeNotFound, "webhook %q not found", model.Truncate(id, 40))
	}
	var h model.Webhook
	err := c.store.View(ctx, func(tx model.Tx) error {
		var err error
		h, err = tx.Webhook(ctx, id)
		return err
	})
	if model.IsNotFound(err) {
		return model.Webhook{}, model.Errorf(model.CodeNotFound, "webhook %s not found", id)
	}
	if err != nil {
		return model.Webhook{}, err
	}
	if err := c.admit(ctx, op, on{project: h.ProjectID}); err != nil {
		// A token of another project learns nothing about the webhook; no token is told so.
		if model.ErrorCode(err) == model.CodeUnauthorized && model.PrincipalFrom(ctx).Kind != model.KindAnonymous {
			return model.Webhook{}, model.Errorf(model.CodeNotFound, "webhook %s not found", id)
		}
		return model.Webhook{}, err
	}
	return h, nil
}

func webhookSecretPurpose(id string) string { return "webhook:" + id + ":secret" }

// OpenWebhookSecret opens the signing secret of a webhook as stored, for the deliverer
// (workflows), which claims the webhook's deliveries itself: the secret is sealed and
// opened here only. System only.
func (c *Catalog) OpenWebhookSecret(ctx context.Context, h model.Webhook) (string, error) {
	if err := c.gate(ctx, model.OpWebhookSecret, on{}); err != nil {
		return "", err
	}
	s, err := c.opts.Secrets.Open(h.SecretEnc, webhookSecretPurpose(h.ID))
	if err != nil {
		return "", fmt.Errorf("opening the secret of webhook %s: %w", h.ID, err)
	}
	return s, nil
}

// checkEventKinds returns the sorted, deduplicated kinds, or every kind for none.
func checkEventKinds(events []string) ([]string, error) {
	var out []string
	for _, e := range events {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		if !slices.Contains(EventKinds, e) {
			return nil, model.Errorf(model.CodeInvalid, "unknown event %q: events are %s", model.Truncate(e, 60), strings.Join(EventKinds, ", "))
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return slices.Clone(EventKinds), nil
	}
	slices.Sort(out)
	return out, nil
}

// checkCallURL refuses a URL lokal may not call: not http(s), too long, a fragment, or an
// address of a network the operator did not allow. It returns the URL trimmed.
func (c *Catalog) checkCallURL(ctx context.Context, what, raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if raw == "" || err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", model.Errorf(model.CodeInvalid, "%s %q must be an http or https URL", what, model.Truncate(raw, 200))
	}
	if len(raw) > maxWebhookURL {
		return "", model.Errorf(model.CodeInvalid, "%s is longer than %d characters", what, maxWebhookURL)
	}
	if u.Fragment != "" {
		return "", model.Errorf(model.CodeInvalid, "%s %s must not have a fragment", what, raw)
	}
	if err := c.guard().CheckURL(ctx, raw, c.opts.Resolver); err != nil {
		var b *outbound.BlockedError
		if errors.As(err, &b) {
			return "", model.Errorf(model.CodeInvalid, "%s %s is refused: %v; lokal does not call private, loopback, link-local or metadata addresses (the operator may allow a network with --allow-private-nets or LOKAL_ALLOW_PRIVATE_NETS)", what, raw, b)
		}
		return "", model.Errorf(model.CodeInvalid, "%s %s: %v", what, raw, err)
	}
	return raw, nil
}
