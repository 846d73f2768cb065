package main

import (
	"context"
	"fmt"
	"strings"
)

// Lookups: the ids the first start prints once can be found again.

func workspaceListCommand() *command {
	return &command{name: "workspace list", synopsis: "list every workspace with its id and public token",
		database: true, json: true,
		run: func(ctx context.Context, c *call) (any, string, error) {
			ws, err := c.cat.ListWorkspaces(ctx)
			lines := make([]string, len(ws))
			for i, w := range ws {
				lines[i] = fmt.Sprintf("%s  %s  (public token %s)", w.ID, w.Name, w.PublicToken)
			}
			if len(ws) == 0 {
				lines = []string{"no workspaces (lokal serve creates the first)"}
			}
			return map[string]any{"workspaces": ws}, strings.Join(lines, "\n"), err
		}}
}

func userListCommand() *command {
	return &command{name: "user list", args: "[--workspace WS]", synopsis: "list the users of a workspace",
		about: soleWorkspaceAbout,
		flags: []flagDef{opt("workspace", "ID", "workspace id")}, database: true, json: true,
		run: func(ctx context.Context, c *call) (any, string, error) {
			ws, err := workspaceOf(ctx, c)
			if err != nil {
				return nil, "", err
			}
			us, err := c.cat.WorkspaceUsers(ctx, ws)
			lines := make([]string, len(us))
			for i, u := range us {
				lines[i] = fmt.Sprintf("%s  %s  %s", u.ID, u.Email, u.Role)
			}
			if len(us) == 0 {
				lines = []string{"no users in workspace " + ws}
			}
			return map[string]any{"users": us}, strings.Join(lines, "\n"), err
		}}
}

const soleWorkspaceAbout = "Without --workspace, the database's only workspace; with several, the error names them."

// workspaceOf is --workspace, or the only workspace of the database when it is not given:
// most installations have the one the first start made.
func workspaceOf(ctx context.Context, c *call) (string, error) {
	if c.in.has("workspace") {
		return c.in.str("workspace"), nil
	}
	ws, err := c.cat.ListWorkspaces(ctx)
	if err != nil {
		return "", err
	}
	switch len(ws) {
	case 0:
		return "", fmt.Errorf("the database has no workspace yet (lokal serve creates the first, lokal workspace create others)")
	case 1:
		return ws[0].ID, nil
	}
	names := make([]string, len(ws))
	for i, w := range ws {
		names[i] = fmt.Sprintf("%s (%s)", w.ID, w.Name)
	}
	return "", fmt.Errorf("the database has %d workspaces, give --workspace with one of: %s", len(ws), strings.Join(names, ", "))
}
