package tools

import (
	"context"
	"fmt"
	"slices"

	"github.com/lokal-dev/lokal/tools/model"
)

// Roles decide what a user may do; this file is the one place that reads them. A user's
// tokens and sessions are worth the user's rights at the moment of use, so a role changed
// or removed narrows every token the user minted at once.

// isUser reports whether p acts for a user (their personal tokens or a browser session),
// whose rights come from their roles.
func isUser(p model.Principal) bool {
	switch p.Kind {
	case model.KindPersonal, model.KindWorkspace, KindSession:
		return true
	}
	return false
}

// rightsOn is the one function that decides what a principal may do on a project, in
// language ("" for the project as a whole). a is the user's standing (ignored for other
// principals); the principal must already be admitted to the project (authorizeProject).
//   - the system: everything; a visitor: nothing (the public routes run as the system);
//   - a project API key: read-only reads, read/write everything its project offers keys;
//   - a user: a workspace owner everything; a manager everything on the project; a
//     translator reads and edits their languages; a reviewer also approves in them. The
//     source language is never a translator's or reviewer's: changing it is RightSource.
//     A member without a role on the project has no right on it. A read-only personal
//     token keeps only RightRead of its owner's.
func rightsOn(p model.Principal, a model.Access, proj model.Project, language string) model.Right {
	var r model.Right
	switch p.Kind {
	case model.KindSystem:
		return model.RightsAll
	case model.KindAPIKey:
		if p.ProjectID != proj.ID {
			return 0
		}
		r = model.RightsProject
	case model.KindPersonal, model.KindWorkspace, KindSession:
		if a.UserID != p.UserID || a.WorkspaceID != proj.WorkspaceID || p.WorkspaceID != proj.WorkspaceID {
			return 0
		}
		r = userRights(a, proj, language)
	default:
		return 0
	}
	if p.ReadOnly {
		r &= model.RightRead
	}
	return r
}

func userRights(a model.Access, proj model.Project, language string) model.Right {
	if a.WorkspaceRole == model.RoleOwner {
		return model.RightsAll
	}
	ours := language != "" && language != proj.SourceLanguage && slices.Contains(a.Languages, language)
	switch a.ProjectRole {
	case model.RoleManager:
		return model.RightsProject
	case model.RoleTranslator:
		if ours {
			return model.RightRead | model.RightTranslate
		}
		return model.RightRead
	case model.RoleReviewer:
		if ours {
			return model.RightRead | model.RightTranslate | model.RightApprove
		}
		return model.RightRead
	}
	return 0
}

// rightsIn returns the rights of the principal in ctx on proj, read in tx.
func (c *Catalog) rightsIn(ctx context.Context, tx model.Tx, proj model.Project, language string) (model.Right, error) {
	p := model.PrincipalFrom(ctx)
	var a model.Access
	if isUser(p) {
		var err error
		if a, err = tx.Access(ctx, p.UserID, proj.ID); model.IsNotFound(err) {
			return 0, nil // the user is gone: nothing is left to their tokens
		} else if err != nil {
			return 0, err
		}
	}
	return rightsOn(p, a, proj, language), nil
}

// need refuses (CodeForbidden) a principal lacking a right on a project, in a language
// for RightTranslate and RightApprove; an unknown project or another workspace's answers
// as loadProject does.
func (c *Catalog) need(ctx context.Context, projectID, language string, need model.Right) error {
	// The project through the cache (it moves with the project's revision), then only the
	// user's roles from the database: a role changed anywhere counts at the next request.
	proj, err := c.projectCached(ctx, projectID)
	if err != nil {
		return err
	}
	p := model.PrincipalFrom(ctx)
	if !isUser(p) {
		return refusal(proj, language, need, rightsOn(p, model.Access{}, proj, language))
	}
	var r model.Right
	if err := c.store.View(ctx, func(tx model.Tx) error {
		var err error
		r, err = c.rightsIn(ctx, tx, proj, language)
		return err
	}); err != nil {
		return err
	}
	return refusal(proj, language, need, r)
}

