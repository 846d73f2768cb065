package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerFamilyIncomplete(m *migrate.Migrations) {
	m.MustRegister(migrateFamilyIncomplete, noDown)
}

// migrateFamilyIncomplete adds translations.incomplete: a plural family's value that lacks a
// form its language needs (message.FamilyIncomplete), which the status counters count as
// missing. Rows written before are not families lokal gathered: false is right for them.
func migrateFamilyIncomplete(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, `ALTER TABLE translations ADD COLUMN incomplete BOOLEAN NOT NULL DEFAULT FALSE`)
	return err
}
