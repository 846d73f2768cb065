package tools

import (
	"context"
	"errors"
	"net"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// WriteHook runs inside the write's transaction after the operation applied its changes; an
// error rolls the whole write back. Hooks are registered at wiring time (Options.Hooks) and
// are the only way a write has side effects beyond its own rows (cache refresh, usage
// ledger, checkups, automatic translation, the webhook outbox), so that no operation can
// forget one. A hook passes over the change kinds it has no use for: every write's
// changes reach every hook, the undoing of a failed chunked write's keys (bulk.go) too.
type WriteHook func(ctx context.Context, tx model.Tx, ev model.WriteEvent) error

// DefaultWriteTimeout is the spec's 25-second budget of one write request.
const DefaultWriteTimeout = 25 * time.Second

// write is one catalogue write, described for Catalog.write.
type write struct {
	// op names the operation for hooks (automatic translation treats MCP adds and syncs
	// differently).
	op model.Operation
	// project is the project written. Admin writes that make a project name it too.
	project string
	// admin writes run as the system principal only, after their operation's gate (which
	// switches a signed-in owner to the system); they spend no budget and load no project.
	admin bool
	// lang is the language written, where the op's right (Operations) is held per
	// language; more is what the input asks beyond the row's right (approving).
	lang string
	more model.Right
	// need, when set, replaces the row's right: an import asks what its file does.
	need model.Right
	// spent is set when the operation spent its row's budgets itself, before the write
	// (an AI translation, before it calls the model).
	spent bool
	// validate runs after authorization and before any budget is spent, so that a refused
	// body costs nothing and a foreign token learns nothing from validation.
	validate func() error
	// apply makes the changes in tx and reports them; proj is the loaded project (zero for
	// admin writes).
	apply func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error)
	// bulk, when set, names the keys apply creates: on a store with one writer for every
	// project, many new keys are staged in chunk transactions first (bulk.go).
	bulk *bulkCreate
	// usage, when set, is the AI ledger of the write, asked after apply succeeded (it may
	// count what apply stored); the usage hook records it.
	usage func() []model.UsageRecord
	// dry runs apply in a read transaction with its writes dropped (dry_run.go): a preview,
	// which holds no writer and stores nothing, past the same gate and budgets.
	dry bool
}