// refusal is nil when have holds need, else the CodeForbidden that names what is missing.
func refusal(proj model.Project, language string, need, have model.Right) error {
	missing := need &^ have
	if missing == 0 {
		return nil
	}
	var what string
	switch {
	case have&model.RightRead == 0:
		return model.Errorf(model.CodeForbidden, "you have no role on project %s", proj.ID)
	case missing&model.RightOwner != 0:
		what = "administering the workspace (owners only)"
	case missing&model.RightManage != 0:
		what = "managing this project (managers and owners only)"
	case missing&model.RightSource != 0:
		what = "changing keys and source texts (managers and owners only)"
	case language == "":
		what = "this without a language"
	case missing&model.RightTranslate != 0:
		what = fmt.Sprintf("editing %s", language)
	default:
		what = fmt.Sprintf("approving %s", language)
	}
	return model.Errorf(model.CodeForbidden, "your role on this project does not allow %s", what)
}

// approving is the right a status asks beyond editing: approving needs RightApprove.
func approving(status string) model.Right {
	if status == model.StatusApproved {
		return model.RightApprove
	}
	return 0
}

// visible keeps the projects the principal in ctx may see.
func (c *Catalog) visible(ctx context.Context, tx model.Tx, projects []model.Project) ([]model.Project, error) {
	if !isUser(model.PrincipalFrom(ctx)) {
		return projects, nil
	}
	out := make([]model.Project, 0, len(projects))
	for _, proj := range projects {
		r, err := c.rightsIn(ctx, tx, proj, "")
		if err != nil {
			return nil, err
		}
		if r&model.RightRead != 0 {
			out = append(out, proj)
		}
	}
	return out, nil
}

// workspaceNeed refuses a user a workspace right (RightOwner) their workspace role lacks;
// the system holds every right, and other principals none. A read-only personal token
// keeps only its owner's RightRead, here as on a project (rightsOn).
func (c *Catalog) workspaceNeed(ctx context.Context, need model.Right) error {
	p := model.PrincipalFrom(ctx)
	if p.Kind == model.KindSystem {
		return nil
	}
	if !isUser(p) {
		return model.Errorf(model.CodeUnauthorized, "admin operation")
	}
	return c.store.View(ctx, func(tx model.Tx) error {
		a, err := tx.Access(ctx, p.UserID, "")
		if err != nil && !model.IsNotFound(err) {
			return err
		}
		if err == nil && a.WorkspaceID == p.WorkspaceID && a.WorkspaceRole == model.RoleOwner && (!p.ReadOnly || need == model.RightRead) {
			return nil
		}
		return model.Errorf(model.CodeForbidden, "only an owner of the workspace may do this")
	})
}

// MyRole is what the caller may do on a project, for pages that show or hide actions: the
// operations decide all the same.
type MyRole struct {
	Role       string          // owner, manager, translator, reviewer; "" for keys and the system
	Owner      bool            // an owner of the workspace: changes workspace roles
	Manage     bool            // settings, keys, members
	Editable   map[string]bool // languages the caller may edit
	Approvable map[string]bool // languages the caller may approve in
}

// MyRoleOn returns the caller's role and rights on a project's enabled target languages.
func (c *Catalog) MyRoleOn(ctx context.Context, projectID string) (MyRole, error) {
	out := MyRole{Editable: map[string]bool{}, Approvable: map[string]bool{}}
	if err := c.gate(ctx, model.OpMyRole, on{project: projectID}); err != nil {
		return out, err
	}
	err := c.read(ctx, projectID, func(tx model.Tx, proj model.Project) error {
		// The user's standing is read once and every language decided from it: a read per
		// language was most of an approve's statements.
		p := model.PrincipalFrom(ctx)
		var a model.Access
		if isUser(p) {
			var err error
			if a, err = tx.Access(ctx, p.UserID, proj.ID); model.IsNotFound(err) {
				return nil // the user is gone: no rights, as rightsIn says
			} else if err != nil {
				return err
			}
			out.Role = a.ProjectRole
			if a.WorkspaceRole == model.RoleOwner {
				out.Role = model.RoleOwner
			}
		}
		r := rightsOn(p, a, proj, "")
		out.Manage = r&model.RightManage != 0
		out.Owner = r&model.RightOwner != 0
		for _, l := range proj.EnabledLanguages {
			r := rightsOn(p, a, proj, l)
			out.Editable[l] = l != proj.SourceLanguage && r&model.RightTranslate != 0
			out.Approvable[l] = out.Editable[l] && r&model.RightApprove != 0
		}
		return nil
	})
	return out, err
}

// MayOnWorkspace reports whether the caller holds the workspace right that op's row names
// (create_project: owners), for pages that show or hide an action: the operation decides
// all the same.
func (c *Catalog) MayOnWorkspace(ctx context.Context, op model.Operation) bool {
	return c.workspaceNeed(ctx, row(op).Needs) == nil
}
