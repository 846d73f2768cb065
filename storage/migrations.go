package storage

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/lokal-dev/lokal/tools/secrets"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// migrations are Go functions so that one model set creates the same schema on SQLite and
// PostgreSQL; bun renders the dialect's types.
func migrations(box *secrets.Box) *migrate.Migrations {
	m := migrate.NewMigrations()
	registerCore(m)
	registerCheckupsJobs(m)
	registerTokensHosts(m)
	registerRateEvents(m)
	registerHistoryKinds(m)
	registerAISettings(m)
	registerAutoTranslate(m)
	registerEmbed(m)
	registerWebhooksRedeploy(m)
	registerEditor(m)
	registerCheckupFindings(m)
	registerSealedHookURLs(m, box)
	registerProjectSyntax(m)
	return m
}

// Each migration lives in a file named VERSION_name.go and registers itself from there:
// bun takes the migration's name from the registering file.

func noDown(context.Context, *bun.DB) error { return fmt.Errorf("lokal never drops data") }

func migrateCore(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		tables := []struct {
			model any
			fks   []string
		}{
			{(*metaRow)(nil), nil},
			{(*revisionRow)(nil), nil},
			{(*workspaceRow)(nil), nil},
			{(*userRow)(nil), []string{`("workspace_id") REFERENCES "workspaces" ("id")`}},
			{(*projectRow)(nil), []string{`("workspace_id") REFERENCES "workspaces" ("id")`}},
			{(*languageRow)(nil), []string{`("project_id") REFERENCES "projects" ("id")`}},
			{(*namespaceRow)(nil), []string{`("project_id") REFERENCES "projects" ("id")`}},
			{(*keyRow)(nil), []string{`("namespace_id") REFERENCES "namespaces" ("id")`}},
			{(*translationRow)(nil), []string{`("key_id") REFERENCES "translation_keys" ("id")`}},
			{(*historyRow)(nil), nil},
			{(*commentRow)(nil), []string{`("key_id") REFERENCES "translation_keys" ("id")`}},
			{(*glossaryRow)(nil), []string{`("project_id") REFERENCES "projects" ("id")`}},
			{(*dntTermRow)(nil), []string{`("project_id") REFERENCES "projects" ("id")`}},
			{(*substitutionRow)(nil), []string{`("project_id") REFERENCES "projects" ("id")`}},
			{(*tokenRow)(nil), nil},
		}
		for _, t := range tables {
			q := tx.NewCreateTable().Model(t.model).IfNotExists()
			for _, fk := range t.fks {
				q = q.ForeignKey(fk)
			}
			if _, err := q.Exec(ctx); err != nil {
				return fmt.Errorf("creating table for %T: %w", t.model, err)
			}
		}
		indexes := []struct {
			model  any
			name   string
			unique bool
			cols   []string
		}{
			{(*userRow)(nil), "users_workspace_email", true, []string{"workspace_id", "email"}},
			{(*projectRow)(nil), "projects_workspace", false, []string{"workspace_id"}},
			{(*projectRow)(nil), "projects_revision", false, []string{"revision"}},
			{(*namespaceRow)(nil), "namespaces_project_key", true, []string{"project_id", "key"}},
			{(*keyRow)(nil), "keys_namespace_hash", true, []string{"namespace_id", "key_hash"}},
			{(*translationRow)(nil), "translations_key_language", true, []string{"key_id", "language"}},
			{(*translationRow)(nil), "translations_updated", false, []string{"updated_at"}},
			{(*historyRow)(nil), "history_key_language", false, []string{"key_id", "language", "id"}},
			{(*historyRow)(nil), "history_created", false, []string{"created_at"}},
			{(*commentRow)(nil), "comments_key_language", false, []string{"key_id", "language"}},
			{(*glossaryRow)(nil), "glossary_project", false, []string{"project_id"}},
			{(*dntTermRow)(nil), "dnt_project", false, []string{"project_id"}},
			{(*substitutionRow)(nil), "substitutions_project", false, []string{"project_id"}},
			{(*tokenRow)(nil), "tokens_project", false, []string{"project_id"}},
		}
		for _, ix := range indexes {
			q := tx.NewCreateIndex().Model(ix.model).Index(ix.name).Column(ix.cols...).IfNotExists()
			if ix.unique {
				q = q.Unique()
			}
			if _, err := q.Exec(ctx); err != nil {
				return fmt.Errorf("creating index %s: %w", ix.name, err)
			}
		}
		secret := make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(&metaRow{Name: metaTokenKey, Value: hex.EncodeToString(secret)}).
			On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
			return fmt.Errorf("storing token key: %w", err)
		}
		if _, err := tx.NewInsert().Model(&revisionRow{ID: 1}).On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
			return fmt.Errorf("storing revision counter: %w", err)
		}
		return nil
	})
}

const metaTokenKey = "token_key"
