package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerTrigramSideTables(m *migrate.Migrations) {
	m.MustRegister(migrateTrigramSideTables, noDown)
}

// migrateTrigramSideTables moves PostgreSQL's trigram indexes off the writes (issue 34):
// a GIN entry per trigram of every new value was 0.85 s of a 50,000-key sync's 2.4 CPU-s
// and the keys' another 0.25 s, pending list or not. The indexes now live on side tables
// holding each row's id and folded text (translations_trgm, translation_keys_trgm, the
// names SQLite's FTS5 tables have), filled after the commit by indexPendingTrigrams; a
// write only records the id ranges it inserted, changed the text of or deleted, once per
// statement (trigram_pending, by triggers on the transition tables: 0.1 s per 100,000
// rows). Searches read the side table's matches and the pending rows themselves, and
// check both against the row's text (pgTrigramRows), so that they are exact at once.
//
// Without pg_trgm there are no trigram indexes (migrateSearchIndex) and nothing is
// created here: writes record nothing and searches scan. An operator who adds the
// extension later runs these statements by hand.
func migrateTrigramSideTables(ctx context.Context, db *bun.DB) error {
	if db.Dialect().Name() != dialect.PG {
		return nil
	}
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var schema []string
		if err := tx.NewRaw(`SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`).
			Scan(ctx, &schema); err != nil {
			return err
		}
		if len(schema) == 0 {
			return nil
		}
		if err := execAll(ctx, tx,
			`DROP INDEX IF EXISTS translations_value_trgm`,
			`DROP INDEX IF EXISTS keys_key_trgm`,
			`CREATE TABLE trigram_pending (rel text NOT NULL, lo bigint NOT NULL, hi bigint NOT NULL)`,
			`CREATE TABLE translations_trgm (id bigint PRIMARY KEY, value text)`,
			`CREATE TABLE translation_keys_trgm (id bigint PRIMARY KEY, key text)`,
			`INSERT INTO translations_trgm (id, value) SELECT id, LOWER(value) FROM translations`,
			`INSERT INTO translation_keys_trgm (id, key) SELECT id, LOWER(key) FROM translation_keys`,
		); err != nil {
			return err
		}
		// The names the searches and the merge know (hasIndex, trigramIndexes).
		ops := bun.Ident(schema[0])
		for _, q := range []string{
			`CREATE INDEX translations_value_trgm ON translations_trgm USING gin (value ?.gin_trgm_ops) WITH (gin_pending_list_limit = ` + trigramPendingKB + `)`,
			`CREATE INDEX keys_key_trgm ON translation_keys_trgm USING gin (key ?.gin_trgm_ops) WITH (gin_pending_list_limit = ` + trigramPendingKB + `)`,
		} {
			if _, err := tx.ExecContext(ctx, q, ops); err != nil {
				return err
			}
		}
		return execAll(ctx, tx, trigramPendingTriggers...)
	})
}

// trigramPendingTriggers record the ids a statement inserted, deleted or changed the text
// of as runs of consecutive ids (one row for a bulk insert). An update is compared by id
// between its transition tables: a column list (UPDATE OF value), which would spare
// updates of a status, cannot have them.
var trigramPendingTriggers = []string{
	`CREATE FUNCTION lokal_trigram_pending(ids bigint[], rel text) RETURNS void LANGUAGE sql AS $$
INSERT INTO trigram_pending (rel, lo, hi)
SELECT rel, min(id), max(id) FROM (SELECT id, id - row_number() OVER (ORDER BY id) AS run FROM unnest(ids) AS id) AS r GROUP BY run
$$`,
	`CREATE FUNCTION lokal_trigram_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lokal_trigram_pending(ARRAY(SELECT id FROM new_rows), TG_TABLE_NAME);
  RETURN NULL;
END $$`,
	`CREATE FUNCTION lokal_trigram_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lokal_trigram_pending(ARRAY(SELECT id FROM old_rows), TG_TABLE_NAME);
  RETURN NULL;
END $$`,
	`CREATE FUNCTION lokal_trigram_value_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lokal_trigram_pending(ARRAY(SELECT n.id FROM new_rows AS n JOIN old_rows AS o ON o.id = n.id WHERE o.value IS DISTINCT FROM n.value), TG_TABLE_NAME);
  RETURN NULL;
END $$`,
	`CREATE FUNCTION lokal_trigram_key_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lokal_trigram_pending(ARRAY(SELECT n.id FROM new_rows AS n JOIN old_rows AS o ON o.id = n.id WHERE o.key IS DISTINCT FROM n.key), TG_TABLE_NAME);
  RETURN NULL;
END $$`,
	`CREATE TRIGGER translations_trgm_insert AFTER INSERT ON translations REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION lokal_trigram_inserted()`,
	`CREATE TRIGGER translations_trgm_delete AFTER DELETE ON translations REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION lokal_trigram_deleted()`,
	`CREATE TRIGGER translations_trgm_update AFTER UPDATE ON translations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION lokal_trigram_value_updated()`,
	`CREATE TRIGGER translation_keys_trgm_insert AFTER INSERT ON translation_keys REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION lokal_trigram_inserted()`,
	`CREATE TRIGGER translation_keys_trgm_delete AFTER DELETE ON translation_keys REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION lokal_trigram_deleted()`,
	`CREATE TRIGGER translation_keys_trgm_update AFTER UPDATE ON translation_keys REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION lokal_trigram_key_updated()`,
}
