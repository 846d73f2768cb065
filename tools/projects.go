package tools

import (
	"context"
	"html"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// ProjectSummary is a project as list_projects shows it.
type ProjectSummary struct {
	ID               string   `json:"id"`
	Title            string   `json:"title"`
	SourceLanguage   string   `json:"source_language"`
	EnabledLanguages []string `json:"enabled_languages"`
	Namespaces       []string `json:"namespaces"`
}

// ListProjectsIn takes an optional project_id to narrow the list to one project.
type ListProjectsIn struct {
	ProjectID string `json:"project_id,omitempty" jsonschema:"optional: return only this project"`
}

// ListProjectsOut lists projects.
type ListProjectsOut struct {
	Projects []ProjectSummary `json:"projects"`
}

// ListProjects lists the projects the caller can reach: every active project of a workspace
// token's workspace, or the one project of a project token or endpoint.
func (c *Catalog) ListProjects(ctx context.Context, in ListProjectsIn) (ListProjectsOut, error) {
	out := ListProjectsOut{Projects: []ProjectSummary{}}
	if err := c.gate(ctx, model.OpListProjects, on{}); err != nil {
		return out, err
	}
	p := model.PrincipalFrom(ctx)
	only := ProjectScope(ctx)
	if only == "" && p.Kind != model.KindWorkspace {
		only = p.ProjectID
	}
	if in.ProjectID != "" {
		if only != "" && in.ProjectID != only {
			return out, &model.Error{Code: model.CodeUnauthorized, Message: "token is not valid for this project"}
		}
		only = in.ProjectID
	}
	err := c.store.View(ctx, func(tx model.Tx) error {
		var projects []model.Project
		if only != "" {
			proj, err := c.loadProject(ctx, tx, only)
			if err != nil {
				return err
			}
			projects = []model.Project{proj}
		} else {
			var err error
			if projects, err = tx.Projects(ctx, p.WorkspaceID); err != nil {
				return err
			}
			if projects, err = c.visible(ctx, tx, projects); err != nil {
				return err
			}
		}
		for _, proj := range projects {
			out.Projects = append(out.Projects, ProjectSummary{ID: proj.ID, Title: proj.Title, SourceLanguage: proj.SourceLanguage,
				EnabledLanguages: proj.EnabledLanguages, Namespaces: proj.Namespaces})
		}
		return nil
	})
	return out, err
}

// ProjectStatusIn names the project.
type ProjectStatusIn struct {
	ProjectArg
}

// ProjectStatusOut is get_project_status's answer.
type ProjectStatusOut struct {
	ProjectID        string          `json:"project_id"`
	Title            string          `json:"title"`
	SourceLanguage   string          `json:"source_language"`
	EnabledLanguages []string        `json:"enabled_languages"`
	Namespaces       []string        `json:"namespaces"`
	Languages        []LanguageStats `json:"languages"`
	// AutoTranslation: strings queued for the model and strings it failed; a language is
	// done when its missing count is 0.
	AutoTranslation AutoTranslationStatus `json:"auto_translation"`
	Usage           UsageOut              `json:"ai_usage"`
	Embed           EmbedStatus           `json:"embed"`
	// Syntax is what the project's values are read in: set by the operator, or detected.
	Syntax SyntaxView `json:"syntax"`
	// HeldBack counts the drafts held back from readers because they would break an app.
	HeldBack HeldBackView `json:"held_back"`
}

// GetProjectStatus reports how far each enabled language is translated.
func (c *Catalog) GetProjectStatus(ctx context.Context, in ProjectStatusIn) (ProjectStatusOut, error) {
	var out ProjectStatusOut
	if err := c.gate(ctx, model.OpGetProjectStatus, on{project: in.ProjectID}); err != nil {
		return out, err
	}
	err := c.read(ctx, in.ProjectID, func(tx model.Tx, proj model.Project) error {
		// The counters, not a count of the rows: a project of a million keys answers in
		// milliseconds (CountsHook keeps them; lokal project recount repairs them).
		counts, err := tx.StatusCounts(ctx, proj)
		if err != nil {
			return err
		}
		stats := languageStats(proj.SourceLanguage, counts)
		out = ProjectStatusOut{ProjectID: proj.ID, Title: proj.Title, SourceLanguage: proj.SourceLanguage,
			EnabledLanguages: proj.EnabledLanguages, Namespaces: proj.Namespaces, Languages: stats}
		if out.AutoTranslation, err = c.autoTranslationStatus(ctx, tx, proj, stats); err != nil {
			return err
		}
		if out.Usage, err = usageOf(ctx, tx, proj.ID, time.Time{}); err != nil {
			return err
		}
		out.Syntax = c.syntaxView(ctx, tx, proj)
		if out.HeldBack, err = heldBack(ctx, tx, proj, "", MaxHeldRows); err != nil {
			return err
		}
		out.Embed, err = c.embedStatus(ctx, tx, proj.ID)
		return err
	})
	return out, err
}

// LanguageStats is how far one language of a project is translated.
type LanguageStats struct {
	Language   string `json:"language"`
	Total      int    `json:"total"`      // visible keys with a source value
	Translated int    `json:"translated"` // of those, with a value in Language
	Missing    int    `json:"missing"`
	Drifted    int    `json:"source_drifted"` // translated against an older source value
	Queued     int    `json:"queued"`         // waiting for automatic translation
	AIFailed   int    `json:"ai_failed"`      // automatic translation gave up; still missing
}

// RecountOut is the project's status counts as lokal project recount left them.
type RecountOut struct {
	ProjectID string          `json:"project_id"`
	Languages []LanguageStats `json:"languages"`
}

// RecountProject recomputes the project's status counters from its rows: the repair for
// counters that drifted (a database edited by hand, a bug). An admin write, for the CLI.
func (c *Catalog) RecountProject(ctx context.Context, projectID string) (RecountOut, error) {
	out := RecountOut{ProjectID: projectID}
	err := c.write(ctx, write{op: model.OpRecount, project: projectID, admin: true,
		apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
			proj, err := tx.Project(ctx, projectID)
			if err != nil {
				return nil, err
			}
			if err := tx.Recount(ctx, projectID); err != nil {
				return nil, err
			}
			if err := c.redetectSyntax(ctx, tx, proj); err != nil {
				return nil, err
			}
			counts, err := tx.StatusCounts(ctx, proj)
			out.Languages = languageStats(proj.SourceLanguage, counts)
			// Cached copies go: the syntax detection above all.
			return []model.Change{{Kind: model.ChangeCacheRefreshed}}, err
		}})
	return out, err
}

