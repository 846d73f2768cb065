package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/lokal-dev/lokal/tools/checkup"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// Report states.
const (
	checkupRunning   = "running"
	checkupCompleted = "completed"
)

func (t *tx) MarkCheckupKeys(ctx context.Context, projectID string, keyIDs []int64) error {
	// Both dialects read the ids as one array instead of a VALUES tuple per key: a maximal
	// sync marks 360,000 keys in its main transaction. In id order the rows append to the
	// (project_id, key_id) index.
	sorted := slices.Clone(keyIDs)
	slices.Sort(sorted)
	for start := 0; start < len(sorted); start += 50000 {
		ids := sorted[start:min(start+50000, len(sorted))]
		var err error
		if t.db.postgres {
			_, err = t.tx.ExecContext(ctx, "INSERT INTO checkup_queue (project_id, key_id) SELECT ?, unnest(?::bigint[])",
				projectID, pgdialect.Array(ids))
		} else {
			_, err = t.tx.Tx.ExecContext(ctx, `INSERT INTO checkup_queue (project_id, key_id) SELECT ?, j.value FROM json_each(?) AS j`,
				projectID, idList(ids))
		}
		if err != nil {
			return mapError(err)
		}
	}
	return nil
}

func (t *tx) StartCheckup(ctx context.Context, r model.CheckupReport, at time.Time) (model.CheckupReport, error) {
	var cur checkupRow
	q := t.tx.NewSelect().Model(&cur).Where("project_id = ?", r.ProjectID).Where("status = ?", checkupRunning)
	if t.db.postgres {
		q = q.For("UPDATE")
	}
	err := q.Scan(ctx)
	if err == nil {
		if cur.Runner != r.Runner && cur.LockedUntil.After(at.UTC()) {
			out, _ := reportOf(cur)
			return out, model.Errorf(model.CodeConflict, "a checkup of project %s is running (report %s)", r.ProjectID, cur.ID)
		}
		// The runner before died or gave up: this one carries on from its progress. What
		// the analysis depends on changed meanwhile: it starts over as a full pass.
		upd := t.tx.NewUpdate().Model((*checkupRow)(nil)).Set("runner = ?", r.Runner).Set("locked_until = ?", r.LockedUntil.UTC()).
			Where("id = ?", cur.ID)
		if cur.Fingerprint != r.Fingerprint {
			upd = upd.Set("fingerprint = ?", r.Fingerprint).Set("full_pass = ?", true).Set("cursor_ns = 0").Set("cursor_key = 0")
			cur.Fingerprint, cur.Full, cur.CursorNS, cur.CursorKey = r.Fingerprint, true, 0, 0
		}
		if _, err := upd.Exec(ctx); err != nil {
			return model.CheckupReport{}, mapError(err)
		}
		cur.Runner, cur.LockedUntil = r.Runner, r.LockedUntil.UTC()
		return reportOf(cur)
	}
	if err = mapError(err); !model.IsNotFound(err) {
		return model.CheckupReport{}, err
	}
	var seq int64
	if err := t.tx.NewSelect().Model((*checkupRow)(nil)).ColumnExpr("COALESCE(MAX(seq), 0)").Where("project_id = ?", r.ProjectID).
		Scan(ctx, &seq); err != nil {
		return model.CheckupReport{}, mapError(err)
	}
	// The open findings are the newest completed report's, read here rather than by the
	// caller: another runner may have completed one since.
	var base checkupRow
	err = t.tx.NewSelect().Model(&base).Column("counts", "fingerprint").Where("project_id = ?", r.ProjectID).
		Where("status = ?", checkupCompleted).Order("seq DESC").Limit(1).Scan(ctx)
	switch err = mapError(err); {
	case err == nil:
		if err := json.Unmarshal([]byte(base.Counts), &r.Counts); err != nil {
			return model.CheckupReport{}, fmt.Errorf("the newest checkup report of %s has unreadable counts: %w", r.ProjectID, err)
		}
		r.Full = base.Fingerprint != r.Fingerprint
	case model.IsNotFound(err):
		r.Counts, r.Full = map[string]int{}, true
	default:
		return model.CheckupReport{}, err
	}
	r.Seq, r.Status = seq+1, checkupRunning
	row, err := rowOfReport(r)
	if err != nil {
		return model.CheckupReport{}, err
	}
	if _, err := t.tx.NewInsert().Model(&row).Exec(ctx); err != nil {
		// Another runner created the project's running report first.
		return model.CheckupReport{}, mapError(err)
	}
	return r, nil
}

