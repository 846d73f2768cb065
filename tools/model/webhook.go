package model

import "time"

// Delivery states.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// Webhook is one endpoint of a project as stored: the secret only sealed.
type Webhook struct {
	ID             string
	ProjectID      string
	URL            string
	Events         []string
	SecretEnc      string
	Enabled        bool
	CreatedAt      time.Time
	DisabledAt     *time.Time
	DisabledReason string
	// FailingSince is the first failed attempt after the last delivered one; nil while
	// the endpoint answers.
	FailingSince *time.Time
	Last         *WebhookOutcome
}

// WebhookOutcome is the last attempt of a webhook, as the Connect page shows it.
type WebhookOutcome struct {
	At         time.Time `json:"at"`
	Status     string    `json:"status"` // delivered or failed
	HTTPStatus *int      `json:"http_status"`
	Error      string    `json:"error"`
}

// WebhookEvent is one event of a write: its id is the webhook-id of every delivery of it.
type WebhookEvent struct {
	ID     string `json:"id"`
	Kind   string `json:"event"`
	Key    string `json:"key"`
	Locale string `json:"locale"`
}

// WebhookBatch is the outbox row of one write: its events and the webhooks subscribed
// when it committed. The deliverer turns it into one delivery per event and webhook.
type WebhookBatch struct {
	ID           int64
	ProjectID    string
	ProjectTitle string
	WebhookIDs   []string
	Events       []WebhookEvent
	CreatedAt    time.Time
}

// Delivery is one event on its way to one webhook.
type Delivery struct {
	ID           int64
	EventID      string
	WebhookID    string
	ProjectID    string
	Event        string
	Key          string
	Locale       string
	ProjectTitle string
	CreatedAt    time.Time
	State        string
	Attempts     int
	NextAt       time.Time
	HTTPStatus   int // of the last attempt; 0 when none answered
	LastError    string
	DeliveredAt  *time.Time
}

// DeliveryAttempt is one POST of a delivery.
type DeliveryAttempt struct {
	DeliveryID int64
	WebhookID  string
	Attempt    int
	At         time.Time
	HTTPStatus int // 0 when nothing answered
	Error      string
	Duration   time.Duration
}

// WebhookTargets is what the write hook needs of a project: its title for the body, its
// source language, and its enabled webhooks.
type WebhookTargets struct {
	Title          string
	SourceLanguage string
	Hooks          []Webhook
}

// WebhookView is a webhook as `webhook list` prints it: never the secret.
type WebhookView struct {
	ID             string          `json:"id"`
	URL            string          `json:"url"`
	Events         []string        `json:"events"`
	Enabled        bool            `json:"enabled"`
	LastOutcome    *WebhookOutcome `json:"last_outcome"`
	DisabledAt     *time.Time      `json:"disabled_at,omitempty"`
	DisabledReason string          `json:"disabled_reason,omitempty"`
}

func (w Webhook) View() WebhookView {
	return WebhookView{ID: w.ID, URL: w.URL, Events: w.Events, Enabled: w.Enabled, LastOutcome: w.Last,
		DisabledAt: w.DisabledAt, DisabledReason: w.DisabledReason}
}
