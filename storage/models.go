package storage

import (
	"time"

	"github.com/uptrace/bun"
)

// Rows stay inside this package: no json tags, converted to tools types at the edge.

type metaRow struct {
	bun.BaseModel `bun:"table:lokal_meta"`
	Name          string `bun:"name,pk"`
	Value         string `bun:"value,notnull"`
}

type revisionRow struct {
	bun.BaseModel `bun:"table:lokal_revision"`
	ID            int64 `bun:"id,pk"`
	Value         int64 `bun:"value,notnull"`
}

type workspaceRow struct {
	bun.BaseModel `bun:"table:workspaces"`
	ID            string    `bun:"id,pk,type:varchar(36)"`
	Name          string    `bun:"name,notnull"`
	PublicToken   string    `bun:"public_token,notnull,unique"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type userRow struct {
	bun.BaseModel `bun:"table:users"`
	ID            string     `bun:"id,pk,type:varchar(36)"`
	WorkspaceID   string     `bun:"workspace_id,notnull,type:varchar(36)"`
	Email         string     `bun:"email,notnull"`
	Role          string     `bun:"role,notnull"`
	ConfirmedAt   *time.Time `bun:"confirmed_at"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	// DisabledAt is set while the user may not sign in and their tokens are refused.
	DisabledAt *time.Time `bun:"disabled_at"`
}

// formerUserRow keeps a deleted user's email, so that history still names them.
type formerUserRow struct {
	bun.BaseModel `bun:"table:former_users"`
	ID            string    `bun:"id,pk,type:varchar(36)"`
	WorkspaceID   string    `bun:"workspace_id,notnull,type:varchar(36)"`
	Email         string    `bun:"email,notnull"`
	DeletedAt     time.Time `bun:"deleted_at,notnull"`
}

