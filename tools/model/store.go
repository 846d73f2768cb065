package model

import (
	"context"
	"time"

	"github.com/lokal-dev/lokal/tools/checkup"
)

// Store is the database. Update and View run fn in one transaction; Update serializes
// writes to projectID (when not empty) so that concurrent writes to one project take turns.
type Store interface {
	Update(ctx context.Context, projectID string, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
	// Cached returns the bytes cached under (projectID, name), building them with build on a
	// miss. The entry lives until the project's revision moves (Tx.Touch).
	Cached(ctx context.Context, projectID, name string, build func(ctx context.Context) ([]byte, error)) (*File, error)
}

// Tx is one transaction, grouped by aggregate. Every method returns *Error with
// CodeNotFound for a missing row and CodeConflict for a unique violation, never (nil, nil).
type Tx interface {
	AuthTx
	WorkspaceTx
	ProjectTx
	KeyTx
	FileMetaTx
	TranslationTx
	CommentTx
	TerminologyTx
	CheckupTx
	JobTx
	AdminTx
	AITx
	UsageTx
	CountsTx
	AutoTranslateTx
	EmbedTx
	WebhookTx
	DeployTx
	EditorTx
	MemberTx
	InvitationTx
	SyntaxTx
	OperatorTx
	OAuthTx
	PageContextTx
}

// SyntaxState is the evidence of syntax found in a project's source values
// (message.SyntaxEvidence.String), as the write path keeps it. Valid once a detection
// stored it; Stale when a write may have taken some of it away (a key hidden, a source
// value replaced): it still holds everything the values show, and more, until a recount
// stores what they show now. Gen moves with every write that makes a detection under way
// old.
type SyntaxState struct {
	Syntax string
	Gen    int64
	Valid  bool
	Stale  bool
}

// SyntaxTx keeps SyntaxState. A project without a state reads as Gen 0, not valid.
type SyntaxTx interface {
	// Writable reports a write transaction (Store.Update).
	Writable() bool
	SyntaxState(ctx context.Context, projectID string) (SyntaxState, error)
	// SetSyntaxState stores s as it is: the write path's update, in the write's transaction.
	SetSyntaxState(ctx context.Context, projectID string, s SyntaxState) error
	// StoreDetectedSyntax stores a detection made from the rows as they were at gen, valid
	// and not stale, if the state is still gen and not valid or stale; it reports whether
	// it did.
	StoreDetectedSyntax(ctx context.Context, projectID, syntax string, gen int64) (bool, error)
	// SyntaxWanted returns the projects whose detection is missing, not valid or stale.
	SyntaxWanted(ctx context.Context) ([]string, error)
	// ValuesOfKeys returns the distinct values in language of the visible keys among
	// keyIDs that contain any of anyOf.
	ValuesOfKeys(ctx context.Context, language string, keyIDs []int64, anyOf []string) ([]string, error)
}

// AITx holds the AI settings. Errors: CodeNotFound for an unknown workspace or project.
type AITx interface {
	WorkspaceAI(ctx context.Context, workspaceID string) (WorkspaceAI, error)
	SetWorkspaceAI(ctx context.Context, workspaceID string, ai WorkspaceAI) error
	ProjectAI(ctx context.Context, projectID string) (ProjectAI, error)
	SetProjectAI(ctx context.Context, projectID string, ai ProjectAI) error
}

// AutoTranslateTx holds what automatic translation keeps beside the jobs.
type AutoTranslateTx interface {
	// RecordAIFailures remembers the keys (id to reason) automatic translation gave up on.
	RecordAIFailures(ctx context.Context, projectID, language string, failures map[int64]string) error
	// ClearAIFailures forgets failures of keys that got a translation.
	ClearAIFailures(ctx context.Context, language string, keyIDs []int64) error
	// AIFailureCounts counts, per language, visible keys that failed and have no value yet.
	AIFailureCounts(ctx context.Context, projectID string) (map[string]int, error)
	// MemoryMatches maps each source text that has an approved, current translation into
	// targetLang somewhere in the project to that translation. Texts under three
	// characters, which the trigram index cannot find, are never matched.
	MemoryMatches(ctx context.Context, projectID, sourceLang, targetLang string, texts []string) (map[string]string, error)
}

// ChunkedStore is implemented by a Store whose writes queue for one writer whatever their
// project; ChunkWrites true asks for chunked writes, and then the store's Tx implements
// StagingTx.
type ChunkedStore interface {
	ChunkWrites() bool
	// WritersWaiting reports whether another write waits for the writer: a chunk ends
	// early then.
	WritersWaiting() bool
	// YieldToWriters waits, at most bound, while another write waits for the writer: a
	// chunk lets it in before asking for the writer again.
	YieldToWriters(bound time.Duration)
	// BulkWrite marks a big write (more new keys than a chunk) in flight until end is
	// called, chunked or not; BulkIdle is closed while none is. Background work that can
	// wait (statistics, the checkup) waits for it.
	BulkWrite() (end func())
	BulkIdle() <-chan struct{}
}

// StagingTx is what a chunked write needs of a transaction beyond Tx.
type StagingTx interface {
	// ProjectRevision is the revision Touch last stamped on the project.
	ProjectRevision(ctx context.Context, projectID string) (int64, error)
	// RemoveStagedKeys is the rollback of a chunked write: it deletes the keys the chunks
	// inserted with their rows and history, and the namespace namespaceID (when not zero)
	// once it has no key left. Nothing else is touched.
	RemoveStagedKeys(ctx context.Context, namespaceID int64, keyIDs []int64) error
}

// EditorTx is what the translator's editor stores and reads: passwords and browser
// sessions of users, the review queue and a row's history. Errors: CodeNotFound for an
// unknown user or session.
type EditorTx interface {
	// SetPassword stores a user's password hash (an encoded argon2id hash, never the
	// password) and ends every session of the user.
	SetPassword(ctx context.Context, userID, hash string) error
	// Credentials returns the users with email and their password hashes, oldest first;
	// a user without a password has an empty hash.
	Credentials(ctx context.Context, email string) ([]Credential, error)
	CreateSession(ctx context.Context, s Session) error
	// SessionByHash returns the session whose cookie hashes to hash, expired ones too.
	SessionByHash(ctx context.Context, hash string) (Session, error)
	// DeleteSession ends one session; DeleteUserSessions every session of a user.
	DeleteSession(ctx context.Context, hash string) error
	DeleteUserSessions(ctx context.Context, userID string) error
	// ReviewRows returns a page of the review queue of one language; through is the last key id a windowed
	// walk (ReviewFilter.Window) read when it stopped before the page was full and before
	// the project's last key (0 otherwise): the next page starts after it.
	ReviewRows(ctx context.Context, f ReviewFilter) (rows []ReviewRow, through int64, err error)
	// ReviewQueueRows returns a page of the review queue of one language in key order
	// (namespace name, then key, bytewise) after f.After; stop is where a windowed walk
	// (f.Window keys read) ended before the page was full and before the last key (zero
	// otherwise): the next page starts after it. f.KeyIDs and f.AfterKeyID are not read.
	ReviewQueueRows(ctx context.Context, f ReviewFilter) (rows []ReviewRow, stop ReviewCursor, err error)
	// RowHistory returns the history of one language's row of a key, newest first.
	RowHistory(ctx context.Context, keyID int64, language string, limit int) ([]HistoryEntry, error)
	// MemoryCandidates returns at most f.Limit source rows most like f.Text by the trigram
	// index (exact ones first), and none where there is no such index.
	MemoryCandidates(ctx context.Context, f MemoryFilter) ([]MemoryCandidate, error)
}

// EmbedTx is the part of a transaction the Embed's public endpoints use: workspaces by
// public token and their Embed settings, value history for the dictionary and the changes
// feed, install pings and visitor demand. Errors: CodeNotFound for an unknown workspace.
type EmbedTx interface {
	WorkspaceByPublicToken(ctx context.Context, token string) (Workspace, error)
	WorkspaceEmbed(ctx context.Context, workspaceID string) (WorkspaceEmbed, error)
	SetWorkspaceEmbed(ctx context.Context, workspaceID string, e WorkspaceEmbed) error
	// WorkspaceHosts counts the hosts bound to the workspace's projects.
	WorkspaceHosts(ctx context.Context, workspaceID string) (int, error)
	// NamespaceHistory returns every recorded value of the namespace's visible keys in
	// language (of the keys named by keyIDs only, when any are), oldest first per key.
	NamespaceHistory(ctx context.Context, ns Namespace, language string, keyIDs ...int64) ([]HistoryValue, error)
	// RecordPing keeps at as the project's newest install ping.
	RecordPing(ctx context.Context, projectID string, at time.Time) error
	// LastPing returns the project's newest kept ping, zero when none.
	LastPing(ctx context.Context, projectID string) (time.Time, error)
	// PrunePings removes pings older than before and returns how many went.
	PrunePings(ctx context.Context, before time.Time) (int, error)
	// AddDemand adds n dictionary reads of language on day (UTC midnight).
	AddDemand(ctx context.Context, projectID, language string, day time.Time, n int64) error
	// Demand sums the reads per language on days from since.
	Demand(ctx context.Context, projectID string, since time.Time) (map[string]int64, error)
	PruneDemand(ctx context.Context, before time.Time) (int, error)
	// NamespaceCounts counts, per namespace of the project (by name), the visible keys with
	// a source value and, per language, those keys' rows that have a value.
	NamespaceCounts(ctx context.Context, projectID string) ([]NamespaceCount, error)
	// NewestKeys returns up to limit visible keys of the namespace, newest first.
	NewestKeys(ctx context.Context, ns Namespace, limit int) ([]NewestKey, error)
}

// Limiter is the one rate-limit port: REST, MCP and the public endpoints all spend budgets
// through it. Take records one event in bucket, or refuses it when n events already fell
// inside the last window, and says how long until one leaves it. A database-backed
// implementation shares budgets between every server on the database; MemoryLimiter is
// right for a single process.
//
// Count and Clear serve budgets that count failures only (sign-in): Count says how many
// events bucket holds inside the last window and when the newest was, spending nothing;
// Clear forgets the bucket.
type Limiter interface {
	Take(ctx context.Context, bucket string, n int, window time.Duration) (ok bool, wait time.Duration, err error)
	Count(ctx context.Context, bucket string, window time.Duration) (n int, newest time.Time, err error)
	Clear(ctx context.Context, bucket string) error
}

// AdminTx is the part of a transaction that the operator's commands use: project settings,
// site hosts and the key and token lists. Methods return CodeNotFound for missing rows and
// CodeConflict for a host bound twice.
type AdminTx interface {
	// UpdateProject stores the project's title, integration type and Settings; languages
	// are written with SetLanguage.
	UpdateProject(ctx context.Context, p Project) error
	// ProjectHosts returns the hosts bound to the project, sorted.
	ProjectHosts(ctx context.Context, projectID string) ([]string, error)
	// HostProject returns the id of the project the host is bound to.
	HostProject(ctx context.Context, host string) (string, error)
	// SetProjectHosts binds exactly hosts to the project.
	SetProjectHosts(ctx context.Context, projectID string, hosts []string) error

	// Tokens returns the tokens matching f, oldest first.
	Tokens(ctx context.Context, f TokenFilter) ([]TokenInfo, error)
	Token(ctx context.Context, id string) (TokenInfo, error)
	RevokeToken(ctx context.Context, id string, at time.Time) error
	TouchToken(ctx context.Context, id string, at time.Time) error
}

// DeployTx holds the redeploy settings and attempts. Errors: CodeNotFound for an unknown
// project.
type DeployTx interface {
	DeployConfig(ctx context.Context, projectID string) (DeployConfig, error)
	SetDeployConfig(ctx context.Context, projectID string, c DeployConfig) error
	AddRedeployAttempt(ctx context.Context, a RedeployAttempt) error
	RedeployAttempts(ctx context.Context, projectID string, limit int) ([]RedeployAttempt, error)
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
	// FileKeys is Keys with rows that lack what no translation file shows (UpdatedBy,
	// UpdatedAt, LanguageLocked), cheaper to read for an export of every key, and with
	// the keys' descriptions.
	FileKeys(ctx context.Context, ns Namespace, sourceLanguage, language string, only ...string) ([]KeyState, error)
	// SyncKeys is Keys for a sync, unordered, of the keys named in only (none when empty):
	// their rows carry only the id, value and do_not_translate. When naming most of the
	// namespace made it read all of it, it returns every key, named or not, and all is
	// true, so that a full sync has the visible keys it did not name without asking again.
	SyncKeys(ctx context.Context, ns Namespace, sourceLanguage, language string, only []string) (keys []KeyState, all bool, err error)
	KeyByName(ctx context.Context, ns Namespace, key string) (KeyRecord, error)
	InsertKeys(ctx context.Context, keys []NewKey) ([]int64, error)
	SetHidden(ctx context.Context, keyIDs []int64, hidden bool) error
	// VisibleKeysExcept returns, ordered by key, the visible keys of ns other than keep,
	// which must all be visible keys of ns.
	VisibleKeysExcept(ctx context.Context, ns Namespace, keep []int64) ([]KeyRecord, error)
	// SourceChanged bumps the source version of the keys and clears their language locks.
	SourceChanged(ctx context.Context, keyIDs []int64) error
	// KeyDescriptions returns the descriptions of the keys of ns that have one, by key id;
	// SetKeyDescriptions sets them (a translation file's notes for translators).
	KeyDescriptions(ctx context.Context, ns Namespace) (map[int64]string, error)
	SetKeyDescriptions(ctx context.Context, descriptions map[int64]string) error
}

// FileMetaTx keeps what translation files say beyond lokal's own fields, so that an export
// writes it back: a key's entry metadata per format and per language of the file that
// carried it, and a namespace's file metadata per format and language. A meta is a JSON
// object of strings as tools encodes it; storage does not read it.
type FileMetaTx interface {
	// EntryMeta returns the entry metadata of ns's keys in format, in the languages named:
	// language → key → meta.
	EntryMeta(ctx context.Context, ns Namespace, format string, languages []string) (map[string]map[string]string, error)
	// SetEntryMeta stores, in format and language, the metadata of the keys of ns that meta
	// names (key → meta); "" removes a key's. A name that is no key of ns is passed over;
	// found is how many were keys of ns.
	SetEntryMeta(ctx context.Context, ns Namespace, format, language string, meta map[string]string) (found int, err error)
	// FileMeta returns ns's file metadata in format, in the languages named, by language.
	FileMeta(ctx context.Context, ns Namespace, format string, languages []string) (map[string]string, error)
	// SetFileMeta stores ns's file metadata in format and language; "" removes it.
	SetFileMeta(ctx context.Context, ns Namespace, format, language, meta string) error
}

// TranslationTx holds translation rows and their history. Errors: CodeNotFound.
type TranslationTx interface {
	// WriteTranslations inserts or updates rows and records each change in the history,
	// attributed to the principal in ctx.
	WriteTranslations(ctx context.Context, writes []TranslationWrite) error
	KeyTranslations(ctx context.Context, keyID int64) ([]TranslationState, error)
	// SourceValues returns, by key id, the value in sourceLanguage of the keys named that
	// have one.
	SourceValues(ctx context.Context, sourceLanguage string, keyIDs []int64) (map[int64]string, error)
	// HeldBack returns up to limit held-back rows of the project's visible keys (language
	// "" for every language), ordered by namespace, key and language, and how many there
	// are in all.
	HeldBack(ctx context.Context, projectID, language string, limit int) (rows []ProjectTranslation, total int, err error)
	// HeldCounts counts the held-back rows of the project's visible keys per namespace and
	// language (language "" for every language); namespaces and languages with none are
	// not listed.
	HeldCounts(ctx context.Context, projectID, language string) ([]HeldCount, error)
	// ProjectTranslations returns the rows of visible keys in language ("" for all),
	// ordered by namespace, key and language.
	ProjectTranslations(ctx context.Context, projectID, language string) ([]ProjectTranslation, error)
	// Search returns the rows f selects in (key id, language) order. A substring too
	// short for an index is looked for in a window of keys per call: when the window ends
	// before the page fills, through is its last key id, to continue after (else 0).
	Search(ctx context.Context, f SearchFilter) (rows []ProjectTranslation, through int64, err error)
	// KeyPage hands visit up to limit visible keys of the namespace with an id above
	// afterID, in id order, with the source row and the row in language, one at a time
	// until visit returns false.
	KeyPage(ctx context.Context, ns Namespace, sourceLanguage, language string, afterID int64, limit int, visit func(KeyState) bool) error
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
	// RemoveGlossary, RemoveDoNotTranslate and RemoveSubstitution delete one entry of the
	// project's terminology (CodeNotFound when there is none): rules, not content, so they
	// go, while keys and translations never do.
	RemoveGlossary(ctx context.Context, projectID string, id int64) error
	RemoveDoNotTranslate(ctx context.Context, projectID, term string) error
	RemoveSubstitution(ctx context.Context, projectID string, id int64) error
}

// CheckupTx holds checkup reports, their findings and the keys changed since the last one.
// A finding row is in every report from its FirstSeq up to (not including) its LastSeq, so
// a report shares the findings that did not change with the reports before it. Errors:
// CodeNotFound for an unknown report, CodeConflict for a report another runner holds.
type CheckupTx interface {
	// MarkCheckupKeys queues keys whose findings the next checkup recomputes (the key id
	// CheckupWholeProject: every key of the project, a full pass).
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
	// LatestCheckup returns the project's newest report, running or completed.
	LatestCheckup(ctx context.Context, projectID string) (CheckupReport, error)
	// OpenFindingKeys lists in order up to f.Limit ids of keys after f.AfterKeyID with an
	// open finding in f.Language other than a missing or stale one (the editor's QA
	// problems), in f.Namespace when set.
	OpenFindingKeys(ctx context.Context, f FindingKeysFilter) ([]int64, error)
	// QueuedKeys lists in key order up to f.Limit ids of keys after f.AfterKeyID with a
	// queue mark (each once, however many marks it has).
	QueuedKeys(ctx context.Context, f QueuedKeysFilter) ([]int64, error)
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

// UsageTx is the AI usage ledger.
type UsageTx interface {
	RecordUsage(ctx context.Context, recs []UsageRecord) error
	// UsageTotals sums a project's ledger since a time, per model and kind.
	UsageTotals(ctx context.Context, projectID string, since time.Time) ([]UsageTotal, error)
}

// WebhookTx holds webhooks, the outbox and deliveries. Errors: CodeNotFound for an unknown
// webhook.
type WebhookTx interface {
	CreateWebhook(ctx context.Context, w Webhook) error
	Webhook(ctx context.Context, id string) (Webhook, error)
	ProjectWebhooks(ctx context.Context, projectID string) ([]Webhook, error)
	SetWebhookEnabled(ctx context.Context, id string, enabled bool, at time.Time, reason string) error
	// SetWebhookURL points a webhook at another URL with another (sealed) secret.
	SetWebhookURL(ctx context.Context, id, url, secretEnc string) error
	// SetWebhookOutcome records the last attempt and when the endpoint started failing.
	SetWebhookOutcome(ctx context.Context, id string, o WebhookOutcome, failingSince *time.Time) error
	WebhookTargets(ctx context.Context, projectID string) (WebhookTargets, error)

	AddWebhookBatch(ctx context.Context, b WebhookBatch) error
	// TakeWebhookBatches removes and returns up to limit outbox rows, oldest first.
	TakeWebhookBatches(ctx context.Context, limit int) ([]WebhookBatch, error)
	AddDeliveries(ctx context.Context, ds []Delivery) error
	// DueWebhooks lists enabled webhooks with a pending delivery due at now and unleased.
	DueWebhooks(ctx context.Context, now time.Time) ([]string, error)
	// ClaimDeliveries leases up to n due deliveries of the webhook to token until until.
	ClaimDeliveries(ctx context.Context, webhookID string, now, until time.Time, token string, n int) ([]Delivery, error)
	// RenewDeliveries extends the leases token holds on ids.
	RenewDeliveries(ctx context.Context, token string, ids []int64, until time.Time) error
	// FinishDelivery stores the attempt and the delivery's new state, and releases the lease.
	FinishDelivery(ctx context.Context, d Delivery, a DeliveryAttempt) error
	// FailPendingDeliveries ends the pending deliveries of a webhook (it was disabled).
	FailPendingDeliveries(ctx context.Context, webhookID, reason string) error
	WebhookDeliveries(ctx context.Context, webhookID string, limit int) ([]Delivery, error)
}

// OperatorTx holds the operator's verbs on projects and users (archive, disable, delete)
// and the lookups that name them. Errors: CodeNotFound for an unknown project or user.
type OperatorTx interface {
	// ArchiveProject sets (at) or clears (nil) the project's archived time.
	ArchiveProject(ctx context.Context, projectID string, at *time.Time) error
	// AllProjects returns the projects of a workspace, archived ones too, oldest first.
	AllProjects(ctx context.Context, workspaceID string) ([]Project, error)
	// DeleteProject removes the project and every row under it.
	DeleteProject(ctx context.Context, projectID string) error
	// SetUserDisabled sets (at) or clears (nil) the user's disabled time.
	SetUserDisabled(ctx context.Context, userID string, at *time.Time) error
	// DeleteUser removes the user with their sessions, password, tokens and memberships,
	// and keeps their email as a former user's, for the history that names them.
	DeleteUser(ctx context.Context, userID string, at time.Time) error
	// FormerUser returns a deleted user as they were (ID, WorkspaceID, Email).
	FormerUser(ctx context.Context, userID string) (User, error)
	// UsersByEmail returns the users with email (any case) in every workspace.
	UsersByEmail(ctx context.Context, email string) ([]User, error)
	// ProjectsByTitle returns the projects titled title (exactly) in every workspace.
	ProjectsByTitle(ctx context.Context, title string) ([]Project, error)
}
