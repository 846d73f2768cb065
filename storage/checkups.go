package storage

import (
	"context"

	"github.com/lokal-dev/lokal/tools"
)

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
