package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lokal-dev/lokal/tools"
)

func userCommands() []*command {
	return []*command{
		{name: "user passwd", args: "--user U --password-stdin", synopsis: "set a user's password for the editor at /app/",
			about: "Reads the password from stdin (one line; the line break is not part of it), never from the\n" +
				"command line. Stores an argon2id hash and signs the user out of every browser.",
			flags:    []flagDef{req("user", "U", "user id or email"), boolean("password-stdin", "read the password from stdin (required)")},
			database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				if !c.in.boolean("password-stdin") {
					return nil, "", fmt.Errorf("give the password on stdin with --password-stdin, never on the command line")
				}
				b, err := io.ReadAll(io.LimitReader(os.Stdin, maxStdinSecret+1))
				if err != nil {
					return nil, "", fmt.Errorf("reading --password-stdin: %w", err)
				}
				if len(b) > maxStdinSecret {
					return nil, "", fmt.Errorf("--password-stdin: stdin holds more than %d bytes", maxStdinSecret)
				}
				pw := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
				if err := c.cat.SetPassword(ctx, c.in.str("user"), pw); err != nil {
					return nil, "", err
				}
				return map[string]any{"user": c.in.str("user"), "password_set": true}, "password set for user " + c.in.str("user"), nil
			}},
		{name: "user set", args: "--user U --role owner|member", synopsis: "make a user an owner or a member of their workspace",
			about:    "The change binds the user's tokens and sessions at once. The last owner stays one.",
			flags:    []flagDef{req("user", "U", "user id or email"), req("role", "ROLE", "owner or member")},
			database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				u, err := c.cat.SetUserRole(ctx, c.in.str("user"), c.in.str("role"))
				return u, fmt.Sprintf("user %s (%s) is now %s", u.ID, u.Email, u.Role), err
			}},
		{name: "member set", args: "--project P --user U --role manager|translator|reviewer [--languages nb,de]",
			synopsis: "give a user a role on a project",
			about: "A manager runs the project (settings, keys, webhooks, redeploy, languages, glossary,\n" +
				"members); a translator edits --languages; a reviewer also approves in them. Members of\n" +
				"the workspace without a role see nothing of the project. U is a user id or email; the\n" +
				"change binds the user's tokens and sessions at once.",
			flags: []flagDef{req("project", "P", "project id or title"), req("user", "U", "user id or email"),
				req("role", "ROLE", "manager, translator or reviewer"), list("languages", "L1,L2", "a translator's or reviewer's target languages")},
			database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				m, err := c.cat.SetMember(ctx, tools.SetMemberIn{ProjectID: c.in.str("project"), User: c.in.str("user"),
					Role: c.in.str("role"), Languages: c.in.list("languages")})
				return m, memberText(m), err
			}},
		{name: "member list", args: "--project P", synopsis: "list a project's members and their roles",
			flags: []flagDef{req("project", "P", "project id or title")}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				ms, err := c.cat.ListMembers(ctx, c.in.str("project"))
				lines := make([]string, len(ms))
				for i, m := range ms {
					lines[i] = memberText(m)
				}
				if len(ms) == 0 {
					lines = []string{"no members (owners of the workspace see every project)"}
				}
				return map[string]any{"members": ms}, strings.Join(lines, "\n"), err
			}},
		{name: "member remove", args: "--project P --user U", synopsis: "take a user's role on a project away",
			flags: []flagDef{req("project", "P", "project id or title"), req("user", "U", "user id or email")}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				m, err := c.cat.RemoveMember(ctx, c.in.str("project"), c.in.str("user"))
				return map[string]any{"project": c.in.str("project"), "user": m.UserID, "email": m.Email, "removed": true},
					fmt.Sprintf("%s (%s) has no role on the project now", m.Email, m.UserID), err
			}},
	}
}

func memberText(m tools.MemberView) string {
	s := fmt.Sprintf("%s  %s  %s", m.UserID, m.Email, m.Role)
	if len(m.Languages) > 0 {
		s += "  " + strings.Join(m.Languages, ",")
	}
	return s
}
