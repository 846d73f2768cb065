package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

// Job states.
const (
	jobPending = "pending"
	jobRunning = "running"
	jobDone    = "done"
	jobFailed  = "failed"
)

func (t *tx) EnqueueJob(ctx context.Context, j model.Job, coalesce bool) error {
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

func (t *tx) ClaimJob(ctx context.Context, at time.Time, lease time.Duration) (model.Job, error) {
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
		OrderExpr("j.run_at, j.id").Limit(1)
	if t.db.postgres {
		q = q.For("UPDATE SKIP LOCKED")
	}
	var id int64
	if err := q.Scan(ctx, &id); err != nil {
		return model.Job{}, notFound(err, "due job")
	}
	var r jobRow
	if err := t.tx.NewSelect().Model(&r).Where("id = ?", id).Scan(ctx); err != nil {
		return model.Job{}, mapError(err)
	}
	batches, err := decodeBatches(r.ID, r.Items)
	if err != nil {
		return model.Job{}, err
	}
	ts := now()
	until := at.Add(lease)
	if r.Status == jobPending && len(batches) > 1 {
		// Batching at claim time: the first batch becomes a job of its own, leased like any
		// other; the rest stays pending in the row for the next claim.
		first := batches[0]
		rest, err := json.Marshal(batches[1:])
		if err != nil {
			return model.Job{}, err
		}
		if _, err := t.tx.NewUpdate().Model((*jobRow)(nil)).Set("items = ?", string(rest)).
			Set("item_count = ?", r.ItemCount-len(first)).Set("updated_at = ?", ts).Where("id = ?", r.ID).Exec(ctx); err != nil {
			return model.Job{}, mapError(err)
		}
		items, err := json.Marshal([][]string{first})
		if err != nil {
			return model.Job{}, err
		}
		r = jobRow{Kind: r.Kind, ProjectID: r.ProjectID, Payload: r.Payload, Status: jobRunning, Attempts: 1, RunAt: r.RunAt,
			LockedUntil: &until, CreatedAt: ts, UpdatedAt: ts, Items: string(items), ItemCount: len(first)}
		if _, err := t.tx.NewInsert().Model(&r).Returning("id").Exec(ctx); err != nil {
			return model.Job{}, mapError(err)
		}
	} else if err := t.tx.NewUpdate().Model(&r).Set("status = ?", jobRunning).Set("attempts = attempts + 1").
		Set("locked_until = ?", until).Set("updated_at = ?", ts).Where("id = ?", r.ID).
		Returning("*").Scan(ctx); err != nil {
		return model.Job{}, mapError(err)
	}
	if err := t.takeTurn(ctx, r.ProjectID, at); err != nil {
		return model.Job{}, err
	}
	return jobOf(r)
}

// takeTurn sends the project's other due jobs to the back of the queue, behind every job
// that fell due before this claim: claims go round the projects with due work, so one
// project's backlog cannot starve another's. Rows another transaction holds are left as
// they are rather than waited for.
func (t *tx) takeTurn(ctx context.Context, projectID string, at time.Time) error {
	due := t.tx.NewSelect().Model((*jobRow)(nil)).Column("id").Where("project_id = ?", projectID).
		Where("status = ?", jobPending).Where("run_at < ?", at)
	if t.db.postgres {
		due = due.For("UPDATE SKIP LOCKED")
	}
	_, err := t.tx.NewUpdate().Model((*jobRow)(nil)).Set("run_at = ?", at).Where("id IN (?)", due).Exec(ctx)
	return mapError(err)
}

// A pending row holds up to jobRowItems items and about jobRowBytes of them (keys may be
// long), in batches of the enqueuer's size: a claim takes one batch (ClaimJob), so a write
// of thousands of keys is a few rows, and adding to the queue or claiming from it rewrites
// one row of bounded size however long the backlog is.
const (
	jobRowItems = 1000
	jobRowBytes = 256 << 10
)

// fit says how many of items a row holding count items in size bytes takes; an empty row
// takes at least one.
func fit(items []string, count, size int) int {
	n := 0
	for n < len(items) && count+n < jobRowItems {
		size += len(items[n]) + 4 // quotes, comma, and a batch's brackets now and then
		if size > jobRowBytes && count+n > 0 {
			break
		}
		n++
	}
	return n
}

// decodeBatches reads a row's items: a JSON array of batches, or (rows written before
// batches were kept in one row) a flat array that is one batch.
func decodeBatches(id int64, items string) ([][]string, error) {
	if items == "" || items == "[]" {
		return nil, nil
	}
	var batches [][]string
	if err := json.Unmarshal([]byte(items), &batches); err == nil {
		return batches, nil
	}
	var flat []string
	if err := json.Unmarshal([]byte(items), &flat); err != nil {
		return nil, fmt.Errorf("job %d has unreadable items: %w", id, err)
	}
	return [][]string{flat}, nil
}

func jobOf(r jobRow) (model.Job, error) {
	j := model.Job{ID: r.ID, Kind: r.Kind, ProjectID: r.ProjectID, Payload: r.Payload, Attempts: r.Attempts, RunAt: r.RunAt,
		ItemCount: r.ItemCount, Status: r.Status}
	batches, err := decodeBatches(r.ID, r.Items)
	if err != nil {
		return model.Job{}, err
	}
	for _, b := range batches {
		j.Items = append(j.Items, b...)
	}
	return j, nil
}

// appendBatches adds items to batches, filling the last batch up to max first.
func appendBatches(batches [][]string, items []string, max int) [][]string {
	for len(items) > 0 {
		if n := len(batches); n > 0 && len(batches[n-1]) < max {
			k := min(max-len(batches[n-1]), len(items))
			batches[n-1] = append(batches[n-1], items[:k]...)
			items = items[k:]
			continue
		}
		k := min(max, len(items))
		batches = append(batches, items[:k:k])
		items = items[k:]
	}
	return batches
}

func (t *tx) EnqueueItems(ctx context.Context, j model.Job, max int) error {
	if len(j.Items) == 0 {
		return nil
	}
	ts := now()
	if j.RunAt.IsZero() {
		j.RunAt = ts
	}
	// Only the newest row still filling is read and rewritten, never the whole backlog: it
	// is pending, never claimed (a retried batch keeps its own keys) and has room.
	var open []jobRow
	q := t.tx.NewSelect().Model(&open).Where("kind = ?", j.Kind).Where("project_id = ?", j.ProjectID).
		Where("payload = ?", j.Payload).Where("status = ?", jobPending).Where("attempts = 0").
		Where("item_count < ?", jobRowItems).Where("length(items) < ?", jobRowBytes).Order("id DESC").Limit(1)
	if t.db.postgres {
		q = q.For("UPDATE") // a worker's SKIP LOCKED claim passes over a job being filled
	}
	if err := q.Scan(ctx); err != nil {
		return mapError(err)
	}
	var batches [][]string
	seen := map[string]bool{}
	if len(open) == 1 {
		var err error
		if batches, err = decodeBatches(open[0].ID, open[0].Items); err != nil {
			return err
		}
		for _, b := range batches {
			for _, it := range b {
				seen[it] = true
			}
		}
	}
	var todo []string
	for _, it := range j.Items {
		if !seen[it] {
			seen[it] = true
			todo = append(todo, it)
		}
	}
	n := 0
	if len(open) == 1 {
		n = fit(todo, open[0].ItemCount, len(open[0].Items))
	}
	if n > 0 {
		batches = appendBatches(batches, todo[:n], max)
		todo = todo[n:]
		b, err := json.Marshal(batches)
		if err != nil {
			return err
		}
		if _, err := t.tx.NewUpdate().Model((*jobRow)(nil)).Set("items = ?", string(b)).Set("item_count = ?", open[0].ItemCount+n).
			Set("updated_at = ?", ts).Where("id = ?", open[0].ID).Exec(ctx); err != nil {
			return mapError(err)
		}
	}
	var rows []jobRow
	for len(todo) > 0 {
		n = fit(todo, 0, 2)
		b, err := json.Marshal(appendBatches(nil, todo[:n], max))
		if err != nil {
			return err
		}
		rows = append(rows, jobRow{Kind: j.Kind, ProjectID: j.ProjectID, Payload: j.Payload, Status: jobPending,
			RunAt: j.RunAt.UTC(), CreatedAt: ts, UpdatedAt: ts, Items: string(b), ItemCount: n})
		todo = todo[n:]
	}
	if len(rows) > 0 {
		if _, err := t.tx.NewInsert().Model(&rows).Exec(ctx); err != nil {
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

func (t *tx) QueuedJobs(ctx context.Context, projectID, kind string) ([]model.Job, error) {
	var rows []jobRow
	if err := t.tx.NewSelect().Model(&rows).Column("id", "kind", "project_id", "payload", "status", "attempts", "run_at", "item_count").
		Where("kind = ?", kind).Where("project_id = ?", projectID).Where("status IN (?)", bun.In([]string{jobPending, jobRunning})).
		Order("id").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.Job, len(rows))
	for i, r := range rows {
		out[i] = model.Job{ID: r.ID, Kind: r.Kind, ProjectID: r.ProjectID, Payload: r.Payload, Status: r.Status,
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
