package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/lokal-dev/lokal/tools/model"
)

// The operator names users and projects as people do: by id, by email (a user) or by
// title (a project). An id passes through unchanged (the operation answers for an unknown
// one); a name must be unambiguous, else CodeConflict lists the candidates with their ids
// and workspaces. Admin only.

// ResolveUser returns the id of the user ref names; workspaceID, when set, narrows an
// email to that workspace.
func (c *Catalog) ResolveUser(ctx context.Context, ref, workspaceID string) (string, error) {
	ref = strings.TrimSpace(ref)
	if err := c.gate(ctx, model.OpResolveRef, on{}); err != nil || validID(ref) || ref == "" {
		return ref, err
	}
	var found []model.User
	names := map[string]string{}
	err := c.store.View(ctx, func(tx model.Tx) error {
		us, err := tx.UsersByEmail(ctx, ref)
		for _, u := range us {
			if workspaceID == "" || u.WorkspaceID == workspaceID {
				found = append(found, u)
			}
		}
		if err == nil {
			names, err = workspaceNames(ctx, tx)
		}
		return err
	})
	if err != nil {
		return "", err
	}
	switch len(found) {
	case 0:
		return "", model.Errorf(model.CodeNotFound, "no user has the email %q (give an id or an email from lokal user list)", model.Truncate(ref, 80))
	case 1:
		return found[0].ID, nil
	}
	list := make([]string, len(found))
	for i, u := range found {
		list[i] = fmt.Sprintf("%s (workspace %s)", u.ID, names[u.WorkspaceID])
	}
	return "", model.Errorf(model.CodeConflict, "%d users have the email %s, give one of their ids: %s", len(found), ref, strings.Join(list, ", "))
}

// ResolveProject returns the id of the project ref names, and its workspace's id.
func (c *Catalog) ResolveProject(ctx context.Context, ref string) (id, workspaceID string, err error) {
	ref = strings.TrimSpace(ref)
	if err := c.gate(ctx, model.OpResolveRef, on{}); err != nil || ref == "" {
		return ref, "", err
	}
	var found []model.Project
	names := map[string]string{}
	err = c.store.View(ctx, func(tx model.Tx) error {
		if validID(ref) {
			p, err := tx.Project(ctx, ref)
			if err == nil {
				found = append(found, p)
			}
			return ignoreNotFound(err)
		}
		var err error
		if found, err = tx.ProjectsByTitle(ctx, ref); err == nil {
			names, err = workspaceNames(ctx, tx)
		}
		return err
	})
	switch {
	case err != nil:
		return "", "", err
	case validID(ref) && len(found) == 0:
		return ref, "", nil // the operation names the unknown id
	case len(found) == 0:
		return "", "", model.Errorf(model.CodeNotFound, "no project is titled %q (give an id or a title from lokal project list --archived)", model.Truncate(ref, 80))
	case len(found) == 1:
		return found[0].ID, found[0].WorkspaceID, nil
	}
	list := make([]string, len(found))
	for i, p := range found {
		list[i] = fmt.Sprintf("%s (workspace %s)", p.ID, names[p.WorkspaceID])
	}
	return "", "", model.Errorf(model.CodeConflict, "%d projects are titled %q, give one of their ids: %s", len(found), ref, strings.Join(list, ", "))
}

// workspaceNames maps workspace ids to their names.
func workspaceNames(ctx context.Context, tx model.Tx) (map[string]string, error) {
	ws, err := tx.Workspaces(ctx)
	out := make(map[string]string, len(ws))
	for _, w := range ws {
		out[w.ID] = fmt.Sprintf("“%s” %s", w.Name, w.ID)
	}
	return out, err
}
