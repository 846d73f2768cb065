package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerRedeployMessages(m *migrate.Migrations) {
	m.MustRegister(migrateRedeployMessages, noDown)
}

// migrateRedeployMessages drops what earlier versions kept of a code host's answer: a
// refused dispatch's message quoted the answer's "message", which an echoing host fills
// with the token. The status stays beside it; the message becomes lokal's own words.
// Attempts with no status never held an answer.
func migrateRedeployMessages(ctx context.Context, db *bun.DB) error {
	_, err := db.NewRaw(`UPDATE redeploy_attempts SET message = ? WHERE http_status <> 0 AND outcome <> 'dispatched'`,
		"the provider refused the dispatch; its answer is no longer kept").Exec(ctx)
	return err
}
