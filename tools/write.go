package tools

import (
	"context"
	"errors"
	"net"
	"time"
)

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
}

// WriteEvent is what hooks receive: the changes of one committed-to-be write.
type WriteEvent struct {
	Op        string // the operation, as its tool or endpoint is named: sync, add_key, ...
	ProjectID string
	Actor     string // as the history records it: user:<id>, key:<id>, system, ai:<model>
	Changes   []Change
}

// Has reports whether the write made a change of one of kinds.
func (ev WriteEvent) Has(kinds ...ChangeKind) bool {
	for _, ch := range ev.Changes {
		for _, k := range kinds {
			if ch.Kind == k {
				return true
			}
		}
	}
	return false
}

// WriteHook runs inside the write's transaction after the operation applied its changes; an
// error rolls the whole write back. Hooks are registered at wiring time (Options.Hooks) and
// are how a side effect of every write (cache refresh, checkups, the webhook outbox,
// automatic translation) is added without touching any operation.
type WriteHook func(ctx context.Context, tx Tx, ev WriteEvent) error

// DefaultWriteTimeout is the spec's 25-second budget of one write request.
const DefaultWriteTimeout = 25 * time.Second

// write is one catalogue write, described for Catalog.write.
type write struct {
	// op names the operation for hooks (automatic translation treats MCP adds and syncs
	// differently).
	op string
	// project is the project written. Admin writes that make a project name it too.
	project string
	// admin writes are for the system principal only, spend no budget and load no project.
	admin bool
	// budgets are spent beyond WriteBudget (endpoint 7 also spends PageStringsBudget).
	budgets []Budget
	// validate runs after authorization and before any budget is spent, so that a refused
	// body costs nothing and a foreign token learns nothing from validation.
	validate func() error
	// apply makes the changes in tx and reports them; proj is the loaded project (zero for
	// admin writes).
	apply func(ctx context.Context, tx Tx, proj Project) ([]Change, error)
	// bulk, when set, names the keys apply creates: on a store with one writer for every
	// project, many new keys are staged in chunk transactions first (bulk.go).
	bulk *bulkCreate
}

// write is the one write path of the catalogue: it authorizes (401, then 403 read_only_key),
// validates, spends the write budget through the limiter (429 with RetryAfter), runs apply
// in one transaction under the write time budget, and hands the changes to every hook in the
// same transaction. Past the budget the transaction is rolled back and the answer is
// CodeTimeout: nothing is stored. On a store with one writer for every project, writes to
// one project take turns in this process for their whole duration, and a write that creates
// many keys stages them in chunks before its transaction (bulk.go).
func (c *Catalog) write(ctx context.Context, w write) error {
	if w.admin {
		if err := requireSystem(ctx); err != nil {
			return err
		}
	} else if err := c.begin(ctx, w.project, true); err != nil {
		return err
	}
	if w.validate != nil {
		if err := w.validate(); err != nil {
			return err
		}
	}
	p := PrincipalFrom(ctx)
	if !w.admin && p.Kind != KindSystem {
		for _, b := range append([]Budget{WriteBudget}, w.budgets...) {
			if err := c.take(ctx, b, w.project); err != nil {
				return err
			}
		}
	}
	if !w.admin {
		// The budget of a request; admin commands run as long as they need.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.opts.WriteTimeout)
		defer cancel()
	}
	var st *staged
	if w.project != "" && c.chunking() {
		unlock, err := c.bulk.lock(ctx, w.project)
		if err != nil {
			return writeError(ctx, err, c.opts.WriteTimeout)
		}
		defer unlock()
		if w.bulk != nil {
			if st, err = c.stage(ctx, w.project, w.bulk); err != nil {
				return writeError(ctx, err, c.opts.WriteTimeout)
			}
			if st != nil {
				ctx = withStaged(ctx, st)
			}
		}
	}
	err := c.store.Update(ctx, w.project, func(tx Tx) error {
		if st != nil {
			if err := st.check(ctx, tx, w.project); err != nil {
				return err
			}
		}
		var proj Project
		if !w.admin {
			var err error
			if proj, err = c.loadProject(ctx, tx, w.project); err != nil {
				return err
			}
		}
		changes, err := w.apply(ctx, tx, proj)
		if err == nil && st != nil {
			err = st.done()
		}
		if err != nil || len(changes) == 0 {
			return err
		}
		ev := WriteEvent{Op: w.op, ProjectID: w.project, Actor: p.Actor(), Changes: changes}
		for _, h := range c.hooks {
			if err := h(ctx, tx, ev); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil && st != nil {
		c.unstage(ctx, w.project, st)
	}
	return writeError(ctx, err, c.opts.WriteTimeout)
}

// writeError names a write cut short by its time budget or by the caller leaving: the
// transaction was rolled back, so the caller is told that nothing was stored.
func writeError(ctx context.Context, err error, budget time.Duration) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() == context.DeadlineExceeded || isNetTimeout(err):
		return Errorf(CodeTimeout, "the write ran past its %s budget and stored nothing; send large syncs as partial chunks", budget)
	case errors.Is(err, context.Canceled) || ctx.Err() == context.Canceled:
		return Errorf(CodeUnavailable, "the request was cancelled and stored nothing")
	}
	return err
}

// touchHook moves the project's revision in the write's transaction, so that every cache of
// the project, in this process or another, drops what the change made old.
func touchHook(ctx context.Context, tx Tx, ev WriteEvent) error {
	if ev.ProjectID == "" {
		return nil
	}
	return tx.Touch(ctx, ev.ProjectID)
}

// rowChanges reports the translation writes as changes of namespace ns.
func rowChanges(ns string, writes []TranslationWrite) []Change {
	out := make([]Change, len(writes))
	for i, w := range writes {
		out[i] = Change{Kind: w.Change, Namespace: ns, Key: w.Key, KeyID: w.KeyID, Language: w.Language, Status: w.Status}
	}
	return out
}

// isNetTimeout reports a database connection that timed out: the write did not commit.
func isNetTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
