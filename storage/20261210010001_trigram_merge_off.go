package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerTrigramMergeOff(m *migrate.Migrations) { m.MustRegister(migrateTrigramMergeOff, noDown) }

// migrateTrigramMergeOff takes SQLite's trigram merging out of the writes (issue 34: a
// 50,000-key sync spent a seventh of its CPU merging segments inside its chunk
// transactions, holding the one writer):
//
//   - automerge 0: a write only adds its segments; mergeTrigramsSQLite merges them after
//     it committed, in small steps between other writes, once usermerge (8, the level
//     size automerge 8 kept before) wait on one level, so searches read what they read
//     before once a burst is merged;
//   - crisismerge 64 (default 16): a level that holds that many segments before the
//     background catches up is still merged inside the write, so a search reads at most
//     63 segments of a level during a burst. A 50,000-key sync adds about 50 (one per
//     batch of 1,000 keys), which at 16 were merged in the write all the same.
func migrateTrigramMergeOff(ctx context.Context, db *bun.DB) error {
	if db.Dialect().Name() != dialect.SQLite {
		return nil
	}
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var stmts []string
		for _, fts := range []string{"translations_trgm", "translation_keys_trgm"} {
			stmts = append(stmts,
				`INSERT INTO `+fts+` (`+fts+`, rank) VALUES ('automerge', 0)`,
				`INSERT INTO `+fts+` (`+fts+`, rank) VALUES ('crisismerge', 64)`,
				`INSERT INTO `+fts+` (`+fts+`, rank) VALUES ('usermerge', 8)`)
		}
		return execAll(ctx, tx, stmts...)
	})
}
