package storage

import (
	"context"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

func (t *tx) SetUserRole(ctx context.Context, userID, role string) error {
	res, err := t.tx.NewUpdate().Model((*userRow)(nil)).Set("role = ?", role).Where("id = ?", userID).Exec(ctx)
	if err != nil {
		return mapError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return model.Errorf(model.CodeNotFound, "user %s not found", userID)
	}
	return nil
}

func (t *tx) SetMember(ctx context.Context, m model.Member) error {
	r := projectMemberRow{ProjectID: m.ProjectID, UserID: m.UserID, Role: m.Role, Languages: strings.Join(m.Languages, ","), UpdatedAt: now()}
	_, err := t.tx.NewInsert().Model(&r).
		On("CONFLICT (project_id, user_id) DO UPDATE").
		Set("role = EXCLUDED.role, languages = EXCLUDED.languages, updated_at = EXCLUDED.updated_at").Exec(ctx)
	return mapError(err)
}

func (t *tx) RemoveMember(ctx context.Context, projectID, userID string) error {
	res, err := t.tx.NewDelete().Model((*projectMemberRow)(nil)).Where("project_id = ? AND user_id = ?", projectID, userID).Exec(ctx)
	if err != nil {
		return mapError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return model.Errorf(model.CodeNotFound, "user %s has no role on project %s", userID, projectID)
	}
	return nil
}

func (t *tx) Members(ctx context.Context, projectID string) ([]model.Member, error) {
	var rows []struct {
		projectMemberRow
		Email string `bun:"email"`
	}
	err := t.tx.NewSelect().TableExpr("project_members AS m").
		ColumnExpr("m.project_id, m.user_id, m.role, m.languages, m.updated_at, u.email").
		Join("JOIN users AS u ON u.id = m.user_id").
		Where("m.project_id = ?", projectID).OrderExpr("u.email, u.id").Scan(ctx, &rows)
	if err != nil {
		return nil, mapError(err)
	}
	out := make([]model.Member, len(rows))
	for i, r := range rows {
		out[i] = model.Member{ProjectID: r.ProjectID, UserID: r.UserID, Email: r.Email, Role: r.Role, Languages: splitLanguages(r.Languages)}
	}
	return out, nil
}

// Access finds enabled users only: a disabled user's tokens and sessions hold no right.
func (t *tx) Access(ctx context.Context, userID, projectID string) (model.Access, error) {
	var u userRow
	if err := t.tx.NewSelect().Model(&u).Column("id", "workspace_id", "role").Where("id = ?", userID).
		Where("disabled_at IS NULL").Scan(ctx); err != nil {
		return model.Access{}, notFound(err, "user %s", userID)
	}
	a := model.Access{UserID: u.ID, WorkspaceID: u.WorkspaceID, WorkspaceRole: u.Role}
	if projectID == "" {
		return a, nil
	}
	var m []projectMemberRow
	if err := t.tx.NewSelect().Model(&m).Where("project_id = ? AND user_id = ?", projectID, userID).Limit(1).Scan(ctx); err != nil {
		return model.Access{}, mapError(err)
	}
	if len(m) == 1 {
		a.ProjectRole, a.Languages = m[0].Role, splitLanguages(m[0].Languages)
	}
	return a, nil
}

func splitLanguages(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(s, ",")
}

func (t *tx) CreateInvitation(ctx context.Context, inv model.Invitation) error {
	r := invitationRow{ID: inv.ID, WorkspaceID: inv.WorkspaceID, Email: inv.Email, WorkspaceRole: inv.WorkspaceRole,
		ProjectRole: inv.ProjectRole, Languages: strings.Join(inv.Languages, ","), Hash: inv.Hash, CreatedBy: inv.CreatedBy,
		CreatedAt: inv.CreatedAt.UTC(), ExpiresAt: inv.ExpiresAt.UTC()}
	if inv.ProjectID != "" {
		r.ProjectID = &inv.ProjectID
	}
	_, err := t.tx.NewInsert().Model(&r).Exec(ctx)
	return mapError(err)
}

func (t *tx) InvitationByHash(ctx context.Context, hash string) (model.Invitation, error) {
	var r invitationRow
	if err := t.tx.NewSelect().Model(&r).Where("hash = ?", hash).Scan(ctx); err != nil {
		return model.Invitation{}, notFound(err, "invitation")
	}
	inv := model.Invitation{ID: r.ID, WorkspaceID: r.WorkspaceID, Email: r.Email, WorkspaceRole: r.WorkspaceRole, ProjectRole: r.ProjectRole,
		Languages: splitLanguages(r.Languages), Hash: r.Hash, CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt, ExpiresAt: r.ExpiresAt, UsedAt: r.UsedAt}
	if r.ProjectID != nil {
		inv.ProjectID = *r.ProjectID
	}
	return inv, nil
}

func (t *tx) UseInvitation(ctx context.Context, id string, at time.Time) error {
	res, err := t.tx.NewUpdate().Model((*invitationRow)(nil)).Set("used_at = ?", at.UTC()).Where("id = ? AND used_at IS NULL", id).Exec(ctx)
	if err != nil {
		return mapError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return model.Errorf(model.CodeConflict, "the invitation was used already")
	}
	return nil
}
