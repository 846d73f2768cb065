package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerTokensHosts(m *migrate.Migrations) { m.MustRegister(migrateTokensHosts, noDown) }

type projectHostV1 struct {
	bun.BaseModel `bun:"table:project_hosts"`
	Host          string    `bun:"host,pk"`
	ProjectID     string    `bun:"project_id,notnull,type:varchar(36)"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

// migrateTokensHosts adds what the operator's key and token lists show (a non-secret prefix,
// the last use) and the table binding site hosts to projects.
func migrateTokensHosts(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
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
		if err := createTables(ctx, tx, []table{
			{(*projectHostV1)(nil), []string{`("project_id") REFERENCES "projects" ("id")`}},
		}); err != nil {
			return err
		}
		return createIndexes(ctx, tx, []index{
			{"project_hosts", "project_hosts_project", false, []string{"project_id"}},
			{"tokens", "tokens_user", false, []string{"user_id"}},
		})
	})
}
