package model

import "time"

// LanguageCounts are the stored facts about one language that LanguageStats derives from:
// visible keys with a source value, and that language's non-empty rows of them by the
// source version they were made against.
type LanguageCounts struct {
	Language    string
	Total       int // visible keys with a source value
	Current     int // rows made against the key's current source version
	Behind      int // rows made against an older source version
	NullVersion int // rows with no recorded source version
	ToReview    int // of the current rows, needs_review written by people
	AIDrafts    int // of the current rows, needs_review written by the AI (updated_by ai:)
}

// Workspace groups users and projects; its public token identifies it to the Embed script.
type Workspace struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	PublicToken string    `json:"public_token"`
	CreatedAt   time.Time `json:"-"`
}

// User owns personal access tokens; writes made with them are attributed to the user.
type User struct {
	ID          string `json:"id"`
	WorkspaceID string `json:"-"`
	Email       string `json:"email"`
	Role        string `json:"role,omitempty"` // RoleOwner or RoleMember
	// Confirmed: an invitation or a password-reset link sent to Email was used (or the
	// user was there before addresses were confirmed; see the migration).
	Confirmed bool      `json:"-"`
	CreatedAt time.Time `json:"-"`
	// DisabledAt is set while the user may not sign in and their tokens are refused.
	DisabledAt *time.Time `json:"disabled_at,omitempty"`
}

// Project is the spec's Project object. Settings holds what later features need and is not
// part of the public JSON.
type Project struct {
	ID                     string   `json:"id"`
	Title                  string   `json:"title"`
	SourceLanguage         string   `json:"source_language"`
	EnabledLanguages       []string `json:"enabled_languages"`
	EditableLanguages      []string `json:"editable_languages"`
	Namespaces             []string `json:"namespaces"`
	DeployConfigured       bool     `json:"deploy_configured"`
	IntegrationType        string   `json:"integration_type"`
	AutoTranslateLanguages []string `json:"auto_translate_languages"`

	WorkspaceID string `json:"-"`
	Active      bool   `json:"-"`
	// ArchivedAt is set while the project is read-only (ArchivedError) and out of lists.
	ArchivedAt *time.Time      `json:"archived_at,omitempty"`
	Settings   ProjectSettings `json:"-"`
	Languages  []Language      `json:"-"`
	CreatedAt  time.Time       `json:"-"`
}

// ProjectSettings are the per-project settings of the Embed, AI and redeploy features.
type ProjectSettings struct {
	AllowedOrigins  []string
	ShowSwitcher    bool
	KeepSiteCurrent bool // keep-site-up-to-date-between-deploys
	EmbedMode       string
	JITHarvest      bool
	AutoApply       bool
	AIProvider      string
	AIModel         string
	AIBaseURL       string
	AIKey           string
	DeployProvider  string
	DeployRepo      string
	DeployWorkflow  string
	DeployRef       string
	DeployToken     string
	// Syntax is the syntaxes the project's values are written in, as message.Syntax
	// writes them ("icu,html", "none"); empty detects them (Catalog.ProjectSyntax).
	Syntax string
}

// Language is one language row of a project. The source language is always enabled.
type Language struct {
	Code          string
	Enabled       bool
	Editable      bool
	AutoTranslate bool
}

// HasLanguage reports whether code is on for the project (the source language always is).
func (p *Project) HasLanguage(code string) bool {
	if code == p.SourceLanguage {
		return true
	}
	for _, l := range p.EnabledLanguages {
		if l == code {
			return true
		}
	}
	return false
}

// TargetLanguages is the enabled languages other than the source, in their order.
func (p *Project) TargetLanguages() []string {
	var out []string
	for _, l := range p.EnabledLanguages {
		if l != p.SourceLanguage {
			out = append(out, l)
		}
	}
	return out
}

// Namespace is a group of keys of one project.
type Namespace struct {
	ID        int64
	ProjectID string
	Key       string
}
