package tools

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

// Disabling and deleting users. A disabled user cannot sign in, their sessions end and
// their personal tokens are refused at authentication (kept, so that enabling restores
// them); they keep their memberships. A deleted user loses the account, sessions, tokens
// and memberships; their email is kept as a former user's, so history still names them.
// A workspace keeps at least one enabled owner, and an owner cannot disable or delete
// themselves in the editor (another owner or the operator can).

// UserState is what disable, enable and delete answer.
type UserState struct {
	ID       string `json:"id"`
	Email    string `json:"email"`
	Role     string `json:"role"`
	Disabled bool   `json:"disabled"`
	Deleted  bool   `json:"deleted,omitempty"`
}

// DisableUser disables a user of the workspace (userID is an id). For the operator and
// the workspace's owners.
func (c *Catalog) DisableUser(ctx context.Context, userID string) (UserState, error) {
	return c.changeUser(ctx, model.OpUserDisable, userID, func(ctx context.Context, tx model.Tx, u model.User) (UserState, error) {
		at := u.DisabledAt
		if at == nil {
			now := c.opts.Now().UTC()
			at = &now
		}
		// Clients connected by OAuth are disconnected for good; the user's pasted tokens
		// work again if the user is enabled.
		if _, err := endGrants(ctx, tx, u.ID, "", *at); err != nil {
			return UserState{}, err
		}
		return UserState{ID: u.ID, Email: u.Email, Role: u.Role, Disabled: true}, tx.SetUserDisabled(ctx, u.ID, at)
	})
}

// EnableUser undoes DisableUser: the user signs in again and their tokens work again.
func (c *Catalog) EnableUser(ctx context.Context, userID string) (UserState, error) {
	return c.changeUser(ctx, model.OpUserEnable, userID, func(ctx context.Context, tx model.Tx, u model.User) (UserState, error) {
		return UserState{ID: u.ID, Email: u.Email, Role: u.Role}, tx.SetUserDisabled(ctx, u.ID, nil)
	})
}

// DeleteUser deletes a user of the workspace.
func (c *Catalog) DeleteUser(ctx context.Context, userID string) (UserState, error) {
	return c.changeUser(ctx, model.OpUserDelete, userID, func(ctx context.Context, tx model.Tx, u model.User) (UserState, error) {
		return UserState{ID: u.ID, Email: u.Email, Role: u.Role, Disabled: u.DisabledAt != nil, Deleted: true},
			tx.DeleteUser(ctx, u.ID, c.opts.Now())
	})
}

// changeUser authorizes op, finds the user in the caller's workspace (any for the
// operator), applies the guards and runs fn in one admin write.
func (c *Catalog) changeUser(ctx context.Context, op model.Operation, userID string,
	fn func(ctx context.Context, tx model.Tx, u model.User) (UserState, error)) (UserState, error) {
	var out UserState
	p := model.PrincipalFrom(ctx)
	if err := c.gate(ctx, op, on{}); err != nil {
		return out, err
	}
	notFound := model.Errorf(model.CodeNotFound, "user %q not found", model.Truncate(userID, 40))
	if !validID(userID) {
		return out, notFound
	}
	if p.Kind != model.KindSystem && p.UserID == userID && op != model.OpUserEnable {
		return out, model.Errorf(model.CodeConflict, "you cannot disable or delete your own account; another owner can")
	}
	err := c.write(model.WithPrincipal(ctx, System), write{op: op, admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		u, err := tx.User(ctx, userID)
		if err != nil || (p.Kind != model.KindSystem && u.WorkspaceID != p.WorkspaceID) {
			return nil, notFound
		}
		if op != model.OpUserEnable {
			if err := lastOwner(ctx, tx, u); err != nil {
				return nil, err
			}
		}
		out, err = fn(ctx, tx, u)
		return nil, err
	}})
	if err == nil {
		c.forgetUser(userID)
	}
	return out, err
}

// lastOwner refuses (CodeConflict) to take the workspace's last enabled owner away.
func lastOwner(ctx context.Context, tx model.Tx, u model.User) error {
	if u.Role != model.RoleOwner || u.DisabledAt != nil {
		return nil
	}
	us, err := tx.Users(ctx, u.WorkspaceID)
	if err != nil {
		return err
	}
	for _, o := range us {
		if o.ID != u.ID && o.Role == model.RoleOwner && o.DisabledAt == nil {
			return nil
		}
	}
	return model.Errorf(model.CodeConflict, "%s is the workspace's only owner; make another user an owner first", u.Email)
}

// forgetUser drops this process's cached principals of the user's tokens, so that a
// disabled user's token is refused at once here (other servers within the cache's TTL).
func (c *Catalog) forgetUser(userID string) {
	c.forgetPrincipals(func(p model.Principal) bool { return p.UserID == userID })
}
