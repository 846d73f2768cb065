package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerCheckupStatistics(m *migrate.Migrations) {
	m.MustRegister(migrateCheckupStatistics, noDown)
}

// migrateCheckupStatistics gathers the statistics of the checkup's queue and findings on a
// database that holds some: the pass after imports refreshes them from this release on, so
// a database filled before it has none, and an import's queue of millions of marks was
// priced as a few thousand until the next import.
func migrateCheckupStatistics(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var filled bool
		if err := tx.NewRaw("SELECT EXISTS (SELECT 1 FROM checkup_queue) OR EXISTS (SELECT 1 FROM checkup_findings)").Scan(ctx, &filled); err != nil || !filled {
			return err
		}
		return execAll(ctx, tx, analyzeStatements(db.Dialect().Name() == dialect.PG, []string{"checkup_queue", "checkup_findings"})...)
	})
}
