package storage

import (
	"context"
	"encoding/json"
	"fmt"
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
	row := jobRow{Kind: j.Kind, ProjectID: j.ProjectID, Payload: j.Payload, Status: jobPending,
		RunAt: j.RunAt.UTC(), CreatedAt: ts, UpdatedAt: ts}
	q := t.tx.NewInsert().Model(&row)
	if coalesce {
		// The pending job absorbs this one. Its row is updated, not just found: on
		// PostgreSQL that locks it until this write commits, so a worker's claim (SKIP
		// LOCKED) cannot start it on a snapshot without this write's changes.
		row.Singleton = true
		q = q.On("CONFLICT (kind, project_id) WHERE singleton AND status = 'pending' DO UPDATE").
			Set("updated_at = EXCLUDED.updated_at")
	}
	_, err := q.Exec(ctx)
	return mapError(err)
}

func (t *tx) ClaimJob(ctx context.Context, at time.Time, lease time.Duration) (tools.Job, error) {
	at = at.UTC()
	// A running job whose lease ran out belongs to a process that died: it is due again. A
	// singleton job waits while its kind runs for its project.
	q := t.tx.NewSelect().TableExpr("jobs AS j").Column("j.id").
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.WhereGroup(" OR ", func(q *bun.SelectQuery) *bun.SelectQuery {
				return q.Where("j.status = ?", jobPending).Where("j.run_at <= ?", at)
			}).WhereGroup(" OR ", func(q *bun.SelectQuery) *bun.SelectQuery {
				return q.Where("j.status = ?", jobRunning).Where("j.locked_until < ?", at)
			})
		}).
		Where("NOT (j.singleton AND j.status = ? AND EXISTS (SELECT 1 FROM jobs AS r WHERE r.kind = j.kind AND r.project_id = j.project_id AND r.singleton AND r.status = ?))",
			jobPending, jobRunning).
		OrderExpr("j.run_at").Limit(1)
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
	return jobOf(r)
}

func jobOf(r jobRow) (tools.Job, error) {
	j := tools.Job{ID: r.ID, Kind: r.Kind, ProjectID: r.ProjectID, Payload: r.Payload, Attempts: r.Attempts, RunAt: r.RunAt,
		ItemCount: r.ItemCount, Status: r.Status}
	if r.Items != "" && r.Items != "[]" {
		if err := json.Unmarshal([]byte(r.Items), &j.Items); err != nil {
			return tools.Job{}, fmt.Errorf("job %d has unreadable items: %w", r.ID, err)
		}
	}
	return j, nil
}

func (t *tx) EnqueueItems(ctx context.Context, j tools.Job, max int) error {
	if len(j.Items) == 0 {
		return nil
	}
	ts := now()
	if j.RunAt.IsZero() {
		j.RunAt = ts
	}
	var open []jobRow
	q := t.tx.NewSelect().Model(&open).Where("kind = ?", j.Kind).Where("project_id = ?", j.ProjectID).
		Where("payload = ?", j.Payload).Where("status = ?", jobPending).Order("id")
	if t.db.postgres {
		q = q.For("UPDATE") // a worker's SKIP LOCKED claim passes over a job being filled
	}
	if err := q.Scan(ctx); err != nil {
		return mapError(err)
	}
	pending := make([][]string, len(open))
	seen := map[string]bool{}
	for i, r := range open {
		jr, err := jobOf(r)
		if err != nil {
			return err
		}
		pending[i] = jr.Items
		for _, it := range jr.Items {
			seen[it] = true
		}
	}
	var todo []string
	for _, it := range j.Items {
		if !seen[it] {
			seen[it] = true
			todo = append(todo, it)
		}
	}
	for i := range open {
		if len(todo) == 0 {
			break
		}
		room := max - len(pending[i])
		if room <= 0 {
			continue
		}
		n := min(room, len(todo))
		items := append(pending[i], todo[:n]...)
		todo = todo[n:]
		b, err := json.Marshal(items)
		if err != nil {
			return err
		}
		if _, err := t.tx.NewUpdate().Model((*jobRow)(nil)).Set("items = ?", string(b)).Set("item_count = ?", len(items)).
			Set("updated_at = ?", ts).Where("id = ?", open[i].ID).Exec(ctx); err != nil {
			return mapError(err)
		}
	}
	var rows []jobRow
	for len(todo) > 0 {
		n := min(max, len(todo))
		b, err := json.Marshal(todo[:n])
		if err != nil {
			return err
		}
		rows = append(rows, jobRow{Kind: j.Kind, ProjectID: j.ProjectID, Payload: j.Payload, Status: jobPending,
			RunAt: j.RunAt.UTC(), CreatedAt: ts, UpdatedAt: ts, Items: string(b), ItemCount: n})
		todo = todo[n:]
	}
	for start := 0; start < len(rows); start += 500 {
		chunk := rows[start:min(start+500, len(rows))]
		if _, err := t.tx.NewInsert().Model(&chunk).Exec(ctx); err != nil {
			return mapError(err)
		}
	}
	return nil
}

