package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerProgressCounts(m *migrate.Migrations) { m.MustRegister(migrateProgressCounts, noDown) }

// migrateProgressCounts splits the current rows of the status counters by review state,
// for the progress view: a current row to review is marked -1, an AI draft to review -2
// (approved rows stay 1), and status_counts gains the two counts.
func migrateProgressCounts(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := addColumns(ctx, tx, []column{
			{"status_counts", "review_rows", "BIGINT NOT NULL DEFAULT 0"},
			{"status_counts", "ai_rows", "BIGINT NOT NULL DEFAULT 0"},
		}); err != nil {
			return err
		}
		// One pass over the marked rows, not one per counter row.
		return execAll(ctx, tx,
			`UPDATE translations SET counted = CASE WHEN updated_by LIKE 'ai:%' THEN -2 ELSE -1 END
WHERE counted = 1 AND status = 'needs_review'`,
			`UPDATE status_counts SET review_rows = c.review, ai_rows = c.ai
FROM (SELECT n.project_id, t.language,
    SUM(CASE WHEN t.counted = -1 THEN 1 ELSE 0 END) AS review, SUM(CASE WHEN t.counted = -2 THEN 1 ELSE 0 END) AS ai
  FROM translations AS t JOIN translation_keys AS k ON k.id = t.key_id JOIN namespaces AS n ON n.id = k.namespace_id
  WHERE t.counted < 0 GROUP BY n.project_id, t.language) AS c
WHERE status_counts.project_id = c.project_id AND status_counts.language = c.language`)
	})
}
