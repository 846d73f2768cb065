package tools

import (
	"context"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// Archiving: an archived project keeps answering reads (the dictionary, the token API's
// reads, exports), so that shipped apps and sites keep working, and refuses every write
// (REST, MCP, editor saves and settings, the Embed's harvest, automatic translation) with
// CodeArchived until an owner or the operator restores it. It is left out of project
// lists unless they ask for archived projects too.

// archived is the rule: CodeArchived for an archived project, nil otherwise.
func archived(p model.Project) error {
	if p.ArchivedAt == nil {
		return nil
	}
	return model.Errorf(model.CodeArchived, "project “%s” is archived and read-only; an owner can restore it (lokal project restore)", p.Title)
}

// openProject reads the project a write applies to in tx and refuses it when archived:
// the write path and its dry run both start there.
func (c *Catalog) openProject(ctx context.Context, tx model.Tx, projectID string) (model.Project, error) {
	proj, err := c.loadProject(ctx, tx, projectID)
	if err != nil {
		return proj, err
	}
	return proj, archived(proj)
}

// writable applies archived to the project through the cache, before a write spends
// anything; the write path applies it again in its transaction.
func (c *Catalog) writable(ctx context.Context, projectID string) error {
	proj, err := c.projectCached(model.WithPrincipal(ctx, System), projectID)
	if err != nil {
		return err
	}
	return archived(proj)
}

func ignoreArchived(err error) error {
	if model.ErrorCode(err) == model.CodeArchived {
		return nil
	}
	return err
}

// ProjectState is what archive, restore and delete answer.
type ProjectState struct {
	ID         string  `json:"id"`
	Title      string  `json:"title"`
	Archived   bool    `json:"archived"`
	Deleted    bool    `json:"deleted,omitempty"`
	ArchivedAt *string `json:"archived_at,omitempty"`
}

// ArchiveProject makes a project read-only and hides it from lists. For the operator and
// the workspace's owners; archiving an archived project changes nothing.
func (c *Catalog) ArchiveProject(ctx context.Context, projectID string) (ProjectState, error) {
	return c.setArchived(ctx, model.OpArchiveProject, projectID, true)
}

// RestoreProject undoes ArchiveProject.
func (c *Catalog) RestoreProject(ctx context.Context, projectID string) (ProjectState, error) {
	return c.setArchived(ctx, model.OpRestoreProject, projectID, false)
}

func (c *Catalog) setArchived(ctx context.Context, op model.Operation, projectID string, archive bool) (ProjectState, error) {
	var out ProjectState
	ctx, err := c.ownerFor(ctx, op, projectID, false)
	if err != nil {
		return out, err
	}
	if !validID(projectID) {
		return out, errNoProject(projectID)
	}
	err = c.write(ctx, write{op: op, admin: true, project: projectID, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		p, err := tx.Project(ctx, projectID)
		if err != nil {
			return nil, err
		}
		at := p.ArchivedAt
		switch {
		case archive && at == nil:
			now := c.opts.Now().UTC()
			at = &now
		case !archive:
			at = nil
		}
		out = projectState(p.ID, p.Title, at)
		return nil, tx.ArchiveProject(ctx, projectID, at)
	}})
	return out, err
}

func projectState(id, title string, at *time.Time) ProjectState {
	s := ProjectState{ID: id, Title: title, Archived: at != nil}
	if at != nil {
		v := at.UTC().Format(time.RFC3339)
		s.ArchivedAt = &v
	}
	return s
}

// DeleteProject removes a project and everything under it (keys, translations, history,
// its keys and tokens, members, invitations, webhooks, jobs, counters, caches) in one
// transaction. confirm must be the project's title, typed back. For the operator and the
// workspace's owners.
func (c *Catalog) DeleteProject(ctx context.Context, projectID, confirm string) (ProjectState, error) {
	var out ProjectState
	ctx, err := c.ownerFor(ctx, model.OpDeleteProject, projectID, false)
	if err != nil {
		return out, err
	}
	if !validID(projectID) {
		return out, errNoProject(projectID)
	}
	err = c.write(ctx, write{op: model.OpDeleteProject, admin: true, project: projectID, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		p, err := tx.Project(ctx, projectID)
		if err != nil {
			return nil, err
		}
		if confirm != p.Title {
			return nil, model.Errorf(model.CodeInvalid, "type the project's title “%s” exactly to delete it; nothing was deleted", p.Title)
		}
		out = ProjectState{ID: p.ID, Title: p.Title, Archived: p.ArchivedAt != nil, Deleted: true}
		return nil, tx.DeleteProject(ctx, projectID)
	}})
	if err == nil {
		c.forgetPrincipals(func(p model.Principal) bool { return p.ProjectID == projectID })
	}
	return out, err
}

// AllWorkspaceProjects is WorkspaceProjects with the archived projects too. Admin only.
func (c *Catalog) AllWorkspaceProjects(ctx context.Context, workspaceID string) ([]model.Project, error) {
	if err := c.gate(ctx, model.OpWorkspaceProjects, on{}); err != nil {
		return nil, err
	}
	out := []model.Project{}
	err := c.store.View(ctx, func(tx model.Tx) error {
		if _, err := tx.Workspace(ctx, workspaceID); err != nil {
			return err
		}
		ps, err := tx.AllProjects(ctx, workspaceID)
		if ps != nil {
			out = ps
		}
		return err
	})
	return out, err
}
