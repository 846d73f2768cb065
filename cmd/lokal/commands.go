package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/checkup"
	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// command is one entry of the command table.
type command struct {
	name     string // its words, such as "project set"
	args     string // what follows the name in usage, such as "--project P [flags]"
	synopsis string // one line for the command list
	about    string // the paragraph of its help
	flags    []flagDef
	database bool // takes --database and gets an existing database and a catalogue
	json     bool // takes --json
	run      func(ctx context.Context, c *call) (out any, text string, err error)
}

// call is what a command's run gets.
type call struct {
	in             *input
	words          []string // words after the command's name (help's COMMAND)
	db             *storage.DB
	cat            *tools.Catalog
	stdout, stderr io.Writer
}

var (
	databaseFlag = flagDef{name: "database", arg: "DSN", usage: "database: sqlite:PATH or postgres://...",
		env: "LOKAL_DATABASE", def: storage.DefaultDSN}
	jsonFlag = flagDef{name: "json", kind: boolFlag, usage: "print exactly one JSON object"}
)

// allFlags is the command's own flags and the common ones it takes.
func (c *command) allFlags() []flagDef {
	out := append([]flagDef(nil), c.flags...)
	if c.database {
		out = append(out, databaseFlag)
	}
	if c.json {
		out = append(out, jsonFlag)
	}
	return out
}

func (c *command) takes(flag string) bool {
	for _, d := range c.allFlags() {
		if d.name == flag {
			return true
		}
	}
	return false
}

func req(name, arg, usage string) flagDef {
	return flagDef{name: name, arg: arg, usage: usage, required: true}
}

func opt(name, arg, usage string) flagDef { return flagDef{name: name, arg: arg, usage: usage} }

func list(name, arg, usage string) flagDef {
	return flagDef{name: name, kind: listFlag, arg: arg, usage: usage + "; --" + name + "= clears"}
}

func boolean(name, usage string) flagDef { return flagDef{name: name, kind: boolFlag, usage: usage} }

// commands is the table of every command, in the order of the global usage.
var commands []*command

