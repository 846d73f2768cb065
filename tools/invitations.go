package tools

import (
	"context"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// PrefixInvitation marks an invitation link's token.
const PrefixInvitation = "inv_"

// InvitationLifetime is how long an invitation's link stays valid.
const InvitationLifetime = 7 * 24 * time.Hour

// InviteIn invites someone by email: Role owner makes a workspace owner; manager,
// translator or reviewer a member with that role on ProjectID (Languages for the last two).
type InviteIn struct {
	ProjectID string
	Email     string
	Role      string
	Languages []string
}

// Invited is a new invitation: Link holds the token, shown once and never stored.
type Invited struct {
	Link      string    `json:"link"`
	Email     string    `json:"email"`
	Role      string    `json:"role"`
	Languages []string  `json:"languages"`
	ExpiresAt time.Time `json:"expires_at"`
}

// Invite creates an invitation for an email that is not yet a user of the workspace.
// Owners invite owners and any project role; a project's managers invite its project roles
// (the operation's right, invite, in Operations). The link is valid InvitationLifetime and
// only once.
func (c *Catalog) Invite(ctx context.Context, in InviteIn) (Invited, error) {
	var out Invited
	email := strings.TrimSpace(in.Email)
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email || len(email) > 320 {
		return out, model.Errorf(model.CodeInvalid, "%q is not an email address", model.Truncate(in.Email, 80))
	}
	workspaceRole, projectRole := model.RoleMember, in.Role
	switch {
	case in.Role == model.RoleOwner:
		workspaceRole, projectRole = model.RoleOwner, ""
		if err := c.gate(ctx, model.OpInvite, on{need: model.RightOwner}); err != nil {
			return out, err
		}
	case slices.Contains(ProjectRoles, in.Role):
		if err := c.memberAuth(ctx, model.OpInvite, in.ProjectID); err != nil {
			return out, err
		}
	default:
		return out, model.Errorf(model.CodeInvalid, "role must be owner, %s", strings.Join(ProjectRoles, ", "))
	}
	p := model.PrincipalFrom(ctx)
	token := newSecret(PrefixInvitation)
	hash, err := c.hashToken(ctx, token)
	if err != nil {
		return out, err
	}
	now := c.opts.Now().UTC().Truncate(time.Microsecond)
	inv := model.Invitation{ID: newID(), Kind: model.InvitationInvite, WorkspaceID: p.WorkspaceID, Email: email, WorkspaceRole: workspaceRole, ProjectRole: projectRole,
		Languages: []string{}, Hash: hash, CreatedBy: p.Actor(), CreatedAt: now, ExpiresAt: now.Add(InvitationLifetime)}
	err = c.write(model.WithPrincipal(ctx, System), write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		if projectRole != "" {
			proj, err := tx.Project(ctx, in.ProjectID)
			if err != nil {
				return nil, err
			}
			inv.WorkspaceID, inv.ProjectID = proj.WorkspaceID, proj.ID
			if inv.Languages, err = memberLanguages(proj, projectRole, in.Languages); err != nil {
				return nil, err
			}
			if projectRole != model.RoleManager && len(inv.Languages) == 0 {
				return nil, model.Errorf(model.CodeInvalid, "an invitation as %s needs at least one language: choose the languages %s will work in", projectRole, email)
			}
		}
		if inv.WorkspaceID == "" {
			return nil, model.Errorf(model.CodeInvalid, "give the project the invitation is for")
		}
		// An unconfirmed account does not block: whoever holds the address takes it over by
		// accepting (AcceptInvitation).
		if u, err := findUser(ctx, tx, inv.WorkspaceID, email); err == nil && u.Confirmed {
			return nil, model.Errorf(model.CodeConflict, "%s is a user of this workspace already; give them a role instead", email)
		}
		return nil, tx.CreateInvitation(ctx, inv)
	}})
	if err != nil {
		return out, err
	}
	base := strings.TrimRight(c.opts.BaseURL, "/")
	return Invited{Link: base + "/app/invite/" + token, Email: email, Role: in.Role, Languages: inv.Languages, ExpiresAt: inv.ExpiresAt}, nil
}

