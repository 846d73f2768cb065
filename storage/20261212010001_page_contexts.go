package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerPageContexts(m *migrate.Migrations) { m.MustRegister(migratePageContexts, noDown) }

type pageContextV1 struct {
	bun.BaseModel `bun:"table:page_contexts"`
	KeyID         int64     `bun:"key_id,pk"`
	URL           string    `bun:"url,pk"`
	ProjectID     string    `bun:"project_id,notnull"`
	Title         string    `bun:"title,notnull"`
	Role          string    `bun:"role,notnull"`
	Before        string    `bun:"before_text,notnull"`
	After         string    `bun:"after_text,notnull"`
	Width         float64   `bun:"width,notnull"`
	Box           float64   `bun:"box,notnull"`
	Position      int       `bun:"position,notnull"`
	SeenAt        time.Time `bun:"seen_at,notnull"`
	Who           string    `bun:"who,notnull"`
}

// migratePageContexts adds where keys were seen on a site's pages (issue 36, review in
// context): one row per key and page URL, replaced when seen again, for the editor's rows,
// the AI's prompt and a page's keys in order (page_contexts_page).
func migratePageContexts(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := createTables(ctx, tx, []table{
			{(*pageContextV1)(nil), []string{`("key_id") REFERENCES "translation_keys" ("id")`}},
		}); err != nil {
			return err
		}
		return createIndexes(ctx, tx, []index{
			{"page_contexts", "page_contexts_page", false, []string{"project_id", "url", "position"}},
		})
	})
}
