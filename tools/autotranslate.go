package tools

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/lokal-dev/lokal/ai"
	"github.com/lokal-dev/lokal/tools/model"
)

// JobTranslate is the job kind of automatic translation: a batch of at most MaxAIKeys keys
// of one namespace into one language.
const JobTranslate = "translate"

// AutoTranslateDelay lets the keys of a burst of small writes (an assistant adding keys one
// by one) gather into full batches before the first is claimed.
const AutoTranslateDelay = 2 * time.Second

// translateBatch is a translate job's payload; the job's items are the keys.
type translateBatch struct {
	Language  string `json:"language"`
	Namespace string `json:"namespace"`
}

// autoTranslateTargets says which languages the keys a write of op creates are translated
// into: an assistant's new strings into every enabled language, a build's (sync, missing,
// overwrite) and a website's (page strings, harvest) into the auto-translate languages.
func autoTranslateTargets(op model.Operation, proj model.Project) []string {
	var from []string
	switch op {
	case model.OpRegisterSourceStrings, model.OpAddKey:
		from = proj.EnabledLanguages
	case model.OpSync, model.OpMissing, model.OpOverwrite, model.OpImport, model.OpImportFile, model.OpSyncPageStrings, model.OpHarvest:
		for _, l := range proj.AutoTranslateLanguages {
			if proj.HasLanguage(l) {
				from = append(from, l)
			}
		}
	}
	var out []string
	for _, l := range from {
		if l != proj.SourceLanguage && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// enqueueTranslation queues keys of namespace ns for translation into lang, in batches of
// at most MaxAIKeys that a pending job of the same batch absorbs.
func enqueueTranslation(ctx context.Context, tx model.Tx, projectID, ns, lang string, keys []string, runAt time.Time) error {
	payload, err := json.Marshal(translateBatch{Language: lang, Namespace: ns})
	if err != nil {
		return err
	}
	return tx.EnqueueItems(ctx, model.Job{Kind: JobTranslate, ProjectID: projectID, Payload: string(payload), Items: keys, RunAt: runAt}, MaxAIKeys)
}

// RunTranslateJob translates one batch of automatic translation. Only empty rows are filled
// (a value written meanwhile, approved or not, is kept); a source text that already has an
// approved translation in the project is reused without a model call; a result whose
// source changed during the call is not stored, and its key is queued again. Strings the
// model got wrong twice are recorded as failed; a provider that is down or rate limiting
// returns an error, so that the worker runs the job again later.
func (c *Catalog) RunTranslateJob(ctx context.Context, j model.Job) error {
	var b translateBatch
	if err := json.Unmarshal([]byte(j.Payload), &b); err != nil {
		return model.Errorf(model.CodeInvalid, "translate job %d has an unreadable payload: %v", j.ID, err)
	}
	if len(j.Items) == 0 {
		return nil
	}
	if err := c.writable(model.WithPrincipal(ctx, System), j.ProjectID); err != nil {
		return ignoreNotFound(ignoreArchived(err)) // an archived project translates nothing
	}
	o, err := c.aiTranslate(ctx, aiJob{op: model.OpAutoTranslate, project: j.ProjectID, namespace: b.Namespace, language: b.Language,
		keys: j.Items, keepApproved: true, onlyMissing: true, memory: true, tooMany: model.CodeInvalid})
	switch {
	case model.IsNotFound(err):
		return nil // the project, namespace or language is gone: nothing left to translate
	case model.ErrorCode(err) == model.CodeNotConfigured:
		return c.translateFailed(ctx, j, b, err.Error())
	case err != nil:
		return err
	}
	if o.transient != nil {
		// Keep what was stored; the rest is tried again when the provider is back.
		return errors.Join(o.transient, c.requeueMoved(ctx, j, b, o))
	}
	return c.settleTranslation(ctx, j, b, o)
}

// TranslateJobGaveUp records every key of a batch the worker stopped retrying as failed.
func (c *Catalog) TranslateJobGaveUp(ctx context.Context, j model.Job, cause error) error {
	var b translateBatch
	if err := json.Unmarshal([]byte(j.Payload), &b); err != nil {
		return nil
	}
	return c.translateFailed(ctx, j, b, cause.Error())
}

func (c *Catalog) translateFailed(ctx context.Context, j model.Job, b translateBatch, reason string) error {
	o := aiOutcome{failed: j.Items, reasons: map[string]string{}}
	for _, k := range j.Items {
		o.reasons[k] = reason
	}
	return c.settleTranslation(ctx, j, b, o)
}

// settleTranslation records the batch's failures, forgets earlier failures of keys now
// translated, and queues again keys whose source moved during the call.
func (c *Catalog) settleTranslation(ctx context.Context, j model.Job, b translateBatch, o aiOutcome) error {
	return c.write(model.WithPrincipal(ctx, System), write{op: model.OpAutoTranslate, admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		proj, err := tx.Project(ctx, j.ProjectID)
		if err != nil {
			return nil, ignoreNotFound(err)
		}
		ns, err := findNamespace(ctx, tx, proj, b.Namespace)
		if err != nil {
			return nil, ignoreNotFound(err)
		}
		states, err := tx.Keys(ctx, ns, proj.SourceLanguage, b.Language, j.Items...)
		if err != nil {
			return nil, err
		}
		byKey := indexKeys(states)
		failures := map[int64]string{}
		for _, k := range o.failed {
			if ks := byKey[k]; ks != nil && !slices.Contains(o.moved, k) {
				failures[ks.ID] = o.reasons[k]
			}
		}
		var done []int64
		for k := range o.translated {
			if ks := byKey[k]; ks != nil {
				done = append(done, ks.ID)
			}
		}
		if err := tx.RecordAIFailures(ctx, j.ProjectID, b.Language, failures); err != nil {
			return nil, err
		}
		if err := tx.ClearAIFailures(ctx, b.Language, done); err != nil {
			return nil, err
		}
		return nil, enqueueTranslation(ctx, tx, j.ProjectID, b.Namespace, b.Language, o.moved, c.opts.Now())
	}})
}

func (c *Catalog) requeueMoved(ctx context.Context, j model.Job, b translateBatch, o aiOutcome) error {
	if len(o.moved) == 0 {
		return nil
	}
	return c.settleTranslation(ctx, j, b, aiOutcome{moved: o.moved})
}

func ignoreNotFound(err error) error {
	if model.IsNotFound(err) {
		return nil
	}
	return err
}

// transientAIError picks, from a provider's errors, one that waiting may cure.
func transientAIError(err error) error {
	var pe *ai.Error
	if errors.As(err, &pe) {
		switch pe.Kind {
		case ai.ErrRateLimited, ai.ErrServer, ai.ErrNetwork:
			return pe
		}
	}
	return nil
}

// AutoTranslationStatus is how far automatic translation of a project has got.
type AutoTranslationStatus struct {
	Configured bool     `json:"configured"` // the project has an AI provider
	Languages  []string `json:"languages"`  // where sync, missing and page strings are translated to
	Queued     int      `json:"queued"`     // strings waiting or being translated
	Failed     int      `json:"failed"`     // strings it gave up on that still have no value
}

// autoTranslationStatus fills the queue figures of out from the jobs and failures.
func (c *Catalog) autoTranslationStatus(ctx context.Context, tx model.Tx, proj model.Project, stats []LanguageStats) (AutoTranslationStatus, error) {
	st := AutoTranslationStatus{Languages: autoTranslateTargets(model.OpSync, proj)}
	r, err := c.resolveAI(ctx, tx, proj.ID)
	if err != nil {
		return st, err
	}
	st.Configured = r.configured
	jobs, err := tx.QueuedJobs(ctx, proj.ID, JobTranslate)
	if err != nil {
		return st, err
	}
	queued := map[string]int{}
	for _, j := range jobs {
		var b translateBatch
		if json.Unmarshal([]byte(j.Payload), &b) == nil {
			queued[b.Language] += j.ItemCount
		}
	}
	failed, err := tx.AIFailureCounts(ctx, proj.ID)
	if err != nil {
		return st, err
	}
	for i := range stats {
		stats[i].Queued, stats[i].AIFailed = queued[stats[i].Language], failed[stats[i].Language]
		st.Queued += stats[i].Queued
		st.Failed += stats[i].AIFailed
	}
	return st, nil
}
