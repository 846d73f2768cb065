package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerStatementKeyChecks(m *migrate.Migrations) {
	m.MustRegister(migrateStatementKeyChecks, noDown)
}

// migrateStatementKeyChecks checks the two references every new key makes (its namespace,
// and its translations' key) once per statement instead of once per row, on PostgreSQL
// (issue 34). A foreign key checks each inserted row with a query of its own and locks the
// referenced row FOR KEY SHARE, a WAL record each: 40% of the server's CPU in a 50,000-key
// sync. Triggers with transition tables check a statement's rows in one join. The row lock
// guards against a concurrent delete of the referenced row; writes to one project take
// turns (DB.Update's advisory lock), and a key, its namespace and its translations are one
// project's, so the check at the statement's end sees every write that could race it.
//
// The constraints' other side (deleting a referenced row, changing an id) keeps its
// meaning: a statement that leaves a reference dangling fails with foreign_key_violation.
func migrateStatementKeyChecks(ctx context.Context, db *bun.DB) error {
	if db.Dialect().Name() != dialect.PG {
		return nil
	}
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, q := range statementKeyChecks {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
}

var statementKeyChecks = []string{
	`ALTER TABLE translations DROP CONSTRAINT IF EXISTS translations_key_id_fkey`,
	`ALTER TABLE translation_keys DROP CONSTRAINT IF EXISTS translation_keys_namespace_id_fkey`,
	`CREATE OR REPLACE FUNCTION lokal_reference_violation(ref text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the statement leaves the reference % dangling', ref USING ERRCODE = 'foreign_key_violation';
END $$`,
	`CREATE OR REPLACE FUNCTION lokal_translations_key_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows AS n WHERE NOT EXISTS (SELECT 1 FROM translation_keys AS p WHERE p.id = n.key_id)) THEN
    PERFORM lokal_reference_violation('translations.key_id');
  END IF;
  RETURN NULL;
END $$`,
	`CREATE OR REPLACE FUNCTION lokal_keys_namespace_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows AS n WHERE NOT EXISTS (SELECT 1 FROM namespaces AS p WHERE p.id = n.namespace_id)) THEN
    PERFORM lokal_reference_violation('translation_keys.namespace_id');
  END IF;
  RETURN NULL;
END $$`,
	`CREATE OR REPLACE FUNCTION lokal_keys_referenced_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM old_rows AS o WHERE EXISTS (SELECT 1 FROM translations AS c WHERE c.key_id = o.id)) THEN
    PERFORM lokal_reference_violation('translations.key_id');
  END IF;
  RETURN NULL;
END $$`,
	`CREATE OR REPLACE FUNCTION lokal_namespaces_referenced_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM old_rows AS o WHERE EXISTS (SELECT 1 FROM translation_keys AS c WHERE c.namespace_id = o.id)) THEN
    PERFORM lokal_reference_violation('translation_keys.namespace_id');
  END IF;
  RETURN NULL;
END $$`,
	// Inserts and deletes, many rows at once, are checked per statement.
	`CREATE TRIGGER translations_key_insert AFTER INSERT ON translations REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION lokal_translations_key_check()`,
	`CREATE TRIGGER keys_namespace_insert AFTER INSERT ON translation_keys REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION lokal_keys_namespace_check()`,
	`CREATE TRIGGER keys_referenced_delete AFTER DELETE ON translation_keys REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION lokal_keys_referenced_check()`,
	`CREATE TRIGGER namespaces_referenced_delete AFTER DELETE ON namespaces REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION lokal_namespaces_referenced_check()`,
	// The parent a check stands for, as a foreign key names it (storagetest orders its
	// tables by these).
	`COMMENT ON TRIGGER translations_key_insert ON translations IS 'references translation_keys'`,
	`COMMENT ON TRIGGER keys_namespace_insert ON translation_keys IS 'references namespaces'`,
	// Lokal changes no reference nor id: an update that would is checked by the row, and
	// the others (every edit of a value) cost the server nothing beyond the WHEN.
	`CREATE OR REPLACE FUNCTION lokal_reference_update_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lokal_reference_violation(TG_TABLE_NAME || ' (' || TG_NAME || ')');
  RETURN NULL;
END $$`,
	`CREATE TRIGGER translations_key_update AFTER UPDATE ON translations
FOR EACH ROW WHEN (OLD.key_id IS DISTINCT FROM NEW.key_id) EXECUTE FUNCTION lokal_reference_update_check()`,
	`CREATE TRIGGER keys_reference_update AFTER UPDATE ON translation_keys
FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.namespace_id IS DISTINCT FROM NEW.namespace_id) EXECUTE FUNCTION lokal_reference_update_check()`,
	`CREATE TRIGGER namespaces_id_update AFTER UPDATE ON namespaces
FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION lokal_reference_update_check()`,
}
