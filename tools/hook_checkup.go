package tools

import (
	"context"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// checkupWholeProjectKeys is how many changed keys a write queues one by one at most, by
// default.
const checkupWholeProjectKeys = 10000

// CheckupHook queues the keys a write changed and schedules the project's checkup in the
// write's own transaction, so that neither is lost in a crash; a burst of writes coalesces
// into one pending job, due CheckupDelay after now. A write of more than wholeProject keys
// (0: checkupWholeProjectKeys) queues the project once: a maximal sync's 360,000 marks
// cost seconds of its budget, and the checkup reads that many keys as fast in a full pass.
func CheckupHook(now func() time.Time, wholeProject int) WriteHook {
	if wholeProject <= 0 {
		wholeProject = checkupWholeProjectKeys
	}
	return func(ctx context.Context, tx model.Tx, ev model.WriteEvent) error {
		if ev.ProjectID == "" {
			return nil
		}
		seen := map[int64]bool{}
		var keys []int64
		for ch := range ev.All() {
			switch ch.Kind {
			case model.ChangeKeyCreated, model.ChangeKeyHidden, model.ChangeKeyUnhidden, model.ChangeValueCreated, model.ChangeValueUpdated, model.ChangeValueRefreshed, model.ChangeFlagChanged:
				if ch.KeyID != 0 && !seen[ch.KeyID] {
					seen[ch.KeyID] = true
					keys = append(keys, ch.KeyID)
				}
			}
			if len(keys) > wholeProject {
				break // the whole project is queued: no need to hold every key
			}
		}
		// Settings may change the languages: the fingerprint tells the checkup whether they did.
		if len(keys) == 0 && !ev.Has(model.ChangeLanguageEnabled, model.ChangeGlossaryAdded, model.ChangeTermAdded, model.ChangeProjectSettings,
			model.ChangeGlossaryRemoved, model.ChangeTermRemoved) {
			return nil
		}
		if len(keys) > wholeProject {
			keys = []int64{model.CheckupWholeProject}
		}
		if err := tx.MarkCheckupKeys(ctx, ev.ProjectID, keys); err != nil {
			return err
		}
		return tx.EnqueueJob(ctx, model.Job{Kind: JobCheckup, ProjectID: ev.ProjectID, RunAt: now().Add(CheckupDelay)}, true)
	}
}