func init() {
	commands = []*command{
		serveCommand(),
		{name: "workspace create", args: "--name NAME", synopsis: "create a workspace and its public token",
			flags: []flagDef{req("name", "NAME", "display name of the workspace")}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				w, err := c.cat.CreateWorkspace(ctx, tools.CreateWorkspaceIn{Name: c.in.str("name")})
				return w, fmt.Sprintf("workspace %s (%s)\npublic token: %s", w.ID, w.Name, w.PublicToken), err
			}},
		workspaceListCommand(),
		{name: "user create", args: "--workspace WS --email EMAIL [--role owner|member]", synopsis: "add a user to a workspace",
			about: "An owner may do everything in the workspace; a member what their project roles give\n" +
				"(lokal member set). The workspace's first user is its owner.",
			flags: []flagDef{req("workspace", "ID", "workspace id"), req("email", "EMAIL", "the user's email address"),
				opt("role", "ROLE", "owner or member (default member)")},
			database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				u, err := c.cat.CreateUser(ctx, tools.CreateUserIn{WorkspaceID: c.in.str("workspace"), Email: c.in.str("email"), Role: c.in.str("role")})
				return u, fmt.Sprintf("user %s (%s, %s)", u.ID, u.Email, u.Role), err
			}},
		userListCommand(),
		{name: "project create", args: "--workspace WS --title T --source LANG [--languages L1,L2]",
			synopsis: "create a project", database: true, json: true,
			flags: []flagDef{req("workspace", "ID", "workspace id"), req("title", "TEXT", "project title"),
				req("source", "LANG", "source language code"), list("languages", "L1,L2", "target language codes to enable")},
			run: func(ctx context.Context, c *call) (any, string, error) {
				p, err := c.cat.CreateProject(ctx, tools.CreateProjectIn{WorkspaceID: c.in.str("workspace"),
					Title: c.in.str("title"), SourceLanguage: c.in.str("source"), Languages: c.in.list("languages")})
				return p, projectText(p), err
			}},
		{name: "project list", args: "[--workspace WS] [--archived]", synopsis: "list the projects of a workspace",
			about:    soleWorkspaceAbout,
			flags:    []flagDef{opt("workspace", "ID", "workspace id"), boolean("archived", "list archived projects too")},
			database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				ws, err := workspaceOf(ctx, c)
				if err != nil {
					return nil, "", err
				}
				list := c.cat.WorkspaceProjects
				if c.in.boolean("archived") {
					list = c.cat.AllWorkspaceProjects
				}
				ps, err := list(ctx, ws)
				lines := make([]string, len(ps))
				for i, p := range ps {
					lines[i] = fmt.Sprintf("%s  %s  (%s)", p.ID, p.Title, strings.Join(p.EnabledLanguages, ", "))
					if p.ArchivedAt != nil {
						lines[i] += "  archived"
					}
				}
				if len(ps) == 0 {
					lines = []string{"no projects in workspace " + ws}
				}
				return map[string]any{"projects": ps}, strings.Join(lines, "\n"), err
			}},
		{name: "project show", args: "--project P", synopsis: "show a project and its settings",
			flags: []flagDef{req("project", "P", "project id or title")}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				v, err := c.cat.ShowProject(ctx, c.in.str("project"))
				return v, projectViewText(v), err
			}},
		projectSetCommand(),
		{name: "project recount", args: "--project P", synopsis: "recompute a project's status counts from its rows",
			about: "get_project_status reads counters that every write keeps; this rebuilds them from the rows, " +
				"for a database edited by hand or counts that look wrong. Prints the counts it left.",
			flags: []flagDef{req("project", "P", "project id or title")}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				r, err := c.cat.RecountProject(ctx, c.in.str("project"))
				lines := []string{"status counts of " + r.ProjectID + " recomputed"}
				for _, l := range r.Languages {
					lines = append(lines, fmt.Sprintf("%-8s %d of %d translated, %d missing, %d source-drifted",
						l.Language, l.Translated, l.Total, l.Missing, l.Drifted))
				}
				return r, strings.Join(lines, "\n"), err
			}},
		{name: "key create", args: "--project P [--read-only] [--name NAME]", synopsis: "create a project API key (shown once)",
			flags: []flagDef{req("project", "P", "project id or title"), boolean("read-only", "a key that can only read"),
				opt("name", "NAME", "what people call the key, shown in lists and history (optional)")},
			database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				k, err := c.cat.CreateAPIKey(ctx, tools.CreateAPIKeyIn{ProjectID: c.in.str("project"), ReadOnly: c.in.boolean("read-only"),
					Name: c.in.str("name")})
				kind := "read/write"
				if k.ReadOnly {
					kind = "read-only"
				}
				return k, fmt.Sprintf("%s API key (shown once): %s", kind, k.Key), err
			}},
		{name: "key list", args: "--project P", synopsis: "list a project's API keys, revoked ones too",
			flags: []flagDef{req("project", "P", "project id or title")}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				ks, err := c.cat.ListKeys(ctx, c.in.str("project"))
				lines := []string{}
				for _, k := range ks {
					kind := "read/write"
					if k.ReadOnly {
						kind = "read-only"
					}
					lines = append(lines, fmt.Sprintf("%s  %-12s %-10s  %s", k.ID, shown(k.Prefix), kind, lifetime(k.CreatedAt, k.LastUsedAt, k.RevokedAt)))
				}
				if len(ks) == 0 {
					lines = append(lines, "no keys")
				}
				return map[string]any{"keys": ks}, strings.Join(lines, "\n"), err
			}},
		{name: "key revoke", args: "--id ID", synopsis: "revoke an API key on every running server within a second",
			flags: []flagDef{req("id", "ID", "key id, from key list")}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				r, err := c.cat.RevokeKey(ctx, c.in.str("id"))
				return r, fmt.Sprintf("key %s revoked at %s", r.ID, r.RevokedAt.Format(time.RFC3339)), err
			}},
		{name: "token create", args: "--user U (--project P | --workspace WS) [--name NAME]",
			synopsis: "create a personal access token (shown once)", database: true, json: true,
			flags: []flagDef{req("user", "U", "user id or email"), opt("project", "P", "a token for this project (id or title)"),
				opt("workspace", "ID", "a token for every project of this workspace"),
				opt("name", "NAME", "what people call the token, shown in lists and history (optional)")},
			run: func(ctx context.Context, c *call) (any, string, error) {
				if c.in.has("project") == c.in.has("workspace") {
					return nil, "", errors.New("give exactly one of --project and --workspace")
				}
				t, err := c.cat.CreateToken(ctx, tools.CreateTokenIn{UserID: c.in.str("user"), ProjectID: c.in.str("project"),
					WorkspaceID: c.in.str("workspace"), Name: c.in.str("name")})
				return t, fmt.Sprintf("personal access token (shown once): %s", t.Token), err
			}},
		{name: "token list", args: "--user U", synopsis: "list a user's personal access tokens, revoked ones too",
			flags: []flagDef{req("user", "U", "user id or email")}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				ts, err := c.cat.ListTokens(ctx, c.in.str("user"))
				lines := []string{}
				for _, t := range ts {
					scope := "workspace " + t.WorkspaceID
					if t.ProjectID != nil {
						scope = "project " + *t.ProjectID
					}
					lines = append(lines, fmt.Sprintf("%s  %-16s %s  %s", t.ID, shown(t.Prefix), scope, lifetime(t.CreatedAt, t.LastUsedAt, t.RevokedAt)))
				}
				if len(ts) == 0 {
					lines = append(lines, "no tokens")
				}
				return map[string]any{"tokens": ts}, strings.Join(lines, "\n"), err
			}},
		{name: "token revoke", args: "--id ID", synopsis: "revoke a personal access token on every running server within a second",
			flags: []flagDef{req("id", "ID", "token id, from token list")}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				r, err := c.cat.RevokeToken(ctx, c.in.str("id"))
				return r, fmt.Sprintf("token %s revoked at %s", r.ID, r.RevokedAt.Format(time.RFC3339)), err
			}},
		// Before "checkup": the first command whose name the words start with runs.
		{name: "checkup show", args: "--project P [--report ID] [--offset N]", synopsis: "print a stored checkup report, a page of its findings at a time",
			about: "Prints the newest completed report (or --report) with at most 1,000 findings from --offset;\n" +
				"next_offset, null on the last page, is the --offset that continues.",
			flags: []flagDef{req("project", "P", "project id or title"), opt("report", "ID", "report id; default the newest completed report"),
				{name: "offset", kind: intFlag, arg: "N", usage: "where the findings continue: the next_offset printed before", def: "0"}},
			database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				r, err := c.cat.GetCheckupReport(ctx, tools.CheckupIn{ProjectArg: tools.ProjectArg{ProjectID: c.in.str("project")},
					ReportID: c.in.str("report"), Offset: c.in.integer("offset")})
				if err != nil {
					return nil, "", err
				}
				text := checkupText(r)
				for _, f := range r.Findings {
					text += fmt.Sprintf("\n%s  %s  %s  %s: %s", f.Namespace, f.Key, f.Language, checkup.KindLabel(f.Kind), f.Message)
				}
				if r.NextOffset != nil {
					text += fmt.Sprintf("\nmore with --offset %d", *r.NextOffset)
				}
				return r, text, nil
			}},
		{name: "checkup", args: "--project P", synopsis: "run a quality check of a project's translations",
			flags: []flagDef{req("project", "P", "project id or title")}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				r, err := c.cat.RunCheckup(ctx, c.in.str("project"), "cli")
				if err != nil {
					return nil, "", err
				}
				return r, checkupText(r), nil
			}},
		termAddCommand(), termListCommand(), substitutionAddCommand(),
		{name: "backup", args: "--to FILE", synopsis: "copy a SQLite database while servers run",
			about: "Writes a consistent copy of the SQLite database to FILE (SQLite's VACUUM INTO) while\n" +
				"servers keep reading and writing. FILE must not exist. For PostgreSQL use pg_dump.",
			flags: []flagDef{req("to", "FILE", "the new file to write")}, database: true, json: true,
			run: runBackup},
	}
	commands = append(commands, aiCommands()...)
	commands = append(commands, embedCommands()...)
	commands = append(commands, hookCommands()...)
	commands = append(commands, userCommands()...)
	commands = append(commands, invitationCommands()...)
	commands = append(commands, operatorCommands()...)
	commands = append(commands, pushPullCommands()...)
	commands = append(commands, []*command{
		{name: "version", synopsis: "print the version, commit and Go version", json: true, run: runVersion},
		{name: "help", args: "[COMMAND]", synopsis: "show the usage of lokal or of one command", run: runHelp},
	}...)
}