// errInvitation is every refusal of a link: unknown, used and expired alike.
func errInvitation() error {
	return model.Errorf(model.CodeNotFound, "this invitation link is not valid: it was used, it expired, or it never existed; ask for a new one")
}

// Invitation returns the invitation of a link's token, while it may still be accepted.
func (c *Catalog) Invitation(ctx context.Context, token string) (model.Invitation, error) {
	if err := c.gate(ctx, model.OpAcceptInvitation, on{}); err != nil {
		return model.Invitation{}, err
	}
	return c.link(ctx, token, model.InvitationInvite)
}

// throttledLink is link for an anonymous visitor: a link that opens nothing counts as a
// failure of the address's sign-in throttle (signInThrottle), as a wrong password does.
func (c *Catalog) throttledLink(ctx context.Context, in AcceptIn, kind string) (model.Invitation, error) {
	th := signInThrottle(in.ClientIP, "")
	if err := th.shut(ctx, c); err != nil {
		return model.Invitation{}, err
	}
	inv, err := c.link(ctx, in.Token, kind)
	if model.IsNotFound(err) {
		if ferr := th.failed(ctx, c); ferr != nil {
			return inv, ferr
		}
	}
	return inv, err
}

// link returns the pending invitation or reset link (kind) of a token. Unknown, used,
// revoked and expired links, and a link of the other kind, get the same refusal.
func (c *Catalog) link(ctx context.Context, token, kind string) (model.Invitation, error) {
	refuse, prefix := errInvitation, PrefixInvitation
	if kind == model.InvitationReset {
		refuse, prefix = errResetLink, PrefixReset
	}
	if !strings.HasPrefix(token, prefix) || len(token) > 100 {
		return model.Invitation{}, refuse()
	}
	hash, err := c.hashToken(ctx, token)
	if err != nil {
		return model.Invitation{}, err
	}
	var inv model.Invitation
	err = c.store.View(ctx, func(tx model.Tx) error {
		inv, err = tx.InvitationByHash(ctx, hash)
		return err
	})
	if model.IsNotFound(err) || (err == nil && (inv.Kind != kind || !inv.Pending(c.opts.Now()))) {
		return model.Invitation{}, refuse()
	}
	return inv, err
}

// AcceptIn is the invitee's answer: the link's token and the password they chose.
type AcceptIn struct {
	Token    string
	Password string
	ClientIP string
}

// AcceptInvitation creates the invited user with their roles and password, uses the
// invitation up and signs the user in, in one write: a second acceptance of the same link
// fails (CodeNotFound) and creates nothing. A link that opens no invitation is a failure
// of the address's sign-in throttle (signInThrottle), as a wrong password is.
func (c *Catalog) AcceptInvitation(ctx context.Context, in AcceptIn) (SignedIn, error) {
	if err := c.gate(ctx, model.OpAcceptInvitation, on{}); err != nil {
		return SignedIn{}, err
	}
	inv, err := c.throttledLink(ctx, in, model.InvitationInvite)
	if err != nil {
		return SignedIn{}, err
	}
	password := strings.TrimRight(in.Password, "\r\n")
	if n := len(password); n < MinPasswordBytes || n > MaxPasswordBytes {
		return SignedIn{}, lengthRule("a password", MinPasswordBytes, MaxPasswordBytes)
	}
	u := model.User{ID: newID(), WorkspaceID: inv.WorkspaceID, Email: inv.Email, Role: inv.WorkspaceRole, Confirmed: true}
	hash := hashPassword(password)
	sys := model.WithPrincipal(ctx, System)
	err = c.write(sys, write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		if err := tx.UseInvitation(ctx, inv.ID, c.opts.Now()); err != nil {
			if model.ErrorCode(err) == model.CodeConflict {
				return nil, errInvitation()
			}
			return nil, err
		}
		old, err := findUser(ctx, tx, inv.WorkspaceID, inv.Email)
		switch {
		case err == nil && old.Confirmed:
			return nil, model.Errorf(model.CodeConflict, "%s is a user of this workspace already; sign in instead", old.Email)
		case err == nil:
			// The invitee proves the address: the unconfirmed account is theirs now.
			u = old
			if err := c.claimAccount(ctx, tx, old, hash); err != nil {
				return nil, err
			}
			if inv.WorkspaceRole == model.RoleOwner && old.Role != model.RoleOwner {
				if err := tx.SetUserRole(ctx, old.ID, model.RoleOwner); err != nil {
					return nil, err
				}
			}
		case model.IsNotFound(err):
			if err := tx.CreateUser(ctx, u); err != nil {
				return nil, err
			}
			if err := tx.SetPassword(ctx, u.ID, hash); err != nil {
				return nil, err
			}
		default:
			return nil, err
		}
		if inv.ProjectID != "" {
			return nil, tx.SetMember(ctx, model.Member{ProjectID: inv.ProjectID, UserID: u.ID, Role: inv.ProjectRole, Languages: inv.Languages})
		}
		return nil, nil
	}})
	if err != nil {
		return SignedIn{}, err
	}
	return c.SignIn(ctx, SignInIn{Email: u.Email, Password: password, ClientIP: in.ClientIP})
}

