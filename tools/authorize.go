package tools

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"
)

// loadProject loads a project and checks that the principal may use it: a token of another
// project or workspace is unauthorized, exactly as a wrong token is.
func (c *Catalog) loadProject(ctx context.Context, tx Tx, projectID string) (Project, error) {
	p := PrincipalFrom(ctx)
	if err := authorizeProjectID(p, projectID); err != nil {
		return Project{}, err
	}
	if !validID(projectID) {
		return Project{}, Errorf(CodeNotFound, "project %q not found", truncate(projectID, 40))
	}
	proj, err := tx.Project(ctx, projectID)
	if err != nil {
		if IsNotFound(err) {
			return Project{}, Errorf(CodeNotFound, "project %s not found", projectID)
		}
		return Project{}, err
	}
	if err := authorizeProject(p, proj); err != nil {
		return Project{}, err
	}
	return proj, nil
}

// authorizeProjectID rejects what can be rejected without the database.
func authorizeProjectID(p Principal, projectID string) error {
	switch p.Kind {
	case KindSystem, KindAnonymous, KindWorkspace, KindSession:
		return nil
	case KindAPIKey, KindPersonal:
		if p.ProjectID == projectID {
			return nil
		}
	}
	return &Error{Code: CodeUnauthorized, Message: "token is not valid for this project"}
}

func authorizeProject(p Principal, proj Project) error {
	switch p.Kind {
	case KindSystem, KindAnonymous:
		return nil
	case KindWorkspace, KindSession:
		if p.WorkspaceID == proj.WorkspaceID && proj.Active {
			return nil
		}
	case KindAPIKey, KindPersonal:
		if p.ProjectID == proj.ID {
			return nil
		}
	}
	return &Error{Code: CodeUnauthorized, Message: "token is not valid for this project"}
}

// requireWrite refuses read-only keys on writes.
func requireWrite(ctx context.Context) error {
	p := PrincipalFrom(ctx)
	switch {
	case p.Kind == KindAnonymous:
		return &Error{Code: CodeUnauthorized, Message: "a token is required"}
	case p.ReadOnly:
		return &Error{Code: CodeReadOnlyKey, Message: "this API key is read-only"}
	}
	return nil
}

// requireToken refuses anonymous callers on token-authenticated operations.
func requireToken(ctx context.Context) error {
	if PrincipalFrom(ctx).Kind == KindAnonymous {
		return &Error{Code: CodeUnauthorized, Message: "a token is required"}
	}
	return nil
}

func requireSystem(ctx context.Context) error {
	if PrincipalFrom(ctx).Kind != KindSystem {
		return &Error{Code: CodeUnauthorized, Message: "admin operation"}
	}
	return nil
}

// requirePersonal admits personal access tokens (a project's or a workspace's), a user
// signed in to the Connect page (a session may do what the user's workspace token may) and
// the system: operations on an owner's business (spend, redeploy) are not for API keys.
func requirePersonal(ctx context.Context) error {
	switch PrincipalFrom(ctx).Kind {
	case KindPersonal, KindWorkspace, KindSession, KindSystem:
		return nil
	}
	return &Error{Code: CodePATRequired, Message: "this needs a personal access token, not a project API key"}
}

// AuthorizeProject checks that the principal in ctx may use the project: CodeUnauthorized
// for a token of another project or workspace, CodeNotFound for an unknown project.
func (c *Catalog) AuthorizeProject(ctx context.Context, projectID string) error {
	if err := requireToken(ctx); err != nil {
		return err
	}
	p := PrincipalFrom(ctx)
	if err := authorizeProjectID(p, projectID); err != nil {
		return err
	}
	if (p.Kind == KindAPIKey || p.Kind == KindPersonal) && p.ProjectID == projectID {
		// The token exists only while its project does: no lookup on the hot read path.
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
		if PrincipalFrom(ctx).Kind != KindWorkspace {
			return ctx, &Error{Code: CodeUnauthorized, Message: "this endpoint takes workspace tokens (pat_ws_) only"}
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
func (c *Catalog) projectCached(ctx context.Context, projectID string) (Project, error) {
	if !validID(projectID) {
		return Project{}, Errorf(CodeNotFound, "project %q not found", truncate(projectID, 40))
	}
	f, err := c.store.Cached(ctx, projectID, "project", func(ctx context.Context) ([]byte, error) {
		var body []byte
		err := c.store.View(ctx, func(tx Tx) error {
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
		return Project{}, err
	}
	var cp cachedProject
	if err := json.Unmarshal(f.Body, &cp); err != nil {
		return Project{}, err
	}
	cp.Project.WorkspaceID, cp.Project.Active = cp.WorkspaceID, cp.Active
	if err := authorizeProject(PrincipalFrom(ctx), cp.Project); err != nil {
		return Project{}, err
	}
	return cp.Project, nil
}

type cachedProject struct {
	Project
	WorkspaceID string `json:"workspace_id"`
	Active      bool   `json:"active"`
}

// validID reports whether id can be the id of a record: ids are UUIDs, and anything else
// is unknown without asking the database.
func validID(id string) bool { return uuid.Validate(id) == nil }

// read runs fn in one read transaction with the project loaded and authorized: the read
// side's one path, as write is the write side's.
func (c *Catalog) read(ctx context.Context, projectID string, fn func(tx Tx, proj Project) error) error {
	return c.store.View(ctx, func(tx Tx) error {
		proj, err := c.loadProject(ctx, tx, projectID)
		if err != nil {
			return err
		}
		return fn(tx, proj)
	})
}