func rowOfReport(r model.CheckupReport) (checkupRow, error) {
	counts, err := json.Marshal(r.Counts)
	if err != nil {
		return checkupRow{}, err
	}
	summary := ""
	if r.Summary != nil {
		b, err := json.Marshal(r.Summary)
		if err != nil {
			return checkupRow{}, err
		}
		summary = string(b)
	}
	return checkupRow{ID: r.ID, ProjectID: r.ProjectID, Seq: r.Seq, Status: r.Status, Trigger: r.Trigger, Full: r.Full,
		Fingerprint: r.Fingerprint, Counts: string(counts), Summary: summary, KeysChecked: r.KeysChecked, CursorNS: r.CursorNS,
		CursorKey: r.CursorKey, Runner: r.Runner, LockedUntil: r.LockedUntil.UTC(), CreatedAt: r.CreatedAt.UTC(), CompletedAt: r.CompletedAt}, nil
}

func reportOf(r checkupRow) (model.CheckupReport, error) {
	out := model.CheckupReport{ID: r.ID, ProjectID: r.ProjectID, Status: r.Status, Trigger: r.Trigger, CreatedAt: r.CreatedAt,
		CompletedAt: r.CompletedAt, KeysChecked: r.KeysChecked, Full: r.Full, Seq: r.Seq, Fingerprint: r.Fingerprint,
		CursorNS: r.CursorNS, CursorKey: r.CursorKey, Runner: r.Runner, LockedUntil: r.LockedUntil, Counts: map[string]int{}}
	if r.Counts != "" {
		if err := json.Unmarshal([]byte(r.Counts), &out.Counts); err != nil {
			return out, fmt.Errorf("checkup report %s has unreadable counts: %w", r.ID, err)
		}
	}
	if r.Summary != "" {
		out.Summary = &checkup.Summary{}
		if err := json.Unmarshal([]byte(r.Summary), out.Summary); err != nil {
			return out, fmt.Errorf("checkup report %s has an unreadable summary: %w", r.ID, err)
		}
	}
	return out, nil
}

func (t *tx) Checkup(ctx context.Context, projectID, id string) (model.CheckupReport, error) {
	var r checkupRow
	q := t.tx.NewSelect().Model(&r).Where("project_id = ?", projectID)
	if id != "" {
		q = q.Where("id = ?", id)
	} else {
		q = q.Where("status = ?", checkupCompleted).Order("seq DESC").Limit(1)
	}
	if err := q.Scan(ctx); err != nil {
		if id == "" {
			return model.CheckupReport{}, notFound(err, "completed checkup report")
		}
		return model.CheckupReport{}, notFound(err, "checkup report %s", id)
	}
	return reportOf(r)
}

