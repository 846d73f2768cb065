package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerEditor(m *migrate.Migrations) { m.MustRegister(migrateEditor, noDown) }

type passwordV1 struct {
	bun.BaseModel `bun:"table:user_passwords"`
	UserID        string    `bun:"user_id,pk,type:varchar(36)"`
	Hash          string    `bun:"hash,notnull"`
	UpdatedAt     time.Time `bun:"updated_at,notnull"`
}

type sessionV1 struct {
	bun.BaseModel `bun:"table:sessions"`
	Hash          string    `bun:"hash,pk"`
	UserID        string    `bun:"user_id,notnull,type:varchar(36)"`
	WorkspaceID   string    `bun:"workspace_id,notnull,type:varchar(36)"`
	CSRF          string    `bun:"csrf,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
	ExpiresAt     time.Time `bun:"expires_at,notnull"`
}

// migrateEditor adds what signing in to the translator's editor needs: a password hash per
// user and the browser sessions, and an index for the review queue's comment counts.
func migrateEditor(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		toUsers := []string{`("user_id") REFERENCES "users" ("id")`}
		if err := createTables(ctx, tx, []table{{(*passwordV1)(nil), toUsers}, {(*sessionV1)(nil), toUsers}}); err != nil {
			return err
		}
		return createIndexes(ctx, tx, []index{
			{"sessions", "sessions_user", false, []string{"user_id"}},
			{"users", "users_email", false, []string{"email"}},
			// The review queue pages through a project's keys by id.
			{"translation_keys", "keys_namespace_id", false, []string{"namespace_id", "id"}},
		})
	})
}
