package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerCheckupFindings(m *migrate.Migrations) { m.MustRegister(migrateCheckupFindings, noDown) }

type checkupReportV2 struct {
	bun.BaseModel `bun:"table:checkup_reports"`
	ID            string     `bun:"id,pk,type:varchar(36)"`
	ProjectID     string     `bun:"project_id,notnull,type:varchar(36)"`
	Seq           int64      `bun:"seq,notnull"`
	Status        string     `bun:"status,notnull"`
	Trigger       string     `bun:"trigger,notnull"`
	Full          bool       `bun:"full_pass,notnull"`
	Fingerprint   string     `bun:"fingerprint,notnull"`
	Counts        string     `bun:"counts,notnull"`
	Summary       string     `bun:"summary,notnull"`
	KeysChecked   int        `bun:"keys_checked,notnull"`
	CursorNS      int64      `bun:"cursor_ns,notnull"`
	CursorKey     int64      `bun:"cursor_key,notnull"`
	Runner        string     `bun:"runner,notnull"`
	LockedUntil   time.Time  `bun:"locked_until,notnull"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	CompletedAt   *time.Time `bun:"completed_at"`
}

type checkupFindingV1 struct {
	bun.BaseModel `bun:"table:checkup_findings"`
	ID            int64  `bun:"id,pk,autoincrement"`
	ProjectID     string `bun:"project_id,notnull,type:varchar(36)"`
	NamespaceID   int64  `bun:"namespace_id,notnull"`
	KeyID         int64  `bun:"key_id,notnull"`
	Language      string `bun:"language,notnull"`
	Kind          string `bun:"kind,notnull"`
	Message       string `bun:"message,notnull"`
	Detail        string `bun:"detail,notnull"`
	FirstSeq      int64  `bun:"first_seq,notnull"`
	LastSeq       *int64 `bun:"last_seq"`
}

type checkupMarkV1 struct {
	bun.BaseModel `bun:"table:checkup_queue"`
	ID            int64  `bun:"id,pk,autoincrement"`
	ProjectID     string `bun:"project_id,notnull,type:varchar(36)"`
	KeyID         int64  `bun:"key_id,notnull"`
}

// checkupJobV2 is the job row this migration queues, with the columns jobs has by then.
type checkupJobV2 struct {
	bun.BaseModel `bun:"table:jobs"`
	ID            int64     `bun:"id,pk,autoincrement"`
	Kind          string    `bun:"kind,notnull"`
	ProjectID     string    `bun:"project_id,notnull"`
	Payload       string    `bun:"payload,notnull"`
	Status        string    `bun:"status,notnull"`
	Attempts      int       `bun:"attempts,notnull"`
	RunAt         time.Time `bun:"run_at,notnull"`
	LastError     string    `bun:"last_error,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
	UpdatedAt     time.Time `bun:"updated_at,notnull"`
	Items         string    `bun:"items,notnull"`
	ItemCount     int       `bun:"item_count,notnull"`
	Singleton     bool      `bun:"singleton,notnull"`
}

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
		if err := createTables(ctx, tx, []table{
			{(*checkupReportV2)(nil), []string{`("project_id") REFERENCES "projects" ("id")`}},
			{(*checkupFindingV1)(nil), nil},
			{(*checkupMarkV1)(nil), nil},
		}); err != nil {
			return err
		}
		if err := addColumns(ctx, tx, []column{{"jobs", "singleton", "BOOLEAN NOT NULL DEFAULT FALSE"}}); err != nil {
			return err
		}
		// The checkup jobs queued so far become one per project, below.
		if _, err := tx.ExecContext(ctx, `DELETE FROM jobs WHERE kind = 'checkup' AND status IN ('pending', 'running')`); err != nil {
			return fmt.Errorf("removing queued checkups: %w", err)
		}
		if err := createIndexes(ctx, tx, []index{
			{"checkup_reports", "checkups_project_created", false, []string{"project_id", "created_at"}},
			{"checkup_findings", "checkup_findings_order", false, []string{"project_id", "namespace_id", "key_id", "language", "kind"}},
			{"checkup_findings", "checkup_findings_key", false, []string{"key_id", "last_seq"}},
			{"checkup_queue", "checkup_queue_project", false, []string{"project_id", "id"}},
			{"checkup_queue", "checkup_queue_key", false, []string{"project_id", "key_id"}},
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
			if _, err := tx.NewInsert().Model(&checkupJobV2{Kind: "checkup", ProjectID: p, Status: "pending", RunAt: ts, CreatedAt: ts,
				UpdatedAt: ts, Items: "[]", Singleton: true}).Exec(ctx); err != nil {
				return fmt.Errorf("queueing a checkup of %s: %w", p, err)
			}
		}
		return nil
	})
}
