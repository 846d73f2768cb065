package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/lokal-dev/lokal/ai"
	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// AITranslateIn is ai_translate_keys' input.
type AITranslateIn struct {
	ProjectArg
	NamespaceKey    string   `json:"namespace_key" jsonschema:"the namespace of the keys"`
	TranslationKeys []string `json:"translation_keys" jsonschema:"up to 10 keys"`
	TargetLang      string   `json:"target_lang" jsonschema:"language to translate into"`
}

// AITranslateOut reports what the AI did.
type AITranslateOut struct {
	Lang                 string            `json:"lang"`
	Translated           map[string]string `json:"translated"`
	SkippedApproved      []string          `json:"skipped_approved"`
	SkippedLocked        []string          `json:"skipped_locked"`
	SkippedMissingSource []string          `json:"skipped_missing_source"`
	Failed               []string          `json:"failed"`
	// Reasons says why each failed key failed, for the editor; not on the wire.
	Reasons map[string]string `json:"-"`
}

// DefaultAICallBudget is how long a request waits for the model: under the HTTP server's
// two-minute write timeout, with room for the store.
const DefaultAICallBudget = 50 * time.Second

// AITranslateKeys translates keys into target_lang with the project's AI and stores the
// results as needs_review drafts; it spends endpoint 6's budget of AI calls (60 a minute). Approved and language-locked translations are never
// overwritten; keys without a source value are skipped.
func (c *Catalog) AITranslateKeys(ctx context.Context, in AITranslateIn) (AITranslateOut, error) {
	return c.aiTranslateKeys(ctx, model.OpAITranslateKeys, in)
}

// aiTranslateKeys is ai_translate_keys as operation op (the tool's, or the editor's
// translate_rows), which decides who may call it and what it spends.
func (c *Catalog) aiTranslateKeys(ctx context.Context, op model.Operation, in AITranslateIn) (AITranslateOut, error) {
	o, err := c.aiTranslate(ctx, aiJob{op: op, project: in.ProjectID, namespace: in.NamespaceKey,
		language: in.TargetLang, keys: in.TranslationKeys, keepApproved: true, tooMany: model.CodeInvalid, waiting: true})
	return AITranslateOut{Lang: in.TargetLang, Translated: o.translated, SkippedApproved: o.skippedApproved,
		SkippedLocked: o.skippedLocked, SkippedMissingSource: o.skippedMissingSource, Failed: o.failed, Reasons: o.reasons}, err
}

// RetranslateIn is spec endpoint 6: keys of one namespace to translate again into Language.
type RetranslateIn struct {
	NamespaceRef
	Keys []string `json:"keys"`
}

// RetranslateOut is endpoint 6's 200 body. skipped_locked lists language-locked rows, which
// no path overwrites.
type RetranslateOut struct {
	Lang                 string            `json:"lang"`
	Retranslated         map[string]string `json:"retranslated"`
	SkippedMissingSource []string          `json:"skipped_missing_source"`
	SkippedLocked        []string          `json:"skipped_locked"`
	Failed               []string          `json:"failed"`
}

// Retranslate regenerates the listed keys' translations in one language with the project's
// AI (spec endpoint 6), approved ones included; language-locked rows are kept. At most 10
// keys (422) and 60 calls a minute per project (429).
func (c *Catalog) Retranslate(ctx context.Context, in RetranslateIn) (RetranslateOut, error) {
	o, err := c.aiTranslate(ctx, aiJob{op: model.OpRetranslate, project: in.ProjectID, namespace: in.Namespace,
		language: in.Language, keys: in.Keys, tooMany: model.CodeUnprocessable, waiting: true})
	return RetranslateOut{Lang: in.Language, Retranslated: o.translated, SkippedMissingSource: o.skippedMissingSource,
		SkippedLocked: o.skippedLocked, Failed: o.failed}, err
}

// aiJob is one AI translation request, whichever door it came through.
type aiJob struct {
	op                           model.Operation // its row decides who may call it and what it spends
	project, namespace, language string
	keys                         []string
	keepApproved                 bool   // ai_translate_keys never overwrites approved rows
	onlyMissing                  bool   // automatic translation fills empty rows only
	memory                       bool   // reuse approved translations of the same source text
	tooMany                      string // the error code for more than MaxAIKeys keys
	waiting                      bool   // a caller waits for the answer: the model gets Options.AICallBudget
	suggest                      bool   // the answer is returned, nothing is stored
}

type aiOutcome struct {
	translated                                                   map[string]string
	skippedApproved, skippedLocked, skippedMissingSource, failed []string
	skippedExisting                                              []string          // onlyMissing: the row has a value now
	moved                                                        []string          // in failed too: the source changed meanwhile
	reasons                                                      map[string]string // why a key failed
	transient                                                    error             // a provider error that waiting may cure
}

