package model

import (
	"time"

	"github.com/lokal-dev/lokal/tools/checkup"
)

// CheckupWholeProject is the key id of a project-wide queue mark: the next checkup
// analyses every key of the project, as after a change of its configuration. A write that
// changes many keys queues it once instead of a mark per key.
const CheckupWholeProject int64 = 0

// CheckupMark is one queued key of a checkup (KeyID CheckupWholeProject: every key).
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

// FindingKeysFilter selects keys by their open findings (OpenFindingKeys).
type FindingKeysFilter struct {
	ProjectID  string
	Namespace  string // all when empty
	Language   string
	AfterKeyID int64
	Limit      int
}

// QueuedKeysFilter selects keys by their queue marks (QueuedKeys).
type QueuedKeysFilter struct {
	ProjectID  string
	AfterKeyID int64
	UpTo       int64 // only marks up to this id, when not zero
	// ThroughKeyID bounds the keys: only those up to it, when not zero.
	ThroughKeyID int64
	Limit        int
}
