package storage

import (
	"context"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools"
	"github.com/uptrace/bun"
)

func (t *tx) KeyByName(ctx context.Context, ns tools.Namespace, key string) (tools.KeyRecord, error) {
	var r keyRow
	if err := t.tx.NewSelect().Model(&r).Where("namespace_id = ?", ns.ID).Where("key_hash = ?", KeyHash(key)).Scan(ctx); err != nil {
		return tools.KeyRecord{}, notFound(err, "key %q in namespace %q", key, ns.Key)
	}
	return tools.KeyRecord{ID: r.ID, NamespaceID: r.NamespaceID, Key: r.Key, Hidden: r.Hidden, SourceVersion: r.SourceVersion}, nil
}

func stateOf(r translationRow) tools.TranslationState {
	return tools.TranslationState{ID: r.ID, Language: r.Language, Value: r.Value, Status: r.Status, DoNotTranslate: r.DoNotTranslate,
		LanguageLocked: r.LanguageLocked, SourceVersion: r.SourceVersion, UpdatedBy: r.UpdatedBy, UpdatedAt: r.UpdatedAt}
}

func (t *tx) KeyTranslations(ctx context.Context, keyID int64) ([]tools.TranslationState, error) {
	var rows []translationRow
	if err := t.tx.NewSelect().Model(&rows).Where("key_id = ?", keyID).Order("language").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]tools.TranslationState, len(rows))
	for i, r := range rows {
		out[i] = stateOf(r)
	}
	return out, nil
}

func (t *tx) Comments(ctx context.Context, keyID int64) ([]tools.Comment, error) {
	var rows []commentRow
	if err := t.tx.NewSelect().Model(&rows).Where("key_id = ?", keyID).Order("id").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]tools.Comment, len(rows))
	for i, r := range rows {
		out[i] = tools.Comment{ID: r.ID, Language: r.Language, Body: r.Body, Author: r.Actor, CreatedAt: r.CreatedAt}
	}
	return out, nil
}

func (t *tx) AddComment(ctx context.Context, keyID int64, c tools.Comment) (tools.Comment, error) {
	r := &commentRow{KeyID: keyID, Language: c.Language, Body: c.Body, Actor: tools.PrincipalFrom(ctx).Actor(), CreatedAt: now()}
	if _, err := t.tx.NewInsert().Model(r).Returning("id").Exec(ctx); err != nil {
		return tools.Comment{}, mapError(err)
	}
	return tools.Comment{ID: r.ID, Language: r.Language, Body: r.Body, Author: r.Actor, CreatedAt: r.CreatedAt}, nil
}

type projectTranslationRow struct {
	Namespace     string `bun:"namespace"`
	Key           string `bun:"key"`
	KeyID         int64  `bun:"key_id"`
	SourceVersion int64  `bun:"key_version"`
	translationRow
}

func (t *tx) projectTranslations(ctx context.Context, f tools.SearchFilter) ([]tools.ProjectTranslation, error) {
	q := t.tx.NewSelect().TableExpr("translations AS t").
		ColumnExpr("n.key AS namespace, k.key AS key, k.id AS key_id, k.source_version AS key_version").
		ColumnExpr("t.id, t.language, t.value, t.status, t.do_not_translate, t.language_locked, t.source_version, t.updated_by, t.updated_at").
		Join("JOIN translation_keys AS k ON k.id = t.key_id").
		Join("JOIN namespaces AS n ON n.id = k.namespace_id").
		Where("n.project_id = ?", f.ProjectID).Where("NOT k.hidden")
	if f.Language != "" {
		q = q.Where("t.language = ?", f.Language)
	}
	if f.Status != "" {
		q = q.Where("t.status = ?", f.Status)
	}
	if f.KeyContains != "" {
		q = q.Where(t.db.lower()+`(k.key) LIKE ? ESCAPE '\'`, likePattern(f.KeyContains))
	}
	if f.ValueContains != "" {
		q = q.Where(t.db.lower()+`(t.value) LIKE ? ESCAPE '\'`, likePattern(f.ValueContains))
	}
	q = q.OrderExpr("n.key, k.key, t.language, t.id")
	if f.Limit > 0 {
		q = q.Limit(int64(f.Limit)).Offset(int64(f.Offset))
	}
	var rows []projectTranslationRow
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, mapError(err)
	}
	out := make([]tools.ProjectTranslation, len(rows))
	for i, r := range rows {
		out[i] = tools.ProjectTranslation{Namespace: r.Namespace, Key: r.Key, KeyID: r.KeyID, SourceVersion: r.SourceVersion, Row: stateOf(r.translationRow)}
	}
	return out, nil
}

