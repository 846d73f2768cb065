package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerWebhooksRedeploy(m *migrate.Migrations) { m.MustRegister(migrateWebhooksRedeploy, noDown) }

type webhookV1 struct {
	bun.BaseModel  `bun:"table:webhooks"`
	ID             string     `bun:"id,pk,type:varchar(36)"`
	ProjectID      string     `bun:"project_id,notnull,type:varchar(36)"`
	URL            string     `bun:"url,notnull"`
	Events         string     `bun:"events,notnull"`
	SecretEnc      string     `bun:"secret_enc,notnull"`
	Enabled        bool       `bun:"enabled,notnull"`
	CreatedAt      time.Time  `bun:"created_at,notnull"`
	DisabledAt     *time.Time `bun:"disabled_at"`
	DisabledReason string     `bun:"disabled_reason,notnull"`
	FailingSince   *time.Time `bun:"failing_since"`
	LastAt         *time.Time `bun:"last_at"`
	LastStatus     string     `bun:"last_status,notnull"`
	LastHTTPStatus int        `bun:"last_http_status,notnull"`
	LastError      string     `bun:"last_error,notnull"`
}

type webhookOutboxV1 struct {
	bun.BaseModel `bun:"table:webhook_outbox"`
	ID            int64     `bun:"id,pk,autoincrement"`
	ProjectID     string    `bun:"project_id,notnull,type:varchar(36)"`
	ProjectTitle  string    `bun:"project_title,notnull"`
	WebhookIDs    string    `bun:"webhook_ids,notnull"`
	Events        string    `bun:"events,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type deliveryV1 struct {
	bun.BaseModel `bun:"table:webhook_deliveries"`
	ID            int64      `bun:"id,pk,autoincrement"`
	EventID       string     `bun:"event_id,notnull"`
	WebhookID     string     `bun:"webhook_id,notnull,type:varchar(36)"`
	ProjectID     string     `bun:"project_id,notnull,type:varchar(36)"`
	Event         string     `bun:"event,notnull"`
	Key           string     `bun:"key,notnull"`
	Locale        string     `bun:"locale,notnull"`
	ProjectTitle  string     `bun:"project_title,notnull"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	State         string     `bun:"state,notnull"`
	Attempts      int        `bun:"attempts,notnull"`
	NextAt        time.Time  `bun:"next_at,notnull"`
	LockedUntil   *time.Time `bun:"locked_until"`
	LockToken     string     `bun:"lock_token,notnull"`
	HTTPStatus    int        `bun:"http_status,notnull"`
	LastError     string     `bun:"last_error,notnull"`
	DeliveredAt   *time.Time `bun:"delivered_at"`
}

type deliveryAttemptV1 struct {
	bun.BaseModel `bun:"table:webhook_attempts"`
	ID            int64     `bun:"id,pk,autoincrement"`
	DeliveryID    int64     `bun:"delivery_id,notnull"`
	WebhookID     string    `bun:"webhook_id,notnull,type:varchar(36)"`
	Attempt       int       `bun:"attempt,notnull"`
	At            time.Time `bun:"at,notnull"`
	HTTPStatus    int       `bun:"http_status,notnull"`
	Error         string    `bun:"error,notnull"`
	DurationMS    int64     `bun:"duration_ms,notnull"`
}

type redeployAttemptV1 struct {
	bun.BaseModel `bun:"table:redeploy_attempts"`
	ID            string    `bun:"id,pk,type:varchar(36)"`
	ProjectID     string    `bun:"project_id,notnull,type:varchar(36)"`
	At            time.Time `bun:"at,notnull"`
	By            string    `bun:"by,notnull"`
	Outcome       string    `bun:"outcome,notnull"`
	HTTPStatus    int       `bun:"http_status,notnull"`
	Message       string    `bun:"message,notnull"`
}

// migrateWebhooksRedeploy adds webhooks, their outbox, deliveries and attempts, the redeploy
// attempts, and the redeploy settings the project row lacked (inputs, API URL, hook URL).
func migrateWebhooksRedeploy(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		toProjects := []string{`("project_id") REFERENCES "projects" ("id")`}
		if err := createTables(ctx, tx, []table{
			{(*webhookV1)(nil), toProjects},
			{(*webhookOutboxV1)(nil), nil},
			{(*deliveryV1)(nil), []string{`("webhook_id") REFERENCES "webhooks" ("id")`}},
			{(*deliveryAttemptV1)(nil), nil},
			{(*redeployAttemptV1)(nil), toProjects},
		}); err != nil {
			return err
		}
		if err := createIndexes(ctx, tx, []index{
			{"webhooks", "webhooks_project", false, []string{"project_id"}},
			// Claims look for a webhook's pending deliveries by due time.
			{"webhook_deliveries", "deliveries_due", false, []string{"state", "webhook_id", "next_at"}},
			{"webhook_deliveries", "deliveries_webhook", false, []string{"webhook_id", "id"}},
			{"webhook_attempts", "delivery_attempts_delivery", false, []string{"delivery_id"}},
			{"redeploy_attempts", "redeploy_attempts_project", false, []string{"project_id", "at"}},
		}); err != nil {
			return err
		}
		return addColumns(ctx, tx, []column{
			{"projects", "deploy_inputs", "VARCHAR NOT NULL DEFAULT ''"},
			{"projects", "deploy_api_url", "VARCHAR NOT NULL DEFAULT ''"},
			{"projects", "deploy_url", "VARCHAR NOT NULL DEFAULT ''"},
		})
	})
}