// EnableLanguageIn names the language to turn on.
type EnableLanguageIn struct {
	ProjectArg
	Language string `json:"language" jsonschema:"a BCP 47 language tag (such as br, es-CL, pt-BR, zh-Hant), not the source language"`
}

// EnableLanguageOut reports the project's languages after the change.
type EnableLanguageOut struct {
	Language         string   `json:"language"`
	AlreadyEnabled   bool     `json:"already_enabled"`
	EnabledLanguages []string `json:"enabled_languages"`
}

// EnableLanguage turns a language (any BCP 47 tag, see ParseLanguage) on for the project.
func (c *Catalog) EnableLanguage(ctx context.Context, in EnableLanguageIn) (EnableLanguageOut, error) {
	var out EnableLanguageOut
	var l LanguageInfo
	err := c.write(ctx, write{op: model.OpEnableLanguage, project: in.ProjectID,
		validate: func() error {
			var err error
			if l, err = ParseLanguage(in.Language); err != nil {
				return err
			}
			out.Language = l.Code
			return nil
		},
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			if l.Code == proj.SourceLanguage {
				return nil, model.Errorf(model.CodeInvalid, "%s is the project's source language", l.Code)
			}
			if proj.HasLanguage(l.Code) {
				out.AlreadyEnabled = true
				out.EnabledLanguages = proj.EnabledLanguages
				return nil, nil
			}
			if err := tx.SetLanguage(ctx, proj.ID, model.Language{Code: l.Code, Enabled: true, Editable: true, AutoTranslate: true}); err != nil {
				return nil, err
			}
			out.EnabledLanguages = append(proj.EnabledLanguages, l.Code)
			return []model.Change{{Kind: model.ChangeLanguageEnabled, Language: l.Code}}, nil
		}})
	return out, err
}

// EmbedSnippetIn names the project.
type EmbedSnippetIn struct {
	ProjectArg
}

// EmbedSnippetOut is the script tag to paste into a site's HTML head.
type EmbedSnippetOut struct {
	Snippet     string `json:"snippet"`
	ScriptURL   string `json:"script_url"`
	PublicToken string `json:"public_token"`
}

// Text is the tag itself, ready to paste.
func (o EmbedSnippetOut) Text() string { return o.Snippet + "\n" }