// aiTranslate is the one AI translation operation: it reads the keys and the rules, calls
// the model outside any transaction (calls take seconds; the writer must not wait), and
// stores what passed the placeholder contract through the write path, as needs_review
// drafts attributed to ai:<model> and stamped with the source version they were made
// from. A key whose source changed meanwhile is reported failed, not stored. Every model
// call is written to the usage ledger.
func (c *Catalog) aiTranslate(ctx context.Context, j aiJob) (aiOutcome, error) {
	o := aiOutcome{translated: map[string]string{}, skippedApproved: []string{}, skippedLocked: []string{},
		skippedMissingSource: []string{}, failed: []string{}, reasons: map[string]string{}}
	if err := c.admit(ctx, j.op, on{project: j.project, language: j.language}); err != nil {
		return o, err
	}
	if len(j.keys) == 0 || len(j.keys) > MaxAIKeys {
		return o, model.Errorf(j.tooMany, "list 1 to %d keys", MaxAIKeys)
	}
	var (
		r        resolvedAI
		req      ai.Request
		versions = map[string]int64{}
		keyOf    = map[string]string{} // the model sees opaque ids, never key names
		remember = map[string]string{} // key to a translation memory match
	)
	err := c.read(ctx, j.project, func(tx model.Tx, proj model.Project) error {
		if j.language == proj.SourceLanguage || !proj.HasLanguage(j.language) {
			return model.Errorf(model.CodeNotFound, "%q is not an enabled target language of this project", j.language)
		}
		ns, err := findNamespace(ctx, tx, proj, j.namespace)
		if err != nil {
			return err
		}
		states, err := tx.Keys(ctx, ns, proj.SourceLanguage, j.language, j.keys...)
		if err != nil {
			return err
		}
		byKey := indexKeys(states)
		// One reading of the project's syntax for the whole batch, not the batch's own guess.
		req = ai.Request{SourceLang: proj.SourceLanguage, TargetLang: j.language, Strings: map[string]string{},
			Syntax: c.ProjectSyntax(ctx, tx, proj)}
		for _, k := range j.keys {
			ks := byKey[k]
			if _, dup := versions[k]; dup || o.skip(j, k, ks) {
				continue
			}
			id := strconv.Itoa(len(keyOf) + 1)
			keyOf[id] = k
			req.Strings[id] = ks.Source.Value
			versions[k] = ks.SourceVersion
		}
		if err := c.aiContext(ctx, tx, &req, keyOf, byKey); err != nil {
			return err
		}
		if j.memory && len(req.Strings) > 0 {
			texts := make([]string, 0, len(req.Strings))
			for _, t := range req.Strings {
				texts = append(texts, t)
			}
			matches, err := tx.MemoryMatches(ctx, proj.ID, proj.SourceLanguage, j.language, texts)
			if err != nil {
				return err
			}
			for id, text := range req.Strings {
				// A remembered value the gate refuses (stored before a rule) is not reused.
				if v, ok := matches[text]; ok && model.GateValue(keyOf[id], v) == nil {
					remember[keyOf[id]] = v
					delete(req.Strings, id)
				}
			}
		}
		if err := c.aiRules(ctx, tx, proj, j.language, &req); err != nil {
			return err
		}
		r, err = c.resolveAI(ctx, tx, j.project)
		return err
	})
	if err != nil {
		return o, err
	}
	cfg, err := c.openAI(r)
	if err != nil {
		return o, err
	}
	// The row's budgets, its writes included, before the model is called: the call is the cost.
	if err := c.spend(ctx, j.op, j.project); err != nil {
		return o, err
	}
	if len(remember) > 0 {
		// Translation memory: an approved translation of the same source text, no call.
		memory := func(stored, _ int) []model.UsageRecord {
			return []model.UsageRecord{{ProjectID: j.project, WorkspaceID: cfg.WorkspaceID, Kind: UsageMemory, Op: string(j.op),
				Model: MemoryModel, Language: j.language, Outcome: "ok", Strings: len(remember), Translated: stored, At: c.opts.Now().UTC()}}
		}
		if _, err := c.aiStore(ctx, j, "memory", remember, versions, &o, memory); err != nil {
			return o, err
		}
	}
	if len(req.Strings) == 0 {
		return o, nil
	}
	req.Instructions = cfg.Instructions
	p, err := c.providers.get(cfg.Config)
	if err != nil {
		return o, err
	}
	callCtx := ctx
	if j.waiting {
		// A hung or slow model must not outlast the caller's patience (or the HTTP server's
		// write timeout): what is not back by then is reported failed.
		var cancel context.CancelFunc
		callCtx, cancel = context.WithTimeout(ctx, c.opts.AICallBudget)
		defer cancel()
	}
	res, callErr := p.Translate(callCtx, req)
	translated := make(map[string]string, len(res.Translated))
	for id, v := range res.Translated {
		// An answer the value gate refuses is that string failed, as any bad answer is;
		// the rest of the batch is stored.
		if err := model.GateValue(keyOf[id], v); err != nil {
			o.failed = append(o.failed, keyOf[id])
			o.reasons[keyOf[id]] = "the model's answer was refused: " + model.ErrorMessage(err)
			continue
		}
		translated[keyOf[id]] = v
	}
	for id, why := range res.Failed {
		o.failed = append(o.failed, keyOf[id])
		o.reasons[keyOf[id]] = why
	}
	sort.Strings(o.failed)
	// The ledger goes with the batch's write (the usage hook), so that a stored batch always
	// has its usage (a process killed between the two lost it); without one it is written
	// alone.
	modelFailed := len(o.failed)
	usage := func(stored, moved int) []model.UsageRecord {
		return c.usageRecords(cfg, j, res.Calls, stored, modelFailed+moved)
	}
	if j.suggest {
		// A suggestion is the reviewer's to accept: only its usage is kept.
		c.recordUsage(ctx, j.op, usage(len(translated), 0))
		o.translated, o.transient = translated, transientAIError(callErr)
		return o, nil
	}
	if len(translated) > 0 {
		_, err = c.aiStore(ctx, j, "ai:"+cfg.Config.Model, translated, versions, &o, usage)
	}
	if len(translated) == 0 || err != nil {
		c.recordUsage(ctx, j.op, usage(0, 0))
	}
	o.transient = transientAIError(callErr)
	var pe *ai.Error
	if len(res.Translated) == 0 && errors.As(callErr, &pe) && pe.Kind == ai.ErrAuth {
		return o, model.Errorf(model.CodeNotConfigured, "the AI provider refused the API key (lokal ai set)")
	}
	return o, err
}

