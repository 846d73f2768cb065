package tools

import (
	"context"
	"strings"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// valueSyntax is the rule of a translation's syntax, beside model.GateValue (which knows
// no syntax), judged against its source in the project's syntax syn:
//
//   - a value with a syntax error its source has not (an unclosed brace, a plural closed
//     early) does not parse in the app: it is refused (CodeInvalidTranslation) with where
//     the error is, in a translator's words, and nothing is stored;
//   - a value that parses but would show end users raw syntax or make a formatter throw
//     (message.Breaks: an argument the source has not, a plural or select without other)
//     is held back: held says why; it is stored as a draft and readers keep getting the
//     row's last value that passed (model.TranslationState.Served);
//   - what still renders (a missing few, a dropped placeholder) passes: QA reports it.
//
// Source values are never judged: they are the contract translations are held to, and
// the project's syntax is detected from them, so what they contain is what the project's
// syntax tolerates (a sync stores what the code has).
func valueSyntax(key, source, value string, syn message.Syntax) (held string, err error) {
	for _, e := range message.AddedErrors(source, value, syn) {
		if e.Code != message.MissingOther { // parses; Breaks holds it back
			return "", model.Errorf(model.CodeInvalidTranslation, "value of %q refused: %s", model.Truncate(key, 40), message.Explain(value, e))
		}
	}
	if reason, broken := message.Breaks(source, value, syn); broken {
		return reason, nil
	}
	return "", nil
}

// mayBreak reports whether v has anything valueSyntax judges: syntax starts with one of
// these characters in every syntax lokal reads, so plain text costs no source lookup.
func mayBreak(v string) bool { return strings.ContainsAny(v, "{}%$") }

// judgeWrites applies valueSyntax to every target-language write of proj: it refuses the
// batch at the first value that does not parse, and marks held writes (Held, and the
// status needs_review, in place, so that the changes the caller reports from the slice
// say what was stored).
func (c *Catalog) judgeWrites(ctx context.Context, tx model.Tx, proj model.Project, writes []model.TranslationWrite) error {
	var need []int64
	sources := map[int64]string{}
	for _, w := range writes {
		if w.Language == proj.SourceLanguage {
			sources[w.KeyID] = w.Value // a key created by this same write
		}
	}
	for _, w := range writes {
		if w.Language != proj.SourceLanguage && mayBreak(w.Value) {
			if _, ok := sources[w.KeyID]; !ok {
				need = append(need, w.KeyID)
			}
		}
	}
	if len(need) == 0 && len(sources) == len(writes) {
		return nil
	}
	if len(need) > 0 {
		stored, err := tx.SourceValues(ctx, proj.SourceLanguage, need)
		if err != nil {
			return err
		}
		for id, v := range stored {
			sources[id] = v
		}
	}
	var syn message.Syntax
	for i := range writes {
		w := &writes[i]
		if w.Language == proj.SourceLanguage {
			continue
		}
		w.Held = ""
		if !mayBreak(w.Value) {
			continue
		}
		if syn == 0 {
			syn = c.ProjectSyntax(ctx, tx, proj)
		}
		held, err := valueSyntax(w.Key, sources[w.KeyID], w.Value, syn)
		if err != nil {
			return err
		}
		if held != "" {
			w.Held, w.Status = held, model.StatusNeedsReview
		}
	}
	return nil
}

// heldReason is why value, for the key keyID in language, would be held back ("" when it
// would be served); err when it would be refused.
func (c *Catalog) heldReason(ctx context.Context, tx model.Tx, proj model.Project, keyID int64, key, language, value string) (string, error) {
	w := []model.TranslationWrite{{KeyID: keyID, Key: key, Language: language, Value: value, Status: model.StatusApproved}}
	if err := c.judgeWrites(ctx, tx, proj, w); err != nil {
		return "", err
	}
	return w[0].Held, nil
}

// judgedTx is the transaction every catalogue write runs in (transact): its
// WriteTranslations holds the writes to valueSyntax first, so that no door, present or
// future, stores a value that does not parse or serves one that would break an app.
// Writes outside a project (none write translations) are not judged.
type judgedTx struct {
	model.Tx
	c       *Catalog
	project string
	proj    *model.Project
}

func (t *judgedTx) WriteTranslations(ctx context.Context, writes []model.TranslationWrite) error {
	if t.project != "" && len(writes) > 0 {
		if t.proj == nil {
			p, err := t.Tx.Project(ctx, t.project)
			if err != nil {
				return err
			}
			t.proj = &p
		}
		if err := t.c.judgeWrites(ctx, t.Tx, *t.proj, writes); err != nil {
			return err
		}
	}
	return t.Tx.WriteTranslations(ctx, writes)
}

// judging wraps tx in a judgedTx that keeps what else tx offers a chunked write.
func (c *Catalog) judging(tx model.Tx, project string) model.Tx {
	j := &judgedTx{Tx: tx, c: c, project: project}
	if st, ok := tx.(model.StagingTx); ok {
		return struct {
			*judgedTx
			model.StagingTx
		}{j, st}
	}
	return j
}

// servedRow is row as readers get it: its served value in place of a held-back one, nil
// when it has none to serve (the key is left out, and the app falls back to its source).
func servedRow(row *model.TranslationState) *model.TranslationState {
	if row == nil || row.Held == "" {
		return row
	}
	v, ok := row.Served()
	if !ok {
		return nil
	}
	r := *row
	r.Value, r.Held, r.ServedValue = v, "", nil
	return &r
}

// MaxHeldRows bounds the held-back rows a status lists; the count is whole.
const MaxHeldRows = 20

// HeldBackView is how many rows are held back from readers and, for the first of them,
// why and what readers get instead.
type HeldBackView struct {
	Count int       `json:"count"`
	Rows  []HeldRow `json:"rows"`
}

// HeldRow is one held-back row.
type HeldRow struct {
	Namespace string `json:"namespace_key"`
	Key       string `json:"translation_key"`
	Language  string `json:"language"`
	// Reason says why, quoting the value: "the translation uses {{cnt}}, which the source
	// does not have".
	Reason string `json:"reason"`
	// Readers says what readers get meanwhile: "the previous value" or "the source text".
	Readers string `json:"readers_get"`
}

// heldBack lists up to limit held-back rows of proj in language ("" for all) with their
// count.
func heldBack(ctx context.Context, tx model.Tx, proj model.Project, language string, limit int) (HeldBackView, error) {
	rows, total, err := tx.HeldBack(ctx, proj.ID, language, limit)
	out := HeldBackView{Count: total, Rows: []HeldRow{}}
	for _, r := range rows {
		out.Rows = append(out.Rows, HeldRow{Namespace: r.Namespace, Key: r.Key, Language: r.Row.Language, Reason: r.Row.Held,
			Readers: readersGet(&r.Row)})
	}
	return out, err
}

// readersGet says what readers get in place of a held-back row.
func readersGet(r *model.TranslationState) string {
	if _, ok := r.Served(); ok {
		return "the previous value"
	}
	return "the source text"
}
