package tools

import (
	"context"
	"net/mail"
	"strings"

	"github.com/lokal-dev/lokal/tools/model"
)

// CreateWorkspaceIn names a new workspace.
type CreateWorkspaceIn struct {
	Name string `json:"name" jsonschema:"display name of the workspace"`
}

// CreateWorkspace creates a workspace with a fresh public token. Admin only.
func (c *Catalog) CreateWorkspace(ctx context.Context, in CreateWorkspaceIn) (model.Workspace, error) {
	if err := c.gate(ctx, model.OpCreateWorkspace, on{}); err != nil {
		return model.Workspace{}, err
	}
	name := strings.TrimSpace(in.Name)
	if name == "" || len(name) > 200 {
		return model.Workspace{}, model.Errorf(model.CodeInvalid, "workspace name must be 1 to 200 characters")
	}
	w := model.Workspace{ID: newID(), Name: name, PublicToken: newSecret("pub_")}
	if err := c.write(ctx, write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		return nil, tx.CreateWorkspace(ctx, w)
	}}); err != nil {
		return model.Workspace{}, err
	}
	return w, nil
}

// ListWorkspaces returns every workspace with its public token, oldest first: the
// operator's way back to an id the first start printed once. Admin only.
func (c *Catalog) ListWorkspaces(ctx context.Context) ([]model.Workspace, error) {
	if err := c.gate(ctx, model.OpListWorkspaces, on{}); err != nil {
		return nil, err
	}
	var out []model.Workspace
	err := c.store.View(ctx, func(tx model.Tx) error {
		var err error
		out, err = tx.Workspaces(ctx)
		return err
	})
	if out == nil {
		out = []model.Workspace{}
	}
	return out, err
}

// WorkspaceUsers returns the users of a workspace, oldest first. Admin only.
func (c *Catalog) WorkspaceUsers(ctx context.Context, workspaceID string) ([]model.User, error) {
	if err := c.gate(ctx, model.OpWorkspaceUsers, on{}); err != nil {
		return nil, err
	}
	var out []model.User
	err := c.store.View(ctx, func(tx model.Tx) error {
		if _, err := tx.Workspace(ctx, workspaceID); err != nil {
			return err
		}
		var err error
		out, err = tx.Users(ctx, workspaceID)
		return err
	})
	if out == nil {
		out = []model.User{}
	}
	return out, err
}

// CreateUserIn adds a user to a workspace.
type CreateUserIn struct {
	WorkspaceID string `json:"workspace_id"`
	Email       string `json:"email"`
	// Role is owner or member (default); the workspace's first user is its owner whatever
	// is asked, so that a workspace always has one.
	Role string `json:"role"`
}

// CreateUser adds a user to a workspace. Admin only. Its address is unconfirmed (but for
// the workspace's first user) until a link sent to it is used.
func (c *Catalog) CreateUser(ctx context.Context, in CreateUserIn) (model.User, error) {
	if err := c.gate(ctx, model.OpCreateUser, on{}); err != nil {
		return model.User{}, err
	}
	email := strings.TrimSpace(in.Email)
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
		return model.User{}, model.Errorf(model.CodeInvalid, "%q is not an email address", in.Email)
	}
	if in.Role == "" {
		in.Role = model.RoleMember
	}
	if !contains(WorkspaceRoles, in.Role) {
		return model.User{}, model.Errorf(model.CodeInvalid, "role must be one of %s", strings.Join(WorkspaceRoles, ", "))
	}
	u := model.User{ID: newID(), WorkspaceID: in.WorkspaceID, Email: email, Role: in.Role}
	err := c.write(ctx, write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		if _, err := tx.Workspace(ctx, in.WorkspaceID); err != nil {
			return nil, err
		}
		if us, err := tx.Users(ctx, in.WorkspaceID); err != nil {
			return nil, err
		} else if len(us) == 0 {
			// The operator's own user (serve's admin on an empty database): confirmed, as
			// the upgrade confirms each workspace's first user.
			u.Role, u.Confirmed = model.RoleOwner, true
		}
		return nil, tx.CreateUser(ctx, u)
	}})
	if model.ErrorCode(err) == model.CodeConflict {
		return model.User{}, model.Errorf(model.CodeConflict, "a user with email %s already exists in this workspace", email)
	}
	return u, err
}

