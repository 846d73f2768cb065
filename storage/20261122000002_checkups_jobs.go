package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerCheckupsJobs(m *migrate.Migrations) { m.MustRegister(migrateCheckupsJobs, noDown) }

// checkupReportV1 is a checkup report as one JSON document of findings: 20261124103001
// replaces the table.
type checkupReportV1 struct {
	bun.BaseModel `bun:"table:checkup_reports"`
	ID            string     `bun:"id,pk,type:varchar(36)"`
	ProjectID     string     `bun:"project_id,notnull,type:varchar(36)"`
	Status        string     `bun:"status,notnull"`
	Summary       string     `bun:"summary,notnull"`
	Findings      string     `bun:"findings,notnull"`
	Trigger       string     `bun:"trigger,notnull"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	CompletedAt   *time.Time `bun:"completed_at"`
}

type jobV1 struct {
	bun.BaseModel `bun:"table:jobs"`
	ID            int64      `bun:"id,pk,autoincrement"`
	Kind          string     `bun:"kind,notnull"`
	ProjectID     string     `bun:"project_id,notnull"`
	Payload       string     `bun:"payload,notnull"`
	Status        string     `bun:"status,notnull"`
	Attempts      int        `bun:"attempts,notnull"`
	RunAt         time.Time  `bun:"run_at,notnull"`
	LockedUntil   *time.Time `bun:"locked_until"`
	LastError     string     `bun:"last_error,notnull"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	UpdatedAt     time.Time  `bun:"updated_at,notnull"`
}

// migrateCheckupsJobs adds the checkup reports and the durable jobs.
func migrateCheckupsJobs(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := createTables(ctx, tx, []table{
			{(*checkupReportV1)(nil), []string{`("project_id") REFERENCES "projects" ("id")`}},
			{(*jobV1)(nil), nil},
		}); err != nil {
			return err
		}
		return createIndexes(ctx, tx, []index{
			{"checkup_reports", "checkups_project_created", false, []string{"project_id", "created_at"}},
			{"jobs", "jobs_due", false, []string{"status", "run_at"}},
			{"jobs", "jobs_kind_project", false, []string{"kind", "project_id", "status"}},
		})
	})
}
