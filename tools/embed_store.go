package tools

import (
	"context"
	"time"
)

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
	// language, oldest first per key.
	NamespaceHistory(ctx context.Context, ns Namespace, language string) ([]HistoryValue, error)
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

// NamespaceCount is one namespace's size: its visible keys with a source value, and per
// language how many of them have a value (the source language included).
type NamespaceCount struct {
	Namespace  string         `json:"namespace"`
	Keys       int            `json:"keys"`
	Translated map[string]int `json:"translated"`
}

// NewestKey is a key and when it arrived; a page string's key is its text.
type NewestKey struct {
	Key       string    `json:"key"`
	CreatedAt time.Time `json:"created_at"`
}

// WorkspaceEmbed is a workspace's Embed settings: the hosts whose first resolve makes a
// project, how many hosts it may bind (0: unlimited) and the emergency switch.
type WorkspaceEmbed struct {
	AuthorizedHosts []string
	HostLimit       int
	Off             bool
}

// HistoryValue is one recorded state of a translation row.
type HistoryValue struct {
	KeyID  int64
	Value  string
	Status string
	At     time.Time
}
