package model

import "context"

// CountsTx keeps the counts get_project_status reports (LanguageCounts) as stored
// counters, per project and per namespace, so that the status of a project of a million
// keys is read, not aggregated.
// The counting hook brings them up to date for the keys a write touched, in the write's
// transaction; Recount rebuilds them from the rows, for the repair command.
type CountsTx interface {
	// CountKeys brings the counters up to date for every row of the keys a write touched:
	// what each row adds to its project's counts is recorded beside it, so only rows whose
	// share moved change the counters.
	CountKeys(ctx context.Context, keys TouchedKeys) error
	// StatusCounts reads the counters of the project's enabled languages (source first),
	// as LanguageCounts would count them.
	StatusCounts(ctx context.Context, p Project) ([]LanguageCounts, error)
	// Recount recomputes every row's share and the project's counters from the rows.
	Recount(ctx context.Context, projectID string) error
	// NamespaceProgress reads language's counters per namespace of the project that has
	// visible keys with a source value, in namespace order.
	NamespaceProgress(ctx context.Context, projectID, language string) ([]NamespaceProgress, error)
	// NamespaceRowCounts reads language's counters of every namespace of the project, by
	// namespace name (zero for a namespace without counted keys): what a filter of the
	// editor can match there without reading its rows. Total is the namespace's visible
	// keys with a source value, so Total - Current - Behind - NullVersion are missing.
	NamespaceRowCounts(ctx context.Context, projectID, language string) (map[string]LanguageCounts, error)
	// StaleKeys lists the visible keys of ns whose row in language was made against an
	// older source value, or with includeNull against none, sorted bytewise.
	StaleKeys(ctx context.Context, ns Namespace, language string, includeNull bool) ([]string, error)
}

// TouchedKeys are the keys a write touched, for the status counters. A key or row the write
// created has counted for nothing yet: new rows are stored marked as a current value, the
// common case, so that a sync of new keys writes no mark again.
type TouchedKeys struct {
	IDs     []int64
	New     map[int64]bool     // keys created
	NewRows map[int64][]string // languages of the rows created, by key
	// Tallied are created keys the write already counted, left out of IDs: each a visible
	// key with a source version and one current row in the language, stored marked so.
	// The store adds them to Project's counters without reading them.
	Tallied []TalliedKeys
}

// TalliedKeys counts created keys of a namespace (by name) of a project with one current
// row each in Language.
type TalliedKeys struct {
	Project   string
	Namespace string
	Language  string
	Keys      int64
}

// NamespaceProgress is the LanguageCounts of one namespace.
type NamespaceProgress struct {
	Namespace string
	LanguageCounts
}
