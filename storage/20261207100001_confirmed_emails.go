package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerConfirmedEmails(m *migrate.Migrations) { m.MustRegister(migrateConfirmedEmails, noDown) }

// migrateConfirmedEmails marks when a user's address was confirmed (an invitation or a
// password-reset link sent to it was used) and lets invitations be revoked. Reset links
// are rows of invitations too (kind 'reset', user_id the user): one hashed, one-use,
// expiring token mechanism for both.
//
// The users there are confirmed when they have a password (they accepted an invitation, or
// the operator gave them one to sign in with) or are the first user of their workspace
// (the operator's own, such as the admin serve makes on an empty database): an upgrade
// takes no one's account from them. The others (made by `lokal user create` and never
// given a password) stay unconfirmed, and no longer block an invitation to their address.
func migrateConfirmedEmails(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		ts := "TIMESTAMP"
		if db.Dialect().Name() == dialect.PG {
			ts = "TIMESTAMPTZ"
		}
		if err := addColumns(ctx, tx, []column{
			{"users", "confirmed_at", ts},
			{"invitations", "revoked_at", ts},
			{"invitations", "kind", "VARCHAR NOT NULL DEFAULT 'invite'"},
			{"invitations", "user_id", "VARCHAR(36)"},
		}); err != nil {
			return err
		}
		return execAll(ctx, tx, `UPDATE users SET confirmed_at = created_at
WHERE id IN (SELECT user_id FROM user_passwords)
   OR id IN (SELECT u.id FROM users AS u WHERE NOT EXISTS (SELECT 1 FROM users AS o WHERE o.workspace_id = u.workspace_id
      AND (o.created_at < u.created_at OR (o.created_at = u.created_at AND o.id < u.id))))`)
	})
}
