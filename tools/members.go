package tools

import (
	"context"
	"net/mail"
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/tools/model"
)

// ProjectRoles are the roles a user may have on a project.
var ProjectRoles = []string{model.RoleManager, model.RoleTranslator, model.RoleReviewer}

// WorkspaceRoles are the roles a user has in their workspace.
var WorkspaceRoles = []string{model.RoleOwner, model.RoleMember}

// MemberView is one member of a project as `member list` shows it.
type MemberView struct {
	UserID    string   `json:"user"`
	Email     string   `json:"email"`
	Role      string   `json:"role"`
	Languages []string `json:"languages"`
	Confirmed bool     `json:"-"` // their address: see model.User (not in the CLI's documented JSON)
}

// SetMemberIn gives a user a role on a project. User is the user's id or email.
type SetMemberIn struct {
	ProjectID string
	User      string
	Role      string
	Languages []string
}

// SetMember gives a user of the project's workspace a role on the project, replacing the
// one they had: managers hold every language; translators and reviewers the enabled
// target languages given. For the operator, the workspace's owners and the project's
// managers; the change binds every token of the user at once.
func (c *Catalog) SetMember(ctx context.Context, in SetMemberIn) (MemberView, error) {
	var out MemberView
	if !slices.Contains(ProjectRoles, in.Role) {
		return out, model.Errorf(model.CodeInvalid, "role must be one of %s", strings.Join(ProjectRoles, ", "))
	}
	err := c.memberWrite(ctx, model.OpMemberSet, in.ProjectID, func(ctx context.Context, tx model.Tx, proj model.Project) error {
		u, err := findUser(ctx, tx, proj.WorkspaceID, in.User)
		if err != nil {
			return err
		}
		langs, err := memberLanguages(proj, in.Role, in.Languages)
		if err != nil {
			return err
		}
		m := model.Member{ProjectID: proj.ID, UserID: u.ID, Email: u.Email, Role: in.Role, Languages: langs}
		out = MemberView{UserID: u.ID, Email: u.Email, Role: in.Role, Languages: langs}
		return tx.SetMember(ctx, m)
	})
	return out, err
}

// RemoveMember takes a user's role on a project away: as a member of the workspace they
// see nothing of it from then on, and the clients they connected to it by OAuth are
// disconnected. CodeNotFound when they had none.
func (c *Catalog) RemoveMember(ctx context.Context, projectID, user string) (MemberView, error) {
	var out MemberView
	var ended []string
	err := c.memberWrite(ctx, model.OpMemberRemove, projectID, func(ctx context.Context, tx model.Tx, proj model.Project) error {
		u, err := findUser(ctx, tx, proj.WorkspaceID, user)
		if err != nil {
			return err
		}
		out = MemberView{UserID: u.ID, Email: u.Email, Languages: []string{}}
		if ended, err = endGrants(ctx, tx, u.ID, proj.ID, c.opts.Now()); err != nil {
			return err
		}
		return tx.RemoveMember(ctx, proj.ID, u.ID)
	})
	for _, id := range ended {
		c.forgetGrant(id)
	}
	return out, err
}

// ListMembers returns the project's members by email. For the operator, the workspace's
// owners and the project's managers.
func (c *Catalog) ListMembers(ctx context.Context, projectID string) ([]MemberView, error) {
	out := []MemberView{}
	if err := c.memberAuth(ctx, model.OpMemberList, projectID); err != nil {
		return out, err
	}
	err := c.store.View(ctx, func(tx model.Tx) error {
		if _, err := tx.Project(ctx, projectID); err != nil {
			return err
		}
		ms, err := tx.Members(ctx, projectID)
		for _, m := range ms {
			out = append(out, MemberView{UserID: m.UserID, Email: m.Email, Role: m.Role, Languages: m.Languages, Confirmed: m.Confirmed})
		}
		return err
	})
	return out, err
}

// memberAuth is the gate of a member operation on the project.
func (c *Catalog) memberAuth(ctx context.Context, op model.Operation, projectID string) error {
	return c.gate(ctx, op, on{project: projectID})
}

// memberWrite runs fn as an admin write after memberAuth; the write is recorded as the
// system's, as the Connect page's are.
func (c *Catalog) memberWrite(ctx context.Context, op model.Operation, projectID string, fn func(ctx context.Context, tx model.Tx, proj model.Project) error) error {
	if err := c.memberAuth(ctx, op, projectID); err != nil {
		return err
	}
	return c.write(model.WithPrincipal(ctx, System), write{admin: true, project: projectID, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		proj, err := tx.Project(ctx, projectID)
		if err != nil {
			return nil, err
		}
		return nil, fn(ctx, tx, proj)
	}})
}

