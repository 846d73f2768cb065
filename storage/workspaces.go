package storage

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

func (t *tx) HasWorkspaces(ctx context.Context) (bool, error) {
	ok, err := t.tx.NewSelect().Model((*workspaceRow)(nil)).Exists(ctx)
	return ok, mapError(err)
}

func (t *tx) CreateWorkspace(ctx context.Context, w model.Workspace) error {
	_, err := t.tx.NewInsert().Model(&workspaceRow{ID: w.ID, Name: w.Name, PublicToken: w.PublicToken, CreatedAt: now()}).Exec(ctx)
	return mapError(err)
}

func (t *tx) Workspace(ctx context.Context, id string) (model.Workspace, error) {
	var r workspaceRow
	if err := t.tx.NewSelect().Model(&r).Where("id = ?", id).Scan(ctx); err != nil {
		return model.Workspace{}, notFound(err, "workspace %s", id)
	}
	return model.Workspace{ID: r.ID, Name: r.Name, PublicToken: r.PublicToken, CreatedAt: r.CreatedAt}, nil
}

func (t *tx) CreateUser(ctx context.Context, u model.User) error {
	r := userRow{ID: u.ID, WorkspaceID: u.WorkspaceID, Email: u.Email, Role: u.Role, CreatedAt: now()}
	if u.Confirmed {
		r.ConfirmedAt = &r.CreatedAt
	}
	_, err := t.tx.NewInsert().Model(&r).Exec(ctx)
	return mapError(err)
}

func (t *tx) User(ctx context.Context, id string) (model.User, error) {
	var r userRow
	if err := t.tx.NewSelect().Model(&r).Where("id = ?", id).Scan(ctx); err != nil {
		return model.User{}, notFound(err, "user %s", id)
	}
	return r.user(), nil
}

func (t *tx) Workspaces(ctx context.Context) ([]model.Workspace, error) {
	var rows []workspaceRow
	if err := t.tx.NewSelect().Model(&rows).Order("created_at", "id").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.Workspace, len(rows))
	for i, r := range rows {
		out[i] = model.Workspace{ID: r.ID, Name: r.Name, PublicToken: r.PublicToken, CreatedAt: r.CreatedAt}
	}
	return out, nil
}

func (t *tx) Users(ctx context.Context, workspaceID string) ([]model.User, error) {
	var rows []userRow
	if err := t.tx.NewSelect().Model(&rows).Where("workspace_id = ?", workspaceID).Order("created_at", "id").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.User, len(rows))
	for i, r := range rows {
		out[i] = r.user()
	}
	return out, nil
}

// user is the row as the catalogue reads it.
func (r userRow) user() model.User {
	return model.User{ID: r.ID, WorkspaceID: r.WorkspaceID, Email: r.Email, Role: r.Role, Confirmed: r.ConfirmedAt != nil, CreatedAt: r.CreatedAt, DisabledAt: r.DisabledAt}
}
