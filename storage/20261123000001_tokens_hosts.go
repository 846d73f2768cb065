package storage

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerTokensHosts(m *migrate.Migrations) { m.MustRegister(migrateTokensHosts, noDown) }

// migrateTokensHosts adds what the operator's key and token lists show (a non-secret prefix,
// the last use) and the table binding site hosts to projects.
func migrateTokensHosts(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		// The core migration creates tokens from today's model, so a new database already
		// has these columns; only older ones get them here.
		for _, col := range []struct{ name, def string }{
			{"prefix", "VARCHAR NOT NULL DEFAULT ''"},
			{"last_used_at", "TIMESTAMP"},
		} {
			def := col.def
			if db.Dialect().Name() == dialect.PG && col.name == "last_used_at" {
				def = "TIMESTAMPTZ"
			}
			has, err := hasColumn(ctx, tx, "tokens", col.name)
			if err != nil {
				return err
			}
			if has {
				continue
			}
			if _, err := tx.ExecContext(ctx, "ALTER TABLE tokens ADD COLUMN "+col.name+" "+def); err != nil {
				return fmt.Errorf("adding tokens.%s: %w", col.name, err)
			}
		}
		if _, err := tx.NewCreateTable().Model((*projectHostRow)(nil)).IfNotExists().
			ForeignKey(`("project_id") REFERENCES "projects" ("id")`).Exec(ctx); err != nil {
			return fmt.Errorf("creating project_hosts: %w", err)
		}
		if _, err := tx.NewCreateIndex().Model((*projectHostRow)(nil)).Index("project_hosts_project").
			Column("project_id").IfNotExists().Exec(ctx); err != nil {
			return fmt.Errorf("creating index project_hosts_project: %w", err)
		}
		if _, err := tx.NewCreateIndex().Model((*tokenRow)(nil)).Index("tokens_user").
			Column("user_id").IfNotExists().Exec(ctx); err != nil {
			return fmt.Errorf("creating index tokens_user: %w", err)
		}
		return nil
	})
}

// hasColumn reports whether table has column, on either dialect.
func hasColumn(ctx context.Context, tx bun.Tx, table, column string) (bool, error) {
	var n int
	q := "SELECT COUNT(*) FROM pragma_table_info(?) WHERE name = ?"
	if tx.Dialect().Name() == dialect.PG {
		q = "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? AND column_name = ?"
	}
	if err := tx.NewRaw(q, table, column).Scan(ctx, &n); err != nil {
		return false, fmt.Errorf("looking up column %s.%s: %w", table, column, err)
	}
	return n > 0, nil
}
