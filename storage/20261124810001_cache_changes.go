package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerCacheChanges(m *migrate.Migrations) { m.MustRegister(migrateCacheChanges, noDown) }

// migrateCacheChanges creates cache_changes, the journal of what each revision changed, by
// scope: "key" (namespace and key set), "namespace", "files" (the project's files other
// than its namespaces) or "project" (all of them). Other processes read it when they poll
// the revision, so that a write to one key patches their cached namespace files instead of
// dropping every file of the project.
func migrateCacheChanges(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return execAll(ctx, tx,
			`CREATE TABLE cache_changes (revision BIGINT NOT NULL, project_id VARCHAR(36) NOT NULL, scope VARCHAR NOT NULL, namespace VARCHAR NOT NULL DEFAULT '', key VARCHAR NOT NULL DEFAULT '')`,
			`CREATE INDEX cache_changes_revision ON cache_changes (revision)`,
		)
	})
}
