package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerCheckupFindings(m *migrate.Migrations) { m.MustRegister(migrateCheckupFindings, noDown) }

// migrateCheckupFindings replaces checkup reports that were one JSON document of every
// finding with findings as rows shared between reports, a queue of the keys changed since
// the last report, and at most one pending and one running checkup job per project.
//
// The old reports are dropped, not converted: a report is derived data that the next
// checkup recomputes, and converting meant parsing every stored document (hundreds of MB
// each on a big project) while the server waits to start. Every project that had a report
// or a queued checkup gets one checkup job instead, due at once.
func migrateCheckupFindings(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var projects []string
		if err := tx.NewRaw(`SELECT project_id FROM checkup_reports UNION SELECT project_id FROM jobs WHERE kind = 'checkup' AND status IN ('pending', 'running')`).
			Scan(ctx, &projects); err != nil {
			return fmt.Errorf("listing projects with checkups: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DROP TABLE checkup_reports`); err != nil {
			return fmt.Errorf("dropping the old checkup reports: %w", err)
		}
		for _, m := range []any{(*checkupRow)(nil), (*checkupFindingRow)(nil), (*checkupMarkRow)(nil)} {
			q := tx.NewCreateTable().Model(m).IfNotExists()
			if _, ok := m.(*checkupRow); ok {
				q = q.ForeignKey(`("project_id") REFERENCES "projects" ("id")`)
			}
			if _, err := q.Exec(ctx); err != nil {
				return fmt.Errorf("creating table for %T: %w", m, err)
			}
		}
		if err := addColumns(ctx, tx, []column{{"jobs", "singleton", "BOOLEAN NOT NULL DEFAULT FALSE"}}); err != nil {
			return err
		}
		// The checkup jobs queued so far become one per project, below.
		if _, err := tx.ExecContext(ctx, `DELETE FROM jobs WHERE kind = 'checkup' AND status IN ('pending', 'running')`); err != nil {
			return fmt.Errorf("removing queued checkups: %w", err)
		}
		if err := createIndexes(ctx, tx, []index{
			{(*checkupRow)(nil), "checkups_project_created", []string{"project_id", "created_at"}},
			{(*checkupFindingRow)(nil), "checkup_findings_order", []string{"project_id", "namespace_id", "key_id", "language", "kind"}},
			{(*checkupFindingRow)(nil), "checkup_findings_key", []string{"key_id", "last_seq"}},
			{(*checkupMarkRow)(nil), "checkup_queue_project", []string{"project_id", "id"}},
			{(*checkupMarkRow)(nil), "checkup_queue_key", []string{"project_id", "key_id"}},
		}); err != nil {
			return err
		}
		for _, stmt := range []string{
			`CREATE UNIQUE INDEX IF NOT EXISTS checkups_project_seq ON checkup_reports (project_id, seq)`,
			// Pruning looks at closed findings only: most findings stay open.
			`CREATE INDEX IF NOT EXISTS checkup_findings_closed ON checkup_findings (project_id, last_seq) WHERE last_seq IS NOT NULL`,
			// One running report per project: a second runner claims it or waits.
			`CREATE UNIQUE INDEX IF NOT EXISTS checkups_running ON checkup_reports (project_id) WHERE status = 'running'`,
			// A singleton job kind has one pending and one running job per project (EnqueueJob
			// coalesces into the pending one, ClaimJob passes over it while one runs).
			`CREATE UNIQUE INDEX IF NOT EXISTS jobs_singleton_pending ON jobs (kind, project_id) WHERE singleton AND status = 'pending'`,
			`CREATE UNIQUE INDEX IF NOT EXISTS jobs_singleton_running ON jobs (kind, project_id) WHERE singleton AND status = 'running'`,
		} {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("creating a unique index (%s): %w", stmt, err)
			}
		}
		ts := time.Now().UTC()
		for _, p := range projects {
			if _, err := tx.NewInsert().Model(&jobRow{Kind: "checkup", ProjectID: p, Status: jobPending, RunAt: ts, CreatedAt: ts,
				UpdatedAt: ts, Items: "[]", Singleton: true}).Exec(ctx); err != nil {
				return fmt.Errorf("queueing a checkup of %s: %w", p, err)
			}
		}
		return nil
	})
}
