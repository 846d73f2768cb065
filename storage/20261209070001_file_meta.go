package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerFileMeta(m *migrate.Migrations) { m.MustRegister(migrateFileMeta, noDown) }

// migrateFileMeta adds what translation files say beyond lokal's own fields, kept so that
// an export writes it back (formats.Entry.Meta and formats.File.Meta, a JSON object of
// strings): entry_meta per key, format and language of the file that carried it (PO
// flags and references, ARB placeholders, Android attributes); file_meta per namespace,
// format and language (a PO header and its obsolete entries, ARB "@@" members).
func migrateFileMeta(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return execAll(ctx, tx,
			`CREATE TABLE IF NOT EXISTS entry_meta (key_id BIGINT NOT NULL REFERENCES translation_keys (id), format VARCHAR NOT NULL,
  language VARCHAR NOT NULL, meta TEXT NOT NULL, PRIMARY KEY (key_id, format, language))`,
			`CREATE TABLE IF NOT EXISTS file_meta (namespace_id BIGINT NOT NULL REFERENCES namespaces (id), format VARCHAR NOT NULL,
  language VARCHAR NOT NULL, meta TEXT NOT NULL, PRIMARY KEY (namespace_id, format, language))`)
	})
}
