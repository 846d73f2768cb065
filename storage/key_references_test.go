package storage_test

import (
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
)

// TestKeyReferencesChecked: a translation naming no key, a key naming no namespace, and a
// delete leaving either reference dangling fail on both databases (PostgreSQL checks them
// per statement, migrateStatementKeyChecks; SQLite by its foreign keys), and a delete in
// the order the store makes it succeeds.
func TestKeyReferencesChecked(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn := storagetest.EmptyDSN(t, dialect)
		db := storagetest.MustOpen(t, dsn, nil)
		cat := storagetest.Catalog(db, nil)
		p := project(t, cat)
		if _, err := cat.Sync(sys(t), tools.SyncIn{Translations: map[string]string{"a": "A", "b": "B"},
			NamespaceRef: tools.NamespaceRef{ProjectID: p.ID, Language: "en", Namespace: "refs"}}); err != nil {
			t.Fatal(err)
		}
		raw := storagetest.SQL(t, dsn)
		if dialect == "sqlite" { // as the store opens its connections
			raw.SetMaxOpenConns(1)
			if _, err := raw.ExecContext(t.Context(), `PRAGMA foreign_keys = ON`); err != nil {
				t.Fatal(err)
			}
		}
		var keyID, nsID int64
		if err := raw.QueryRowContext(t.Context(), `SELECT k.id, k.namespace_id FROM translation_keys AS k WHERE k.key = 'a'`).Scan(&keyID, &nsID); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			`INSERT INTO translations (key_id, language, value, status, created_at, updated_at) VALUES (987654321, 'nb', 'x', 'translated', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
			`INSERT INTO translation_keys (namespace_id, key, key_hash, created_at, updated_at) VALUES (987654321, 'z', 'z', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
			`DELETE FROM translation_keys WHERE key = 'a'`,
			`DELETE FROM namespaces WHERE key = 'refs'`,
		} {
			if _, err := raw.ExecContext(t.Context(), q); err == nil {
				t.Errorf("%s: no error", q)
			}
		}
		for _, q := range []string{
			`DELETE FROM translation_history`,
			`DELETE FROM checkup_queue`,
			`DELETE FROM translations WHERE key_id IN (SELECT id FROM translation_keys WHERE key = 'a')`,
			`DELETE FROM translation_keys WHERE key = 'a'`,
		} {
			if _, err := raw.ExecContext(t.Context(), q); err != nil {
				t.Errorf("%s: %v", q, err)
			}
		}
	})
}
