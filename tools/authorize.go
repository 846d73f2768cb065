package tools

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"
	"github.com/lokal-dev/lokal/tools/model"
)

// loadProject loads a project and checks that the principal may use it: a token of another
// project or workspace is unauthorized, exactly as a wrong token is.
func (c *Catalog) loadProject(ctx context.Context, tx model.Tx, projectID string) (model.Project, error) {
	p := model.PrincipalFrom(ctx)
	if err := authorizeProjectID(p, projectID); err != nil {
		return model.Project{}, err
	}
	if !validID(projectID) {
		return model.Project{}, model.Errorf(model.CodeNotFound, "project %q not found", model.Truncate(projectID, 40))
	}
	proj, err := tx.Project(ctx, projectID)
	if err != nil {
		if model.IsNotFound(err) {
			return model.Project{}, model.Errorf(model.CodeNotFound, "project %s not found", projectID)
		}
		return model.Project{}, err
	}
	if err := projectAdmits(p, proj); err != nil {
		return model.Project{}, err
	}
	if isUser(p) {
		r, err := c.rightsIn(ctx, tx, proj, "")
		if err != nil {
			return model.Project{}, err
		}
		if err := refusal(proj, "", model.RightRead, r); err != nil {
			return model.Project{}, err
		}
	}
	return proj, nil
}

// authorizeProjectID rejects what can be rejected without the database.
func authorizeProjectID(p model.Principal, projectID string) error {
	switch p.Kind {
	case model.KindSystem, model.KindAnonymous, model.KindWorkspace, KindSession:
		return nil
	case model.KindAPIKey, model.KindPersonal:
		if p.ProjectID == projectID {
			return nil
		}
	}
	return &model.Error{Code: model.CodeUnauthorized, Message: "token is not valid for this project"}
}

func projectAdmits(p model.Principal, proj model.Project) error {
	switch p.Kind {
	case model.KindSystem, model.KindAnonymous:
		return nil
	case model.KindWorkspace, KindSession:
		if p.WorkspaceID == proj.WorkspaceID && proj.Active {
			return nil
		}
	case model.KindAPIKey, model.KindPersonal:
		if p.ProjectID == proj.ID {
			return nil
		}
	}
	return &model.Error{Code: model.CodeUnauthorized, Message: "token is not valid for this project"}
}

// ownerFor admits, to a project's admin operation op (its keys, AI and settings), the
// operator and a user signed in to the editor whom op's row admits: the page and the
// command line run one operation under one rule. It returns the context the operation
// runs in, the system's for both, so what it records reads as the command line's.
func (c *Catalog) ownerFor(ctx context.Context, op model.Operation, projectID string, write bool) (context.Context, error) {
	if err := c.gate(ctx, op, on{project: projectID}); err != nil {
		return ctx, err
	}
	if model.PrincipalFrom(ctx).Kind != KindSession {
		return ctx, nil
	}
	if write {
		// The operator may still change an archived project's settings; the editor not.
		if err := c.writable(ctx, projectID); err != nil {
			return ctx, err
		}
	}
	return model.WithPrincipal(ctx, System), nil
}

// self admits, to op, the operator, and a signed-in user to what is their own: their user
// (userID) and their workspace (workspaceID), each when given. It returns the system's
// context, as ownerFor does.
func (c *Catalog) self(ctx context.Context, op model.Operation, userID, workspaceID string) (context.Context, error) {
	if err := c.gate(ctx, op, on{}); err != nil {
		return ctx, err
	}
	p := model.PrincipalFrom(ctx)
	if p.Kind != KindSession {
		return ctx, nil
	}
	if (userID != "" && userID != p.UserID) || (workspaceID != "" && workspaceID != p.WorkspaceID) {
		return ctx, &model.Error{Code: model.CodeUnauthorized, Message: "a signed-in user manages only their own tokens and workspace"}
	}
	return model.WithPrincipal(ctx, System), nil
}

// authorizeProject checks that the principal in ctx, not the system, may use the project:
// CodeUnauthorized for a token of another project or workspace, CodeNotFound for an
// unknown project, CodeForbidden for a user without a role on it (the gate's project step).
func (c *Catalog) authorizeProject(ctx context.Context, projectID string) error {
	p := model.PrincipalFrom(ctx)
	if err := authorizeProjectID(p, projectID); err != nil {
		return err
	}
	if isUser(p) {
		// A user's token is worth their role now, not when it was minted.
		return c.need(ctx, projectID, "", model.RightRead)
	}
	if p.Kind == model.KindAPIKey && p.ProjectID == projectID {
		// The key exists only while its project does: no lookup on the hot read path.
		return nil
	}
	_, err := c.projectCached(ctx, projectID)
	return err
}

// OpenMCP authorizes a call of an MCP endpoint, before any tool's gate: the workspace
// endpoint (projectID "") takes workspace tokens only; the project endpoint any token of
// its project, and fixes the project of every tool call in the returned context, which it
// marks as the MCP door's.
func (c *Catalog) OpenMCP(ctx context.Context, projectID string) (context.Context, error) {
	ctx = WithDoor(ctx, MCP)
	p := model.PrincipalFrom(ctx)
	if projectID == "" {
		if p.Kind != model.KindWorkspace && !oauthProjectGrant(p) {
			return ctx, &model.Error{Code: model.CodeUnauthorized, Message: "this endpoint takes workspace tokens (pat_ws_) only"}
		}
		return ctx, nil
	}
	if p.Kind == model.KindAnonymous {
		return ctx, errNoToken()
	}
	if err := c.authorizeProject(ctx, projectID); err != nil {
		return ctx, err
	}
	return WithProjectScope(ctx, projectID), nil
}

// projectCached returns the project through the cache and checks the principal against it.
func (c *Catalog) projectCached(ctx context.Context, projectID string) (model.Project, error) {
	if !validID(projectID) {
		return model.Project{}, model.Errorf(model.CodeNotFound, "project %q not found", model.Truncate(projectID, 40))
	}
	f, err := c.store.Cached(ctx, projectID, "project", func(ctx context.Context) ([]byte, error) {
		var body []byte
		err := c.store.View(ctx, func(tx model.Tx) error {
			p, err := tx.Project(ctx, projectID)
			if err != nil {
				return err
			}
			body, err = json.Marshal(cachedProject{Project: p, WorkspaceID: p.WorkspaceID, Active: p.Active})
			return err
		})
		return body, err
	})
	if err != nil {
		return model.Project{}, err
	}
	var cp cachedProject
	if err := json.Unmarshal(f.Body, &cp); err != nil {
		return model.Project{}, err
	}
	cp.Project.WorkspaceID, cp.Project.Active = cp.WorkspaceID, cp.Active
	if err := projectAdmits(model.PrincipalFrom(ctx), cp.Project); err != nil {
		return model.Project{}, err
	}
	return cp.Project, nil
}

type cachedProject struct {
	model.Project
	WorkspaceID string `json:"workspace_id"`
	Active      bool   `json:"active"`
}

// validID reports whether id can be the id of a record: ids are UUIDs, and anything else
// is unknown without asking the database.
func validID(id string) bool { return uuid.Validate(id) == nil }

// read runs fn in one read transaction with the project loaded and authorized: the read
// side's one path, as write is the write side's.
func (c *Catalog) read(ctx context.Context, projectID string, fn func(tx model.Tx, proj model.Project) error) error {
	return c.store.View(ctx, func(tx model.Tx) error {
		proj, err := c.loadProject(ctx, tx, projectID)
		if err != nil {
			return err
		}
		return fn(tx, proj)
	})
}
