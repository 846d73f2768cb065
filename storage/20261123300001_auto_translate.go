package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerAutoTranslate(m *migrate.Migrations) { m.MustRegister(migrateAutoTranslate, noDown) }

type usageV1 struct {
	bun.BaseModel    `bun:"table:ai_usage"`
	ID               int64     `bun:"id,pk,autoincrement"`
	ProjectID        string    `bun:"project_id,notnull,type:varchar(36)"`
	WorkspaceID      string    `bun:"workspace_id,notnull,type:varchar(36)"`
	Kind             string    `bun:"kind,notnull"`
	Op               string    `bun:"op,notnull"`
	Model            string    `bun:"model,notnull"`
	Language         string    `bun:"language,notnull"`
	PromptTokens     int64     `bun:"prompt_tokens,notnull"`
	CompletionTokens int64     `bun:"completion_tokens,notnull"`
	Strings          int       `bun:"strings,notnull"`
	Translated       int       `bun:"translated,notnull"`
	Failed           int       `bun:"failed,notnull"`
	Outcome          string    `bun:"outcome,notnull"`
	LatencyMS        int64     `bun:"latency_ms,notnull"`
	CreatedAt        time.Time `bun:"created_at,notnull"`
}

type aiFailureV1 struct {
	bun.BaseModel `bun:"table:ai_failures"`
	KeyID         int64     `bun:"key_id,pk"`
	Language      string    `bun:"language,pk"`
	ProjectID     string    `bun:"project_id,notnull,type:varchar(36)"`
	Reason        string    `bun:"reason,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

// migrateAutoTranslate gives jobs a list of items (the keys of one translation batch), and
// adds the AI usage ledger and the strings automatic translation could not translate.
// items and item_count are TEXT and INTEGER here, as released; a database created by a
// later release has them as its jobs row declared them, and 20261124700001 makes both one.
func migrateAutoTranslate(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := addColumns(ctx, tx, []column{
			{"jobs", "items", "TEXT NOT NULL DEFAULT '[]'"},
			{"jobs", "item_count", "INTEGER NOT NULL DEFAULT 0"},
		}); err != nil {
			return err
		}
		if err := createTables(ctx, tx, []table{{(*usageV1)(nil), nil}, {(*aiFailureV1)(nil), nil}}); err != nil {
			return err
		}
		return createIndexes(ctx, tx, []index{
			{"ai_usage", "ai_usage_project_created", false, []string{"project_id", "created_at"}},
			{"ai_failures", "ai_failures_project", false, []string{"project_id", "language"}},
		})
	})
}