// GetEmbedSnippet builds the Embed script tag from the base URL and the workspace's public
// token: the script resolves the site's host to the project itself.
func (c *Catalog) GetEmbedSnippet(ctx context.Context, in EmbedSnippetIn) (EmbedSnippetOut, error) {
	var out EmbedSnippetOut
	if err := c.gate(ctx, model.OpGetEmbedSnippet, on{project: in.ProjectID}); err != nil {
		return out, err
	}
	err := c.read(ctx, in.ProjectID, func(tx model.Tx, proj model.Project) error {
		w, err := tx.Workspace(ctx, proj.WorkspaceID)
		if err != nil {
			return err
		}
		base := strings.TrimRight(c.opts.BaseURL, "/")
		if base == "" {
			base = "http://127.0.0.1:8080"
		}
		out.ScriptURL = base + "/embed.js"
		out.PublicToken = w.PublicToken
		out.Snippet = `<script src="` + html.EscapeString(out.ScriptURL) + `" data-lokal-token="` + html.EscapeString(w.PublicToken) + `" defer></script>`
		return nil
	})
	return out, err
}

// MeOut is the body of spec endpoint 9: the token's owner and its project, or for a
// workspace token the workspace and every active project in it.
type MeOut struct {
	User      model.User       `json:"user"`
	Project   *model.Project   `json:"project,omitempty"`
	Workspace *model.Workspace `json:"workspace,omitempty"`
	Projects  *[]model.Project `json:"projects,omitempty"` // set, possibly empty, for workspace tokens
}

// Me answers who owns the personal access token in ctx; a user signed in to the editor is
// answered as their workspace token would be (the user, the workspace and its projects).
func (c *Catalog) Me(ctx context.Context) (MeOut, error) {
	if err := c.gate(ctx, model.OpMe, on{}); err != nil {
		return MeOut{}, err
	}
	p := model.PrincipalFrom(ctx)
	var out MeOut
	err := c.store.View(ctx, func(tx model.Tx) error {
		u, err := tx.User(ctx, p.UserID)
		if err != nil {
			return err
		}
		out.User = u
		out.User.Role = "" // the spec's user is its id and email
		if p.Kind == model.KindPersonal {
			proj, err := c.loadProject(ctx, tx, p.ProjectID)
			if err != nil {
				return err
			}
			out.Project = &proj
			return nil
		}
		w, err := tx.Workspace(ctx, p.WorkspaceID)
		if err != nil {
			return err
		}
		out.Workspace = &w
		list := tx.Projects
		if p.Kind == KindSession {
			list = tx.AllProjects // the editor shows archived projects, marked, to read and restore
		}
		projects, err := list(ctx, w.ID)
		if err != nil {
			return err
		}
		projects, err = c.visible(ctx, tx, projects)
		out.Projects = &projects
		return err
	})
	return out, err
}

// LocizeLanguage is one entry of the i18next-locize-backend languages answer.
type LocizeLanguage struct {
	Name                string             `json:"name"`
	NativeName          string             `json:"nativeName"`
	IsReferenceLanguage bool               `json:"isReferenceLanguage"`
	Translated          map[string]float64 `json:"translated"`
}

// LocizeLanguages answers GET /api/languages/{project_id} in the shape that
// i18next-locize-backend reads. It needs no token, like public info: the backend sends
// none on this call. A project the Embed serves follows the workspace's emergency switch
// like the Embed's public routes (CodeNotFound while it is off); a project the Embed is
// not set up for is an application's, which the switch does not concern.
func (c *Catalog) LocizeLanguages(ctx context.Context, projectID string) (map[string]LocizeLanguage, error) {
	if err := c.gate(ctx, model.OpLocizeLanguages, on{}); err != nil {
		return nil, err
	}
	out := map[string]LocizeLanguage{}
	p, err := c.embedState(ctx, projectID)
	if err != nil {
		return nil, err
	}
	if !p.Active || p.Off && p.servesEmbed() {
		return nil, errNoProject(projectID)
	}
	err = c.store.View(ctx, func(tx model.Tx) error {
		proj, err := tx.Project(ctx, projectID)
		if err != nil {
			return err
		}
		counts, err := tx.StatusCounts(ctx, proj)
		if err != nil {
			return err
		}
		stats := languageStats(proj.SourceLanguage, counts)
		for _, s := range stats {
			name, native := LanguageName(s.Language)
			ratio := 1.0
			if s.Total > 0 {
				ratio = float64(s.Translated) / float64(s.Total)
			}
			out[s.Language] = LocizeLanguage{Name: name, NativeName: native, IsReferenceLanguage: s.Language == proj.SourceLanguage,
				Translated: map[string]float64{"latest": ratio}}
		}
		return nil
	})
	return out, err
}