func (t *tx) CheckupQueue(ctx context.Context, projectID string, upTo int64, keyIDs []int64, limit int) ([]model.CheckupMark, error) {
	var out []model.CheckupMark
	if len(keyIDs) > 0 {
		for start := 0; start < len(keyIDs); start += batch {
			var rows []checkupMarkRow
			if err := t.tx.NewSelect().Model(&rows).Column("id", "key_id").Where("project_id = ?", projectID).
				Where("key_id IN (?)", bun.In(keyIDs[start:min(start+batch, len(keyIDs))])).Scan(ctx); err != nil {
				return nil, mapError(err)
			}
			for _, r := range rows {
				out = append(out, model.CheckupMark{ID: r.ID, KeyID: r.KeyID})
			}
		}
		return out, nil
	}
	var rows []checkupMarkRow
	q := t.tx.NewSelect().Model(&rows).Column("id", "key_id").Where("project_id = ?", projectID).Order("id").Limit(int64(limit))
	if upTo > 0 {
		q = q.Where("id <= ?", upTo)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	for _, r := range rows {
		out = append(out, model.CheckupMark{ID: r.ID, KeyID: r.KeyID})
	}
	return out, nil
}

func (t *tx) CheckupRunning(ctx context.Context, projectID string) (bool, error) {
	ok, err := t.tx.NewSelect().Model((*checkupRow)(nil)).Where("project_id = ?", projectID).Where("status = ?", checkupRunning).Exists(ctx)
	return ok, mapError(err)
}

// CheckupQueueEnd is the newest queue mark of the project, 0 when none.
func (t *tx) CheckupQueueEnd(ctx context.Context, projectID string) (int64, error) {
	var id int64
	err := t.tx.NewSelect().Model((*checkupMarkRow)(nil)).ColumnExpr("COALESCE(MAX(id), 0)").Where("project_id = ?", projectID).Scan(ctx, &id)
	return id, mapError(err)
}

func (t *tx) CheckupNamespaces(ctx context.Context, projectID string) ([]int64, error) {
	var ids []int64
	err := t.tx.NewSelect().Model((*namespaceRow)(nil)).Column("id").Where("project_id = ?", projectID).Order("id").Scan(ctx, &ids)
	return ids, mapError(err)
}

func (t *tx) CheckupKeys(ctx context.Context, projectID string, sel model.CheckupKeySelect) ([]model.CheckupKey, error) {
	type keyRowNS struct {
		ID            int64  `bun:"id"`
		NamespaceID   int64  `bun:"namespace_id"`
		Namespace     string `bun:"namespace"`
		Key           string `bun:"key"`
		SourceVersion int64  `bun:"source_version"`
	}
	base := func() *bun.SelectQuery {
		return t.tx.NewSelect().TableExpr("translation_keys AS k").
			ColumnExpr("k.id, k.namespace_id, n.key AS namespace, k.key, k.source_version").
			Join("JOIN namespaces AS n ON n.id = k.namespace_id").
			Where("n.project_id = ?", projectID).Where("NOT k.hidden")
	}
	var keys []keyRowNS
	if len(sel.KeyIDs) > 0 {
		for start := 0; start < len(sel.KeyIDs); start += batch {
			var part []keyRowNS
			if err := base().Where("k.id IN (?)", bun.In(sel.KeyIDs[start:min(start+batch, len(sel.KeyIDs))])).Scan(ctx, &part); err != nil {
				return nil, mapError(err)
			}
			keys = append(keys, part...)
		}
	} else if err := base().Where("k.namespace_id = ?", sel.NamespaceID).Where("k.id > ?", sel.AfterKey).
		OrderExpr("k.id").Limit(int64(sel.Limit)).Scan(ctx, &keys); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.CheckupKey, len(keys))
	index := make(map[int64]int, len(keys))
	ids := make([]int64, len(keys))
	for i, k := range keys {
		out[i] = model.CheckupKey{ID: k.ID, NamespaceID: k.NamespaceID, Namespace: k.Namespace, Key: k.Key, SourceVersion: k.SourceVersion}
		index[k.ID] = i
		ids[i] = k.ID
	}
	for start := 0; start < len(ids); start += batch {
		var rows []translationRow
		if err := t.tx.NewSelect().Model(&rows).Column("id", "key_id", "language", "value", "status", "do_not_translate", "source_version").
			Where("key_id IN (?)", bun.In(ids[start:min(start+batch, len(ids))])).Scan(ctx); err != nil {
			return nil, mapError(err)
		}
		for _, r := range rows {
			i := index[r.KeyID]
			out[i].Rows = append(out[i].Rows, stateOf(r))
		}
	}
	return out, nil
}

// findingIdentity is what makes two findings of a key the same finding.
func findingIdentity(keyID int64, language, kind, message, detail string) string {
	return fmt.Sprintf("%d\x00%s\x00%s\x00%s\x00%s", keyID, language, kind, message, detail)
}

func countKey(kind, language string) string { return kind + " " + language }

func encodeDetail(d map[string]string) (string, error) {
	if len(d) == 0 {
		return "", nil
	}
	b, err := json.Marshal(d) // map keys sorted: equal details encode equally
	return string(b), err
}

