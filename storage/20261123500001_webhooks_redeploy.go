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
		if err := createIndexes(ctx, tx, []index{
			{(*webhookRow)(nil), "webhooks_project", []string{"project_id"}},
			// Claims look for a webhook's pending deliveries by due time.
			{(*deliveryRow)(nil), "deliveries_due", []string{"state", "webhook_id", "next_at"}},
			{(*deliveryRow)(nil), "deliveries_webhook", []string{"webhook_id", "id"}},
			{(*deliveryAttemptRow)(nil), "delivery_attempts_delivery", []string{"delivery_id"}},
			{(*redeployAttemptRow)(nil), "redeploy_attempts_project", []string{"project_id", "at"}},
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
