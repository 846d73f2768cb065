package storage

import (
	"context"
	"time"

	"github.com/lokal-dev/lokal/tools"
	"github.com/uptrace/bun"
)

// Job states.
const (
	jobPending = "pending"
	jobRunning = "running"
	jobDone    = "done"
	jobFailed  = "failed"
)

func (t *tx) EnqueueJob(ctx context.Context, j tools.Job, coalesce bool) error {
	ts := now()
	if j.RunAt.IsZero() {
		j.RunAt = ts
	}
	if coalesce {
		exists, err := t.tx.NewSelect().Model((*jobRow)(nil)).Where("kind = ?", j.Kind).Where("project_id = ?", j.ProjectID).
			Where("status = ?", jobPending).Exists(ctx)
		if err != nil {
			return mapError(err)
		}
		if exists {
			return nil
		}
	}
	_, err := t.tx.NewInsert().Model(&jobRow{Kind: j.Kind, ProjectID: j.ProjectID, Payload: j.Payload, Status: jobPending,
		RunAt: j.RunAt.UTC(), CreatedAt: ts, UpdatedAt: ts}).Exec(ctx)
	return mapError(err)
}

func (t *tx) ClaimJob(ctx context.Context, at time.Time, lease time.Duration) (tools.Job, error) {
	at = at.UTC()
	// A running job whose lease ran out belongs to a process that died: it is due again.
	q := t.tx.NewSelect().Model((*jobRow)(nil)).Column("id").
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.WhereGroup(" OR ", func(q *bun.SelectQuery) *bun.SelectQuery {
				return q.Where("status = ?", jobPending).Where("run_at <= ?", at)
			}).WhereGroup(" OR ", func(q *bun.SelectQuery) *bun.SelectQuery {
				return q.Where("status = ?", jobRunning).Where("locked_until < ?", at)
			})
		}).Order("run_at").Limit(1)
	if t.db.postgres {
		q = q.For("UPDATE SKIP LOCKED")
	}
	var id int64
	if err := q.Scan(ctx, &id); err != nil {
		return tools.Job{}, notFound(err, "due job")
	}
	var r jobRow
	if err := t.tx.NewUpdate().Model(&r).Set("status = ?", jobRunning).Set("attempts = attempts + 1").
		Set("locked_until = ?", at.Add(lease)).Set("updated_at = ?", now()).Where("id = ?", id).
		Returning("*").Scan(ctx); err != nil {
		return tools.Job{}, mapError(err)
	}
	return tools.Job{ID: r.ID, Kind: r.Kind, ProjectID: r.ProjectID, Payload: r.Payload, Attempts: r.Attempts, RunAt: r.RunAt}, nil
}

func (t *tx) FinishJob(ctx context.Context, id int64, failure error, retryAt time.Time) error {
	q := t.tx.NewUpdate().Model((*jobRow)(nil)).Set("locked_until = NULL").Set("updated_at = ?", now()).Where("id = ?", id)
	switch {
	case failure == nil:
		q = q.Set("status = ?", jobDone)
	case retryAt.IsZero():
		q = q.Set("status = ?", jobFailed).Set("last_error = ?", truncateErr(failure))
	default:
		q = q.Set("status = ?", jobPending).Set("run_at = ?", retryAt.UTC()).Set("last_error = ?", truncateErr(failure))
	}
	_, err := q.Exec(ctx)
	return mapError(err)
}

func truncateErr(err error) string {
	s := err.Error()
	if len(s) > 2000 {
		s = s[:2000]
	}
	return s
}