type invitationRow struct {
	bun.BaseModel `bun:"table:invitations"`
	ID            string     `bun:"id,pk,type:varchar(36)"`
	WorkspaceID   string     `bun:"workspace_id,notnull,type:varchar(36)"`
	ProjectID     *string    `bun:"project_id,type:varchar(36)"`
	Email         string     `bun:"email,notnull"`
	WorkspaceRole string     `bun:"workspace_role,notnull"`
	ProjectRole   string     `bun:"project_role,notnull"`
	Languages     string     `bun:"languages,notnull"`
	Hash          string     `bun:"hash,notnull,unique"`
	CreatedBy     string     `bun:"created_by,notnull"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	ExpiresAt     time.Time  `bun:"expires_at,notnull"`
	UsedAt        *time.Time `bun:"used_at"`
	RevokedAt     *time.Time `bun:"revoked_at"`
	Kind          string     `bun:"kind,notnull"`
	UserID        *string    `bun:"user_id,type:varchar(36)"`
}

type projectMemberRow struct {
	bun.BaseModel `bun:"table:project_members"`
	ProjectID     string    `bun:"project_id,pk,type:varchar(36)"`
	UserID        string    `bun:"user_id,pk,type:varchar(36)"`
	Role          string    `bun:"role,notnull"`
	Languages     string    `bun:"languages,notnull"`
	UpdatedAt     time.Time `bun:"updated_at,notnull"`
}

type projectRow struct {
	bun.BaseModel   `bun:"table:projects"`
	ID              string    `bun:"id,pk,type:varchar(36)"`
	WorkspaceID     string    `bun:"workspace_id,notnull,type:varchar(36)"`
	Title           string    `bun:"title,notnull"`
	SourceLanguage  string    `bun:"source_language,notnull"`
	IntegrationType string    `bun:"integration_type,notnull"`
	Active          bool      `bun:"active,notnull"`
	Revision        int64     `bun:"revision,notnull"`
	AllowedOrigins  string    `bun:"allowed_origins,notnull"` // newline-separated
	ShowSwitcher    bool      `bun:"show_switcher,notnull"`
	KeepSiteCurrent bool      `bun:"keep_site_current,notnull"`
	EmbedMode       string    `bun:"embed_mode,notnull"`
	JITHarvest      bool      `bun:"jit_harvest,notnull"`
	AutoApply       bool      `bun:"auto_apply,notnull"`
	AIProvider      string    `bun:"ai_provider,notnull"`
	AIModel         string    `bun:"ai_model,notnull"`
	AIBaseURL       string    `bun:"ai_base_url,notnull"`
	AIKey           string    `bun:"ai_key,notnull"`
	DeployProvider  string    `bun:"deploy_provider,notnull"`
	DeployRepo      string    `bun:"deploy_repo,notnull"`
	DeployWorkflow  string    `bun:"deploy_workflow,notnull"`
	DeployRef       string    `bun:"deploy_ref,notnull"`
	DeployToken     string    `bun:"deploy_token,notnull"`
	Syntax          string    `bun:"syntax,notnull"` // "" detects; see tools.ProjectSettings
	CreatedAt       time.Time `bun:"created_at,notnull"`
	UpdatedAt       time.Time `bun:"updated_at,notnull"`
	// ArchivedAt is set while the project is read-only and left out of lists.
	ArchivedAt *time.Time `bun:"archived_at"`
}

type languageRow struct {
	bun.BaseModel `bun:"table:project_languages"`
	ProjectID     string    `bun:"project_id,pk,type:varchar(36)"`
	Code          string    `bun:"code,pk"`
	Enabled       bool      `bun:"enabled,notnull"`
	Editable      bool      `bun:"editable,notnull"`
	AutoTranslate bool      `bun:"auto_translate,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type namespaceRow struct {
	bun.BaseModel `bun:"table:namespaces"`
	ID            int64     `bun:"id,pk,autoincrement"`
	ProjectID     string    `bun:"project_id,notnull,type:varchar(36)"`
	Key           string    `bun:"key,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type keyRow struct {
	bun.BaseModel `bun:"table:translation_keys"`
	ID            int64     `bun:"id,pk,autoincrement"`
	NamespaceID   int64     `bun:"namespace_id,notnull"`
	Key           string    `bun:"key,notnull"`
	KeyHash       string    `bun:"key_hash,notnull"` // unique index: keys may outgrow a btree entry
	Hidden        bool      `bun:"hidden,notnull"`
	SourceVersion int64     `bun:"source_version,notnull"`
	Description   string    `bun:"description,notnull,default:''"` // note for translators from a file
	CreatedAt     time.Time `bun:"created_at,notnull"`
	UpdatedAt     time.Time `bun:"updated_at,notnull"`
}

type translationRow struct {
	bun.BaseModel  `bun:"table:translations"`
	ID             int64     `bun:"id,pk,autoincrement"`
	KeyID          int64     `bun:"key_id,notnull"`
	Language       string    `bun:"language,notnull"`
	Value          string    `bun:"value,notnull"`
	Status         string    `bun:"status,notnull"`
	DoNotTranslate bool      `bun:"do_not_translate,notnull"`
	LanguageLocked bool      `bun:"language_locked,notnull"`
	SourceVersion  *int64    `bun:"source_version"`
	UpdatedBy      string    `bun:"updated_by,notnull"`
	CreatedAt      time.Time `bun:"created_at,notnull"`
	UpdatedAt      time.Time `bun:"updated_at,notnull"`
	Held           string    `bun:"held,notnull"`
	ServedValue    *string   `bun:"served_value"`
	// Incomplete: a plural family's value lacking a form its language needs
	// (message.FamilyIncomplete); the counters count it missing (rowShare).
	Incomplete bool `bun:"incomplete,notnull"`
}

// historyRow records every change of a translation's value, status or flags: nothing is
// ever deleted, and staleness, the changes feed and prior values are read from here.
type historyRow struct {
	bun.BaseModel  `bun:"table:translation_history"`
	ID             int64     `bun:"id,pk,autoincrement"`
	TranslationID  int64     `bun:"translation_id,notnull"`
	KeyID          int64     `bun:"key_id,notnull"`
	Language       string    `bun:"language,notnull"`
	Change         string    `bun:"change,notnull"`
	Value          string    `bun:"value,notnull"`
	Status         string    `bun:"status,notnull"`
	DoNotTranslate bool      `bun:"do_not_translate,notnull"`
	LanguageLocked bool      `bun:"language_locked,notnull"`
	SourceVersion  *int64    `bun:"source_version"`
	Actor          string    `bun:"actor,notnull"`
	CreatedAt      time.Time `bun:"created_at,notnull"`
}

type commentRow struct {
	bun.BaseModel `bun:"table:comments"`
	ID            int64     `bun:"id,pk,autoincrement"`
	KeyID         int64     `bun:"key_id,notnull"`
	Language      string    `bun:"language,notnull"`
	Body          string    `bun:"body,notnull"`
	Actor         string    `bun:"actor,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type glossaryRow struct {
	bun.BaseModel `bun:"table:glossary_terms"`
	ID            int64     `bun:"id,pk,autoincrement"`
	ProjectID     string    `bun:"project_id,notnull,type:varchar(36)"`
	SourceTerm    string    `bun:"source_term,notnull"`
	TargetTerm    string    `bun:"target_term,notnull"`
	Locale        string    `bun:"locale,notnull"`
	Actor         string    `bun:"actor,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type dntTermRow struct {
	bun.BaseModel `bun:"table:do_not_translate_terms"`
	ID            int64     `bun:"id,pk,autoincrement"`
	ProjectID     string    `bun:"project_id,notnull,type:varchar(36)"`
	Term          string    `bun:"term,notnull"`
	Actor         string    `bun:"actor,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type substitutionRow struct {
	bun.BaseModel `bun:"table:substitution_rules"`
	ID            int64     `bun:"id,pk,autoincrement"`
	ProjectID     string    `bun:"project_id,notnull,type:varchar(36)"`
	Locale        string    `bun:"locale,notnull"`
	Pattern       string    `bun:"pattern,notnull"`
	Replacement   string    `bun:"replacement,notnull"`
	Actor         string    `bun:"actor,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

// tokenRow holds API keys and personal access tokens; Hash is a keyed hash of the token.
type tokenRow struct {
	bun.BaseModel `bun:"table:tokens"`
	ID            string     `bun:"id,pk,type:varchar(36)"`
	Kind          string     `bun:"kind,notnull"`
	Hash          string     `bun:"hash,notnull,unique"`
	UserID        string     `bun:"user_id,notnull"`
	WorkspaceID   string     `bun:"workspace_id,notnull"`
	ProjectID     string     `bun:"project_id,notnull"`
	ReadOnly      bool       `bun:"read_only,notnull"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	RevokedAt     *time.Time `bun:"revoked_at"`
	// Prefix is the token's first characters, shown in lists so that an operator can tell
	// which key to revoke; too short to guess the rest from.
	Prefix     string     `bun:"prefix,notnull,default:''"`
	LastUsedAt *time.Time `bun:"last_used_at"`
	Name       string     `bun:"name,notnull,default:''"` // what people call it; may be empty
	// An OAuth access token's grant, resource and end (issue 35); empty for the others.
	GrantID   string     `bun:"grant_id,notnull,default:''"`
	Audience  string     `bun:"audience,notnull,default:''"`
	ExpiresAt *time.Time `bun:"expires_at"`
}

