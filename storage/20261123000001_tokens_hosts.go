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
		lastUsed := "TIMESTAMP"
		if db.Dialect().Name() == dialect.PG {
			lastUsed = "TIMESTAMPTZ"
		}
		if err := addColumns(ctx, tx, []column{
			{"tokens", "prefix", "VARCHAR NOT NULL DEFAULT ''"},
			{"tokens", "last_used_at", lastUsed},
		}); err != nil {
			return err
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

// column is one column a migration adds: table, name and SQL definition.
type column struct{ table, name, def string }

// addColumns adds the columns a table lacks: a database that the model of a later
// release created already has them.
func addColumns(ctx context.Context, tx bun.Tx, cols []column) error {
	for _, col := range cols {
		has, err := hasColumn(ctx, tx, col.table, col.name)
		if err != nil {
			return err
		}
		if has {
			continue
		}
		if _, err := tx.ExecContext(ctx, "ALTER TABLE "+col.table+" ADD COLUMN "+col.name+" "+col.def); err != nil {
			return fmt.Errorf("adding %s.%s: %w", col.table, col.name, err)
		}
	}
	return nil
}

// index is one index a migration creates on a model's table.
type index struct {
	model any
	name  string
	cols  []string
}

// createIndexes creates the indexes that do not exist yet.
func createIndexes(ctx context.Context, tx bun.Tx, ixs []index) error {
	for _, ix := range ixs {
		if _, err := tx.NewCreateIndex().Model(ix.model).Index(ix.name).Column(ix.cols...).IfNotExists().Exec(ctx); err != nil {
			return fmt.Errorf("creating index %s: %w", ix.name, err)
		}
	}
	return nil
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