// CreateProjectIn describes a new project.
type CreateProjectIn struct {
	WorkspaceID     string   `json:"workspace_id"`
	Title           string   `json:"title"`
	SourceLanguage  string   `json:"source_language"`
	Languages       []string `json:"languages"` // target languages to enable
	IntegrationType string   `json:"integration_type"`
}

// IntegrationTypes are the accepted values of a project's integration_type.
var IntegrationTypes = []string{"api", "i18next", "embed", "mcp"}

// CreateProject creates a project with its source language and enabled target languages.
// For the operator, and an owner of the workspace signed in to the editor (create_project),
// who creates it in their own workspace.
func (c *Catalog) CreateProject(ctx context.Context, in CreateProjectIn) (model.Project, error) {
	if err := c.gate(ctx, model.OpCreateProject, on{}); err != nil {
		return model.Project{}, err
	}
	if p := model.PrincipalFrom(ctx); p.Kind == KindSession {
		if in.WorkspaceID != "" && in.WorkspaceID != p.WorkspaceID {
			return model.Project{}, &model.Error{Code: model.CodeUnauthorized, Message: "a signed-in user creates projects in their own workspace only"}
		}
		in.WorkspaceID = p.WorkspaceID
		ctx = model.WithPrincipal(ctx, System) // recorded as the Connect page's writes are
	}
	title := strings.TrimSpace(in.Title)
	if title == "" || len(title) > 200 {
		return model.Project{}, model.Errorf(model.CodeInvalid, "project title must be 1 to 200 characters")
	}
	src, err := parseLanguage("source language", in.SourceLanguage)
	if err != nil {
		return model.Project{}, err
	}
	it := in.IntegrationType
	if it == "" {
		it = "api"
	}
	if !contains(IntegrationTypes, it) {
		return model.Project{}, model.Errorf(model.CodeInvalid, "integration type must be one of %s", strings.Join(IntegrationTypes, ", "))
	}
	p := model.Project{ID: newID(), WorkspaceID: in.WorkspaceID, Title: title, SourceLanguage: src.Code, IntegrationType: it,
		Settings: model.ProjectSettings{ShowSwitcher: true, EmbedMode: "swap"}}
	seen := map[string]bool{src.Code: true}
	for _, code := range in.Languages {
		l, err := ParseLanguage(code)
		if err != nil {
			return model.Project{}, err
		}
		if seen[l.Code] {
			continue
		}
		seen[l.Code] = true
		p.Languages = append(p.Languages, model.Language{Code: l.Code, Enabled: true, Editable: true, AutoTranslate: true})
	}
	var out model.Project
	err = c.write(ctx, write{admin: true, project: p.ID, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		if _, err := tx.Workspace(ctx, in.WorkspaceID); err != nil {
			return nil, err
		}
		if err := tx.CreateProject(ctx, p); err != nil {
			return nil, err
		}
		var err error
		out, err = tx.Project(ctx, p.ID)
		return []model.Change{{Kind: model.ChangeProjectCreated}}, err
	}})
	return out, err
}

// APIKey is a newly created project key; Key is shown once and never stored.
type APIKey struct {
	Key      string `json:"key"`
	ReadOnly bool   `json:"read_only"`
}

// CreateAPIKeyIn asks for a project key.
type CreateAPIKeyIn struct {
	ProjectID string `json:"project_id"`
	ReadOnly  bool   `json:"read_only"`
	Name      string `json:"name,omitempty"` // what people call the key; optional
}

// CreateAPIKey creates a project API key. For the operator and the project's owners
// (owner).
func (c *Catalog) CreateAPIKey(ctx context.Context, in CreateAPIKeyIn) (APIKey, error) {
	ctx, err := c.ownerFor(ctx, model.OpCreateKey, in.ProjectID, true)
	if err != nil {
		return APIKey{}, err
	}
	name, err := tokenName(in.Name)
	if err != nil {
		return APIKey{}, err
	}
	key := newSecret(PrefixAPIKey)
	hash, err := c.hashToken(ctx, key)
	if err != nil {
		return APIKey{}, err
	}
	err = c.write(ctx, write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		p, err := tx.Project(ctx, in.ProjectID)
		if err != nil {
			return nil, err
		}
		return nil, tx.CreateToken(ctx, model.TokenRecord{ID: newID(), Kind: model.KindAPIKey, Hash: hash, WorkspaceID: p.WorkspaceID,
			ProjectID: p.ID, ReadOnly: in.ReadOnly, Prefix: tokenPrefix(key), Name: name})
	}})
	if err != nil {
		return APIKey{}, err
	}
	return APIKey{Key: key, ReadOnly: in.ReadOnly}, nil
}

