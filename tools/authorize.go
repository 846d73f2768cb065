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
	if err := authorizeProject(p, proj); err != nil {
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

func authorizeProject(p model.Principal, proj model.Project) error {
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

// requireWrite refuses read-only keys on writes.
func requireWrite(ctx context.Context) error {
	p := model.PrincipalFrom(ctx)
	switch {
	case p.Kind == model.KindAnonymous:
		return &model.Error{Code: model.CodeUnauthorized, Message: "a token is required"}
	case p.ReadOnly:
		return &model.Error{Code: model.CodeReadOnlyKey, Message: "this API key is read-only"}
	}
	return nil
}

// requireToken refuses anonymous callers on token-authenticated operations.
func requireToken(ctx context.Context) error {
	if model.PrincipalFrom(ctx).Kind == model.KindAnonymous {
		return &model.Error{Code: model.CodeUnauthorized, Message: "a token is required"}
	}
	return nil
}

func requireSystem(ctx context.Context) error {
	if model.PrincipalFrom(ctx).Kind != model.KindSystem {
		return &model.Error{Code: model.CodeUnauthorized, Message: "admin operation"}
	}
	return nil
}

// requirePersonal admits personal access tokens (a project's or a workspace's), a user
// signed in to the Connect page (a session may do what the user's workspace token may) and
// the system: operations on an owner's business (spend, redeploy) are not for API keys.
func requirePersonal(ctx context.Context) error {
	switch model.PrincipalFrom(ctx).Kind {
	case model.KindPersonal, model.KindWorkspace, KindSession, model.KindSystem:
		return nil
	}
	return &model.Error{Code: model.CodePATRequired, Message: "this needs a personal access token, not a project API key"}
}

// owner admits, to a project's admin operation (its keys, AI and settings), the operator and
// a user signed in to the Connect page who is a member of the project's workspace: the
// page and the command line run one operation under one rule. It returns the context the
// operation runs in, the system's for both, so what it records reads as the command
// line's; anyone else gets the admin operation's refusal.
func (c *Catalog) owner(ctx context.Context, projectID string, write bool) (context.Context, error) {
	return c.ownerFor(ctx, projectID, write, model.RightManage)
}

// ownerFor is owner for a signed-in user holding need on the project.
func (c *Catalog) ownerFor(ctx context.Context, projectID string, write bool, need model.Right) (context.Context, error) {
	if model.PrincipalFrom(ctx).Kind != KindSession {
		return ctx, requireSystem(ctx)
	}
	if err := c.begin(ctx, projectID, write); err != nil {
		return ctx, err
	}
	if err := c.need(ctx, projectID, "", need); err != nil {
		return ctx, err
	}
	if write {
		// The operator may still change an archived project's settings; the editor not.
		if err := c.writable(ctx, projectID); err != nil {
			return ctx, err
		}
	}
	return model.WithPrincipal(ctx, System), nil
}

// self admits the operator, and a signed-in user to what is their own: their user (userID)
// and their workspace (workspaceID), each when given. It returns the system's context, as
// owner does.
func self(ctx context.Context, userID, workspaceID string) (context.Context, error) {
	p := model.PrincipalFrom(ctx)
	if p.Kind != KindSession {
		return ctx, requireSystem(ctx)
	}
	if (userID != "" && userID != p.UserID) || (workspaceID != "" && workspaceID != p.WorkspaceID) {
		return ctx, &model.Error{Code: model.CodeUnauthorized, Message: "a signed-in user manages only their own tokens and workspace"}
	}
	return model.WithPrincipal(ctx, System), nil
}

// AuthorizeProject checks that the principal in ctx may use the project: CodeUnauthorized
// for a token of another project or workspace, CodeNotFound for an unknown project.
func (c *Catalog) AuthorizeProject(ctx context.Context, projectID string) error {
	if err := requireToken(ctx); err != nil {
		return err
	}
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

// OpenMCP authorizes a call of an MCP endpoint: the workspace endpoint (projectID "")
// takes workspace tokens only; the project endpoint any token of its project, and fixes
// the project of every tool call in the returned context.
func (c *Catalog) OpenMCP(ctx context.Context, projectID string) (context.Context, error) {
	if projectID == "" {
		if p := model.PrincipalFrom(ctx); p.Kind != model.KindWorkspace && !oauthProjectGrant(p) {
			return ctx, &model.Error{Code: model.CodeUnauthorized, Message: "this endpoint takes workspace tokens (pat_ws_) only"}
		}
		return ctx, nil
	}
	if err := c.AuthorizeProject(ctx, projectID); err != nil {
		return ctx, err
	}
	return WithProjectScope(ctx, projectID), nil
}

// AuthorizeWrite is AuthorizeProject for a write: a read-only key gets CodeReadOnlyKey.
func (c *Catalog) AuthorizeWrite(ctx context.Context, projectID string) error {
	return c.begin(ctx, projectID, true)
}

// begin authorizes a project operation before anything else is looked at, so a token of
// another project learns nothing from validation errors: unauthorized comes first, then
// read_only_key for a write.
func (c *Catalog) begin(ctx context.Context, projectID string, write bool) error {
	if err := c.AuthorizeProject(ctx, projectID); err != nil {
		return err
	}
	if write {
		return requireWrite(ctx)
	}
	return nil
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
	if err := authorizeProject(model.PrincipalFrom(ctx), cp.Project); err != nil {
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

// admits refuses a principal that op's row in Operations does not list among its callers
// (CodeUnauthorized, as an admin operation refuses); the system is every row's. For
// operations whose method any principal could reach, that the operator and the editor
// share (terminology), so that no token does what no door offers it.
func admits(ctx context.Context, op model.Operation) error {
	p := model.PrincipalFrom(ctx)
	var who Callers
	switch p.Kind {
	case model.KindSystem:
		return nil
	case KindSession:
		who = Session
	case model.KindWorkspace:
		who = WorkspacePAT
	case model.KindPersonal:
		who = PAT
	case model.KindAPIKey:
		who = KeyRW
		if p.ReadOnly {
			who = KeyRO
		}
	case model.KindAnonymous:
		who = Anonymous
	}
	if p.GrantID != "" {
		who = Grant
	}
	if o, ok := Op(op); ok && o.Auth&who != 0 {
		return nil
	}
	return &model.Error{Code: model.CodeUnauthorized, Message: "admin operation"}
}