// likePattern matches s anywhere, case-insensitively, with LIKE's wildcards escaped.
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(s)) + "%"
}

func (t *tx) ProjectTranslations(ctx context.Context, projectID, language string) ([]tools.ProjectTranslation, error) {
	return t.projectTranslations(ctx, tools.SearchFilter{ProjectID: projectID, Language: language})
}

func (t *tx) Search(ctx context.Context, f tools.SearchFilter) ([]tools.ProjectTranslation, error) {
	return t.projectTranslations(ctx, f)
}

func (t *tx) Glossary(ctx context.Context, projectID string) ([]tools.GlossaryPair, error) {
	var rows []glossaryRow
	if err := t.tx.NewSelect().Model(&rows).Where("project_id = ?", projectID).Order("id").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]tools.GlossaryPair, len(rows))
	for i, r := range rows {
		out[i] = tools.GlossaryPair{ID: r.ID, SourceTerm: r.SourceTerm, TargetTerm: r.TargetTerm, Locale: r.Locale}
	}
	return out, nil
}

func (t *tx) AddGlossary(ctx context.Context, projectID string, g tools.GlossaryPair) (tools.GlossaryPair, error) {
	r := &glossaryRow{ProjectID: projectID, SourceTerm: g.SourceTerm, TargetTerm: g.TargetTerm, Locale: g.Locale,
		Actor: tools.PrincipalFrom(ctx).Actor(), CreatedAt: now()}
	if _, err := t.tx.NewInsert().Model(r).Returning("id").Exec(ctx); err != nil {
		return tools.GlossaryPair{}, mapError(err)
	}
	g.ID = r.ID
	return g, nil
}

func (t *tx) DoNotTranslateTerms(ctx context.Context, projectID string) ([]string, error) {
	var terms []string
	if err := t.tx.NewSelect().Model((*dntTermRow)(nil)).Column("term").Where("project_id = ?", projectID).Order("id").Scan(ctx, &terms); err != nil {
		return nil, mapError(err)
	}
	return terms, nil
}

func (t *tx) Substitutions(ctx context.Context, projectID string) ([]tools.SubstitutionRule, error) {
	var rows []substitutionRow
	if err := t.tx.NewSelect().Model(&rows).Where("project_id = ?", projectID).Order("id").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]tools.SubstitutionRule, len(rows))
	for i, r := range rows {
		out[i] = tools.SubstitutionRule{ID: r.ID, Locale: r.Locale, Pattern: r.Pattern, Replacement: r.Replacement}
	}
	return out, nil
}

func (t *tx) SaveCheckup(ctx context.Context, r tools.CheckupReport) error {
	_, err := t.tx.NewInsert().Model(&checkupRow{ID: r.ID, ProjectID: r.ProjectID, Status: r.Status, Trigger: r.Trigger,
		Summary: string(r.Summary), Findings: string(r.Findings), CreatedAt: r.CreatedAt, CompletedAt: r.CompletedAt}).
		On("CONFLICT (id) DO UPDATE").
		Set("status = EXCLUDED.status, summary = EXCLUDED.summary, findings = EXCLUDED.findings, completed_at = EXCLUDED.completed_at").
		Exec(ctx)
	return mapError(err)
}

func (t *tx) Checkup(ctx context.Context, projectID, id string) (tools.CheckupReport, error) {
	var r checkupRow
	q := t.tx.NewSelect().Model(&r).Where("project_id = ?", projectID)
	if id != "" {
		q = q.Where("id = ?", id)
	} else {
		q = q.Where("completed_at IS NOT NULL").Order("completed_at DESC", "created_at DESC").Limit(1)
	}
	if err := q.Scan(ctx); err != nil {
		if id == "" {
			return tools.CheckupReport{}, notFound(err, "completed checkup report")
		}
		return tools.CheckupReport{}, notFound(err, "checkup report %s", id)
	}
	return tools.CheckupReport{ID: r.ID, ProjectID: r.ProjectID, Status: r.Status, Trigger: r.Trigger, CreatedAt: r.CreatedAt,
		CompletedAt: r.CompletedAt, Summary: []byte(r.Summary), Findings: []byte(r.Findings)}, nil
}

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
