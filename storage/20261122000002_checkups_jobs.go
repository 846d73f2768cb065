package storage

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerCheckupsJobs(m *migrate.Migrations) { m.MustRegister(migrateCheckupsJobs, noDown) }

func migrateCheckupsJobs(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewCreateTable().Model((*checkupRow)(nil)).IfNotExists().
			ForeignKey(`("project_id") REFERENCES "projects" ("id")`).Exec(ctx); err != nil {
			return fmt.Errorf("creating checkup_reports: %w", err)
		}
		if _, err := tx.NewCreateTable().Model((*jobRow)(nil)).IfNotExists().Exec(ctx); err != nil {
			return fmt.Errorf("creating jobs: %w", err)
		}
		if err := createIndexes(ctx, tx, []index{
			{(*checkupRow)(nil), "checkups_project_created", []string{"project_id", "created_at"}},
			{(*jobRow)(nil), "jobs_due", []string{"status", "run_at"}},
			{(*jobRow)(nil), "jobs_kind_project", []string{"kind", "project_id", "status"}},
		}); err != nil {
			return err
		}
		return nil
	})
}
