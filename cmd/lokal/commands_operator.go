package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
)

// The operator's verbs that end things: archiving and deleting projects, disabling and
// deleting users. The catalogue decides and guards; these only name and print.

const backupHint = "back it up first: lokal backup --to FILE (SQLite) or pg_dump (PostgreSQL)"

func operatorCommands() []*command {
	projectFlag := req("project", "P", "project id or title")
	userFlag := req("user", "U", "user id or email")
	return []*command{
		{name: "project archive", args: "--project P", synopsis: "make a project read-only and hide it from lists",
			about: "An archived project keeps answering reads (the Embed's dictionary, the token API's reads),\n" +
				"so shipped apps keep working; every write answers 409 project_archived until it is restored.",
			flags: []flagDef{projectFlag}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				s, err := c.cat.ArchiveProject(ctx, c.in.str("project"))
				return s, fmt.Sprintf("project %s (%s) is archived: read-only and left out of lists (lokal project restore undoes it)", s.ID, s.Title), err
			}},
		{name: "project restore", args: "--project P", synopsis: "make an archived project writable and listed again",
			flags: []flagDef{projectFlag}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				s, err := c.cat.RestoreProject(ctx, c.in.str("project"))
				return s, fmt.Sprintf("project %s (%s) is restored", s.ID, s.Title), err
			}},
		{name: "project delete", args: "--project P --confirm TITLE", synopsis: "delete a project and everything in it, for good",
			about: "Removes the project's keys, translations, history, API keys and tokens, members,\n" +
				"invitations, webhooks, jobs and counters in one transaction. --confirm is the project's\n" +
				"title typed back (asked for on a terminal when not given); " + backupHint + ".",
			flags:    []flagDef{projectFlag, opt("confirm", "TITLE", "the project's title, typed back")},
			database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				confirm, ok := c.in.vals["confirm"]
				if !ok {
					var err error
					if confirm, err = askTitle(c); err != nil {
						return nil, "", err
					}
				}
				s, err := c.cat.DeleteProject(ctx, c.in.str("project"), confirm)
				return s, fmt.Sprintf("project %s (%s) is deleted", s.ID, s.Title), err
			}},
		{name: "user disable", args: "--user U", synopsis: "stop a user signing in and their tokens working",
			about: "Ends the user's sessions; their tokens are refused until lokal user enable, and they keep\n" +
				"their roles. The workspace's last owner cannot be disabled.",
			flags: []flagDef{userFlag}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				s, err := c.cat.DisableUser(ctx, c.in.str("user"))
				return s, fmt.Sprintf("user %s (%s) is disabled", s.ID, s.Email), err
			}},
		{name: "user enable", args: "--user U", synopsis: "let a disabled user sign in again, with their tokens",
			flags: []flagDef{userFlag}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				s, err := c.cat.EnableUser(ctx, c.in.str("user"))
				return s, fmt.Sprintf("user %s (%s) is enabled", s.ID, s.Email), err
			}},
		{name: "user delete", args: "--user U", synopsis: "delete a user with their sessions, tokens and roles",
			about: "History keeps the user's email. The workspace's last owner cannot be deleted.",
			flags: []flagDef{userFlag}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				s, err := c.cat.DeleteUser(ctx, c.in.str("user"))
				return s, fmt.Sprintf("user %s (%s) is deleted", s.ID, s.Email), err
			}},
	}
}

// askTitle reads the title typed back on a terminal; without one (scripts, CI) it
// refuses and says how to confirm.
func askTitle(c *call) (string, error) {
	refuse := fmt.Errorf("give --confirm with the project's title to delete it; %s", backupHint)
	fi, err := os.Stdin.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return "", refuse
	}
	fmt.Fprintf(c.stderr, "lokal: deleting a project cannot be undone; %s.\nType the project's title to delete it: ", backupHint)
	line, err := bufio.NewReader(os.Stdin).ReadString('\n')
	if err != nil && line == "" {
		return "", refuse
	}
	return strings.TrimRight(line, "\r\n"), nil
}
