package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerOperator(m *migrate.Migrations) { m.MustRegister(migrateOperator, noDown) }

// formerUserRow20261207200001 is the former_users table as this release made it: the
// name a deleted user's history keeps (history rows name the actor user:<id>).
type formerUserRow20261207200001 struct {
	bun.BaseModel `bun:"table:former_users"`
	ID            string    `bun:"id,pk,type:varchar(36)"`
	WorkspaceID   string    `bun:"workspace_id,notnull,type:varchar(36)"`
	Email         string    `bun:"email,notnull"`
	DeletedAt     time.Time `bun:"deleted_at,notnull"`
}

// migrateOperator adds what the operator's verbs keep: when a project was archived (it
// is read-only until restored) and a user disabled (they cannot sign in, their tokens are
// refused), and the names of deleted users.
func migrateOperator(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		at := "TIMESTAMP"
		if db.Dialect().Name() == dialect.PG {
			at = "TIMESTAMPTZ"
		}
		if err := addColumns(ctx, tx, []column{{"projects", "archived_at", at}, {"users", "disabled_at", at}}); err != nil {
			return err
		}
		return createTables(ctx, tx, []table{{model: (*formerUserRow20261207200001)(nil), fks: []string{
			`("workspace_id") REFERENCES "workspaces" ("id")`}}})
	})
}
