package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerEmbed(m *migrate.Migrations) { m.MustRegister(migrateEmbed, noDown) }

type pingV1 struct {
	bun.BaseModel `bun:"table:embed_pings"`
	ProjectID     string    `bun:"project_id,pk,type:varchar(36)"`
	At            time.Time `bun:"at,notnull"`
}

type demandV1 struct {
	bun.BaseModel `bun:"table:embed_demand"`
	ProjectID     string    `bun:"project_id,pk,type:varchar(36)"`
	Language      string    `bun:"language,pk"`
	Day           time.Time `bun:"day,pk"`
	Reads         int64     `bun:"reads,notnull"`
}

// migrateEmbed adds what the Embed needs: a workspace's authorized hosts, host limit and
// emergency switch; the newest install ping per project (kept seven days); and visitor
// demand per language and day.
func migrateEmbed(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := addColumns(ctx, tx, []column{
			{"workspaces", "authorized_hosts", "TEXT NOT NULL DEFAULT ''"},
			{"workspaces", "host_limit", "INTEGER NOT NULL DEFAULT 0"},
			{"workspaces", "embed_off", "BOOLEAN NOT NULL DEFAULT FALSE"},
		}); err != nil {
			return err
		}
		toProjects := []string{`("project_id") REFERENCES "projects" ("id")`}
		if err := createTables(ctx, tx, []table{{(*pingV1)(nil), toProjects}, {(*demandV1)(nil), toProjects}}); err != nil {
			return err
		}
		return createIndexes(ctx, tx, []index{{"embed_pings", "embed_pings_at", false, []string{"at"}}})
	})
}
