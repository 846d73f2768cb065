package tools

import (
	"context"
	"time"

	"github.com/lokal-dev/lokal/tools/checkup"
)

// Translation statuses.
const (
	StatusNeedsReview = "needs_review"
	StatusApproved    = "approved"
)

// Translation flags.
const (
	FlagDoNotTranslate = "do_not_translate"
	FlagLanguageLocked = "language_locked"
)

// Workspace groups users and projects; its public token identifies it to the Embed script.
type Workspace struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	PublicToken string    `json:"public_token"`
	CreatedAt   time.Time `json:"-"`
}

// User owns personal access tokens; writes made with them are attributed to the user.
type User struct {
	ID          string    `json:"id"`
	WorkspaceID string    `json:"-"`
	Email       string    `json:"email"`
	CreatedAt   time.Time `json:"-"`
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

	WorkspaceID string          `json:"-"`
	Active      bool            `json:"-"`
	Settings    ProjectSettings `json:"-"`
	Languages   []Language      `json:"-"`
	CreatedAt   time.Time       `json:"-"`
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

// Namespace is a group of keys of one project.
type Namespace struct {
	ID        int64
	ProjectID string
	Key       string
}

// TokenRecord is a stored token: only its keyed hash is kept.
type TokenRecord struct {
	ID          string
	Kind        string
	Hash        string
	UserID      string
	WorkspaceID string
	ProjectID   string
	ReadOnly    bool
	Prefix      string // the token's first characters, for lists; not a secret
	CreatedAt   time.Time
}

// KeyState is a key with its source row and the row of one requested language.
type KeyState struct {
	ID            int64
	Key           string
	Hidden        bool
	SourceVersion int64 // 0 while the key has no source value
	Source        *TranslationState
	Value         *TranslationState // the requested language; equals Source for the source language
}

// TranslationState is one stored translation row.
type TranslationState struct {
	ID             int64
	Language       string
	Value          string
	Status         string
	DoNotTranslate bool
	LanguageLocked bool
	SourceVersion  *int64 // nil for rows made before source versions were recorded
	UpdatedBy      string
	UpdatedAt      time.Time
}

// NewKey is a key to insert; its translations follow with WriteTranslations.
type NewKey struct {
	NamespaceID   int64
	Key           string
	SourceVersion int64
}

// TranslationWrite is the whole new state of one translation row. ID 0 inserts a row.
// Change is the kind of change the history records; Key names the key for hooks.
type TranslationWrite struct {
	ID             int64
	KeyID          int64
	Key            string
	Language       string
	Value          string
	Status         string
	DoNotTranslate bool
	LanguageLocked bool
	SourceVersion  *int64
	Change         ChangeKind
}

// Store is the database. Update and View run fn in one transaction; Update serializes
// writes to projectID (when not empty) so that concurrent writes to one project take turns.
type Store interface {
	Update(ctx context.Context, projectID string, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
	// Cached returns the bytes cached under (projectID, name), building them with build on a
	// miss. The entry lives until the project's revision moves (Tx.Touch).
	Cached(ctx context.Context, projectID, name string, build func(ctx context.Context) ([]byte, error)) (*File, error)
}

// File is a pre-serialized response body with its gzip form and strong ETag.
type File struct {
	Body   []byte
	Gzip   []byte
	ETag   string
	Stored time.Time
}

// Tx is one transaction, grouped by aggregate. Every method returns *Error with
// CodeNotFound for a missing row and CodeConflict for a unique violation, never (nil, nil).
type Tx interface {
	AuthTx
	WorkspaceTx
	ProjectTx
	KeyTx
	TranslationTx
	CommentTx
	TerminologyTx
	CheckupTx
	JobTx
	AdminTx
	AITx
	UsageTx
	AutoTranslateTx
	EmbedTx
	WebhookTx
	DeployTx
	EditorTx
}

// AuthTx holds tokens. Errors: CodeNotFound for an unknown or revoked hash.
type AuthTx interface {
	// TokenKey is the secret that keys token hashes; the first migration makes it.
	TokenKey(ctx context.Context) ([]byte, error)
	CreateToken(ctx context.Context, t TokenRecord) error
	TokenByHash(ctx context.Context, hash string) (TokenRecord, error)
}

// WorkspaceTx holds workspaces and their users. Errors: CodeNotFound, CodeConflict for a
// second user with the same email in a workspace.
type WorkspaceTx interface {
	HasWorkspaces(ctx context.Context) (bool, error)
	CreateWorkspace(ctx context.Context, w Workspace) error
	Workspace(ctx context.Context, id string) (Workspace, error)
	// Workspaces returns every workspace, oldest first.
	Workspaces(ctx context.Context) ([]Workspace, error)
	CreateUser(ctx context.Context, u User) error
	User(ctx context.Context, id string) (User, error)
	// Users returns the users of a workspace, oldest first.
	Users(ctx context.Context, workspaceID string) ([]User, error)
}

// ProjectTx holds projects, their languages and namespaces. Errors: CodeNotFound for an
// unknown project or namespace, CodeConflict for a namespace that exists.
type ProjectTx interface {
	CreateProject(ctx context.Context, p Project) error
	Project(ctx context.Context, id string) (Project, error)
	Projects(ctx context.Context, workspaceID string) ([]Project, error)
	SetLanguage(ctx context.Context, projectID string, l Language) error
	// Touch moves the project's revision: every cache of it, in any process, is dropped
	// once the transaction commits.
	Touch(ctx context.Context, projectID string) error
	Namespace(ctx context.Context, projectID, key string) (Namespace, error)
	CreateNamespace(ctx context.Context, projectID, key string) (Namespace, error)
	// LanguageCounts counts, for every enabled language of the project (source first), the
	// visible keys with a source value and that language's rows of them by source version.
	LanguageCounts(ctx context.Context, p Project) ([]LanguageCounts, error)
}

// KeyTx holds keys. Errors: CodeNotFound for an unknown key, CodeConflict for a key that
// exists in its namespace.
type KeyTx interface {
	// Keys returns every key of the namespace (only the keys named in only, when given),
	// hidden ones too, ordered by key, with the source row and the row in language.
	Keys(ctx context.Context, ns Namespace, sourceLanguage, language string, only ...string) ([]KeyState, error)
	KeyByName(ctx context.Context, ns Namespace, key string) (KeyRecord, error)
	InsertKeys(ctx context.Context, keys []NewKey) ([]int64, error)
	SetHidden(ctx context.Context, keyIDs []int64, hidden bool) error
	// SourceChanged bumps the source version of the keys and clears their language locks.
	SourceChanged(ctx context.Context, keyIDs []int64) error
}

// TranslationTx holds translation rows and their history. Errors: CodeNotFound.
type TranslationTx interface {
	// WriteTranslations inserts or updates rows and records each change in the history,
	// attributed to the principal in ctx.
	WriteTranslations(ctx context.Context, writes []TranslationWrite) error
	KeyTranslations(ctx context.Context, keyID int64) ([]TranslationState, error)
	// ProjectTranslations returns the rows of visible keys in language ("" for all),
	// ordered by namespace, key and language.
	ProjectTranslations(ctx context.Context, projectID, language string) ([]ProjectTranslation, error)
	Search(ctx context.Context, f SearchFilter) ([]ProjectTranslation, error)
	// ValuesContaining returns the distinct values in language of the project's visible
	// keys that contain any of anyOf.
	ValuesContaining(ctx context.Context, projectID, language string, anyOf []string) ([]string, error)
}

// CommentTx holds comments on rows.
type CommentTx interface {
	Comments(ctx context.Context, keyID int64) ([]Comment, error)
	AddComment(ctx context.Context, keyID int64, c Comment) (Comment, error)
}

// TerminologyTx holds glossary pairs, do-not-translate terms and substitution rules.
type TerminologyTx interface {
	Glossary(ctx context.Context, projectID string) ([]GlossaryPair, error)
	AddGlossary(ctx context.Context, projectID string, g GlossaryPair) (GlossaryPair, error)
	DoNotTranslateTerms(ctx context.Context, projectID string) ([]string, error)
	AddDoNotTranslate(ctx context.Context, projectID, term string) error
	Substitutions(ctx context.Context, projectID string) ([]SubstitutionRule, error)
	AddSubstitution(ctx context.Context, projectID string, r SubstitutionRule) (SubstitutionRule, error)
}

// CheckupTx holds checkup reports, their findings and the keys changed since the last one.
// A finding row is in every report from its FirstSeq up to (not including) its LastSeq, so
// a report shares the findings that did not change with the reports before it. Errors:
// CodeNotFound for an unknown report, CodeConflict for a report another runner holds.
type CheckupTx interface {
	// MarkCheckupKeys queues keys whose findings the next checkup recomputes.
	MarkCheckupKeys(ctx context.Context, projectID string, keyIDs []int64) error
	// StartCheckup claims the project's running report for r.Runner until r.LockedUntil, or,
	// when there is none, stores r as the running report with the next sequence number,
	// the counts of the newest completed report, and Full when there is none or its
	// Fingerprint differs. It answers CodeConflict while another runner's lease holds the
	// running report.
	StartCheckup(ctx context.Context, r CheckupReport, now time.Time) (CheckupReport, error)
	// Checkup returns the report id, or with an empty id the newest completed one.
	Checkup(ctx context.Context, projectID, id string) (CheckupReport, error)
	// CheckupQueue lists up to limit queued keys of the project, oldest first: all of them
	// when keyIDs is empty (then only marks up to upTo, when not zero), else those of keyIDs.
	CheckupQueue(ctx context.Context, projectID string, upTo int64, keyIDs []int64, limit int) ([]CheckupMark, error)
	// CheckupRunning reports whether the project has a running report.
	CheckupRunning(ctx context.Context, projectID string) (bool, error)
	// CheckupQueueEnd is the id of the project's newest queue mark, 0 when none.
	CheckupQueueEnd(ctx context.Context, projectID string) (int64, error)
	// CheckupNamespaces lists the ids of the project's namespaces, in order.
	CheckupNamespaces(ctx context.Context, projectID string) ([]int64, error)
	// CheckupKeys reads the visible keys that sel names with their rows, for the analysis.
	CheckupKeys(ctx context.Context, projectID string, sel CheckupKeySelect) ([]CheckupKey, error)
	// ApplyCheckup stores one chunk of a running report's analysis, with its counts and
	// progress (r's cursor), and renews r's lease; CodeConflict when r's runner no longer
	// holds the report.
	ApplyCheckup(ctx context.Context, r CheckupReport, ch CheckupChunk) error
	// ReleaseCheckup ends r's runner's lease on the running report, so that the next
	// checkup carries it on at once.
	ReleaseCheckup(ctx context.Context, r CheckupReport) error
	// CompleteCheckup marks the running report completed with its summary.
	CompleteCheckup(ctx context.Context, r CheckupReport) error
	// CheckupFindings is one page of report r's findings, ordered by namespace, key,
	// language and kind.
	CheckupFindings(ctx context.Context, r CheckupReport, offset, limit int) ([]checkup.Finding, error)
	// CheckupReports lists the project's completed reports, newest first, without findings.
	CheckupReports(ctx context.Context, projectID string) ([]CheckupReport, error)
	// DeleteCheckups deletes the completed reports ids of the project and up to limit of
	// the findings no remaining report shows; it says how many findings went.
	DeleteCheckups(ctx context.Context, projectID string, ids []string, limit int) (int, error)
}

// CheckupMark is one queued key of a checkup.
type CheckupMark struct {
	ID    int64
	KeyID int64
}

// CheckupKeySelect names keys to analyse: KeyIDs, or else the next Limit keys of namespace
// NamespaceID after key id AfterKey.
type CheckupKeySelect struct {
	KeyIDs      []int64
	NamespaceID int64
	AfterKey    int64
	Limit       int
}

// CheckupKey is a visible key with its source version and its rows.
type CheckupKey struct {
	ID            int64
	NamespaceID   int64
	Namespace     string
	Key           string
	SourceVersion int64
	Rows          []TranslationState
}

// CheckupFinding is a finding of a key.
type CheckupFinding struct {
	KeyID       int64
	NamespaceID int64
	checkup.Finding
}

// CheckupChunk is one chunk of a checkup: the findings of the keys it covered, which
// replace their findings in the running report. It covers KeyIDs, or else the keys of
// namespace NamespaceID with ids in (AfterKey, UpToKey] (UpToKey 0: to the end).
type CheckupChunk struct {
	KeyIDs      []int64
	NamespaceID int64
	AfterKey    int64
	UpToKey     int64
	Findings    []CheckupFinding
	Marks       []int64 // queue marks the chunk consumed
	Checked     int     // keys analysed
}

// KeyRecord is one key without its translations.
type KeyRecord struct {
	ID            int64
	NamespaceID   int64
	Key           string
	Hidden        bool
	SourceVersion int64
}

// Comment is a note attached to one language's row of a key.
type Comment struct {
	ID        int64     `json:"id"`
	Language  string    `json:"language"`
	Body      string    `json:"body"`
	Author    string    `json:"author"`
	CreatedAt time.Time `json:"created_at"`
}

// GlossaryPair is a fixed translation of a term; Locale is a language code or "all".
type GlossaryPair struct {
	ID         int64  `json:"id"`
	SourceTerm string `json:"source_term"`
	TargetTerm string `json:"target_term"`
	Locale     string `json:"locale"`
}

// SubstitutionRule replaces Pattern with Replacement in one locale or "all".
type SubstitutionRule struct {
	ID          int64  `json:"id"`
	Locale      string `json:"locale"`
	Pattern     string `json:"pattern"`
	Replacement string `json:"replacement"`
}

// ProjectTranslation is one translation row of a visible key, with where it lives.
type ProjectTranslation struct {
	Namespace     string
	Key           string
	KeyID         int64
	SourceVersion int64
	Row           TranslationState
}

// SearchFilter selects translation rows of visible keys; empty fields match everything.
type SearchFilter struct {
	ProjectID     string
	KeyContains   string
	ValueContains string
	Language      string
	Status        string
	Offset        int
	Limit         int
}

// CheckupReport is a stored QA pass over a project. Its findings are rows of their own,
// paged through with Tx.CheckupFindings; the report holds their counts.
type CheckupReport struct {
	ID          string     `json:"id"`
	ProjectID   string     `json:"project_id"`
	Status      string     `json:"status"` // running or completed
	Trigger     string     `json:"trigger"`
	CreatedAt   time.Time  `json:"created_at"`
	CompletedAt *time.Time `json:"completed_at"`
	// KeysChecked is how many keys this report analysed; the rest carried their findings
	// over from the report before.
	KeysChecked int  `json:"keys_checked"`
	Full        bool `json:"full"` // every key was analysed (the first report, or the terminology or languages changed)

	Seq         int64            `json:"-"`
	Fingerprint string           `json:"-"` // of what the analysis depends on beyond the keys
	Counts      map[string]int   `json:"-"` // findings by kind and language ("kind language")
	CursorNS    int64            `json:"-"` // a full pass's progress: namespace, then key
	CursorKey   int64            `json:"-"`
	Runner      string           `json:"-"`
	LockedUntil time.Time        `json:"-"`
	Summary     *checkup.Summary `json:"-"` // of a completed report
}

// Job is a durable background job.
type Job struct {
	ID        int64
	Kind      string
	ProjectID string
	Payload   string
	Attempts  int
	RunAt     time.Time
	// Items are what a batch job works through (the keys of a translation batch).
	Items     []string
	ItemCount int
	Status    string
}

// JobTx is the part of a transaction that background jobs use.
type JobTx interface {
	// EnqueueJob stores a job; with coalesce the job is a singleton: a pending job of the
	// same kind and project absorbs it (checkups after a burst of writes run once), and
	// ClaimJob leaves it pending while one of its kind runs for the project.
	EnqueueJob(ctx context.Context, j Job, coalesce bool) error
	// ClaimJob leases the next due job for lease, or returns CodeNotFound when none is due.
	// A job holding several batches of items hands out its first batch as a job of its own.
	// Claims go round the projects with due jobs, oldest first within one project.
	ClaimJob(ctx context.Context, now time.Time, lease time.Duration) (Job, error)
	// FinishJob marks a job done, or with a non-nil failure schedules it again at retryAt
	// (a zero retryAt gives up on it).
	FinishJob(ctx context.Context, id int64, failure error, retryAt time.Time) error
	// EnqueueItems queues j.Items for j's kind, project and payload in batches of at most
	// max items, which ClaimJob hands out one at a time; keys added one by one join the
	// newest pending batch. An item still waiting in the newest pending job is not added
	// twice. The work and the rows it writes grow with len(j.Items), not with the backlog.
	EnqueueItems(ctx context.Context, j Job, max int) error
	// RenewJobs extends the lease of running jobs, so that a long job of a live worker is
	// not taken for one whose worker died.
	RenewJobs(ctx context.Context, ids []int64, until time.Time) error
	// QueuedJobs lists a project's pending and running jobs of kind, without their items.
	QueuedJobs(ctx context.Context, projectID, kind string) ([]Job, error)
	// PruneJobs deletes jobs that ended (done or given up) before a time, and says how many.
	PruneJobs(ctx context.Context, before time.Time) (int, error)
}
