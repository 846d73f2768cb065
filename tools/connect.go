package tools

import (
	"context"
	"slices"

	"github.com/lokal-dev/lokal/tools/model"
)

// The Connect page: a signed-in user manages a project's keys, their own personal access
// tokens, the project's AI and Embed settings. Each operation authorizes the user for the
// project here and then runs the operation the admin command line runs, so the page adds
// screens and never a second set of rules.

// member authorizes the signed-in user for projectID (a write when write is set) and
// returns the context the CLI's operations run in.
func (c *Catalog) member(ctx context.Context, projectID string, write bool) (context.Context, error) {
	if model.PrincipalFrom(ctx).Kind != KindSession {
		return ctx, model.Errorf(model.CodeUnauthorized, "sign in first")
	}
	if err := c.begin(ctx, projectID, write); err != nil {
		return ctx, err
	}
	if err := c.read(ctx, projectID, func(model.Tx, model.Project) error { return nil }); err != nil {
		return ctx, err
	}
	return model.WithPrincipal(ctx, System), nil
}

// ConnectKeys lists the project's API keys (`lokal key list`).
func (c *Catalog) ConnectKeys(ctx context.Context, projectID string) ([]KeyListing, error) {
	sys, err := c.member(ctx, projectID, false)
	if err != nil {
		return nil, err
	}
	return c.ListKeys(sys, projectID)
}

// ConnectCreateKey creates a project API key (`lokal key create`); it is shown once.
func (c *Catalog) ConnectCreateKey(ctx context.Context, projectID string, readOnly bool) (APIKey, error) {
	sys, err := c.member(ctx, projectID, true)
	if err != nil {
		return APIKey{}, err
	}
	return c.CreateAPIKey(sys, CreateAPIKeyIn{ProjectID: projectID, ReadOnly: readOnly})
}

// ConnectRevokeKey revokes one of the project's API keys (`lokal key revoke`).
func (c *Catalog) ConnectRevokeKey(ctx context.Context, projectID, keyID string) (Revoked, error) {
	sys, err := c.member(ctx, projectID, true)
	if err != nil {
		return Revoked{}, err
	}
	keys, err := c.ListKeys(sys, projectID)
	if err != nil {
		return Revoked{}, err
	}
	if !slices.ContainsFunc(keys, func(k KeyListing) bool { return k.ID == keyID }) {
		return Revoked{}, model.Errorf(model.CodeNotFound, "key %s not found in this project", model.Truncate(keyID, 40))
	}
	return c.RevokeKey(sys, keyID)
}

// ConnectTokens lists the signed-in user's personal access tokens (`lokal token list`).
func (c *Catalog) ConnectTokens(ctx context.Context, projectID string) ([]TokenListing, error) {
	sys, err := c.member(ctx, projectID, false)
	if err != nil {
		return nil, err
	}
	return c.ListTokens(sys, model.PrincipalFrom(ctx).UserID)
}

// ConnectCreateToken creates a personal access token of the signed-in user for the
// project, or with workspace for the user's whole workspace (`lokal token create`).
func (c *Catalog) ConnectCreateToken(ctx context.Context, projectID string, workspace bool) (PersonalToken, error) {
	sys, err := c.member(ctx, projectID, true)
	if err != nil {
		return PersonalToken{}, err
	}
	p := model.PrincipalFrom(ctx)
	in := CreateTokenIn{UserID: p.UserID, ProjectID: projectID}
	if workspace {
		in = CreateTokenIn{UserID: p.UserID, WorkspaceID: p.WorkspaceID}
	}
	return c.CreateToken(sys, in)
}

// ConnectRevokeToken revokes one of the signed-in user's own tokens (`lokal token revoke`).
func (c *Catalog) ConnectRevokeToken(ctx context.Context, projectID, tokenID string) (Revoked, error) {
	sys, err := c.member(ctx, projectID, true)
	if err != nil {
		return Revoked{}, err
	}
	mine, err := c.ListTokens(sys, model.PrincipalFrom(ctx).UserID)
	if err != nil {
		return Revoked{}, err
	}
	if !slices.ContainsFunc(mine, func(t TokenListing) bool { return t.ID == tokenID }) {
		return Revoked{}, model.Errorf(model.CodeNotFound, "token %s is not one of yours", model.Truncate(tokenID, 40))
	}
	return c.RevokeToken(sys, tokenID)
}

// ConnectAI shows where the project's AI comes from (`lokal ai show`).
func (c *Catalog) ConnectAI(ctx context.Context, projectID string) (AIView, error) {
	sys, err := c.member(ctx, projectID, false)
	if err != nil {
		return AIView{}, err
	}
	return c.ShowAI(sys, projectID)
}

// ConnectSetAI sets the project's model and instructions (`lokal ai set --project`).
func (c *Catalog) ConnectSetAI(ctx context.Context, projectID string, model, instructions *string) (AIView, error) {
	sys, err := c.member(ctx, projectID, true)
	if err != nil {
		return AIView{}, err
	}
	return c.SetProjectAI(sys, projectID, model, instructions)
}

// ConnectSetWorkspaceAI gives the user's workspace its own provider (`lokal ai set
// --workspace`); apiKey nil keeps the stored key while the base URL stays.
func (c *Catalog) ConnectSetWorkspaceAI(ctx context.Context, projectID, baseURL, modelName string, apiKey *string) (WorkspaceAIView, error) {
	sys, err := c.member(ctx, projectID, true)
	if err != nil {
		return WorkspaceAIView{}, err
	}
	return c.SetWorkspaceAI(sys, model.PrincipalFrom(ctx).WorkspaceID, baseURL, modelName, apiKey)
}

// ConnectProject shows the project with its settings (`lokal project show`).
func (c *Catalog) ConnectProject(ctx context.Context, projectID string) (ProjectView, error) {
	sys, err := c.member(ctx, projectID, false)
	if err != nil {
		return ProjectView{}, err
	}
	return c.ShowProject(sys, projectID)
}

// ConnectSetProject changes the project's Embed settings (`lokal project set`): the page
// offers the Embed fields of SetProjectIn, never its languages.
func (c *Catalog) ConnectSetProject(ctx context.Context, projectID string, in SetProjectIn) (ProjectView, error) {
	sys, err := c.member(ctx, projectID, true)
	if err != nil {
		return ProjectView{}, err
	}
	in.Title, in.Languages, in.Editable, in.AutoTranslate, in.IntegrationType = nil, nil, nil, nil, nil
	return c.SetProject(sys, projectID, in)
}
