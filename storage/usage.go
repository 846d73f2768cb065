package storage

import (
	"context"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

// usageRow is one entry of the AI ledger: a model call, the result of one translation run,
// or strings taken from translation memory.
type usageRow struct {
	bun.BaseModel    `bun:"table:ai_usage"`
	ID               int64     `bun:"id,pk,autoincrement"`
	ProjectID        string    `bun:"project_id,notnull,type:varchar(36)"`
	WorkspaceID      string    `bun:"workspace_id,notnull,type:varchar(36)"`
	Kind             string    `bun:"kind,notnull"`
	Op               string    `bun:"op,notnull"`
	Model            string    `bun:"model,notnull"`
	Language         string    `bun:"language,notnull"`
	PromptTokens     int64     `bun:"prompt_tokens,notnull"`
	CompletionTokens int64     `bun:"completion_tokens,notnull"`
	Strings          int       `bun:"strings,notnull"`
	Translated       int       `bun:"translated,notnull"`
	Failed           int       `bun:"failed,notnull"`
	Outcome          string    `bun:"outcome,notnull"`
	LatencyMS        int64     `bun:"latency_ms,notnull"`
	CreatedAt        time.Time `bun:"created_at,notnull"`
}

// aiFailureRow is a string that automatic translation gave up on in one language.
type aiFailureRow struct {
	bun.BaseModel `bun:"table:ai_failures"`
	KeyID         int64     `bun:"key_id,pk"`
	Language      string    `bun:"language,pk"`
	ProjectID     string    `bun:"project_id,notnull,type:varchar(36)"`
	Reason        string    `bun:"reason,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

func (t *tx) RecordUsage(ctx context.Context, recs []model.UsageRecord) error {
	if len(recs) == 0 {
		return nil
	}
	rows := make([]usageRow, len(recs))
	for i, r := range recs {
		rows[i] = usageRow{ProjectID: r.ProjectID, WorkspaceID: r.WorkspaceID, Kind: r.Kind, Op: r.Op, Model: r.Model,
			Language: r.Language, PromptTokens: r.PromptTokens, CompletionTokens: r.CompletionTokens, Strings: r.Strings,
			Translated: r.Translated, Failed: r.Failed, Outcome: r.Outcome, LatencyMS: r.Latency.Milliseconds(), CreatedAt: r.At.UTC()}
	}
	_, err := t.tx.NewInsert().Model(&rows).Exec(ctx)
	return mapError(err)
}

func (t *tx) UsageTotals(ctx context.Context, projectID string, since time.Time) ([]model.UsageTotal, error) {
	var out []model.UsageTotal
	err := t.tx.NewSelect().Model((*usageRow)(nil)).
		ColumnExpr("model, kind, COUNT(*) AS entries").
		ColumnExpr("COALESCE(SUM(prompt_tokens), 0) AS prompt_tokens, COALESCE(SUM(completion_tokens), 0) AS completion_tokens").
		ColumnExpr("COALESCE(SUM(strings), 0) AS strings, COALESCE(SUM(translated), 0) AS translated, COALESCE(SUM(failed), 0) AS failed").
		ColumnExpr("COALESCE(SUM(latency_ms), 0) AS latency_ms").
		Where("project_id = ?", projectID).Where("created_at >= ?", since.UTC()).
		Group("model", "kind").Order("model", "kind").Scan(ctx, &out)
	return out, mapError(err)
}

func (t *tx) RecordAIFailures(ctx context.Context, projectID, language string, failures map[int64]string) error {
	if len(failures) == 0 {
		return nil
	}
	rows := make([]aiFailureRow, 0, len(failures))
	for id, reason := range failures {
		rows = append(rows, aiFailureRow{KeyID: id, Language: language, ProjectID: projectID, Reason: reason, CreatedAt: now()})
	}
	_, err := t.tx.NewInsert().Model(&rows).On("CONFLICT (key_id, language) DO UPDATE").
		Set("reason = EXCLUDED.reason").Set("created_at = EXCLUDED.created_at").Exec(ctx)
	return mapError(err)
}

func (t *tx) ClearAIFailures(ctx context.Context, language string, keyIDs []int64) error {
	if len(keyIDs) == 0 {
		return nil
	}
	_, err := t.tx.NewDelete().Model((*aiFailureRow)(nil)).Where("language = ?", language).
		Where("key_id IN (?)", bun.In(keyIDs)).Exec(ctx)
	return mapError(err)
}

func (t *tx) AIFailureCounts(ctx context.Context, projectID string) (map[string]int, error) {
	var rows []struct {
		Language string `bun:"language"`
		N        int    `bun:"n"`
	}
	// A failure no longer counts once the string has a value, however it got one.
	err := t.tx.NewRaw(`SELECT f.language AS language, COUNT(*) AS n FROM ai_failures AS f
JOIN translation_keys AS k ON k.id = f.key_id
WHERE f.project_id = ? AND NOT k.hidden
  AND NOT EXISTS (SELECT 1 FROM translations AS t WHERE t.key_id = f.key_id AND t.language = f.language AND t.value <> '')
GROUP BY f.language`, projectID).Scan(ctx, &rows)
	if err != nil {
		return nil, mapError(err)
	}
	out := make(map[string]int, len(rows))
	for _, r := range rows {
		out[r.Language] = r.N
	}
	return out, nil
}

func (t *tx) MemoryMatches(ctx context.Context, projectID, sourceLang, targetLang string, texts []string) (map[string]string, error) {
	out := map[string]string{}
	if len(texts) == 0 || (t.db.postgres && !t.hasIndex(ctx, "translations_value_trgm")) {
		return out, nil
	}
	lo, hi, err := t.keyRange(ctx, projectID)
	if err != nil || hi == 0 {
		return out, err
	}
	sample, err := t.textSample(ctx, lo, hi, true, []string{sourceLang})
	if err != nil {
		return nil, err
	}
	// Only an approved translation made against its key's current source text: a stale
	// approval was for other words.
	for _, text := range texts {
		if _, done := out[text]; done {
			continue
		}
		v, ok, err := t.memoryMatch(ctx, projectID, sourceLang, targetLang, text, sample)
		if err != nil {
			return nil, err
		}
		if ok {
			out[text] = v
		}
	}
	return out, nil
}
