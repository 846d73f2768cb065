package tools

import "context"

// MeOut is the body of spec endpoint 9: the token's owner and its project, or for a
// workspace token the workspace and every active project in it.
type MeOut struct {
	User      User       `json:"user"`
	Project   *Project   `json:"project,omitempty"`
	Workspace *Workspace `json:"workspace,omitempty"`
	Projects  *[]Project `json:"projects,omitempty"` // set, possibly empty, for workspace tokens
}

// Me answers who owns the personal access token in ctx.
func (c *Catalog) Me(ctx context.Context) (MeOut, error) {
	p := PrincipalFrom(ctx)
	if p.Kind != KindPersonal && p.Kind != KindWorkspace {
		return MeOut{}, &Error{Code: CodeUnauthorized, Message: "a personal access token is required"}
	}
	var out MeOut
	err := c.store.View(ctx, func(tx Tx) error {
		u, err := tx.User(ctx, p.UserID)
		if err != nil {
			return err
		}
		out.User = u
		if p.Kind == KindPersonal {
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
		projects, err := tx.Projects(ctx, w.ID)
		out.Projects = &projects
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
}

// LocizeLanguage is one entry of the i18next-locize-backend languages answer.
type LocizeLanguage struct {
	Name                string             `json:"name"`
	NativeName          string             `json:"nativeName"`
	IsReferenceLanguage bool               `json:"isReferenceLanguage"`
	Translated          map[string]float64 `json:"translated"`
}

// LocizeLanguages answers GET /api/languages/{project_id} in the shape that
// i18next-locize-backend reads. It needs no token, like public info.
func (c *Catalog) LocizeLanguages(ctx context.Context, projectID string) (map[string]LocizeLanguage, error) {
	out := map[string]LocizeLanguage{}
	err := c.store.View(ctx, func(tx Tx) error {
		proj, err := tx.Project(ctx, projectID)
		if err != nil {
			return err
		}
		stats, err := tx.LanguageStats(ctx, proj)
		if err != nil {
			return err
		}
		for _, s := range stats {
			name, native := languageName(s.Language)
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
