package storage

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

// workspaceAIRow is the AI part of a workspace row; the key is stored sealed (tools/secrets).
type workspaceAIRow struct {
	bun.BaseModel `bun:"table:workspaces"`
	ID            string `bun:"id,pk"`
	AIBaseURL     string `bun:"ai_base_url,notnull"`
	AIModel       string `bun:"ai_model,notnull"`
	AIKeyEnc      string `bun:"ai_key_enc,notnull"`
}

// projectAIRow is the AI part of a project row.
type projectAIRow struct {
	bun.BaseModel  `bun:"table:projects"`
	ID             string `bun:"id,pk"`
	AIModel        string `bun:"ai_model,notnull"`
	AIInstructions string `bun:"ai_instructions,notnull"`
}

func (t *tx) WorkspaceAI(ctx context.Context, workspaceID string) (model.WorkspaceAI, error) {
	var r workspaceAIRow
	if err := t.tx.NewSelect().Model(&r).Where("id = ?", workspaceID).Scan(ctx); err != nil {
		return model.WorkspaceAI{}, notFound(err, "workspace %s", workspaceID)
	}
	return model.WorkspaceAI{BaseURL: r.AIBaseURL, Model: r.AIModel, KeyEnc: r.AIKeyEnc}, nil
}

func (t *tx) SetWorkspaceAI(ctx context.Context, workspaceID string, ai model.WorkspaceAI) error {
	res, err := t.tx.NewUpdate().Model(&workspaceAIRow{ID: workspaceID, AIBaseURL: ai.BaseURL, AIModel: ai.Model,
		AIKeyEnc: ai.KeyEnc}).Column("ai_base_url", "ai_model", "ai_key_enc").WherePK().Exec(ctx)
	if err != nil {
		return mapError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return &model.Error{Code: model.CodeNotFound, Message: "workspace " + workspaceID + " not found"}
	}
	return nil
}

func (t *tx) ProjectAI(ctx context.Context, projectID string) (model.ProjectAI, error) {
	var r projectAIRow
	if err := t.tx.NewSelect().Model(&r).Where("id = ?", projectID).Scan(ctx); err != nil {
		return model.ProjectAI{}, notFound(err, "project %s", projectID)
	}
	return model.ProjectAI{Model: r.AIModel, Instructions: r.AIInstructions}, nil
}

func (t *tx) SetProjectAI(ctx context.Context, projectID string, ai model.ProjectAI) error {
	res, err := t.tx.NewUpdate().Model(&projectAIRow{ID: projectID, AIModel: ai.Model, AIInstructions: ai.Instructions}).
		Column("ai_model", "ai_instructions").WherePK().Exec(ctx)
	if err != nil {
		return mapError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return &model.Error{Code: model.CodeNotFound, Message: "project " + projectID + " not found"}
	}
	return nil
}
