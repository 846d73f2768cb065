package tools

import (
	"context"
	"time"
)

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
	// ReviewRows returns a page of the review queue of one language.
	ReviewRows(ctx context.Context, f ReviewFilter) ([]ReviewRow, error)
	// RowHistory returns the history of one language's row of a key, newest first.
	RowHistory(ctx context.Context, keyID int64, language string, limit int) ([]HistoryEntry, error)
}

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
	Text           string // in the key, the source or the translation, case-insensitive
	KeyIDs         []int64
	AfterKeyID     int64 // rows of keys after this id (pages follow key ids)
	Limit          int
}

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
	Change         string    `json:"change"`
	Value          string    `json:"value"`
	Status         string    `json:"status"`
	DoNotTranslate bool      `json:"do_not_translate"`
	LanguageLocked bool      `json:"language_locked"`
	Actor          string    `json:"actor"`
	At             time.Time `json:"at"`
}
