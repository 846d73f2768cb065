package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerInvitations(m *migrate.Migrations) { m.MustRegister(migrateInvitations, noDown) }

// invitationRow20261124920002 is the invitations table as this release made it: who is
// invited to a workspace (and a project role), the keyed hash of the link's token, and
// when it expires and was used.
type invitationRow20261124920002 struct {
	bun.BaseModel `bun:"table:invitations"`
	ID            string     `bun:"id,pk,type:varchar(36)"`
	WorkspaceID   string     `bun:"workspace_id,notnull,type:varchar(36)"`
	ProjectID     *string    `bun:"project_id,type:varchar(36)"`
	Email         string     `bun:"email,notnull"`
	WorkspaceRole string     `bun:"workspace_role,notnull"`
	ProjectRole   string     `bun:"project_role,notnull"`
	Languages     string     `bun:"languages,notnull"`
	Hash          string     `bun:"hash,notnull,unique"`
	CreatedBy     string     `bun:"created_by,notnull"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	ExpiresAt     time.Time  `bun:"expires_at,notnull"`
	UsedAt        *time.Time `bun:"used_at"`
}

// migrateInvitations adds the invitations a workspace's owners and a project's managers
// send from the editor.
func migrateInvitations(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return createTables(ctx, tx, []table{{model: (*invitationRow20261124920002)(nil), fks: []string{
			`("workspace_id") REFERENCES "workspaces" ("id")`, `("project_id") REFERENCES "projects" ("id")`}}})
	})
}