func (t *tx) ApplyCheckup(ctx context.Context, r model.CheckupReport, ch model.CheckupChunk) error {
	var cur checkupRow
	q := t.tx.NewSelect().Model(&cur).Where("id = ?", r.ID).Where("runner = ?", r.Runner).Where("status = ?", checkupRunning)
	if t.db.postgres {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		if err = mapError(err); model.IsNotFound(err) {
			return model.Errorf(model.CodeConflict, "checkup report %s is no longer this runner's", r.ID)
		}
		return err
	}
	report, err := reportOf(cur)
	if err != nil {
		return err
	}
	counts := report.Counts

	// The findings of the covered keys so far, which the chunk's replace.
	var open []checkupFindingRow
	scope := func() *bun.SelectQuery {
		return t.tx.NewSelect().Model((*checkupFindingRow)(nil)).Column("id", "key_id", "language", "kind", "message", "detail", "first_seq").
			Where("last_seq IS NULL")
	}
	if len(ch.KeyIDs) > 0 {
		for start := 0; start < len(ch.KeyIDs); start += batch {
			var part []checkupFindingRow
			// By key alone (a key is one project's): with project_id = ? beside it, SQLite
			// without statistics walked every open finding of the project by
			// checkup_findings_order instead of checkup_findings_key, 0.5 s a chunk at
			// 1,000,000 keys, holding the one writer.
			if err := scope().Where("key_id IN (?)", bun.In(ch.KeyIDs[start:min(start+batch, len(ch.KeyIDs))])).Scan(ctx, &part); err != nil {
				return mapError(err)
			}
			open = append(open, part...)
		}
	} else {
		q := scope().Where("project_id = ?", r.ProjectID).Where("namespace_id = ?", ch.NamespaceID).Where("key_id > ?", ch.AfterKey)
		if ch.UpToKey > 0 {
			q = q.Where("key_id <= ?", ch.UpToKey)
		}
		if err := q.Scan(ctx, &open); err != nil {
			return mapError(err)
		}
	}
	have := make(map[string][]checkupFindingRow, len(open))
	for _, f := range open {
		id := findingIdentity(f.KeyID, f.Language, f.Kind, f.Message, f.Detail)
		have[id] = append(have[id], f)
	}
	var insert []checkupFindingRow
	for _, f := range ch.Findings {
		detail, err := encodeDetail(f.Detail)
		if err != nil {
			return err
		}
		id := findingIdentity(f.KeyID, f.Language, f.Kind, f.Message, detail)
		if rows := have[id]; len(rows) > 0 {
			have[id] = rows[1:] // unchanged: carried over
			continue
		}
		insert = append(insert, checkupFindingRow{ProjectID: r.ProjectID, NamespaceID: f.NamespaceID, KeyID: f.KeyID,
			Language: f.Language, Kind: f.Kind, Message: f.Message, Detail: detail, FirstSeq: cur.Seq})
		counts[countKey(f.Kind, f.Language)]++
	}
	// Findings gone: closed at this report, or deleted when only this report had them.
	var closeIDs, deleteIDs []int64
	for _, rows := range have {
		for _, f := range rows {
			if f.FirstSeq == cur.Seq {
				deleteIDs = append(deleteIDs, f.ID)
			} else {
				closeIDs = append(closeIDs, f.ID)
			}
			if k := countKey(f.Kind, f.Language); counts[k] > 1 {
				counts[k]--
			} else {
				delete(counts, k)
			}
		}
	}
	for start := 0; start < len(closeIDs); start += batch {
		if _, err := t.tx.NewUpdate().Model((*checkupFindingRow)(nil)).Set("last_seq = ?", cur.Seq).
			Where("id IN (?)", bun.In(closeIDs[start:min(start+batch, len(closeIDs))])).Exec(ctx); err != nil {
			return mapError(err)
		}
	}
	for start := 0; start < len(deleteIDs); start += batch {
		if _, err := t.tx.NewDelete().Model((*checkupFindingRow)(nil)).
			Where("id IN (?)", bun.In(deleteIDs[start:min(start+batch, len(deleteIDs))])).Exec(ctx); err != nil {
			return mapError(err)
		}
	}
	for start := 0; start < len(insert); start += t.batch() {
		rows := insert[start:min(start+t.batch(), len(insert))]
		if _, err := t.tx.NewInsert().Model(&rows).Exec(ctx); err != nil {
			return mapError(err)
		}
	}
	for start := 0; start < len(ch.Marks); start += batch {
		res, err := t.tx.NewDelete().Model((*checkupMarkRow)(nil)).
			Where("id IN (?)", bun.In(ch.Marks[start:min(start+batch, len(ch.Marks))])).Exec(ctx)
		if err != nil {
			return mapError(err)
		}
		n, _ := res.RowsAffected()
		t.unqueued += int(n)
	}
	cj, err := json.Marshal(counts)
	if err != nil {
		return err
	}
	_, err = t.tx.NewUpdate().Model((*checkupRow)(nil)).Set("counts = ?", string(cj)).Set("keys_checked = keys_checked + ?", ch.Checked).
		Set("cursor_ns = ?", r.CursorNS).Set("cursor_key = ?", r.CursorKey).Set("full_pass = ?", r.Full).Set("locked_until = ?", r.LockedUntil.UTC()).
		Where("id = ?", r.ID).Exec(ctx)
	return mapError(err)
}

