package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerRateEvents(m *migrate.Migrations) { m.MustRegister(migrateRateEvents, noDown) }

type rateEventV1 struct {
	bun.BaseModel `bun:"table:rate_events"`
	ID            int64     `bun:"id,pk,autoincrement"`
	Bucket        string    `bun:"bucket,notnull"`
	At            time.Time `bun:"at,notnull"`
}

// migrateRateEvents adds the table in which servers on one PostgreSQL share rate budgets.
// SQLite gets it too (one schema), but limits there stay in memory.
func migrateRateEvents(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := createTables(ctx, tx, []table{{(*rateEventV1)(nil), nil}}); err != nil {
			return err
		}
		return createIndexes(ctx, tx, []index{{"rate_events", "rate_events_bucket_at", false, []string{"bucket", "at"}}})
	})
}
