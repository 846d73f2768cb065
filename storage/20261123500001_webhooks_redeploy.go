package storage

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerWebhooksRedeploy(m *migrate.Migrations) { m.MustRegister(migrateWebhooksRedeploy, noDown) }

// migrateWebhooksRedeploy adds webhooks, their outbox, deliveries and attempts, the redeploy
// attempts, and the redeploy settings the project row lacked (inputs, API URL, hook URL).
func migrateWebhooksRedeploy(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, t := range []struct {
			model any
			fk    string
		}{
			{(*webhookRow)(nil), `("project_id") REFERENCES "projects" ("id")`},
			{(*webhookBatchRow)(nil), ""},
			{(*deliveryRow)(nil), `("webhook_id") REFERENCES "webhooks" ("id")`},
			{(*deliveryAttemptRow)(nil), ""},
			{(*redeployAttemptRow)(nil), `("project_id") REFERENCES "projects" ("id")`},
		} {
			q := tx.NewCreateTable().Model(t.model).IfNotExists()
			if t.fk != "" {
				q = q.ForeignKey(t.fk)
			}
			if _, err := q.Exec(ctx); err != nil {
				return fmt.Errorf("creating table for %T: %w", t.model, err)
			}
		}
		for _, ix := range []struct {
			model any
			name  string
			cols  []string
		}{
			{(*webhookRow)(nil), "webhooks_project", []string{"project_id"}},
			// Claims look for a webhook's pending deliveries by due time.
			{(*deliveryRow)(nil), "deliveries_due", []string{"state", "webhook_id", "next_at"}},
			{(*deliveryRow)(nil), "deliveries_webhook", []string{"webhook_id", "id"}},
			{(*deliveryAttemptRow)(nil), "delivery_attempts_delivery", []string{"delivery_id"}},
			{(*redeployAttemptRow)(nil), "redeploy_attempts_project", []string{"project_id", "at"}},
		} {
			if _, err := tx.NewCreateIndex().Model(ix.model).Index(ix.name).Column(ix.cols...).IfNotExists().Exec(ctx); err != nil {
				return fmt.Errorf("creating index %s: %w", ix.name, err)
			}
		}
		for _, col := range []string{"deploy_inputs", "deploy_api_url", "deploy_url"} {
			has, err := hasColumn(ctx, tx, "projects", col)
			if err != nil {
				return err
			}
			if has {
				continue
			}
			if _, err := tx.ExecContext(ctx, "ALTER TABLE projects ADD COLUMN "+col+" VARCHAR NOT NULL DEFAULT ''"); err != nil {
				return fmt.Errorf("adding projects.%s: %w", col, err)
			}
		}
		return nil
	})
}
