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
		if err := c.workspaceNeed(ctx, model.RightOwner); err != nil {
			return out, err
		}
	case slices.Contains(ProjectRoles, in.Role):
		if err := c.memberAuth(ctx, "invite", in.ProjectID, true); err != nil {
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
	inv := model.Invitation{ID: newID(), WorkspaceID: p.WorkspaceID, Email: email, WorkspaceRole: workspaceRole, ProjectRole: projectRole,
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
		}
		if inv.WorkspaceID == "" {
			return nil, model.Errorf(model.CodeInvalid, "give the project the invitation is for")
		}
		if _, err := findUser(ctx, tx, inv.WorkspaceID, email); err == nil {
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
	if !strings.HasPrefix(token, PrefixInvitation) || len(token) > 100 {
		return model.Invitation{}, errInvitation()
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
	if model.IsNotFound(err) || (err == nil && (inv.UsedAt != nil || !c.opts.Now().Before(inv.ExpiresAt))) {
		return model.Invitation{}, errInvitation()
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
// fails (CodeNotFound) and creates nothing. Attempts spend the sign-in budget per address.
func (c *Catalog) AcceptInvitation(ctx context.Context, in AcceptIn) (SignedIn, error) {
	if err := c.take(ctx, SignInBudget, "ip:"+in.ClientIP); err != nil {
		return SignedIn{}, err
	}
	inv, err := c.Invitation(ctx, in.Token)
	if err != nil {
		return SignedIn{}, err
	}
	password := strings.TrimRight(in.Password, "\r\n")
	if n := len(password); n < MinPasswordBytes || n > MaxPasswordBytes {
		return SignedIn{}, lengthRule("a password", MinPasswordBytes, MaxPasswordBytes)
	}
	u := model.User{ID: newID(), WorkspaceID: inv.WorkspaceID, Email: inv.Email, Role: inv.WorkspaceRole}
	hash := hashPassword(password)
	sys := model.WithPrincipal(ctx, System)
	err = c.write(sys, write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		if err := tx.UseInvitation(ctx, inv.ID, c.opts.Now()); err != nil {
			if model.ErrorCode(err) == model.CodeConflict {
				return nil, errInvitation()
			}
			return nil, err
		}
		if err := tx.CreateUser(ctx, u); err != nil {
			if model.ErrorCode(err) == model.CodeConflict {
				return nil, model.Errorf(model.CodeConflict, "%s is a user of this workspace already; sign in instead", u.Email)
			}
			return nil, err
		}
		if err := tx.SetPassword(ctx, u.ID, hash); err != nil {
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