// projectHostRow binds a site's host name to the project that translates it: a host
// belongs to at most one project.
type projectHostRow struct {
	bun.BaseModel `bun:"table:project_hosts"`
	Host          string    `bun:"host,pk"`
	ProjectID     string    `bun:"project_id,notnull,type:varchar(36)"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

// checkupRow is a QA report of a project: its counts, and while it runs its progress and
// lease. Its findings are checkupFindingRows, shared with the reports before and after it.
type checkupRow struct {
	bun.BaseModel `bun:"table:checkup_reports"`
	ID            string     `bun:"id,pk,type:varchar(36)"`
	ProjectID     string     `bun:"project_id,notnull,type:varchar(36)"`
	Seq           int64      `bun:"seq,notnull"`
	Status        string     `bun:"status,notnull"`
	Trigger       string     `bun:"trigger,notnull"`
	Full          bool       `bun:"full_pass,notnull"`
	Fingerprint   string     `bun:"fingerprint,notnull"`
	Counts        string     `bun:"counts,notnull"`  // JSON object: "kind language" to count
	Summary       string     `bun:"summary,notnull"` // JSON checkup.Summary, once completed
	KeysChecked   int        `bun:"keys_checked,notnull"`
	CursorNS      int64      `bun:"cursor_ns,notnull"`
	CursorKey     int64      `bun:"cursor_key,notnull"`
	Runner        string     `bun:"runner,notnull"`
	LockedUntil   time.Time  `bun:"locked_until,notnull"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	CompletedAt   *time.Time `bun:"completed_at"`
}

// checkupFindingRow is one finding, in the reports with seq in [first_seq, last_seq). The
// key's and namespace's names are read from their rows (keys are never renamed): a page
// string's key is its whole text.
type checkupFindingRow struct {
	bun.BaseModel `bun:"table:checkup_findings"`
	ID            int64  `bun:"id,pk,autoincrement"`
	ProjectID     string `bun:"project_id,notnull,type:varchar(36)"`
	NamespaceID   int64  `bun:"namespace_id,notnull"`
	KeyID         int64  `bun:"key_id,notnull"`
	Language      string `bun:"language,notnull"`
	Kind          string `bun:"kind,notnull"`
	Message       string `bun:"message,notnull"`
	Detail        string `bun:"detail,notnull"` // JSON object, or "" for none
	FirstSeq      int64  `bun:"first_seq,notnull"`
	LastSeq       *int64 `bun:"last_seq"`
}

// checkupMarkRow queues a key whose findings the next checkup recomputes; it is written in
// the transaction of the change, so no change is missed whenever it commits.
type checkupMarkRow struct {
	bun.BaseModel `bun:"table:checkup_queue"`
	ID            int64  `bun:"id,pk,autoincrement"`
	ProjectID     string `bun:"project_id,notnull,type:varchar(36)"`
	KeyID         int64  `bun:"key_id,notnull"`
}

// jobRow is one durable background job, written in the transaction of the change that
// causes it.
type jobRow struct {
	bun.BaseModel `bun:"table:jobs"`
	ID            int64      `bun:"id,pk,autoincrement"`
	Kind          string     `bun:"kind,notnull"`
	ProjectID     string     `bun:"project_id,notnull"`
	Payload       string     `bun:"payload,notnull"`
	Status        string     `bun:"status,notnull"`
	Attempts      int        `bun:"attempts,notnull"`
	RunAt         time.Time  `bun:"run_at,notnull"`
	LockedUntil   *time.Time `bun:"locked_until"`
	LastError     string     `bun:"last_error,notnull"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	UpdatedAt     time.Time  `bun:"updated_at,notnull"`
	Items         string     `bun:"items,notnull,default:'[]'"` // JSON array: the keys of a translation batch
	ItemCount     int        `bun:"item_count,notnull,default:0"`
	// Singleton jobs (checkups) have at most one pending and one running job per kind and
	// project: unique partial indexes hold it.
	Singleton bool `bun:"singleton,notnull,default:false"`
}