// PersonalToken is a newly created personal access token, shown once.
type PersonalToken struct {
	Token string `json:"token"`
}

// CreateTokenIn asks for a personal access token of a user, for one project or (with
// WorkspaceID) for the whole workspace.
type CreateTokenIn struct {
	UserID      string `json:"user_id"`
	ProjectID   string `json:"project_id,omitempty"`
	WorkspaceID string `json:"workspace_id,omitempty"`
	Name        string `json:"name,omitempty"` // what people call the token; optional
}

// MaxTokenName bounds the name of a key or token.
const MaxTokenName = 100

// tokenName checks an optional name of a key or token.
func tokenName(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", nil
	}
	return checkText("name", s, MaxTokenName)
}

// CreateToken creates a personal access token. For the operator, and for a signed-in user
// a token of their own, for a project of their workspace (owner) or for the workspace.
func (c *Catalog) CreateToken(ctx context.Context, in CreateTokenIn) (PersonalToken, error) {
	if model.PrincipalFrom(ctx).Kind == KindSession && in.ProjectID != "" {
		// Any role will do: the token is worth its owner's rights when used (rights.go).
		if _, err := c.ownerFor(ctx, model.OpCreateToken, in.ProjectID, true); err != nil {
			return PersonalToken{}, err
		}
	}
	ctx, err := c.self(ctx, model.OpCreateToken, in.UserID, in.WorkspaceID)
	if err != nil {
		return PersonalToken{}, err
	}
	if (in.ProjectID == "") == (in.WorkspaceID == "") {
		return PersonalToken{}, model.Errorf(model.CodeInvalid, "give exactly one of a project or a workspace")
	}
	name, err := tokenName(in.Name)
	if err != nil {
		return PersonalToken{}, err
	}
	prefix, kind := PrefixPersonal, model.KindPersonal
	if in.WorkspaceID != "" {
		prefix, kind = PrefixWorkspace, model.KindWorkspace
	}
	token := newSecret(prefix)
	hash, err := c.hashToken(ctx, token)
	if err != nil {
		return PersonalToken{}, err
	}
	err = c.write(ctx, write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		u, err := tx.User(ctx, in.UserID)
		if err != nil {
			return nil, err
		}
		ws := in.WorkspaceID
		if in.ProjectID != "" {
			p, err := tx.Project(ctx, in.ProjectID)
			if err != nil {
				return nil, err
			}
			ws = p.WorkspaceID
		}
		if u.WorkspaceID != ws {
			return nil, model.Errorf(model.CodeInvalid, "user %s is not a member of that workspace", u.ID)
		}
		return nil, tx.CreateToken(ctx, model.TokenRecord{ID: newID(), Kind: kind, Hash: hash, UserID: u.ID, WorkspaceID: ws, ProjectID: in.ProjectID,
			Prefix: tokenPrefix(token), Name: name})
	}})
	if err != nil {
		return PersonalToken{}, err
	}
	return PersonalToken{Token: token}, nil
}

// Bootstrap is what the first start on an empty database creates.
type Bootstrap struct {
	Workspace model.Workspace `json:"workspace"`
	User      model.User      `json:"user"`
	Token     string          `json:"token"`
}

// BootstrapIfEmpty creates a first workspace, user and workspace token when the database
// has no workspace yet; it returns nil when there was one already. Admin only.
func (c *Catalog) BootstrapIfEmpty(ctx context.Context) (*Bootstrap, error) {
	if err := c.gate(ctx, model.OpBootstrap, on{}); err != nil {
		return nil, err
	}
	var any bool
	if err := c.store.View(ctx, func(tx model.Tx) error {
		var err error
		any, err = tx.HasWorkspaces(ctx)
		return err
	}); err != nil || any {
		return nil, err
	}
	w, err := c.CreateWorkspace(ctx, CreateWorkspaceIn{Name: "Default"})
	if err != nil {
		return nil, err
	}
	u, err := c.CreateUser(ctx, CreateUserIn{WorkspaceID: w.ID, Email: "admin@localhost"})
	if err != nil {
		return nil, err
	}
	t, err := c.CreateToken(ctx, CreateTokenIn{UserID: u.ID, WorkspaceID: w.ID})
	if err != nil {
		return nil, err
	}
	return &Bootstrap{Workspace: w, User: u, Token: t.Token}, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