func projectSetCommand() *command {
	return &command{name: "project set", args: "--project P [flags]", synopsis: "change a project's languages and settings",
		about: "Changes only what the flags given name; prints the project as project show does.",
		flags: []flagDef{
			req("project", "P", "project id or title"),
			opt("title", "TEXT", "project title"),
			list("languages", "L1,L2", "the enabled target languages (the source is always on)"),
			list("confirm-remove", "L1,L2", "languages --languages takes off although they have translations (kept, and back when the language is added again)"),
			list("editable", "L1,L2", "languages translators may edit, among the enabled ones and the source"),
			list("auto-translate", "L1,L2", "languages AI translates into, among the enabled ones"),
			opt("integration-type", "api|embed", "api for CLI, REST or MCP projects; embed for the Embed script"),
			list("allowed-origins", "ORIGINS", "browser origins allowed on the public endpoints, scheme://host[:port], host may start with *."),
			list("hosts", "HOSTS", "site host names bound to this project (a host belongs to one project); localhost:PORT and loopback addresses for local testing"),
			boolean("show-switcher", "the Embed script shows its language switcher"),
			boolean("keep-site-up-to-date", "the Embed script keeps the site current between deploys"),
			opt("mode", "swap|off", "swap: the Embed script swaps page text; off: it only pings"),
			boolean("jit-harvest", "the Embed script reports untranslated page text"),
			boolean("auto-apply", "the dictionary serves AI drafts too, not only approved translations"),
			opt("syntax", "S1,S2", "the syntaxes the values are written in ("+strings.Join(message.SyntaxNames(), ", ")+", none or all); empty detects them from the source values"),
		},
		database: true, json: true,
		run: func(ctx context.Context, c *call) (any, string, error) {
			in := c.in
			v, err := c.cat.SetProject(ctx, in.str("project"), tools.SetProjectIn{
				Title: in.opt("title"), Languages: in.optList("languages"), Editable: in.optList("editable"),
				AutoTranslate: in.optList("auto-translate"), IntegrationType: in.opt("integration-type"),
				AllowedOrigins: in.optList("allowed-origins"), Hosts: in.optList("hosts"),
				ShowSwitcher: in.optBool("show-switcher"), KeepSiteUpToDate: in.optBool("keep-site-up-to-date"),
				Mode: in.opt("mode"), JITHarvest: in.optBool("jit-harvest"), AutoApply: in.optBool("auto-apply"),
				Syntax: in.opt("syntax"), ConfirmRemove: in.list("confirm-remove"),
			})
			return v, projectViewText(v), err
		}}
}

