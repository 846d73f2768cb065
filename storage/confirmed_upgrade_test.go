package storage_test

import (
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
)

// TestUpgradeConfirmsAddresses: after the upgrade the users who have a password, and each
// workspace's first user, have confirmed addresses; a later user never given a password
// (made by the operator under an address no one proved) has not, and so does not block an
// invitation to that address.
func TestUpgradeConfirmsAddresses(t *testing.T) {
	skipUpgradeInShort(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, _ := loadRelease(t, dialect, "stop22") // the newest release fixture, with passwords
		raw := rawDB(t, dsn)
		var ws string
		if err := raw.QueryRowContext(t.Context(), `SELECT workspace_id FROM users WHERE email = 'dev@acme.test'`).Scan(&ws); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			`INSERT INTO users (id, workspace_id, email, created_at) VALUES ('00000000-0000-4000-8000-000000000001', '` + ws + `', 'late@acme.test', '2026-12-01 10:00:00+00:00')`,
			`INSERT INTO users (id, workspace_id, email, created_at) VALUES ('00000000-0000-4000-8000-000000000002', '` + ws + `', 'pw@acme.test', '2026-12-01 10:00:01+00:00')`,
			`INSERT INTO user_passwords (user_id, hash, updated_at) VALUES ('00000000-0000-4000-8000-000000000002', 'x', '2026-12-01 10:00:01+00:00')`,
		} {
			if _, err := raw.ExecContext(t.Context(), q); err != nil {
				t.Fatal(err)
			}
		}
		upgrade(t, dsn)
		rows, err := rawDB(t, dsn).QueryContext(t.Context(), `SELECT email, confirmed_at IS NOT NULL FROM users ORDER BY email`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		got := map[string]bool{}
		for rows.Next() {
			var email string
			var confirmed bool
			if err := rows.Scan(&email, &confirmed); err != nil {
				t.Fatal(err)
			}
			got[email] = confirmed
		}
		want := map[string]bool{"admin@localhost": true, "dev@acme.test": true, "pw@acme.test": true, "late@acme.test": false}
		for email, c := range want {
			if got[email] != c {
				t.Errorf("%s confirmed %v after the upgrade, want %v (all: %v)", email, got[email], c, got)
			}
		}
	})
}