func (t *tx) ReleaseCheckup(ctx context.Context, r model.CheckupReport) error {
	_, err := t.tx.NewUpdate().Model((*checkupRow)(nil)).Set("runner = ''").Set("locked_until = ?", time.Time{}.UTC()).
		Where("id = ?", r.ID).Where("runner = ?", r.Runner).Where("status = ?", checkupRunning).Exec(ctx)
	return mapError(err)
}

func (t *tx) CompleteCheckup(ctx context.Context, r model.CheckupReport) error {
	b, err := json.Marshal(r.Summary)
	if err != nil {
		return err
	}
	res, err := t.tx.NewUpdate().Model((*checkupRow)(nil)).Set("status = ?", checkupCompleted).Set("summary = ?", string(b)).
		Set("completed_at = ?", r.CompletedAt.UTC()).Set("runner = ''").
		Where("id = ?", r.ID).Where("runner = ?", r.Runner).Where("status = ?", checkupRunning).Exec(ctx)
	if err != nil {
		return mapError(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return model.Errorf(model.CodeConflict, "checkup report %s is no longer this runner's", r.ID)
	}
	return nil
}

func (t *tx) CheckupFindings(ctx context.Context, r model.CheckupReport, offset, limit int) ([]checkup.Finding, error) {
	var rows []struct {
		Namespace string `bun:"namespace"`
		Key       string `bun:"key"`
		Language  string `bun:"language"`
		Kind      string `bun:"kind"`
		Message   string `bun:"message"`
		Detail    string `bun:"detail"`
	}
	// The page's rows first, then their names: the offset is walked in the index alone.
	page := t.tx.NewSelect().TableExpr("checkup_findings AS p").Column("p.id").
		Where("p.project_id = ?", r.ProjectID).Where("p.first_seq <= ?", r.Seq).
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("p.last_seq IS NULL").WhereOr("p.last_seq > ?", r.Seq)
		}).
		OrderExpr("p.namespace_id, p.key_id, p.language, p.kind, p.id").Offset(int64(offset)).Limit(int64(limit))
	if err := t.tx.NewSelect().TableExpr("checkup_findings AS f").
		ColumnExpr("COALESCE(n.key, '') AS namespace, COALESCE(k.key, '') AS key, f.language, f.kind, f.message, f.detail").
		Join("LEFT JOIN translation_keys AS k ON k.id = f.key_id").
		Join("LEFT JOIN namespaces AS n ON n.id = f.namespace_id").
		Where("f.id IN (?)", page).
		OrderExpr("f.namespace_id, f.key_id, f.language, f.kind, f.id").Scan(ctx, &rows); err != nil {
		return nil, mapError(err)
	}
	out := make([]checkup.Finding, len(rows))
	for i, f := range rows {
		out[i] = checkup.Finding{Kind: f.Kind, Namespace: f.Namespace, Key: f.Key, Language: f.Language, Message: f.Message}
		if f.Detail != "" {
			if err := json.Unmarshal([]byte(f.Detail), &out[i].Detail); err != nil {
				return nil, fmt.Errorf("a finding of checkup report %s has an unreadable detail: %w", r.ID, err)
			}
		}
	}
	return out, nil
}

