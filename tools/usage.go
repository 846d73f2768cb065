package tools

import (
	"context"
	"sort"
	"time"

	"github.com/lokal-dev/lokal/ai"
	"github.com/lokal-dev/lokal/tools/model"
)

// Usage ledger kinds: a model call, the outcome of one translation run (strings stored and
// failed), and strings reused from translation memory without a call.
const (
	UsageCall   = "call"
	UsageResult = "result"
	UsageMemory = "memory"
)

// MemoryModel is the model name the ledger gives translation memory.
const MemoryModel = "translation-memory"

// UsageIn asks for a project's AI usage since an RFC 3339 time (empty: all of it).
type UsageIn struct {
	ProjectArg
	Since string `json:"since,omitempty"`
}

// ModelUsage is one model's share of a project's usage.
type ModelUsage struct {
	Model             string `json:"model"`
	Calls             int    `json:"calls"`
	PromptTokens      int64  `json:"prompt_tokens"`
	CompletionTokens  int64  `json:"completion_tokens"`
	StringsTranslated int    `json:"strings_translated"`
	StringsFailed     int    `json:"strings_failed"`
	LatencyMSAvg      int64  `json:"latency_ms_avg"`
}

// UsageOut is a project's AI spend: model calls and their tokens, strings stored and
// failed, and strings reused from translation memory at no cost.
type UsageOut struct {
	ProjectID         string       `json:"project_id"`
	Since             *time.Time   `json:"since"`
	Calls             int          `json:"calls"`
	PromptTokens      int64        `json:"prompt_tokens"`
	CompletionTokens  int64        `json:"completion_tokens"`
	StringsTranslated int          `json:"strings_translated"`
	StringsFailed     int          `json:"strings_failed"`
	StringsFromMemory int          `json:"strings_from_memory"`
	ByModel           []ModelUsage `json:"by_model"`
}

// Usage sums a project's AI usage. Personal access tokens and the admin CLI only: spend is
// the owner's business, not a build's (a project API key gets pat_required).
func (c *Catalog) Usage(ctx context.Context, in UsageIn) (UsageOut, error) {
	var out UsageOut
	if err := c.gate(ctx, model.OpUsage, on{project: in.ProjectID}); err != nil {
		return out, err
	}
	var since time.Time
	if in.Since != "" {
		var err error
		if since, err = time.Parse(time.RFC3339, in.Since); err != nil {
			return out, model.Errorf(model.CodeInvalid, "since must be an RFC 3339 time, such as 2026-11-01T00:00:00Z")
		}
	}
	err := c.read(ctx, in.ProjectID, func(tx model.Tx, proj model.Project) error {
		var err error
		out, err = usageOf(ctx, tx, proj.ID, since)
		return err
	})
	return out, err
}

func usageOf(ctx context.Context, tx model.Tx, projectID string, since time.Time) (UsageOut, error) {
	out := UsageOut{ProjectID: projectID, ByModel: []ModelUsage{}}
	if !since.IsZero() {
		s := since.UTC()
		out.Since = &s
	}
	totals, err := tx.UsageTotals(ctx, projectID, since)
	if err != nil {
		return out, err
	}
	models := map[string]*ModelUsage{}
	var latency = map[string]int64{}
	for _, t := range totals {
		if t.Kind == UsageMemory {
			out.StringsFromMemory += t.Translated
			continue
		}
		m := models[t.Model]
		if m == nil {
			m = &ModelUsage{Model: t.Model}
			models[t.Model] = m
		}
		switch t.Kind {
		case UsageCall:
			m.Calls += t.Entries
			m.PromptTokens += t.PromptTokens
			m.CompletionTokens += t.CompletionTokens
			latency[t.Model] += t.LatencyMS
		case UsageResult:
			m.StringsTranslated += t.Translated
			m.StringsFailed += t.Failed
		}
	}
	for _, m := range models {
		if m.Calls > 0 {
			m.LatencyMSAvg = latency[m.Model] / int64(m.Calls)
		}
		out.Calls += m.Calls
		out.PromptTokens += m.PromptTokens
		out.CompletionTokens += m.CompletionTokens
		out.StringsTranslated += m.StringsTranslated
		out.StringsFailed += m.StringsFailed
		out.ByModel = append(out.ByModel, *m)
	}
	sort.Slice(out.ByModel, func(i, j int) bool { return out.ByModel[i].Model < out.ByModel[j].Model })
	return out, nil
}

// usageRecords are the ledger entries of one translation run: every model call and the
// run's outcome.
func (c *Catalog) usageRecords(r ResolvedAI, j aiJob, calls []ai.CallRecord, translated, failed int) []model.UsageRecord {
	at := c.opts.Now().UTC()
	base := model.UsageRecord{ProjectID: j.project, WorkspaceID: r.WorkspaceID, Op: string(j.op), Model: r.Config.Model, Language: j.language, At: at}
	recs := make([]model.UsageRecord, 0, len(calls)+1)
	for _, call := range calls {
		rec := base
		rec.Kind, rec.Outcome, rec.Strings, rec.Latency = UsageCall, call.Outcome, call.Strings, call.Latency
		rec.PromptTokens, rec.CompletionTokens = int64(call.PromptTokens), int64(call.CompletionTokens)
		if call.Model != "" {
			rec.Model = call.Model
		}
		recs = append(recs, rec)
	}
	if translated+failed > 0 {
		rec := base
		rec.Kind, rec.Strings, rec.Translated, rec.Failed = UsageResult, translated+failed, translated, failed
		recs = append(recs, rec)
	}
	return recs
}

// recordUsage stores the usage of model calls whose results no write stored, as the
// system, even when the request that spent them is gone. The write reports no change: the
// usage hook records recs and no other side effect runs.
func (c *Catalog) recordUsage(ctx context.Context, op model.Operation, recs []model.UsageRecord) {
	if len(recs) == 0 {
		return
	}
	ctx = model.WithPrincipal(context.WithoutCancel(ctx), System)
	err := c.write(ctx, write{op: op, admin: true,
		apply: func(context.Context, model.Tx, model.Project) ([]model.Change, error) { return nil, nil },
		usage: func() []model.UsageRecord { return recs }})
	if err != nil {
		c.opts.Logger.Error("recording AI usage", "project", recs[0].ProjectID, "entries", len(recs), "err", err)
	}
}
