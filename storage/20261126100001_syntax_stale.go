package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerSyntaxStale(m *migrate.Migrations) { m.MustRegister(migrateSyntaxStale, noDown) }

// migrateSyntaxStale marks a stored syntax detection that a write may have made too wide (a
// key hidden, a source value replaced): it stays in use, since it protects at least every
// placeholder the values hold, until a recount off the request path (tools.recountSyntax)
// stores what the values show now. Before, such a write dropped the detection and the next
// read scanned every source value of the project.
func migrateSyntaxStale(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return addColumns(ctx, tx, []column{{"project_syntax", "stale", "BOOLEAN NOT NULL DEFAULT FALSE"}})
	})
}
