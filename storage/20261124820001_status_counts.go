package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerStatusCounts(m *migrate.Migrations) { m.MustRegister(migrateStatusCounts, noDown) }

// statusCountRow20261124820001 is the status_counts table as this release made it: per
// project and language, the counts get_project_status reports. The row of language ""
// holds the project's visible keys with a source value; the others their language's
// non-empty rows by the source version they were made against.
type statusCountRow20261124820001 struct {
	bun.BaseModel `bun:"table:status_counts"`
	ProjectID     string `bun:"project_id,pk,type:varchar(36)"`
	Language      string `bun:"language,pk"`
	KeyCount      int64  `bun:"key_count,notnull,default:0"`
	CurrentRows   int64  `bun:"current_rows,notnull,default:0"`
	BehindRows    int64  `bun:"behind_rows,notnull,default:0"`
	NullRows      int64  `bun:"null_rows,notnull,default:0"`
}

// migrateStatusCounts adds the counters of project status and, on every key and
// translation, the share it was counted with (0 none; keys 1 counted; rows 1 current, 2
// behind, 3 no source version, 4 and 5 the same two of an empty value), counts the
// existing rows, and adds the partial indexes the editor's rare filters and the stale
// list start from: rows behind their source or without a version, rows to review, and of
// those the AI's drafts.
func migrateStatusCounts(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := createTables(ctx, tx, []table{{model: (*statusCountRow20261124820001)(nil),
			fks: []string{`("project_id") REFERENCES "projects" ("id")`}}}); err != nil {
			return err
		}
		// New rows are stored marked as counted and current, the common case, so that
		// inserting them is not followed by marking them; only the others are written here.
		if err := addColumns(ctx, tx, []column{
			{"translation_keys", "counted", "SMALLINT NOT NULL DEFAULT 1"},
			{"translations", "counted", "SMALLINT NOT NULL DEFAULT 1"},
		}); err != nil {
			return err
		}
		const keyVersion = `(SELECT k.source_version FROM translation_keys AS k WHERE k.id = translations.key_id)`
		return execAll(ctx, tx,
			`UPDATE translation_keys SET counted = 0 WHERE hidden OR source_version <= 0`,
			`UPDATE translations SET counted = 0 WHERE key_id IN (SELECT id FROM translation_keys WHERE counted = 0)`,
			`UPDATE translations SET counted = CASE
  WHEN value <> '' THEN CASE WHEN source_version IS NULL THEN 3 ELSE 2 END
  WHEN source_version IS NULL THEN 5
  WHEN source_version < `+keyVersion+` THEN 4
  ELSE 0 END
WHERE key_id IN (SELECT id FROM translation_keys WHERE counted = 1)
  AND (value = '' OR source_version IS NULL OR source_version < `+keyVersion+`)`,
			`INSERT INTO status_counts (project_id, language, key_count, current_rows, behind_rows, null_rows)
SELECT n.project_id, '', COUNT(*), 0, 0, 0
FROM translation_keys AS k JOIN namespaces AS n ON n.id = k.namespace_id
WHERE k.counted = 1 GROUP BY n.project_id`,
			`INSERT INTO status_counts (project_id, language, key_count, current_rows, behind_rows, null_rows)
SELECT n.project_id, t.language, 0,
  SUM(CASE WHEN t.counted = 1 THEN 1 ELSE 0 END),
  SUM(CASE WHEN t.counted = 2 THEN 1 ELSE 0 END),
  SUM(CASE WHEN t.counted = 3 THEN 1 ELSE 0 END)
FROM translations AS t
JOIN translation_keys AS k ON k.id = t.key_id
JOIN namespaces AS n ON n.id = k.namespace_id
WHERE t.counted BETWEEN 1 AND 3 GROUP BY n.project_id, t.language`,
			`CREATE INDEX IF NOT EXISTS translations_drifted ON translations (language, key_id) WHERE counted >= 2`,
			`CREATE INDEX IF NOT EXISTS translations_review ON translations (language, key_id) WHERE status = 'needs_review'`,
			`CREATE INDEX IF NOT EXISTS translations_ai_drafts ON translations (language, key_id) WHERE status = 'needs_review' AND updated_by LIKE 'ai:%'`)
	})
}
