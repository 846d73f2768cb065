package storage

import (
	"context"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// The operator's verbs: archive, delete and the lookups that find projects and users by
// the names people give them.

func (t *tx) ArchiveProject(ctx context.Context, projectID string, at *time.Time) error {
	if at != nil {
		u := at.UTC()
		at = &u
	}
	res, err := t.tx.NewUpdate().Model((*projectRow)(nil)).Set("archived_at = ?", at).Set("updated_at = ?", now()).
		Where("id = ?", projectID).Exec(ctx)
	if err != nil {
		return mapError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return model.Errorf(model.CodeNotFound, "project %s not found", projectID)
	}
	return t.Touch(ctx, projectID)
}

func (t *tx) AllProjects(ctx context.Context, workspaceID string) ([]model.Project, error) {
	var rows []projectRow
	if err := t.tx.NewSelect().Model(&rows).Where("workspace_id = ?", workspaceID).Where("active").
		Order("created_at", "id").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	return t.fillProjects(ctx, rows)
}

func (t *tx) ProjectsByTitle(ctx context.Context, title string) ([]model.Project, error) {
	var rows []projectRow
	if err := t.tx.NewSelect().Model(&rows).Where("title = ?", title).Where("active").
		Order("created_at", "id").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	return t.fillProjects(ctx, rows)
}

// projectScoped lists, children first, every table that holds a project's rows, with the
// condition that selects them (? is the project id). A table added later that holds
// project rows belongs here; cmd/lokal's TestCLIProjectArchiveDelete
// checks every table of the schema that names a project, namespace or key.
var projectScoped = []struct{ table, where string }{
	{"translation_history", "key_id IN (" + projectKeys + ")"},
	{"comments", "key_id IN (" + projectKeys + ")"},
	{"translation_drift", "key_id IN (" + projectKeys + ")"},
	{"entry_meta", "key_id IN (" + projectKeys + ")"},
	{"page_contexts", "project_id = ?"},
	{"ai_failures", "project_id = ?"},
	{"checkup_findings", "project_id = ?"},
	{"checkup_queue", "project_id = ?"},
	{"checkup_reports", "project_id = ?"},
	{"translations", "key_id IN (" + projectKeys + ")"},
	{"namespace_counts", "namespace_id IN (SELECT id FROM namespaces WHERE project_id = ?)"},
	{"file_meta", "namespace_id IN (SELECT id FROM namespaces WHERE project_id = ?)"},
	{"translation_keys", "namespace_id IN (SELECT id FROM namespaces WHERE project_id = ?)"},
	{"namespaces", "project_id = ?"},
	{"webhook_attempts", "webhook_id IN (SELECT id FROM webhooks WHERE project_id = ?)"},
	{"webhook_deliveries", "project_id = ?"},
	{"webhook_outbox", "project_id = ?"},
	{"webhooks", "project_id = ?"},
	{"glossary_terms", "project_id = ?"},
	{"do_not_translate_terms", "project_id = ?"},
	{"substitution_rules", "project_id = ?"},
	{"tokens", "project_id = ?"},
	{"project_members", "project_id = ?"},
	{"invitations", "project_id = ?"},
	{"project_hosts", "project_id = ?"},
	{"project_languages", "project_id = ?"},
	{"project_syntax", "project_id = ?"},
	{"status_counts", "project_id = ?"},
	{"embed_demand", "project_id = ?"},
	{"embed_pings", "project_id = ?"},
	{"redeploy_attempts", "project_id = ?"},
	{"jobs", "project_id = ?"},
	{"ai_usage", "project_id = ?"},
	{"cache_changes", "project_id = ?"},
	{"rate_events", "bucket LIKE '%:' || ?"},
	{"projects", "id = ?"},
}

const projectKeys = "SELECT k.id FROM translation_keys AS k JOIN namespaces AS n ON n.id = k.namespace_id WHERE n.project_id = ?"

// DeleteProject removes the project and everything under it in the transaction. The
// project's revision moves last (a cache_changes row), so that every server drops what it
// cached of the project.
func (t *tx) DeleteProject(ctx context.Context, projectID string) error {
	if _, err := t.Project(ctx, projectID); err != nil {
		return err
	}
	for _, s := range projectScoped {
		if _, err := t.tx.ExecContext(ctx, "DELETE FROM "+s.table+" WHERE "+s.where, projectID); err != nil {
			return mapError(err)
		}
	}
	return t.Touch(ctx, projectID)
}

func (t *tx) SetUserDisabled(ctx context.Context, userID string, at *time.Time) error {
	if at != nil {
		u := at.UTC()
		at = &u
	}
	res, err := t.tx.NewUpdate().Model((*userRow)(nil)).Set("disabled_at = ?", at).Where("id = ?", userID).Exec(ctx)
	if err != nil {
		return mapError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return model.Errorf(model.CodeNotFound, "user %s not found", userID)
	}
	if at != nil {
		return t.DeleteUserSessions(ctx, userID)
	}
	return nil
}

func (t *tx) DeleteUser(ctx context.Context, userID string, at time.Time) error {
	u, err := t.User(ctx, userID)
	if err != nil {
		return err
	}
	if _, err := t.tx.NewInsert().Model(&formerUserRow{ID: u.ID, WorkspaceID: u.WorkspaceID, Email: u.Email, DeletedAt: at.UTC()}).
		Exec(ctx); err != nil {
		return mapError(err)
	}
	if err := t.deleteUserOAuth(ctx, userID); err != nil {
		return err
	}
	for _, table := range []string{"sessions", "user_passwords", "tokens", "project_members"} {
		if _, err := t.tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE user_id = ?", userID); err != nil {
			return mapError(err)
		}
	}
	// Reset links name the user (invitations.user_id has no foreign key: SQLite cannot add one).
	if _, err := t.tx.ExecContext(ctx, "DELETE FROM invitations WHERE user_id = ?", userID); err != nil {
		return mapError(err)
	}
	_, err = t.tx.NewDelete().Model((*userRow)(nil)).Where("id = ?", userID).Exec(ctx)
	return mapError(err)
}

func (t *tx) FormerUser(ctx context.Context, userID string) (model.User, error) {
	var r formerUserRow
	if err := t.tx.NewSelect().Model(&r).Where("id = ?", userID).Scan(ctx); err != nil {
		return model.User{}, notFound(err, "user %s", userID)
	}
	return model.User{ID: r.ID, WorkspaceID: r.WorkspaceID, Email: r.Email}, nil
}

func (t *tx) UsersByEmail(ctx context.Context, email string) ([]model.User, error) {
	var rows []userRow
	if err := t.tx.NewSelect().Model(&rows).Where("lower(email) = ?", strings.ToLower(email)).
		Order("created_at", "id").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.User, len(rows))
	for i, r := range rows {
		out[i] = r.user()
	}
	return out, nil
}
