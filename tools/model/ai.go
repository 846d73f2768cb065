package model

import "time"

// WorkspaceAI is a workspace's own AI provider as stored: the key only sealed.
type WorkspaceAI struct {
	BaseURL string
	Model   string
	KeyEnc  string // secrets.Box.Seal of the API key; empty when none
}

// ProjectAI is what a project chooses: a model (empty: the provider's) and instructions.
type ProjectAI struct {
	Model        string
	Instructions string
}

// UsageRecord is one ledger entry.
type UsageRecord struct {
	ProjectID, WorkspaceID, Kind, Op, Model, Language, Outcome string
	PromptTokens, CompletionTokens                             int64
	Strings, Translated, Failed                                int
	Latency                                                    time.Duration
	At                                                         time.Time
}

// UsageTotal sums the ledger of one model and kind.
type UsageTotal struct {
	Model            string `bun:"model"`
	Kind             string `bun:"kind"`
	Entries          int    `bun:"entries"`
	PromptTokens     int64  `bun:"prompt_tokens"`
	CompletionTokens int64  `bun:"completion_tokens"`
	Strings          int    `bun:"strings"`
	Translated       int    `bun:"translated"`
	Failed           int    `bun:"failed"`
	LatencyMS        int64  `bun:"latency_ms"`
}
