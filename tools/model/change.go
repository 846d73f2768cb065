package model

import "iter"

// ChangeKind names what a write changed. Hooks switch on it; the history records it.
type ChangeKind string

// Change kinds. A value change in the source language is also a source change: its
// translations go stale.
const (
	ChangeKeyCreated      ChangeKind = "key_created"        // a key was added to a namespace
	ChangeKeyHidden       ChangeKind = "key_hidden"         // a sync no longer declares the key
	ChangeKeyUnhidden     ChangeKind = "key_unhidden"       // a sync declares a hidden key again
	ChangeValueCreated    ChangeKind = "value_created"      // a language got its first value of a key
	ChangeValueUpdated    ChangeKind = "value_updated"      // a language's value of a key changed
	ChangeValueRefreshed  ChangeKind = "value_refreshed"    // an unchanged value was stamped current
	ChangeStatusChanged   ChangeKind = "status_changed"     // needs_review and approved, text unchanged
	ChangeFlagChanged     ChangeKind = "flag_changed"       // do_not_translate or language_locked
	ChangeCommentAdded    ChangeKind = "comment_added"      // a comment on a row
	ChangeLanguageEnabled ChangeKind = "language_enabled"   // a language was turned on
	ChangeGlossaryAdded   ChangeKind = "glossary_added"     // a glossary pair was added
	ChangeTermAdded       ChangeKind = "dnt_term_added"     // a do-not-translate term was added
	ChangeSubstitution    ChangeKind = "substitution_added" // a substitution rule was added
	ChangeProjectCreated  ChangeKind = "project_created"    // a project was made
	ChangeProjectSettings ChangeKind = "project_settings"   // a project's settings changed
	ChangeKeysRemoved     ChangeKind = "keys_removed"       // keys a failed chunked write staged are gone
	ChangeEmbedSwitched   ChangeKind = "embed_switched"     // a workspace's Embed turned off or on (ProjectID)
	ChangeCacheRefreshed  ChangeKind = "cache_refreshed"    // nothing stored changed; cached copies must go (redeploy)
	ChangeFileMeta        ChangeKind = "file_meta_changed"  // what a namespace's files say beyond values changed (Namespace)
)

// Terminology taken away: nothing a key holds changes, only which rules apply.
const (
	ChangeGlossaryRemoved     ChangeKind = "glossary_removed"     // a glossary pair was removed
	ChangeTermRemoved         ChangeKind = "dnt_term_removed"     // a do-not-translate term was removed
	ChangeSubstitutionRemoved ChangeKind = "substitution_removed" // a substitution rule was removed
)

// Change is one thing a write did. Key changes name the namespace and key; value, status and
// flag changes also the language and the row's status after the change.
type Change struct {
	Kind      ChangeKind
	Namespace string
	Key       string
	KeyID     int64
	Language  string
	Status    string
	// ProjectID names the project of a change of a write that spans projects (a workspace's
	// settings); empty means the event's project.
	ProjectID string
	// Batch, when set, makes the change stand for one change per key of the batch, alike
	// but for Key and KeyID (Expand): a write that creates 300,000 keys reports them in
	// 24 bytes a key instead of two records of 104.
	Batch *KeyBatch
}

// KeyBatch is the keys of a batch change: Keys[i] has the id IDs[i].
type KeyBatch struct {
	Keys []string
	IDs  []int64
}

// Expand yields changes one key at a time, each batch as the changes it stands for.
func Expand(changes []Change) iter.Seq[Change] {
	return func(yield func(Change) bool) {
		for _, ch := range changes {
			b := ch.Batch
			if b == nil {
				if !yield(ch) {
					return
				}
				continue
			}
			ch.Batch = nil
			for i, k := range b.Keys {
				ch.Key, ch.KeyID = k, b.IDs[i]
				if !yield(ch) {
					return
				}
			}
		}
	}
}

// All yields the write's changes one key at a time (Expand).
func (ev WriteEvent) All() iter.Seq[Change] { return Expand(ev.Changes) }

// WriteEvent is what hooks receive: the changes of one committed-to-be write.
type WriteEvent struct {
	Op        Operation
	ProjectID string
	Actor     string // as the history records it: user:<id>, key:<id>, system, ai:<model>
	Changes   []Change
	// Usage is the AI ledger of the write: the model calls that produced its values, or of a
	// write that stored none, the calls alone.
	Usage []UsageRecord
}

// Has reports whether the write made a change of one of kinds.
func (ev WriteEvent) Has(kinds ...ChangeKind) bool {
	for _, ch := range ev.Changes {
		if ch.Batch != nil && len(ch.Batch.Keys) == 0 {
			continue
		}
		for _, k := range kinds {
			if ch.Kind == k {
				return true
			}
		}
	}
	return false
}