// claimAccount gives u to whoever used a link sent to its address: their password (which
// ends every session), the address confirmed and, when it was not confirmed, the personal
// tokens revoked, because whoever made the account before must keep no access to it.
func (c *Catalog) claimAccount(ctx context.Context, tx model.Tx, u model.User, passwordHash string) error {
	if err := tx.SetPassword(ctx, u.ID, passwordHash); err != nil {
		return err
	}
	now := c.opts.Now().UTC()
	if !u.Confirmed {
		ts, err := tx.Tokens(ctx, model.TokenFilter{UserID: u.ID, Kinds: []string{model.KindPersonal, model.KindWorkspace}})
		if err != nil {
			return err
		}
		for _, t := range ts {
			if err := tx.RevokeToken(ctx, t.ID, now); err != nil {
				return err
			}
		}
	}
	return tx.ConfirmUser(ctx, u.ID, now)
}

// InvitationView is a pending invitation as the members page and `invitation list` show it.
type InvitationView struct {
	ID        string    `json:"id"`
	Email     string    `json:"email"`
	Role      string    `json:"role"`
	Languages []string  `json:"languages"`
	ProjectID string    `json:"project,omitempty"`
	InvitedBy string    `json:"invited_by"`
	CreatedAt time.Time `json:"created_at"`
	ExpiresAt time.Time `json:"expires_at"`
}

// ListInvitationsIn selects pending invitations: of a project, of a workspace (the
// operator only), or every one (the operator, neither given).
type ListInvitationsIn struct {
	ProjectID   string
	WorkspaceID string
}

// ListInvitations returns the pending invitations (not used, revoked or expired), oldest
// first. Whoever may invite for a project sees its invitations: its managers, and owners,
// who also see the workspace's owner invitations there.
func (c *Catalog) ListInvitations(ctx context.Context, in ListInvitationsIn) ([]InvitationView, error) {
	out := []InvitationView{}
	p := model.PrincipalFrom(ctx)
	f := model.InvitationFilter{Kind: model.InvitationInvite, Open: true, ProjectID: in.ProjectID, WorkspaceID: in.WorkspaceID}
	if p.Kind == model.KindSystem {
		if (in.ProjectID != "" && !validID(in.ProjectID)) || (in.WorkspaceID != "" && !validID(in.WorkspaceID)) {
			return out, model.Errorf(model.CodeNotFound, "no such project or workspace")
		}
	} else {
		if in.ProjectID == "" {
			return out, model.Errorf(model.CodeInvalid, "give the project whose invitations to list")
		}
		if err := c.memberAuth(ctx, model.OpInvitationList, in.ProjectID); err != nil {
			return out, err
		}
		f.WorkspaceID, f.Owners = p.WorkspaceID, c.workspaceNeed(ctx, model.RightOwner) == nil
	}
	now := c.opts.Now()
	err := c.store.View(ctx, func(tx model.Tx) error {
		if in.ProjectID != "" {
			if _, err := tx.Project(ctx, in.ProjectID); err != nil {
				return err
			}
		}
		if in.WorkspaceID != "" {
			if _, err := tx.Workspace(ctx, in.WorkspaceID); err != nil {
				return err
			}
		}
		invs, err := tx.Invitations(ctx, f)
		if err != nil {
			return err
		}
		names := map[string]string{}
		for _, inv := range invs {
			if !inv.Pending(now) {
				continue
			}
			v, err := c.invitationView(ctx, tx, inv, names)
			if err != nil {
				return err
			}
			out = append(out, v)
		}
		return nil
	})
	return out, err
}

