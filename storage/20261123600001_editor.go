package storage

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerEditor(m *migrate.Migrations) { m.MustRegister(migrateEditor, noDown) }

// migrateEditor adds what signing in to the translator's editor needs: a password hash per
// user and the browser sessions, and an index for the review queue's comment counts.
func migrateEditor(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewCreateTable().Model((*passwordRow)(nil)).IfNotExists().
			ForeignKey(`("user_id") REFERENCES "users" ("id")`).Exec(ctx); err != nil {
			return fmt.Errorf("creating user_passwords: %w", err)
		}
		if _, err := tx.NewCreateTable().Model((*sessionRow)(nil)).IfNotExists().
			ForeignKey(`("user_id") REFERENCES "users" ("id")`).Exec(ctx); err != nil {
			return fmt.Errorf("creating sessions: %w", err)
		}
		if err := createIndexes(ctx, tx, []index{
			{(*sessionRow)(nil), "sessions_user", []string{"user_id"}},
			{(*userRow)(nil), "users_email", []string{"email"}},
			// The review queue pages through a project's keys by id.
			{(*keyRow)(nil), "keys_namespace_id", []string{"namespace_id", "id"}},
		}); err != nil {
			return err
		}
		return nil
	})
}
