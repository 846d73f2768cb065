package main

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/lokal-dev/lokal/tools/model"
)

// resolveNames turns the --project and --user of any command into ids: every admin
// command takes an id, a title (project) or an email (user) where it is unambiguous. A
// user's email is looked up in the project's workspace, or --workspace's, when given.
func resolveNames(ctx context.Context, c *call) error {
	in := c.in
	ws := ""
	if _, ok := in.defs["workspace"]; ok && in.has("workspace") {
		ws = in.str("workspace")
	}
	if v, ok := in.vals["project"]; ok {
		id, pws, err := c.cat.ResolveProject(ctx, v)
		if err = unknownLater(err); err != nil {
			return err
		}
		if id != "" {
			in.vals["project"] = id
		}
		if pws != "" {
			ws = pws
		}
	}
	if v, ok := in.vals["user"]; ok {
		id, err := c.cat.ResolveUser(ctx, v, ws)
		if err = unknownLater(err); err != nil {
			return err
		}
		if id != "" {
			in.vals["user"] = id
		}
	}
	return nil
}

// unknownLater lets a name that finds nothing through as given: the command checks its
// other flags first and its operation answers not found in its own words.
func unknownLater(err error) error {
	if model.IsNotFound(err) {
		return nil
	}
	return err
}

// shownDSN is the database as the operator's line names it: a SQLite file by its absolute
// path, a PostgreSQL DSN without its password.
func shownDSN(dsn string) string {
	if path, ok := strings.CutPrefix(dsn, "sqlite:"); ok {
		path = strings.TrimPrefix(path, "//")
		file, query, _ := strings.Cut(path, "?")
		if abs, err := filepath.Abs(file); err == nil && file != ":memory:" {
			file = abs
		}
		if query != "" {
			file += "?" + query
		}
		return "sqlite:" + file
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "a database given by an unreadable DSN"
	}
	if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.String()
}