// invitationView names who invited (by email: ids are not for people); names caches the
// emails of the users read.
func (c *Catalog) invitationView(ctx context.Context, tx model.Tx, inv model.Invitation, names map[string]string) (InvitationView, error) {
	v := InvitationView{ID: inv.ID, Email: inv.Email, Role: inv.ProjectRole, Languages: inv.Languages, ProjectID: inv.ProjectID,
		CreatedAt: inv.CreatedAt, ExpiresAt: inv.ExpiresAt, InvitedBy: "the operator"}
	if inv.WorkspaceRole == model.RoleOwner {
		v.Role = model.RoleOwner
	}
	if id, ok := strings.CutPrefix(inv.CreatedBy, "user:"); ok {
		name, seen := names[id]
		if !seen {
			u, err := tx.User(ctx, id)
			if err != nil && !model.IsNotFound(err) {
				return v, err
			}
			name = u.Email
			if name == "" {
				name = "a former user"
			}
			names[id] = name
		}
		v.InvitedBy = name
	}
	return v, nil
}

// RevokeInvitationIn names an invitation to revoke; ProjectID, when given (the members
// page), is the project it must belong to, or any project for an owner invitation.
type RevokeInvitationIn struct {
	ID        string
	ProjectID string
}

// RevokeInvitation makes a pending invitation's link answer as an expired one does. Who
// may invite for its project may revoke it; an owner invitation only owners.
func (c *Catalog) RevokeInvitation(ctx context.Context, in RevokeInvitationIn) (InvitationView, error) {
	var out InvitationView
	p := model.PrincipalFrom(ctx)
	notFound := model.Errorf(model.CodeNotFound, "invitation %q not found", model.Truncate(in.ID, 40))
	if !validID(in.ID) {
		return out, notFound
	}
	var inv model.Invitation
	err := c.store.View(ctx, func(tx model.Tx) error {
		var err error
		inv, err = tx.Invitation(ctx, in.ID)
		return err
	})
	if model.IsNotFound(err) || (err == nil && (inv.Kind != model.InvitationInvite ||
		(p.Kind != model.KindSystem && inv.WorkspaceID != p.WorkspaceID) || (in.ProjectID != "" && inv.ProjectID != "" && inv.ProjectID != in.ProjectID))) {
		return out, notFound
	}
	if err != nil {
		return out, err
	}
	if inv.ProjectID == "" {
		if err := c.gate(ctx, model.OpInvitationRevoke, on{need: model.RightOwner}); model.ErrorCode(err) == model.CodeForbidden {
			return out, model.Errorf(model.CodeForbidden, "only an owner of the workspace may revoke an invitation as owner")
		} else if err != nil {
			return out, err
		}
	} else if err := c.memberAuth(ctx, model.OpInvitationRevoke, inv.ProjectID); err != nil {
		return out, err
	}
	if !inv.Pending(c.opts.Now()) {
		return out, model.Errorf(model.CodeConflict, "the invitation of %s was used, revoked or expired already", inv.Email)
	}
	err = c.write(model.WithPrincipal(ctx, System), write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		if err := tx.RevokeInvitation(ctx, inv.ID, c.opts.Now()); err != nil {
			if model.ErrorCode(err) == model.CodeConflict {
				return nil, model.Errorf(model.CodeConflict, "the invitation of %s was used or revoked already", inv.Email)
			}
			return nil, err
		}
		out, err = c.invitationView(ctx, tx, inv, map[string]string{})
		return nil, err
	}})
	return out, err
}
