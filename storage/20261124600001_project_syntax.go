package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerProjectSyntax(m *migrate.Migrations) { m.MustRegister(migrateProjectSyntax, noDown) }

// migrateProjectSyntax adds the syntaxes a project's values are written in, as the operator
// set them ("icu,html", "none"); empty means they are detected from the source values.
func migrateProjectSyntax(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return addColumns(ctx, tx, []column{{"projects", "syntax", "VARCHAR NOT NULL DEFAULT ''"}})
	})
}
