package model

import (
	"strconv"
	"time"
)

// Translation statuses.
const (
	StatusNeedsReview = "needs_review"
	StatusApproved    = "approved"
)

// KeyState is a key with its source row and the row of one requested language.
type KeyState struct {
	ID            int64
	Key           string
	Hidden        bool
	SourceVersion int64 // 0 while the key has no source value
	Source        *TranslationState
	Value         *TranslationState // the requested language; equals Source for the source language
	Description   string            // the note for translators; read by FileKeys alone
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
	// Held says why the value is held back from readers ("" when it is served): it would
	// break an app (tools' value-syntax rule). ServedValue is then what readers get, the
	// row's last value that passed, nil when it never had one.
	Held        string
	ServedValue *string
}

// Served is the value readers get (endpoint 1, the Embed dictionary, exports): the row's
// value, or while it is held back the last value that passed; ok is false when there is
// none, and the key is left out so that the app falls back to its source text.
func (t *TranslationState) Served() (value string, ok bool) {
	if t.Held == "" {
		return t.Value, true
	}
	if t.ServedValue != nil {
		return *t.ServedValue, true
	}
	return "", false
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
	// HistoryChange, when set, labels the history entry instead of Change: a revert is a
	// value_updated change to every hook but reads as a revert in the row's history.
	HistoryChange string
	// Held, set by the catalogue's value-syntax rule, holds the value back from readers
	// and says why; the store then keeps serving the row's last value that passed.
	Held string
}

// File is a pre-serialized response body with its gzip form and strong ETag.
type File struct {
	Body   []byte
	Gzip   []byte
	ETag   string
	Stored time.Time
	// Header is made once by NewFile, so that serving the file allocates no header value;
	// a File made otherwise has none and its values are made per answer.
	Header FileHeader
}

// FileHeader is a file's ETag and Content-Length header values (of Body and of Gzip).
type FileHeader struct {
	ETag, Length, GzipLength []string
}

// NewFile is the File of body, its gzip form (nil until made) and ETag, with its header
// values.
func NewFile(body, gz []byte, etag string, stored time.Time) *File {
	f := &File{Body: body, Gzip: gz, ETag: etag, Stored: stored,
		Header: FileHeader{ETag: []string{etag}, Length: []string{strconv.Itoa(len(body))}}}
	if gz != nil {
		f.Header.GzipLength = []string{strconv.Itoa(len(gz))}
	}
	return f
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

// HeldCount is how many rows of one namespace in one language are held back from readers.
type HeldCount struct {
	Namespace string
	Language  string
	Count     int
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
	// AfterKeyID and AfterLanguage continue after that row in (key id, language) order;
	// Offset skips rows instead (the older paging, which a write in between shifts).
	AfterKeyID    int64
	AfterLanguage string
	Offset        int
	Limit         int
}

// Translation flags.
const (
	FlagDoNotTranslate = "do_not_translate"
	FlagLanguageLocked = "language_locked"
)
