package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerRoles(m *migrate.Migrations) { m.MustRegister(migrateRoles, noDown) }

// projectMemberRow20261124920001 is the project_members table as this release made it: a
// user's role on a project, and a translator's or reviewer's languages (comma-separated
// codes).
type projectMemberRow20261124920001 struct {
	bun.BaseModel `bun:"table:project_members"`
	ProjectID     string    `bun:"project_id,pk,type:varchar(36)"`
	UserID        string    `bun:"user_id,pk,type:varchar(36)"`
	Role          string    `bun:"role,notnull"`
	Languages     string    `bun:"languages,notnull"`
	UpdatedAt     time.Time `bun:"updated_at,notnull"`
}

// migrateRoles gives every user a workspace role and adds project roles. The users there
// are become owners: before roles every user could do everything, and an upgrade takes
// nothing away from them; users created afterwards are members unless made owners.
func migrateRoles(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := addColumns(ctx, tx, []column{{"users", "role", "VARCHAR NOT NULL DEFAULT 'member'"}}); err != nil {
			return err
		}
		if err := execAll(ctx, tx, `UPDATE users SET role = 'owner'`); err != nil {
			return err
		}
		if err := createTables(ctx, tx, []table{{model: (*projectMemberRow20261124920001)(nil), fks: []string{
			`("project_id") REFERENCES "projects" ("id")`, `("user_id") REFERENCES "users" ("id")`}}}); err != nil {
			return err
		}
		return createIndexes(ctx, tx, []index{{"project_members", "project_members_user", false, []string{"user_id"}}})
	})
}
