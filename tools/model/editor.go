package model

import "time"

// Credential is a user with the stored hash of their password.
type Credential struct {
	User         User
	PasswordHash string
}

// Session is a signed-in browser. Only a hash of the cookie's token is stored; CSRF is the
// token every form of the session must carry.
type Session struct {
	Hash        string
	UserID      string
	WorkspaceID string
	CSRF        string
	CreatedAt   time.Time
	ExpiresAt   time.Time
}

// ReviewFilter selects rows of visible keys with a source value for the review queue of one
// language. Empty fields match everything.
type ReviewFilter struct {
	ProjectID      string
	SourceLanguage string
	Language       string
	Namespace      string
	Status         string // needs_review or approved
	AIDrafts       bool   // last written by ai:<model>
	Stale          bool   // made against an older source value, or with none recorded
	Missing        bool   // no value in Language yet
	HasComments    bool   // at least one comment on the row
	Held           bool   // held back from readers (TranslationState.Held)
	Text           string // in the key, the source or the translation, case-insensitive
	KeyIDs         []int64
	AfterKeyID     int64 // ReviewRows: rows of keys after this id (pages follow key ids)
	// After: ReviewQueueRows' rows come after this row in key order.
	After ReviewCursor
	Limit int
	// Window, when > 0, bounds a walk of the project's keys in id order (the filters no
	// index finds the rows of: all, approved, missing, text no trigram index narrows) to
	// this many key ids after AfterKeyID, so that a filter few rows pass costs a window, not
	// the project; ReviewRows reports where a window stopped short of a full page.
	Window int64
}

// ReviewCursor is a place in the review queue's key order: namespace name, then key,
// both bytewise. The zero cursor is before the first row. A page ends at a cursor, not
// at a key id or an offset, so a write between two pages neither skips nor repeats a row.
type ReviewCursor struct {
	Namespace string
	Key       string
}

// IsZero reports whether c is the queue's start.
func (c ReviewCursor) IsZero() bool { return c.Namespace == "" && c.Key == "" }

// ReviewRow is one key of the queue with its source row and its row in the language (nil
// while missing) and how many comments the row has.
type ReviewRow struct {
	Namespace     string
	Key           string
	KeyID         int64
	SourceVersion int64
	Source        TranslationState
	Value         *TranslationState
	Comments      int
}

// HistoryEntry is one recorded change of a row.
type HistoryEntry struct {
	ID             int64     `json:"id"`
	Change         string    `json:"change"`
	Value          string    `json:"value"`
	Status         string    `json:"status"`
	DoNotTranslate bool      `json:"do_not_translate"`
	LanguageLocked bool      `json:"language_locked"`
	Actor          string    `json:"actor"`
	At             time.Time `json:"at"`
	// SourceVersion is the key's source version the value was written against.
	SourceVersion *int64 `json:"-"`
}

// HistoryReverted labels the history entry of a revert to an earlier value.
const HistoryReverted = "value_reverted"

// MemoryFilter asks for translation-memory candidates: source rows of the workspace's
// active projects in SourceLanguage like Text, whose key has an approved, current
// translation into Language. ExcludeKeyID leaves out the row asked about.
type MemoryFilter struct {
	WorkspaceID string
	// ProjectIDs are the projects whose rows may be suggested: those the asker may read.
	ProjectIDs     []string
	SourceLanguage string
	Language       string
	Text           string
	// Words are Text's words outside its placeholders and markup, which the index is asked
	// for (the rarest few).
	Words        []string
	ExcludeKeyID int64
	Limit        int
}

// MemoryCandidate is one such source row with its approved translation.
type MemoryCandidate struct {
	ProjectID    string `bun:"project_id"`
	ProjectTitle string `bun:"project_title"`
	Namespace    string `bun:"namespace"`
	Key          string `bun:"key"`
	Source       string `bun:"source"`
	Value        string `bun:"value"`
}