func (t *tx) RenewJobs(ctx context.Context, ids []int64, until time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := t.tx.NewUpdate().Model((*jobRow)(nil)).Set("locked_until = ?", until.UTC()).
		Where("id IN (?)", bun.In(ids)).Where("status = ?", jobRunning).Exec(ctx)
	return mapError(err)
}

func (t *tx) QueuedJobs(ctx context.Context, projectID, kind string) ([]tools.Job, error) {
	var rows []jobRow
	if err := t.tx.NewSelect().Model(&rows).Column("id", "kind", "project_id", "payload", "status", "attempts", "run_at", "item_count").
		Where("kind = ?", kind).Where("project_id = ?", projectID).Where("status IN (?)", bun.In([]string{jobPending, jobRunning})).
		Order("id").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]tools.Job, len(rows))
	for i, r := range rows {
		out[i] = tools.Job{ID: r.ID, Kind: r.Kind, ProjectID: r.ProjectID, Payload: r.Payload, Status: r.Status,
			Attempts: r.Attempts, RunAt: r.RunAt, ItemCount: r.ItemCount}
	}
	return out, nil
}

func (t *tx) FinishJob(ctx context.Context, id int64, failure error, retryAt time.Time) error {
	q := t.tx.NewUpdate().Model((*jobRow)(nil)).Set("locked_until = NULL").Set("updated_at = ?", now()).Where("id = ?", id)
	switch {
	case failure == nil:
		q = q.Set("status = ?", jobDone)
	case retryAt.IsZero():
		q = q.Set("status = ?", jobFailed).Set("last_error = ?", truncateErr(failure))
	default:
		var j jobRow
		if err := t.tx.NewSelect().Model(&j).Column("kind", "project_id", "singleton").Where("id = ?", id).Scan(ctx); err != nil {
			return mapError(err)
		}
		if j.Singleton {
			pending, err := t.tx.NewSelect().Model((*jobRow)(nil)).Where("kind = ?", j.Kind).Where("project_id = ?", j.ProjectID).
				Where("singleton").Where("status = ?", jobPending).Exists(ctx)
			if err != nil {
				return mapError(err)
			}
			if pending {
				// The pending job of its kind and project does the work again anyway.
				q = q.Set("status = ?", jobFailed).Set("last_error = ?", truncateErr(fmt.Errorf("%w (a pending job retries it)", failure)))
				break
			}
		}
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

func (t *tx) PruneJobs(ctx context.Context, before time.Time) (int, error) {
	res, err := t.tx.NewDelete().Model((*jobRow)(nil)).Where("status IN (?)", bun.In([]string{jobDone, jobFailed})).
		Where("updated_at < ?", before.UTC()).Exec(ctx)
	if err != nil {
		return 0, mapError(err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