// skip decides whether key k, in state ks, is left alone, and says why in o.
func (o *aiOutcome) skip(j aiJob, k string, ks *model.KeyState) bool {
	switch {
	case ks == nil || ks.Hidden || ks.Source == nil || ks.Source.Value == "":
		o.skippedMissingSource = appendOnce(o.skippedMissingSource, k)
	case ks.Value != nil && ks.Value.LanguageLocked, ks.Source.DoNotTranslate, ks.Value != nil && ks.Value.DoNotTranslate:
		// A do-not-translate key or row keeps the source text: as locked, never the AI's.
		o.skippedLocked = appendOnce(o.skippedLocked, k)
	case j.keepApproved && ks.Value != nil && ks.Value.Status == model.StatusApproved:
		o.skippedApproved = appendOnce(o.skippedApproved, k)
	case j.onlyMissing && ks.Value != nil && ks.Value.Value != "":
		o.skippedExisting = appendOnce(o.skippedExisting, k)
	default:
		return false
	}
	return true
}

// aiStore writes values (key to text) as needs_review drafts credited to agent, unless a
// key's source moved on from versions[key] or its row may no longer be written; it reports
// how many it stored. usage(stored, moved) gives the ledger entries of the write, which the
// usage hook records in its transaction. A rolled-back write stores none of them.
func (c *Catalog) aiStore(ctx context.Context, j aiJob, agent string, values map[string]string, versions map[string]int64, o *aiOutcome,
	usage func(stored, moved int) []model.UsageRecord) (int, error) {
	p := model.PrincipalFrom(ctx)
	p.Agent = agent
	var (
		stored  map[string]string
		moved   []string
		refused map[string]string // key to why the value rule refused its value
		after   aiOutcome         // skips found in the transaction
	)
	err := c.write(model.WithPrincipal(ctx, p), write{op: j.op, project: j.project, lang: j.language, spent: true,
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			stored, moved, refused, after = map[string]string{}, nil, map[string]string{}, aiOutcome{}
			var syn message.Syntax
			ns, err := findNamespace(ctx, tx, proj, j.namespace)
			if err != nil {
				return nil, err
			}
			names := sortedKeys(values)
			states, err := tx.Keys(ctx, ns, proj.SourceLanguage, j.language, names...)
			if err != nil {
				return nil, err
			}
			byKey := indexKeys(states)
			var writes []model.TranslationWrite
			for _, k := range names {
				ks := byKey[k]
				if ks == nil || ks.Source == nil || ks.SourceVersion != versions[k] {
					moved = append(moved, k) // the source moved while the model worked
					continue
				}
				if after.skip(j, k, ks) {
					continue
				}
				// One value the value rule refuses (one Verify let through, or a remembered
				// one stored before the rule) is that key failed, not the batch: the write
				// below would refuse them all.
				if mayBreak(values[k]) {
					if syn == 0 {
						syn = c.ProjectSyntax(ctx, tx, proj)
					}
					if _, err := valueSyntax(k, ks.Source.Value, values[k], syn); err != nil {
						refused[k] = model.ErrorMessage(err)
						continue
					}
				}
				v := ks.SourceVersion
				w := model.TranslationWrite{KeyID: ks.ID, Key: k, Language: j.language, Value: values[k],
					Status: model.StatusNeedsReview, SourceVersion: &v, Change: model.ChangeValueCreated}
				if ks.Value != nil {
					w.ID, w.DoNotTranslate, w.Change = ks.Value.ID, ks.Value.DoNotTranslate, model.ChangeValueUpdated
				}
				writes = append(writes, w)
				stored[k] = w.Value
			}
			if err := tx.WriteTranslations(ctx, writes); err != nil {
				return nil, err
			}
			return rowChanges(ns.Key, writes), nil
		},
		usage: func() []model.UsageRecord { return usage(len(stored), len(moved)+len(refused)) }})
	if err != nil {
		return 0, err
	}
	for k, v := range stored {
		o.translated[k] = v
	}
	for _, k := range moved {
		o.failed, o.moved = append(o.failed, k), append(o.moved, k)
		o.reasons[k] = "the source text changed during translation"
	}
	for k, why := range refused {
		o.failed = append(o.failed, k)
		o.reasons[k] = "the answer was refused: " + why
	}
	o.skippedMissingSource = appendOnce(o.skippedMissingSource, after.skippedMissingSource...)
	o.skippedLocked = appendOnce(o.skippedLocked, after.skippedLocked...)
	o.skippedApproved = appendOnce(o.skippedApproved, after.skippedApproved...)
	o.skippedExisting = appendOnce(o.skippedExisting, after.skippedExisting...)
	sort.Strings(o.failed)
	return len(stored), nil
}

