package storage_test

import (
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestCheckupFindingsMigration takes a database back to checkup reports that were one JSON
// document each, with two pending checkups of one project (the old coalescing could race
// into two), and opens it again: the old reports are gone, the project has one checkup
// job due, and the checkup that job runs stores a report.
func TestCheckupFindingsMigration(t *testing.T) {
	skipUpgradeInShort(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		// A schema of its own (EmptyDSN, migrated by Open): the test takes the schema back to
		// an earlier release's, which a pooled database must never carry to the next test.
		dsn := storagetest.EmptyDSN(t, dialect)
		db, err := storage.Open(t.Context(), dsn, nil)
		if err != nil {
			t.Fatal(err)
		}
		cat := storagetest.Catalog(db, nil)
		p := project(t, cat)
		db.Close()

		raw := storagetest.SQL(t, dsn)
		for _, q := range []string{
			"DROP TABLE checkup_findings",
			"DROP TABLE checkup_queue",
			"DROP TABLE checkup_reports",
			`CREATE TABLE checkup_reports (id VARCHAR(36) PRIMARY KEY, project_id VARCHAR(36) NOT NULL, status TEXT NOT NULL,
				summary TEXT NOT NULL, findings TEXT NOT NULL, "trigger" TEXT NOT NULL, created_at TIMESTAMP NOT NULL, completed_at TIMESTAMP)`,
			`INSERT INTO checkup_reports VALUES ('7c5a4a44-5a43-4c55-9a6f-3a3f4b1b2c01', '` + p.ID + `', 'completed',
				'{"total":1}', '[{"kind":"missing_translation","namespace":"app","key":"hi","language":"nb","message":"translation is missing"}]',
				'job', '2026-11-20 10:00:00', '2026-11-20 10:00:01')`,
			"DROP INDEX jobs_singleton_pending",
			"DROP INDEX jobs_singleton_running",
			"ALTER TABLE jobs DROP COLUMN singleton",
			`INSERT INTO jobs (kind, project_id, payload, status, attempts, run_at, last_error, created_at, updated_at, items, item_count)
				VALUES ('checkup', '` + p.ID + `', '', 'pending', 0, '2026-11-20 10:00:00', '', '2026-11-20 10:00:00', '2026-11-20 10:00:00', '[]', 0),
				       ('checkup', '` + p.ID + `', '', 'pending', 0, '2026-11-20 10:00:00', '', '2026-11-20 10:00:00', '2026-11-20 10:00:00', '[]', 0)`,
			"DELETE FROM bun_migrations WHERE name = '20261124103001'",
		} {
			if _, err := raw.ExecContext(t.Context(), q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		raw.Close()

		db, err = storage.Open(t.Context(), dsn, &storage.Options{MustExist: true})
		if err != nil {
			t.Fatalf("migrating the older schema: %v", err)
		}
		defer db.Close()
		cat = storagetest.Catalog(db, nil)
		if _, err := cat.GetCheckupReport(sys(t), tools.CheckupIn{ProjectArg: tools.ProjectArg{ProjectID: p.ID}}); model.ErrorCode(err) != model.CodeNotFound {
			t.Errorf("the old report after the migration: %v, want not_found (dropped)", err)
		}
		var jobs []model.Job
		if err := db.View(t.Context(), func(tx model.Tx) (err error) {
			jobs, err = tx.QueuedJobs(t.Context(), p.ID, tools.JobCheckup)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if len(jobs) != 1 || jobs[0].Status != "pending" {
			t.Fatalf("checkup jobs after the migration: %+v, want one pending", jobs)
		}
		r, err := cat.RunCheckup(sys(t), p.ID, "job")
		if err != nil || r.Status != "completed" || !r.Full {
			t.Fatalf("the first checkup after the migration: %+v, %v; want a completed full pass", r.CheckupReport, err)
		}
	})
}
