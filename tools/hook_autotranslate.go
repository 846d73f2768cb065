package tools

import (
	"context"
	"slices"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// AutoTranslateHook queues the translation of the keys a write created, in the write's own
// transaction: a committed key always has its jobs, a rolled-back one never. Nothing is
// queued while the project has no AI provider (its own, its workspace's, or def, the
// operator's). Jobs are due AutoTranslateDelay after now.
func AutoTranslateHook(def AIProvider, now func() time.Time) WriteHook {
	return func(ctx context.Context, tx model.Tx, ev model.WriteEvent) error {
		if ev.ProjectID == "" || !ev.Has(model.ChangeKeyCreated) {
			return nil
		}
		proj, err := tx.Project(ctx, ev.ProjectID)
		if err != nil {
			return err
		}
		langs := autoTranslateTargets(ev.Op, proj)
		if len(langs) == 0 {
			return nil
		}
		r, err := resolveAI(ctx, tx, ev.ProjectID, def)
		if err != nil || !r.configured {
			return err
		}
		byNS := map[string][]string{}
		var namespaces []string
		for ch := range ev.All() {
			if ch.Kind != model.ChangeKeyCreated {
				continue
			}
			if _, ok := byNS[ch.Namespace]; !ok {
				namespaces = append(namespaces, ch.Namespace)
			}
			byNS[ch.Namespace] = append(byNS[ch.Namespace], ch.Key)
		}
		slices.Sort(namespaces) // one lock order for the pending jobs of every writer
		runAt := now().Add(AutoTranslateDelay)
		for _, ns := range namespaces {
			for _, l := range langs {
				if err := enqueueTranslation(ctx, tx, ev.ProjectID, ns, l, byNS[ns], runAt); err != nil {
					return err
				}
			}
		}
		return nil
	}
}
