package model

import "time"

// TokenInfo is a stored API key or personal access token as the operator sees it: never
// the token, only its non-secret prefix.
type TokenInfo struct {
	ID          string
	Kind        string
	Prefix      string
	UserID      string
	WorkspaceID string
	ProjectID   string
	ReadOnly    bool
	Name        string
	CreatedAt   time.Time
	LastUsedAt  *time.Time
	RevokedAt   *time.Time
}

// TokenFilter selects tokens: the keys of a project (Kinds api_key) or the personal
// tokens of a user. Empty fields match everything.
type TokenFilter struct {
	Kinds     []string
	ProjectID string
	UserID    string
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
	Name        string // what people call it ("CI deploy"); may be empty
	CreatedAt   time.Time
	// An OAuth access token's grant, the resource it was issued for and its end; empty
	// and nil for pasted tokens and keys, which live until revoked.
	GrantID   string
	Audience  string
	ExpiresAt *time.Time
}
