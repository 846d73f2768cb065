package model

import "time"

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