func projectText(p model.Project) string {
	s := fmt.Sprintf("project %s (%s)\nsource language: %s\nenabled languages: %s", p.ID, p.Title, p.SourceLanguage,
		strings.Join(p.EnabledLanguages, ", "))
	if p.ArchivedAt != nil {
		s += "\narchived since " + p.ArchivedAt.Format(time.RFC3339) + ": read-only (lokal project restore)"
	}
	return s
}

func projectViewText(v tools.ProjectView) string {
	s := v.Settings
	none := func(l []string) string {
		if len(l) == 0 {
			return "none"
		}
		return strings.Join(l, ", ")
	}
	return projectText(v.Project) + fmt.Sprintf("\neditable languages: %s\nauto-translate languages: %s\n"+
		"integration type: %s\nallowed origins: %s\nhosts: %s\nshow switcher: %t\nkeep site up to date: %t\n"+
		"mode: %s\njit harvest: %t\nauto apply: %t\nsyntax: %s (%s)",
		none(v.EditableLanguages), none(v.AutoTranslateLanguages), v.IntegrationType, none(s.AllowedOrigins),
		none(s.Hosts), s.ShowSwitcher, s.KeepSiteUpToDate, s.Capabilities.Mode, s.Capabilities.JITHarvest,
		s.Capabilities.AutoApply, none(s.Syntax.Names), s.Syntax.Source) + embedStatusText(v.Embed) + contentsText(v)
}

// shown is a token prefix as lists print it; tokens made before prefixes were kept have none.
func shown(prefix string) string {
	if prefix == "" {
		return "(no prefix)"
	}
	return prefix + "…"
}

func lifetime(created time.Time, used, revoked *time.Time) string {
	s := "created " + created.Format(time.RFC3339) + ", last used "
	if used == nil {
		s += "never"
	} else {
		s += used.Format(time.RFC3339)
	}
	if revoked != nil {
		s += ", revoked " + revoked.Format(time.RFC3339)
	}
	return s
}

func runBackup(ctx context.Context, c *call) (any, string, error) {
	to, err := filepath.Abs(c.in.str("to"))
	if err != nil {
		return nil, "", fmt.Errorf("resolving --to: %w", err)
	}
	if _, err := os.Lstat(to); err == nil {
		return nil, "", fmt.Errorf("%s already exists: a backup never overwrites, give a new file", to)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, "", fmt.Errorf("checking %s: %w", to, err)
	}
	if fi, err := os.Stat(filepath.Dir(to)); err != nil || !fi.IsDir() {
		return nil, "", fmt.Errorf("the directory %s does not exist", filepath.Dir(to))
	}
	if err := c.db.BackupTo(ctx, to); err != nil {
		if errors.Is(err, storage.ErrBackupPostgres) {
			return nil, "", errors.New("lokal backup copies SQLite databases; back up PostgreSQL with pg_dump " +
				"(for example: pg_dump --format=custom --file lokal.dump \"$LOKAL_DATABASE\")")
		}
		return nil, "", err
	}
	fi, err := os.Stat(to)
	if err != nil {
		return nil, "", fmt.Errorf("checking the backup: %w", err)
	}
	return map[string]any{"path": to, "bytes": fi.Size()}, fmt.Sprintf("backed up to %s (%d bytes)", to, fi.Size()), nil
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkupText is a checkup report as text: its counts by kind.
func checkupText(r tools.CheckupReportOut) string {
	text := fmt.Sprintf("checkup report %s: %d findings", r.ID, r.FindingsTotal)
	for _, k := range sortedKeys(r.Summary.ByKind) {
		text += fmt.Sprintf("\n  %-28s %d", k, r.Summary.ByKind[k])
	}
	return text
}
