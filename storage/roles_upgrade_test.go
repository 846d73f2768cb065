package storage_test

import (
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
)

// TestUpgradeMakesUsersOwners: before roles every user could do everything, so every user
// of an earlier release's database is an owner of their workspace after the upgrade, and
// no one has a project role yet.
func TestUpgradeMakesUsersOwners(t *testing.T) {
	skipUpgradeInShort(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		for _, r := range releases(t) {
			t.Run(r, func(t *testing.T) {
				dsn, _ := loadRelease(t, dialect, r)
				upgrade(t, dsn)
				raw := rawDB(t, dsn)
				var users, owners, members int
				if err := raw.QueryRowContext(t.Context(), `SELECT COUNT(*), COALESCE(SUM(CASE WHEN role = 'owner' THEN 1 ELSE 0 END), 0) FROM users`).Scan(&users, &owners); err != nil {
					t.Fatal(err)
				}
				if err := raw.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM project_members`).Scan(&members); err != nil {
					t.Fatal(err)
				}
				if users == 0 || owners != users || members != 0 {
					t.Errorf("after the upgrade: %d users, %d owners, %d project roles; want every user an owner and no project role", users, owners, members)
				}
			})
		}
	})
}