// write is the one write path of the catalogue: it passes the operation's gate (401, then
// 403 read_only_key, then 403 forbidden), validates, spends the operation's budgets (429
// with RetryAfter), runs apply
// in one transaction under the write time budget, and hands the changes to every hook in the
// same transaction. Past the budget the transaction is rolled back and the answer is
// CodeTimeout: nothing is stored. On a store with one writer for every project, writes to
// one project take turns in this process for their whole duration, and a write that creates
// many keys stages them in chunks before its transaction (bulk.go).
func (c *Catalog) write(ctx context.Context, w write) error {
	p := model.PrincipalFrom(ctx)
	if w.admin {
		if p.Kind != model.KindSystem {
			return &model.Error{Code: model.CodeUnauthorized, Message: "admin operation"}
		}
	} else if err := c.admit(ctx, w.op, on{project: w.project, language: w.lang, more: w.more, need: w.need}); err != nil {
		return err
	} else if err := c.writable(ctx, w.project); err != nil {
		return err
	}
	if w.validate != nil {
		if err := w.validate(); err != nil {
			return err
		}
	}
	if !w.admin && !w.spent {
		if err := c.spend(ctx, w.op, w.project); err != nil {
			return err
		}
	}
	if !w.admin {
		// The budget of a request; admin commands run as long as they need.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.opts.WriteTimeout)
		defer cancel()
	}
	if w.dry {
		return writeError(ctx, c.dryRun(ctx, w), c.opts.WriteTimeout)
	}
	if threshold, _, _ := c.bulkLimits(); w.bulk != nil && w.bulk.values.count() > threshold {
		// The checkup and the store's statistics wait for it (checkupYield).
		if cs, ok := c.store.(model.ChunkedStore); ok {
			defer cs.BulkWrite()()
		}
	}
	var st *staged
	if w.project != "" && c.chunking() {
		unlock, err := c.bulk.lock(ctx, w.project)
		if err != nil {
			return writeError(ctx, err, c.opts.WriteTimeout)
		}
		defer unlock()
		if w.bulk != nil {
			if st, err = c.stage(ctx, w.op, w.project, w.bulk); err != nil {
				return writeError(ctx, err, c.opts.WriteTimeout)
			}
			if st != nil {
				ctx = withStaged(ctx, st)
			}
		}
	}
	ev := model.WriteEvent{Op: w.op, ProjectID: w.project, Actor: p.Actor()}
	cr := &createdRows{tallied: &c.tallied}
	ctx = context.WithValue(ctx, createdKey{}, cr)
	err := c.transact(ctx, ev, func(tx model.Tx) ([]model.Change, []model.UsageRecord, error) {
		cr.reset()
		if st != nil {
			if err := st.check(ctx, tx, w.project); err != nil {
				return nil, nil, err
			}
		}
		var proj model.Project
		if !w.admin {
			var err error
			if proj, err = c.openProject(ctx, tx, w.project); err != nil {
				return nil, nil, err
			}
		}
		changes, err := w.apply(ctx, tx, proj)
		if err == nil && st != nil {
			err = st.done()
		}
		if err != nil {
			return nil, nil, err
		}
		var usage []model.UsageRecord
		if w.usage != nil {
			usage = w.usage()
		}
		return changes, usage, nil
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
		return model.Errorf(model.CodeTimeout, "the write ran past its %s budget and stored nothing; send large syncs as partial chunks", budget)
	case errors.Is(err, context.Canceled) || ctx.Err() == context.Canceled:
		return model.Errorf(model.CodeUnavailable, "the request was cancelled and stored nothing")
	}
	return err
}

// transact is the one place the catalogue opens a write transaction. It runs apply in a
// transaction of ev.ProjectID ("" for none: on a store with one writer, the writer is
// taken all the same) and, when apply reports changes or AI usage, hands them to every
// hook in the same transaction, so that a side effect commits or rolls back with the write.
func (c *Catalog) transact(ctx context.Context, ev model.WriteEvent, apply func(tx model.Tx) ([]model.Change, []model.UsageRecord, error)) error {
	recount := false
	err := c.store.Update(ctx, ev.ProjectID, func(tx model.Tx) error {
		recount = false
		changes, usage, err := apply(c.judging(tx, ev.ProjectID))
		if err != nil || (len(changes) == 0 && len(usage) == 0) {
			return err
		}
		ev.Changes, ev.Usage = changes, usage
		for _, h := range c.hooks {
			if err := h(ctx, tx, ev); err != nil {
				return err
			}
		}
		// Not a hook: the stored syntax detection is right only if every write moves it.
		recount, err = c.keepSyntax(ctx, tx, ev)
		return err
	})
	if err == nil && recount {
		// After the commit, so that the recount reads what the write stored.
		c.recountSyntaxLater(ev.ProjectID)
	}
	return err
}

// bookkeep runs fn in a transaction that changes nothing a reader, a cache or a hook
// cares about: a worker's own state (a checkup's lease and report, its pruning). It runs
// no hook, needs no principal and spends no budget; everything fn writes is derived from
// data that was written through Catalog.write.
func (c *Catalog) bookkeep(ctx context.Context, op model.Operation, fn func(tx model.Tx) error) error {
	return c.transact(ctx, model.WriteEvent{Op: op}, func(tx model.Tx) ([]model.Change, []model.UsageRecord, error) {
		return nil, nil, fn(tx)
	})
}

// rowChanges reports the translation writes as changes of namespace ns.
func rowChanges(ns string, writes []model.TranslationWrite) []model.Change {
	out := make([]model.Change, len(writes))
	for i, w := range writes {
		out[i] = model.Change{Kind: w.Change, Namespace: ns, Key: w.Key, KeyID: w.KeyID, Language: w.Language, Status: w.Status}
	}
	return out
}

// isNetTimeout reports a database connection that timed out: the write did not commit.
func isNetTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
