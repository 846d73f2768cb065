package storage

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerOneSchema(m *migrate.Migrations) { m.MustRegister(migrateOneSchema, noDown) }

// migrateOneSchema gives every database the same three columns, whichever release created
// it. Until now the first migrations created tables from the live row structs, so a
// database took the declarations of the release that created it, and the columns later
// migrations added "if missing" differed from those:
//
//   - jobs.items: TEXT where 20261123300001 added it, VARCHAR where the jobs row of a later
//     release created it; jobs.item_count INTEGER or BIGINT likewise (PostgreSQL);
//   - jobs.singleton: DEFAULT FALSE or false (SQLite keeps the spelling);
//   - projects.syntax: an empty default where 20261124600001 added it, none where the release
//     that shipped it created the table.
//
// All take what a database created by that last release has. PostgreSQL alters the
// columns; SQLite cannot, so it rebuilds the two tables when they differ.
func migrateOneSchema(ctx context.Context, db *bun.DB) error {
	if db.Dialect().Name() == dialect.PG {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			return execAll(ctx, tx,
				`ALTER TABLE jobs ALTER COLUMN items TYPE VARCHAR, ALTER COLUMN items SET DEFAULT '[]', ALTER COLUMN item_count TYPE BIGINT`,
				`ALTER TABLE projects ALTER COLUMN syntax DROP DEFAULT`)
		})
	}
	// Rebuilding a table that others reference needs foreign keys off, which SQLite only
	// switches outside a transaction: on a connection of the migration's own.
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
		return err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = ON") //nolint:errcheck
	return conn.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := sqliteRebuild(ctx, tx, "jobs",
			`SELECT COUNT(*) FROM pragma_table_info('jobs') WHERE (name = 'items' AND type <> 'VARCHAR') OR (name = 'singleton' AND dflt_value <> 'false')`,
			`CREATE TABLE %s ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "kind" VARCHAR NOT NULL, "project_id" VARCHAR NOT NULL, "payload" VARCHAR NOT NULL, "status" VARCHAR NOT NULL, "attempts" INTEGER NOT NULL, "run_at" TIMESTAMP NOT NULL, "locked_until" TIMESTAMP, "last_error" VARCHAR NOT NULL, "created_at" TIMESTAMP NOT NULL, "updated_at" TIMESTAMP NOT NULL, "items" VARCHAR NOT NULL DEFAULT '[]', "item_count" INTEGER NOT NULL DEFAULT 0, "singleton" BOOLEAN NOT NULL DEFAULT false)`,
			`CREATE INDEX "jobs_due" ON "jobs" ("status", "run_at")`,
			`CREATE INDEX "jobs_kind_project" ON "jobs" ("kind", "project_id", "status")`,
			`CREATE UNIQUE INDEX jobs_singleton_pending ON jobs (kind, project_id) WHERE singleton AND status = 'pending'`,
			`CREATE UNIQUE INDEX jobs_singleton_running ON jobs (kind, project_id) WHERE singleton AND status = 'running'`,
		); err != nil {
			return err
		}
		return sqliteRebuild(ctx, tx, "projects",
			`SELECT COUNT(*) FROM pragma_table_info('projects') WHERE name = 'syntax' AND dflt_value IS NOT NULL`,
			`CREATE TABLE %s ("id" varchar(36) NOT NULL, "workspace_id" varchar(36) NOT NULL, "title" VARCHAR NOT NULL, "source_language" VARCHAR NOT NULL, "integration_type" VARCHAR NOT NULL, "active" BOOLEAN NOT NULL, "revision" INTEGER NOT NULL, "allowed_origins" VARCHAR NOT NULL, "show_switcher" BOOLEAN NOT NULL, "keep_site_current" BOOLEAN NOT NULL, "embed_mode" VARCHAR NOT NULL, "jit_harvest" BOOLEAN NOT NULL, "auto_apply" BOOLEAN NOT NULL, "ai_provider" VARCHAR NOT NULL, "ai_model" VARCHAR NOT NULL, "ai_base_url" VARCHAR NOT NULL, "ai_key" VARCHAR NOT NULL, "deploy_provider" VARCHAR NOT NULL, "deploy_repo" VARCHAR NOT NULL, "deploy_workflow" VARCHAR NOT NULL, "deploy_ref" VARCHAR NOT NULL, "deploy_token" VARCHAR NOT NULL, "syntax" VARCHAR NOT NULL, "created_at" TIMESTAMP NOT NULL, "updated_at" TIMESTAMP NOT NULL, ai_instructions TEXT NOT NULL DEFAULT '', deploy_inputs VARCHAR NOT NULL DEFAULT '', deploy_api_url VARCHAR NOT NULL DEFAULT '', deploy_url VARCHAR NOT NULL DEFAULT '', PRIMARY KEY ("id"), FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id"))`,
			`CREATE INDEX "projects_workspace" ON "projects" ("workspace_id")`,
			`CREATE INDEX "projects_revision" ON "projects" ("revision")`,
		)
	})
}

// sqliteRebuild replaces table, when the query differs counts more than zero, with the one
// create makes (%s is its name), copying every row and the AUTOINCREMENT counter, then
// creates its indexes: SQLite's procedure for a change ALTER TABLE cannot make.
func sqliteRebuild(ctx context.Context, tx bun.Tx, table, differs, create string, indexes ...string) error {
	var n int
	if err := tx.NewRaw(differs).Scan(ctx, &n); err != nil {
		return fmt.Errorf("comparing %s: %w", table, err)
	}
	if n == 0 {
		return nil
	}
	var cols []string
	if err := tx.NewRaw(`SELECT name FROM pragma_table_info(?) ORDER BY cid`, table).Scan(ctx, &cols); err != nil {
		return fmt.Errorf("listing the columns of %s: %w", table, err)
	}
	for i, c := range cols {
		cols[i] = `"` + c + `"`
	}
	var seq sql.NullInt64
	if err := tx.NewRaw(`SELECT MAX(seq) FROM sqlite_sequence WHERE name = ?`, table).Scan(ctx, &seq); err != nil {
		return fmt.Errorf("reading the counter of %s: %w", table, err)
	}
	list, next := strings.Join(cols, ", "), table+"_next"
	stmts := []string{
		fmt.Sprintf(create, `"`+next+`"`),
		fmt.Sprintf(`INSERT INTO "%s" (%s) SELECT %s FROM "%s"`, next, list, list, table),
		fmt.Sprintf(`DROP TABLE "%s"`, table),
		fmt.Sprintf(`ALTER TABLE "%s" RENAME TO "%s"`, next, table),
	}
	if err := execAll(ctx, tx, append(stmts, indexes...)...); err != nil {
		return fmt.Errorf("rebuilding %s: %w", table, err)
	}
	if seq.Valid {
		if _, err := tx.ExecContext(ctx, `UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = ?`, seq.Int64, table); err != nil {
			return fmt.Errorf("restoring the counter of %s: %w", table, err)
		}
	}
	var broken int
	if err := tx.NewRaw(`SELECT COUNT(*) FROM pragma_foreign_key_check`).Scan(ctx, &broken); err != nil {
		return fmt.Errorf("checking foreign keys after rebuilding %s: %w", table, err)
	}
	if broken > 0 {
		return fmt.Errorf("rebuilding %s: %d rows lost their foreign key", table, broken)
	}
	return nil
}
