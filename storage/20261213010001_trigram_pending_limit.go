package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerTrigramPendingLimit(m *migrate.Migrations) {
	m.MustRegister(migrateTrigramPendingLimit, noDown)
}

// migrateTrigramPendingLimit takes PostgreSQL's trigram merging out of the writes (issue
// 34), as migrateTrigramMergeOff did on SQLite: with the default 4 MB pending list, the
// insert that fills the list merges it into the index's tree, so a 50,000-key sync (about
// 60 MB of trigram entries) merged its own entries some fifteen times inside its
// transaction. With gin_pending_list_limit at trigramPendingKB a write of that size only
// appends to the list, and mergeTrigrams (trigram_pending.go) merges it once the write
// committed. Searches read the list beside the tree meanwhile: the same results, slower
// for the seconds the merge takes.
func migrateTrigramPendingLimit(ctx context.Context, db *bun.DB) error {
	if db.Dialect().Name() != dialect.PG {
		return nil
	}
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, name := range []string{"translations_value_trgm", "keys_key_trgm"} {
			// The indexes are missing where pg_trgm was refused (migrateSearchIndex).
			if _, err := tx.ExecContext(ctx, `ALTER INDEX IF EXISTS `+name+` SET (gin_pending_list_limit = `+trigramPendingKB+`)`); err != nil {
				return err
			}
		}
		return nil
	})
}

// trigramPendingKB is the trigram indexes' pending list limit in kB (128 MB): above the
// entries of a 50,000-key sync of sentences.
const trigramPendingKB = "131072"
