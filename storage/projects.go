package storage

import (
	"context"
	"strings"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

func (t *tx) CreateProject(ctx context.Context, p model.Project) error {
	ts := now()
	s := p.Settings
	row := &projectRow{ID: p.ID, WorkspaceID: p.WorkspaceID, Title: p.Title, SourceLanguage: p.SourceLanguage,
		IntegrationType: p.IntegrationType, Active: true, AllowedOrigins: strings.Join(s.AllowedOrigins, "\n"),
		ShowSwitcher: s.ShowSwitcher, KeepSiteCurrent: s.KeepSiteCurrent, EmbedMode: s.EmbedMode,
		JITHarvest: s.JITHarvest, AutoApply: s.AutoApply, AIProvider: s.AIProvider, AIModel: s.AIModel,
		AIBaseURL: s.AIBaseURL, AIKey: s.AIKey, DeployProvider: s.DeployProvider, DeployRepo: s.DeployRepo,
		DeployWorkflow: s.DeployWorkflow, DeployRef: s.DeployRef, DeployToken: s.DeployToken, Syntax: s.Syntax,
		CreatedAt: ts, UpdatedAt: ts}
	if _, err := t.tx.NewInsert().Model(row).Exec(ctx); err != nil {
		return mapError(err)
	}
	for _, l := range p.Languages {
		if err := t.SetLanguage(ctx, p.ID, l); err != nil {
			return err
		}
	}
	return nil
}

func (t *tx) SetLanguage(ctx context.Context, projectID string, l model.Language) error {
	_, err := t.tx.NewInsert().Model(&languageRow{ProjectID: projectID, Code: l.Code, Enabled: l.Enabled,
		Editable: l.Editable, AutoTranslate: l.AutoTranslate, CreatedAt: now()}).
		On("CONFLICT (project_id, code) DO UPDATE").
		Set("enabled = EXCLUDED.enabled, editable = EXCLUDED.editable, auto_translate = EXCLUDED.auto_translate").
		Exec(ctx)
	return mapError(err)
}

func (t *tx) Project(ctx context.Context, id string) (model.Project, error) {
	var r projectRow
	if err := t.tx.NewSelect().Model(&r).Where("id = ?", id).Scan(ctx); err != nil {
		return model.Project{}, notFound(err, "project %s", id)
	}
	ps, err := t.fillProjects(ctx, []projectRow{r})
	if err != nil {
		return model.Project{}, err
	}
	return ps[0], nil
}

func (t *tx) Projects(ctx context.Context, workspaceID string) ([]model.Project, error) {
	var rows []projectRow
	if err := t.tx.NewSelect().Model(&rows).Where("workspace_id = ?", workspaceID).Where("active").Where("archived_at IS NULL").
		Order("created_at", "id").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	return t.fillProjects(ctx, rows)
}

func (t *tx) fillProjects(ctx context.Context, rows []projectRow) ([]model.Project, error) {
	out := make([]model.Project, 0, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var langs []languageRow
	if err := t.tx.NewSelect().Model(&langs).Where("project_id IN (?)", bun.In(ids)).Order("created_at", "code").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	var nss []namespaceRow
	if err := t.tx.NewSelect().Model(&nss).Where("project_id IN (?)", bun.In(ids)).Order("key").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	for _, r := range rows {
		p := model.Project{ID: r.ID, WorkspaceID: r.WorkspaceID, Title: r.Title, SourceLanguage: r.SourceLanguage,
			IntegrationType: r.IntegrationType, Active: r.Active, CreatedAt: r.CreatedAt, ArchivedAt: r.ArchivedAt,
			DeployConfigured:       r.DeployProvider != "",
			EnabledLanguages:       []string{r.SourceLanguage},
			EditableLanguages:      []string{r.SourceLanguage},
			AutoTranslateLanguages: []string{},
			Namespaces:             []string{},
			Settings: model.ProjectSettings{AllowedOrigins: splitLines(r.AllowedOrigins), ShowSwitcher: r.ShowSwitcher,
				KeepSiteCurrent: r.KeepSiteCurrent, EmbedMode: r.EmbedMode, JITHarvest: r.JITHarvest, AutoApply: r.AutoApply,
				AIProvider: r.AIProvider, AIModel: r.AIModel, AIBaseURL: r.AIBaseURL, AIKey: r.AIKey,
				DeployProvider: r.DeployProvider, DeployRepo: r.DeployRepo, DeployWorkflow: r.DeployWorkflow,
				DeployRef: r.DeployRef, DeployToken: r.DeployToken, Syntax: r.Syntax},
		}
		for _, l := range langs {
			if l.ProjectID != r.ID || l.Code == r.SourceLanguage {
				continue
			}
			p.Languages = append(p.Languages, model.Language{Code: l.Code, Enabled: l.Enabled, Editable: l.Editable, AutoTranslate: l.AutoTranslate})
			if l.Enabled {
				p.EnabledLanguages = append(p.EnabledLanguages, l.Code)
				if l.AutoTranslate {
					p.AutoTranslateLanguages = append(p.AutoTranslateLanguages, l.Code)
				}
			}
			if l.Editable {
				p.EditableLanguages = append(p.EditableLanguages, l.Code)
			}
		}
		for _, n := range nss {
			if n.ProjectID == r.ID {
				p.Namespaces = append(p.Namespaces, n.Key)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

func splitLines(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(s, "\n")
}

func (t *tx) Namespace(ctx context.Context, projectID, key string) (model.Namespace, error) {
	var r namespaceRow
	if err := t.tx.NewSelect().Model(&r).Where("project_id = ?", projectID).Where("key = ?", key).Scan(ctx); err != nil {
		return model.Namespace{}, notFound(err, "namespace %q", key)
	}
	return model.Namespace{ID: r.ID, ProjectID: r.ProjectID, Key: r.Key}, nil
}

func (t *tx) CreateNamespace(ctx context.Context, projectID, key string) (model.Namespace, error) {
	r := &namespaceRow{ProjectID: projectID, Key: key, CreatedAt: now()}
	if _, err := t.tx.NewInsert().Model(r).Returning("id").Exec(ctx); err != nil {
		return model.Namespace{}, mapError(err)
	}
	return model.Namespace{ID: r.ID, ProjectID: projectID, Key: key}, nil
}

func (t *tx) LanguageCounts(ctx context.Context, p model.Project) ([]model.LanguageCounts, error) {
	var total int
	err := t.tx.NewRaw(`SELECT COUNT(*) FROM translation_keys AS k
JOIN namespaces AS n ON n.id = k.namespace_id
WHERE n.project_id = ? AND NOT k.hidden AND k.source_version > 0`, p.ID).Scan(ctx, &total)
	if err != nil {
		return nil, mapError(err)
	}
	var rows []struct {
		Language    string `bun:"language"`
		Current     int    `bun:"current"`
		Behind      int    `bun:"behind"`
		NullVersion int    `bun:"null_version"`
		ToReview    int    `bun:"to_review"`
		AIDrafts    int    `bun:"ai_drafts"`
	}
	err = t.tx.NewRaw(`SELECT t.language AS language,
  SUM(CASE WHEN t.source_version >= k.source_version THEN 1 ELSE 0 END) AS current,
  SUM(CASE WHEN t.source_version < k.source_version THEN 1 ELSE 0 END) AS behind,
  SUM(CASE WHEN t.source_version IS NULL THEN 1 ELSE 0 END) AS null_version,
  SUM(CASE WHEN t.source_version >= k.source_version AND t.status = 'needs_review' AND t.updated_by NOT LIKE 'ai:%' THEN 1 ELSE 0 END) AS to_review,
  SUM(CASE WHEN t.source_version >= k.source_version AND t.status = 'needs_review' AND t.updated_by LIKE 'ai:%' THEN 1 ELSE 0 END) AS ai_drafts
FROM translations AS t
JOIN translation_keys AS k ON k.id = t.key_id
JOIN namespaces AS n ON n.id = k.namespace_id
WHERE n.project_id = ? AND NOT k.hidden AND k.source_version > 0 AND t.value <> '' AND NOT t.incomplete
GROUP BY t.language`, p.ID).Scan(ctx, &rows)
	if err != nil {
		return nil, mapError(err)
	}
	out := make([]model.LanguageCounts, 0, len(p.EnabledLanguages))
	for _, code := range p.EnabledLanguages {
		n := model.LanguageCounts{Language: code, Total: total}
		for _, r := range rows {
			if r.Language == code {
				n.Current, n.Behind, n.NullVersion = r.Current, r.Behind, r.NullVersion
				n.ToReview, n.AIDrafts = r.ToReview, r.AIDrafts
			}
		}
		out = append(out, n)
	}
	return out, nil
}

// Touch moves the project's revision for a change of every file of it (changes.go).
func (t *tx) Touch(ctx context.Context, projectID string) error {
	return t.touch(ctx, projectID, changeSet{project: true})
}
