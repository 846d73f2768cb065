package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/lokal-dev/lokal/tools"
)

// invitationCommands are the pending invitations and the password-reset link: the links
// that confirm an address (see tools/invitations.go).
func invitationCommands() []*command {
	return []*command{
		{name: "invitation list", args: "[--project P | --workspace WS]", synopsis: "list pending invitations (not used, revoked or expired)",
			about: "Without --project or --workspace, every workspace's. Each shows its id (for invitation\n" +
				"revoke), the email, the role and languages, who invited and when it expires.",
			flags:    []flagDef{opt("project", "ID", "a project's invitations"), opt("workspace", "ID", "a workspace's invitations, owners' too")},
			database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				if c.in.str("project") != "" && c.in.str("workspace") != "" {
					return nil, "", fmt.Errorf("give --project or --workspace, not both")
				}
				vs, err := c.cat.ListInvitations(ctx, tools.ListInvitationsIn{ProjectID: c.in.str("project"), WorkspaceID: c.in.str("workspace")})
				lines := make([]string, len(vs))
				for i, v := range vs {
					lines[i] = invitationText(v)
				}
				if len(vs) == 0 {
					lines = []string{"no pending invitations"}
				}
				return map[string]any{"invitations": vs}, strings.Join(lines, "\n"), err
			}},
		{name: "invitation revoke", args: "--id ID", synopsis: "revoke a pending invitation: its link stops working",
			about:    "The link then answers as an expired one does. ID is from invitation list.",
			flags:    []flagDef{req("id", "ID", "the invitation's id")},
			database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				v, err := c.cat.RevokeInvitation(ctx, tools.RevokeInvitationIn{ID: c.in.str("id")})
				return map[string]any{"id": v.ID, "email": v.Email, "revoked": true}, "revoked the invitation of " + v.Email, err
			}},
		{name: "user reset-link", args: "--user U [--base-url URL]", synopsis: "make a one-use link that sets a user's password",
			about: "Prints a link, valid 24 hours and once, to hand to the user (lokal sends no mail): its\n" +
				"page sets a new password, confirms the user's address and signs them out everywhere\n" +
				"else; a newer link revokes it. U is a user id, or an email only one user has. Hand it\n" +
				"only to the address's holder.",
			flags: []flagDef{req("user", "U", "user id or email"),
				{name: "base-url", arg: "URL", usage: "the service's public address, for the link", env: "LOKAL_BASE_URL"}},
			database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				l, err := c.cat.CreateResetLink(ctx, c.in.str("user"))
				if err != nil {
					return nil, "", err
				}
				l.Link = strings.TrimRight(c.in.str("base-url"), "/") + l.Link
				text := fmt.Sprintf("password-reset link for %s, valid once until %s:\n%s", l.Email, l.ExpiresAt.Format("2006-01-02 15:04 MST"), l.Link)
				if c.in.str("base-url") == "" {
					text += "\n(the link is relative: put the service's address before it, or give --base-url)"
				}
				return l, text, nil
			}},
	}
}

func invitationText(v tools.InvitationView) string {
	s := fmt.Sprintf("%s  %s  %s", v.ID, v.Email, v.Role)
	if len(v.Languages) > 0 {
		s += "  " + strings.Join(v.Languages, ",")
	}
	return s + fmt.Sprintf("  invited by %s  expires %s", v.InvitedBy, v.ExpiresAt.Format("2006-01-02 15:04 MST"))
}
