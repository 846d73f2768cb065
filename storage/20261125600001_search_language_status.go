package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerSearchLanguageStatus(m *migrate.Migrations) {
	m.MustRegister(migrateSearchLanguageStatus, noDown)
}

// migrateSearchLanguageStatus orders one language's rows of one status by key, so that
// search_translations with both filters walks only its own rows in the cursor's order.
// translations_status_key reads every language's rows of the status to find them, and
// where the language is sparse (nb translated at 10%) PostgreSQL chose a sequential scan
// and a sort instead (160 ms at 100,000 keys).
func migrateSearchLanguageStatus(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return createIndexes(ctx, tx, []index{
			{"translations", "translations_language_status_key", false, []string{"language", "status", "key_id"}},
		})
	})
}
