package storage

import (
	"context"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
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
		Email       string     `bun:"email"`
		ConfirmedAt *time.Time `bun:"confirmed_at"`
	}
	err := t.tx.NewSelect().TableExpr("project_members AS m").
		ColumnExpr("m.project_id, m.user_id, m.role, m.languages, m.updated_at, u.email, u.confirmed_at").
		Join("JOIN users AS u ON u.id = m.user_id").
		Where("m.project_id = ?", projectID).OrderExpr("u.email, u.id").Scan(ctx, &rows)
	if err != nil {
		return nil, mapError(err)
	}
	out := make([]model.Member, len(rows))
	for i, r := range rows {
		out[i] = model.Member{ProjectID: r.ProjectID, UserID: r.UserID, Email: r.Email, Role: r.Role, Languages: splitLanguages(r.Languages), Confirmed: r.ConfirmedAt != nil}
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
	r := invitationRow{ID: inv.ID, Kind: inv.Kind, WorkspaceID: inv.WorkspaceID, Email: inv.Email, WorkspaceRole: inv.WorkspaceRole,
		ProjectRole: inv.ProjectRole, Languages: strings.Join(inv.Languages, ","), Hash: inv.Hash, CreatedBy: inv.CreatedBy,
		CreatedAt: inv.CreatedAt.UTC(), ExpiresAt: inv.ExpiresAt.UTC()}
	if r.Kind == "" {
		r.Kind = model.InvitationInvite
	}
	if inv.ProjectID != "" {
		r.ProjectID = &inv.ProjectID
	}
	if inv.UserID != "" {
		r.UserID = &inv.UserID
	}
	_, err := t.tx.NewInsert().Model(&r).Exec(ctx)
	return mapError(err)
}

func (r invitationRow) invitation() model.Invitation {
	inv := model.Invitation{ID: r.ID, Kind: r.Kind, WorkspaceID: r.WorkspaceID, Email: r.Email, WorkspaceRole: r.WorkspaceRole, ProjectRole: r.ProjectRole,
		Languages: splitLanguages(r.Languages), Hash: r.Hash, CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt, ExpiresAt: r.ExpiresAt,
		UsedAt: r.UsedAt, RevokedAt: r.RevokedAt}
	if r.ProjectID != nil {
		inv.ProjectID = *r.ProjectID
	}
	if r.UserID != nil {
		inv.UserID = *r.UserID
	}
	return inv
}

func (t *tx) InvitationByHash(ctx context.Context, hash string) (model.Invitation, error) {
	var r invitationRow
	if err := t.tx.NewSelect().Model(&r).Where("hash = ?", hash).Scan(ctx); err != nil {
		return model.Invitation{}, notFound(err, "invitation")
	}
	return r.invitation(), nil
}

func (t *tx) Invitation(ctx context.Context, id string) (model.Invitation, error) {
	var r invitationRow
	if err := t.tx.NewSelect().Model(&r).Where("id = ?", id).Scan(ctx); err != nil {
		return model.Invitation{}, notFound(err, "invitation %s", id)
	}
	return r.invitation(), nil
}

func (t *tx) Invitations(ctx context.Context, f model.InvitationFilter) ([]model.Invitation, error) {
	var rows []invitationRow
	q := t.tx.NewSelect().Model(&rows).Order("created_at", "id")
	if f.Kind != "" {
		q = q.Where("kind = ?", f.Kind)
	}
	if f.WorkspaceID != "" {
		q = q.Where("workspace_id = ?", f.WorkspaceID)
	}
	if f.ProjectID != "" {
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			q = q.Where("project_id = ?", f.ProjectID)
			if f.Owners {
				q = q.WhereOr("project_id IS NULL")
			}
			return q
		})
	}
	if f.Open {
		q = q.Where("used_at IS NULL AND revoked_at IS NULL")
	}
	if err := q.Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.Invitation, len(rows))
	for i, r := range rows {
		out[i] = r.invitation()
	}
	return out, nil
}

func (t *tx) UseInvitation(ctx context.Context, id string, at time.Time) error {
	return t.closeInvitation(ctx, id, "used_at", at)
}

func (t *tx) RevokeInvitation(ctx context.Context, id string, at time.Time) error {
	return t.closeInvitation(ctx, id, "revoked_at", at)
}

// closeInvitation sets column (used_at or revoked_at) of an invitation still open, in one
// statement, so two uses (or a use and a revoke) racing each other close it once.
func (t *tx) closeInvitation(ctx context.Context, id, column string, at time.Time) error {
	res, err := t.tx.NewUpdate().Model((*invitationRow)(nil)).Set("? = ?", bun.Ident(column), at.UTC()).
		Where("id = ? AND used_at IS NULL AND revoked_at IS NULL", id).Exec(ctx)
	if err != nil {
		return mapError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return model.Errorf(model.CodeConflict, "the invitation was used or revoked already")
	}
	return nil
}

func (t *tx) ConfirmUser(ctx context.Context, userID string, at time.Time) error {
	res, err := t.tx.NewUpdate().Model((*userRow)(nil)).Set("confirmed_at = ?", at.UTC()).Where("id = ?", userID).Exec(ctx)
	if err != nil {
		return mapError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return model.Errorf(model.CodeNotFound, "user %s not found", userID)
	}
	return nil
}
