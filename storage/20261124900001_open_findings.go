package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerOpenFindings(m *migrate.Migrations) { m.MustRegister(migrateOpenFindings, noDown) }

// migrateOpenFindings indexes the open findings of one language by key, without the
// missing and stale ones, which the editor's QA filter leaves to filters of their own:
// the filter walks the keys with a finding in key order and reads only its page, where
// the missing findings of a language barely translated would otherwise fill the walk.
// The predicate is written as OpenFindingKeys' query states it, so that SQLite sees it
// applies, and as two <> rather than NOT IN: PostgreSQL spells a NOT IN list differently
// once an index made from its own definition is dumped again, and a database copied by
// dbdump must keep the schema byte for byte.
func migrateOpenFindings(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return execAll(ctx, tx, `CREATE INDEX IF NOT EXISTS checkup_findings_open ON checkup_findings (project_id, language, key_id, namespace_id)
  WHERE last_seq IS NULL AND kind <> 'missing_translation' AND kind <> 'stale_translation'`)
	})
}