// aiRules puts the terminology that applies to language into req: glossary pairs and
// substitutions of that locale or all, and every do-not-translate term.
func (c *Catalog) aiRules(ctx context.Context, tx model.Tx, proj model.Project, language string, req *ai.Request) error {
	gl, err := tx.Glossary(ctx, proj.ID)
	if err != nil {
		return err
	}
	for _, g := range gl {
		if g.Locale == "all" || g.Locale == language {
			req.Glossary = append(req.Glossary, ai.Term{Source: g.SourceTerm, Target: g.TargetTerm, Locale: g.Locale})
		}
	}
	if req.DoNotTranslate, err = tx.DoNotTranslateTerms(ctx, proj.ID); err != nil {
		return err
	}
	subs, err := tx.Substitutions(ctx, proj.ID)
	if err != nil {
		return err
	}
	for _, s := range subs {
		if s.Locale == "all" || s.Locale == language {
			req.Substitutions = append(req.Substitutions, ai.Sub{From: s.Pattern, To: s.Replacement, Locale: s.Locale})
		}
	}
	return nil
}

// appendOnce appends the items list lacks.
func appendOnce(list []string, items ...string) []string {
	for _, s := range items {
		if !slices.Contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}

// aiProviders keeps one client per provider configuration, so that the concurrency bound
// of a provider holds across requests.
type aiProviders struct {
	mu sync.Mutex
	m  map[string]*ai.Provider
}

func (a *aiProviders) get(cfg ai.Config) (*ai.Provider, error) {
	sum := sha256.Sum256([]byte(cfg.BaseURL + "\x00" + cfg.Model + "\x00" + cfg.APIKey))
	id := hex.EncodeToString(sum[:])
	a.mu.Lock()
	defer a.mu.Unlock()
	if p := a.m[id]; p != nil {
		return p, nil
	}
	p, err := ai.NewProvider(cfg)
	if err != nil {
		return nil, model.Errorf(model.CodeNotConfigured, "the AI provider configuration is not usable: %v", err)
	}
	if a.m == nil {
		a.m = map[string]*ai.Provider{}
	}
	a.m[id] = p
	return p, nil
}

// aiContext tells the model, per string, where its key is shown on the site (review in
// context): its newest page, role, neighbouring text and the room it has.
func (c *Catalog) aiContext(ctx context.Context, tx model.Tx, req *ai.Request, keyOf map[string]string, byKey map[string]*model.KeyState) error {
	ids := make([]int64, 0, len(keyOf))
	for _, k := range keyOf {
		ids = append(ids, byKey[k].ID)
	}
	if len(ids) == 0 {
		return nil
	}
	seen, err := tx.PageContexts(ctx, ids)
	if err != nil || len(seen) == 0 {
		return err
	}
	req.Context = map[string]string{}
	for id, k := range keyOf {
		if note := contextNote(req.Strings[id], req.Syntax, seen[byKey[k].ID]); note != "" {
			req.Context[id] = note
		}
	}
	return nil
}