func (t *tx) CheckupReports(ctx context.Context, projectID string) ([]model.CheckupReport, error) {
	var rows []checkupRow
	if err := t.tx.NewSelect().Model(&rows).Column("id", "project_id", "seq", "status", "trigger", "created_at", "completed_at").
		Where("project_id = ?", projectID).Where("status = ?", checkupCompleted).Order("seq DESC").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.CheckupReport, len(rows))
	for i, r := range rows {
		out[i] = model.CheckupReport{ID: r.ID, ProjectID: r.ProjectID, Seq: r.Seq, Status: r.Status, Trigger: r.Trigger,
			CreatedAt: r.CreatedAt, CompletedAt: r.CompletedAt}
	}
	return out, nil
}

func (t *tx) DeleteCheckups(ctx context.Context, projectID string, ids []string, limit int) (int, error) {
	if len(ids) > 0 {
		if _, err := t.tx.NewDelete().Model((*checkupRow)(nil)).Where("project_id = ?", projectID).
			Where("status = ?", checkupCompleted).Where("id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
			return 0, mapError(err)
		}
	}
	// The closed findings that no remaining report shows, at most limit of them.
	res, err := t.tx.NewDelete().Model((*checkupFindingRow)(nil)).
		Where("id IN (?)", t.tx.NewSelect().TableExpr("checkup_findings AS f").Column("f.id").
			Where("f.project_id = ?", projectID).Where("f.last_seq IS NOT NULL").
			Where("NOT EXISTS (SELECT 1 FROM checkup_reports AS r WHERE r.project_id = f.project_id AND r.seq >= f.first_seq AND r.seq < f.last_seq)").
			Limit(int64(limit))).Exec(ctx)
	if err != nil {
		return 0, mapError(err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

func (t *tx) LatestCheckup(ctx context.Context, projectID string) (model.CheckupReport, error) {
	var r checkupRow
	if err := t.tx.NewSelect().Model(&r).Where("project_id = ?", projectID).Order("seq DESC").Limit(1).Scan(ctx); err != nil {
		return model.CheckupReport{}, notFound(err, "checkup report")
	}
	return reportOf(r)
}

// OpenFindingKeys walks checkup_findings_open, whose predicate its own repeats word for
// word (SQLite uses a partial index only so).
func (t *tx) OpenFindingKeys(ctx context.Context, f model.FindingKeysFilter) ([]int64, error) {
	q := t.tx.NewSelect().TableExpr("checkup_findings AS f").ColumnExpr("DISTINCT f.key_id").
		Where("f.project_id = ?", f.ProjectID).Where("f.language = ?", f.Language).
		Where("f.last_seq IS NULL AND f.kind <> 'missing_translation' AND f.kind <> 'stale_translation'").
		Where("f.key_id > ?", f.AfterKeyID)
	if f.Namespace != "" {
		q = q.Where("f.namespace_id IN (?)", t.tx.NewSelect().Model((*namespaceRow)(nil)).Column("id").
			Where("project_id = ?", f.ProjectID).Where("key = ?", f.Namespace))
	}
	var ids []int64
	if err := q.OrderExpr("f.key_id").Limit(int64(f.Limit)).Scan(ctx, &ids); err != nil {
		return nil, mapError(err)
	}
	return ids, nil
}

// QueuedKeys walks checkup_queue_key in key order: DISTINCT over that order costs no sort,
// and the walk stops after f.Limit keys.
func (t *tx) QueuedKeys(ctx context.Context, f model.QueuedKeysFilter) ([]int64, error) {
	q := t.tx.NewSelect().TableExpr("checkup_queue AS q").ColumnExpr("DISTINCT q.key_id").
		Where("q.project_id = ?", f.ProjectID).Where("q.key_id > ?", f.AfterKeyID)
	if f.UpTo > 0 {
		// + keeps SQLite off checkup_queue_project, whose marks it would then sort.
		q = q.Where("+q.id <= ?", f.UpTo)
	}
	if f.ThroughKeyID > 0 {
		q = q.Where("q.key_id <= ?", f.ThroughKeyID)
	}
	var ids []int64
	err := t.inKeyOrder(ctx, func() error { return q.OrderExpr("q.key_id").Limit(int64(f.Limit)).Scan(ctx, &ids) })
	return ids, mapError(err)
}
