package tools

import (
	"context"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// PrefixReset marks a password-reset link's token.
const PrefixReset = "rst_"

// ResetLinkLifetime is how long a password-reset link stays valid: lokal sends no mail, so
// a person hands the link over, but a link that lets anyone set a password must not wait
// around for days.
const ResetLinkLifetime = 24 * time.Hour

// ResetLink is a new password-reset link: Link holds the token, shown once and never
// stored.
type ResetLink struct {
	Link      string    `json:"link"`
	User      string    `json:"user"`
	Email     string    `json:"email"`
	ExpiresAt time.Time `json:"expires_at"`
}

func errResetLink() error {
	return model.Errorf(model.CodeNotFound, "this password-reset link is not valid: it was used, it expired, or it never existed; ask for a new one")
}

// CreateResetLink makes a one-use link, valid ResetLinkLifetime, whose page lets the user
// set a new password; using it confirms their address (a link handed to the address's
// holder) and ends their other sessions. It is an invitation of kind reset: the same
// hashed, one-use, expiring token. For the operator (user is an id) and the workspace's
// owners (a user of their workspace). It revokes the user's earlier reset links; a
// disabled user gets none.
func (c *Catalog) CreateResetLink(ctx context.Context, user string) (ResetLink, error) {
	var out ResetLink
	p := model.PrincipalFrom(ctx)
	if err := c.gate(ctx, model.OpUserResetLink, on{}); err != nil {
		return out, err
	}
	token := newSecret(PrefixReset)
	hash, err := c.hashToken(ctx, token)
	if err != nil {
		return out, err
	}
	now := c.opts.Now().UTC().Truncate(time.Microsecond)
	inv := model.Invitation{ID: newID(), Kind: model.InvitationReset, Languages: []string{}, Hash: hash, CreatedBy: p.Actor(),
		CreatedAt: now, ExpiresAt: now.Add(ResetLinkLifetime)}
	err = c.write(model.WithPrincipal(ctx, System), write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		var u model.User
		var err error
		if p.Kind == model.KindSystem {
			u, err = operatorUser(ctx, tx, user)
		} else {
			u, err = findUser(ctx, tx, p.WorkspaceID, user)
		}
		if err != nil {
			return nil, err
		}
		if u.DisabledAt != nil {
			return nil, model.Errorf(model.CodeConflict, "%s is disabled: enable the account before handing it a reset link", u.Email)
		}
		inv.WorkspaceID, inv.UserID, inv.Email, inv.WorkspaceRole = u.WorkspaceID, u.ID, u.Email, u.Role
		out = ResetLink{User: u.ID, Email: u.Email, ExpiresAt: inv.ExpiresAt}
		// One link a user at a time: a new one revokes those handed out before.
		earlier, err := tx.Invitations(ctx, model.InvitationFilter{Kind: model.InvitationReset, WorkspaceID: u.WorkspaceID, Open: true})
		if err != nil {
			return nil, err
		}
		for _, e := range earlier {
			if e.UserID == u.ID {
				if err := tx.RevokeInvitation(ctx, e.ID, now); err != nil {
					return nil, err
				}
			}
		}
		return nil, tx.CreateInvitation(ctx, inv)
	}})
	if err != nil {
		return out, err
	}
	out.Link = strings.TrimRight(c.opts.BaseURL, "/") + "/app/reset/" + token
	return out, nil
}

// operatorUser finds a user of any workspace by id: the admin commands resolve an email to
// one (ResolveUser) before they call.
func operatorUser(ctx context.Context, tx model.Tx, user string) (model.User, error) {
	u, err := tx.User(ctx, strings.TrimSpace(user))
	if model.IsNotFound(err) {
		return u, model.Errorf(model.CodeNotFound, "no user has the id or email %q", model.Truncate(user, 80))
	}
	return u, err
}

// ResetLinkEmail returns the email of a pending reset link's user, for its page.
func (c *Catalog) ResetLinkEmail(ctx context.Context, token string) (string, error) {
	if err := c.gate(ctx, model.OpResetPassword, on{}); err != nil {
		return "", err
	}
	inv, err := c.link(ctx, token, model.InvitationReset)
	return inv.Email, err
}

// ResetPassword sets the password of a reset link's user, uses the link up, confirms the
// address, ends every other session (and, for an account not confirmed before, revokes
// its personal tokens: see claimAccount) and signs the user in. Attempts spend the
// address's sign-in throttle when the link opens nothing.
func (c *Catalog) ResetPassword(ctx context.Context, in AcceptIn) (SignedIn, error) {
	if err := c.gate(ctx, model.OpResetPassword, on{}); err != nil {
		return SignedIn{}, err
	}
	inv, err := c.throttledLink(ctx, in, model.InvitationReset)
	if err != nil {
		return SignedIn{}, err
	}
	password := strings.TrimRight(in.Password, "\r\n")
	if n := len(password); n < MinPasswordBytes || n > MaxPasswordBytes {
		return SignedIn{}, model.Errorf(model.CodeInvalid, "a password must be %d to %d bytes of text", MinPasswordBytes, MaxPasswordBytes)
	}
	hash := hashPassword(password)
	var u model.User
	err = c.write(model.WithPrincipal(ctx, System), write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		if err := tx.UseInvitation(ctx, inv.ID, c.opts.Now()); err != nil {
			if model.ErrorCode(err) == model.CodeConflict {
				return nil, errResetLink()
			}
			return nil, err
		}
		var err error
		if u, err = tx.User(ctx, inv.UserID); err != nil {
			if model.IsNotFound(err) {
				return nil, errResetLink()
			}
			return nil, err
		}
		return nil, c.claimAccount(ctx, tx, u, hash)
	}})
	if err != nil {
		return SignedIn{}, err
	}
	return c.SignIn(ctx, SignInIn{Email: u.Email, Password: password, ClientIP: in.ClientIP})
}