// findUser finds a user of the workspace by id or email: CodeNotFound otherwise.
func findUser(ctx context.Context, tx model.Tx, workspaceID, user string) (model.User, error) {
	user = strings.TrimSpace(user)
	notFound := model.Errorf(model.CodeNotFound, "user %q is not a user of this workspace", model.Truncate(user, 80))
	if validID(user) {
		u, err := tx.User(ctx, user)
		if model.IsNotFound(err) || (err == nil && u.WorkspaceID != workspaceID) {
			return model.User{}, notFound
		}
		return u, err
	}
	if _, err := mail.ParseAddress(user); err != nil {
		return model.User{}, notFound
	}
	us, err := tx.Users(ctx, workspaceID)
	if err != nil {
		return model.User{}, err
	}
	for _, u := range us {
		if strings.EqualFold(u.Email, user) {
			return u, nil
		}
	}
	return model.User{}, notFound
}

// SetUserRole makes a user an owner or a member of their workspace. The last enabled owner
// stays one (lastOwner), so that a workspace is never left without. For the operator and
// the workspace's owners.
func (c *Catalog) SetUserRole(ctx context.Context, userID, role string) (model.User, error) {
	var out model.User
	if !slices.Contains(WorkspaceRoles, role) {
		return out, model.Errorf(model.CodeInvalid, "role must be one of %s", strings.Join(WorkspaceRoles, ", "))
	}
	p := model.PrincipalFrom(ctx)
	if err := c.gate(ctx, model.OpUserRole, on{}); err != nil {
		return out, err
	}
	err := c.write(model.WithPrincipal(ctx, System), write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		u, err := tx.User(ctx, userID)
		if err != nil || (p.Kind != model.KindSystem && u.WorkspaceID != p.WorkspaceID) {
			return nil, model.Errorf(model.CodeNotFound, "user %q not found", model.Truncate(userID, 40))
		}
		if role != model.RoleOwner {
			if err := lastOwner(ctx, tx, u); err != nil {
				return nil, err
			}
		}
		u.Role = role
		out = u
		return nil, tx.SetUserRole(ctx, userID, role)
	}})
	return out, err
}

// memberLanguages checks a role's languages against the project: enabled target languages
// for translators and reviewers, none for managers (they hold every language).
func memberLanguages(proj model.Project, role string, codes []string) ([]string, error) {
	langs := []string{}
	if role == model.RoleManager {
		if len(codes) > 0 {
			return nil, model.Errorf(model.CodeInvalid, "a manager holds every language; give languages to translators and reviewers")
		}
		return langs, nil
	}
	for _, code := range codes {
		code = strings.TrimSpace(code)
		if code == "" {
			continue
		}
		l, err := ParseLanguage(code)
		if err != nil || l.Code == proj.SourceLanguage || !proj.HasLanguage(l.Code) {
			return nil, model.Errorf(model.CodeInvalid, "%q is not an enabled target language of this project", model.Truncate(code, 40))
		}
		if !slices.Contains(langs, l.Code) {
			langs = append(langs, l.Code)
		}
	}
	return langs, nil
}

// ListUsers returns the users of the caller's workspace with their workspace roles, oldest
// first: what an owner needs to make another user an owner. For the workspace's owners.
func (c *Catalog) ListUsers(ctx context.Context) ([]model.User, error) {
	out := []model.User{}
	p := model.PrincipalFrom(ctx)
	if err := c.gate(ctx, model.OpUserList, on{}); err != nil {
		return out, err
	}
	if p.Kind == model.KindSystem {
		return out, model.Errorf(model.CodeInvalid, "the operator lists a workspace's users with WorkspaceUsers")
	}
	err := c.store.View(ctx, func(tx model.Tx) error {
		us, err := tx.Users(ctx, p.WorkspaceID)
		if us != nil {
			out = us
		}
		return err
	})
	return out, err
}

// WorkspaceOwnersOut tells a user who sees no project whether the workspace has projects
// and whom to ask for a role on one.
type WorkspaceOwnersOut struct {
	Projects int      // the workspace's projects, seen or not
	Owners   []string // the owners' e-mail addresses, oldest first
}

// WorkspaceOwners answers any signed-in user of the workspace (workspace_owners): a member
// without a role reads that they have none yet and whom to ask, not that the workspace is
// empty.
func (c *Catalog) WorkspaceOwners(ctx context.Context) (WorkspaceOwnersOut, error) {
	out := WorkspaceOwnersOut{Owners: []string{}}
	if err := c.gate(ctx, model.OpWorkspaceOwners, on{}); err != nil {
		return out, err
	}
	p := model.PrincipalFrom(ctx)
	if !isUser(p) || p.WorkspaceID == "" {
		// Past the gate only the system: it has no workspace of its own to ask about.
		return out, model.Errorf(model.CodeInvalid, "the system has no workspace; ask as a signed-in user")
	}
	err := c.store.View(ctx, func(tx model.Tx) error {
		ps, err := tx.Projects(ctx, p.WorkspaceID)
		if err != nil {
			return err
		}
		out.Projects = len(ps)
		us, err := tx.Users(ctx, p.WorkspaceID)
		for _, u := range us {
			if u.Role == model.RoleOwner {
				out.Owners = append(out.Owners, u.Email)
			}
		}
		return err
	})
	return out, err
}
