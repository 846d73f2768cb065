package storage

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerRateEvents(m *migrate.Migrations) { m.MustRegister(migrateRateEvents, noDown) }

// migrateRateEvents adds the table in which servers on one PostgreSQL share rate budgets.
// SQLite gets it too (one schema), but limits there stay in memory.
func migrateRateEvents(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewCreateTable().Model((*rateEventRow)(nil)).IfNotExists().Exec(ctx); err != nil {
			return fmt.Errorf("creating rate_events: %w", err)
		}
		if _, err := tx.NewCreateIndex().Model((*rateEventRow)(nil)).Index("rate_events_bucket_at").
			Column("bucket", "at").IfNotExists().Exec(ctx); err != nil {
			return fmt.Errorf("creating index rate_events_bucket_at: %w", err)
		}
		return nil
	})
}
