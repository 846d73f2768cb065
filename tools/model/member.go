package model

import (
	"context"
	"time"
)

// Workspace roles: an owner may do everything in the workspace; a member only what their
// project roles give.
const (
	RoleOwner  = "owner"
	RoleMember = "member"
)

// Project roles: a manager runs the project (settings, keys and tokens, webhooks, redeploy,
// languages, glossary, members); a translator edits their languages; a reviewer also
// approves in them.
const (
	RoleManager    = "manager"
	RoleTranslator = "translator"
	RoleReviewer   = "reviewer"
)

// Right is one thing a principal may do on a project. Translate and Approve hold for one
// language at a time; the others for the whole project.
type Right uint16

const (
	RightRead      Right = 1 << iota // see the project: its status, values, terms, reports
	RightTranslate                   // edit a language's values, comment, flag, mark needs_review
	RightApprove                     // approve a language's values
	RightSource                      // keys and source texts (sync, register, add_key, missing)
	RightManage                      // settings, keys and tokens, webhooks, redeploy, languages, glossary, members
	RightOwner                       // the workspace: users, roles, workspace AI

	// RightsProject is everything a project grants; RightsAll adds the workspace.
	RightsProject = RightRead | RightTranslate | RightApprove | RightSource | RightManage
	RightsAll     = RightsProject | RightOwner
)

// Member is a user's role on a project; Languages are a translator's or reviewer's.
type Member struct {
	ProjectID string
	UserID    string
	Email     string
	Role      string
	Languages []string
	Confirmed bool // the user's address (User.Confirmed)
}

// Access is what the store knows of a user's standing on a project: their workspace role
// and, when they have one, their project role. Rights are decided from it in the
// catalogue, never here.
type Access struct {
	UserID        string
	WorkspaceID   string
	WorkspaceRole string
	ProjectRole   string // "" without a role on the project
	Languages     []string
}

// MemberTx holds workspace roles and project memberships. Errors: CodeNotFound for an
// unknown user or a membership that does not exist.
type MemberTx interface {
	SetUserRole(ctx context.Context, userID, role string) error
	// SetMember creates or replaces the user's role on the project.
	SetMember(ctx context.Context, m Member) error
	RemoveMember(ctx context.Context, projectID, userID string) error
	// Members returns the project's members ordered by email.
	Members(ctx context.Context, projectID string) ([]Member, error)
	// Access returns the user's roles for the project (projectID "" for the workspace only).
	Access(ctx context.Context, userID, projectID string) (Access, error)
}

// Invitation lets someone join a workspace: whoever holds its link sets a password once,
// before ExpiresAt, and becomes a user with WorkspaceRole and, when ProjectID is set,
// ProjectRole on that project. Only a keyed hash of the link's token is stored. Kind
// InvitationReset is a password-reset link of the user UserID instead: the same one-use,
// expiring link, which sets that user's password.
type Invitation struct {
	ID            string
	Kind          string // InvitationInvite or InvitationReset
	UserID        string // the user a reset link is for
	WorkspaceID   string
	ProjectID     string
	Email         string
	WorkspaceRole string
	ProjectRole   string
	Languages     []string
	Hash          string
	CreatedBy     string
	CreatedAt     time.Time
	ExpiresAt     time.Time
	UsedAt        *time.Time
	RevokedAt     *time.Time
}

// The kinds of Invitation.
const (
	InvitationInvite = "invite"
	InvitationReset  = "reset"
)

// Pending tells whether the link may still be used at now: not used, not revoked, not
// expired.
func (inv Invitation) Pending(now time.Time) bool {
	return inv.UsedAt == nil && inv.RevokedAt == nil && now.Before(inv.ExpiresAt)
}

// InvitationFilter selects invitations of a kind: of a workspace, of a project (with
// Owners, also the workspace's owner invitations), unused and unrevoked ones only with
// Open. Zero fields select all.
type InvitationFilter struct {
	Kind        string
	WorkspaceID string
	ProjectID   string
	Owners      bool
	Open        bool
}

// InvitationTx holds invitations. Errors: CodeNotFound for an unknown hash or id;
// UseInvitation and RevokeInvitation answer CodeConflict for an invitation used or revoked
// already.
type InvitationTx interface {
	CreateInvitation(ctx context.Context, inv Invitation) error
	InvitationByHash(ctx context.Context, hash string) (Invitation, error)
	Invitation(ctx context.Context, id string) (Invitation, error)
	// Invitations returns the invitations matching f, oldest first.
	Invitations(ctx context.Context, f InvitationFilter) ([]Invitation, error)
	UseInvitation(ctx context.Context, id string, at time.Time) error
	RevokeInvitation(ctx context.Context, id string, at time.Time) error
	// ConfirmUser marks the user's address confirmed at at.
	ConfirmUser(ctx context.Context, userID string, at time.Time) error
}
