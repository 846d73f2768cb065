package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerTrigramMerge(m *migrate.Migrations) { m.MustRegister(migrateTrigramMerge, noDown) }

// migrateTrigramMerge makes SQLite's trigram tables cheaper to write, which a big write
// pays for in the writer (issue: a 10,000-key import under 1 s):
//
//   - hashsize 8 MB (default 1 MB): a transaction's new trigrams are flushed once, as one
//     segment, instead of every megabyte;
//   - automerge 8 (default 4): a segment is merged into the next level when 8 wait there,
//     so each trigram is rewritten about half as often. A search reads up to 7 segments of
//     a level instead of 3: about 0.2 ms more for a rare substring at 100,000 rows. (16
//     saved a little more per write and cost searches more: not taken.)
//
// Both are stored in the tables' %_config, so every connection uses them.
func migrateTrigramMerge(ctx context.Context, db *bun.DB) error {
	if db.Dialect().Name() != dialect.SQLite {
		return nil
	}
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var stmts []string
		for _, fts := range []string{"translations_trgm", "translation_keys_trgm"} {
			stmts = append(stmts,
				`INSERT INTO `+fts+` (`+fts+`, rank) VALUES ('hashsize', 8388608)`,
				`INSERT INTO `+fts+` (`+fts+`, rank) VALUES ('automerge', 8)`)
		}
		return execAll(ctx, tx, stmts...)
	})
}
