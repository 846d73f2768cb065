package storage

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

func (t *tx) WriteTranslations(ctx context.Context, writes []model.TranslationWrite) error {
	t.indexed += len(writes)
	ts := now()
	actor := model.PrincipalFrom(ctx).Actor()
	var inserts, updates []translationRow
	var insertLabels []string // the history label of each insert
	var hist []historyRow
	pending := map[int64]bool{} // rows in updates: one statement must not update a row twice
	writeHist := func() error {
		if len(hist) == 0 {
			return nil
		}
		if t.db.postgres {
			if err := t.insertHistoryPostgres(ctx, hist); err != nil {
				return err
			}
		} else if err := t.insertHistorySQLite(ctx, hist); err != nil {
			return err
		}
		hist = hist[:0]
		return nil
	}
	flush := func() error {
		if len(updates) > 0 {
			if t.db.postgres {
				if err := t.updateTranslationsPostgres(ctx, updates, ts); err != nil {
					return err
				}
			} else if err := t.updateTranslationsSQLite(ctx, updates, ts); err != nil {
				return err
			}
			updates = updates[:0]
			clear(pending)
		}
		if len(inserts) > 0 && uniform(insertLabels) {
			// The rows' history is written from the rows in the database (on PostgreSQL by
			// the same statement), after the history of the updates, so that history ids keep
			// the order of the writes.
			t.db.analyze.inserted(len(inserts))
			if err := writeHist(); err != nil {
				return err
			}
			if t.db.postgres {
				if err := t.insertTranslationsPostgres(ctx, inserts, ts, insertLabels[0]); err != nil {
					return err
				}
			} else if err := t.insertTranslationsSQLite(ctx, inserts, ts); err != nil {
				return err
			} else if err := t.historyOfInsertedSQLite(ctx, insertedIDs(inserts), insertLabels[0]); err != nil {
				return err
			}
			inserts, insertLabels = inserts[:0], insertLabels[:0]
		}
		if len(inserts) > 0 {
			// Languages filled after their keys (an overwrite per language) grow the
			// table as much as new keys do: the planner's statistics must follow them too.
			t.db.analyze.inserted(len(inserts))
			if t.db.postgres {
				if err := t.insertTranslationsPostgres(ctx, inserts, ts, ""); err != nil {
					return err
				}
			} else if err := t.insertTranslationsSQLite(ctx, inserts, ts); err != nil {
				return err
			}
			for i := range inserts {
				r := &inserts[i]
				hist = append(hist, historyRow{TranslationID: r.ID, KeyID: r.KeyID, Language: r.Language, Change: insertLabels[i],
					Value: r.Value, Status: r.Status, DoNotTranslate: r.DoNotTranslate, LanguageLocked: r.LanguageLocked,
					SourceVersion: r.SourceVersion, Actor: actor, CreatedAt: ts})
			}
			inserts, insertLabels = inserts[:0], insertLabels[:0]
		}
		return writeHist()
	}
	for _, w := range writes {
		if w.Status == "" || w.Change == "" {
			// The catalogue owns the status rule and names every change; a write without
			// them is a bug there, not something to guess here.
			return fmt.Errorf("writing translation of key %d: status and change are required", w.KeyID)
		}
		// The last line of the value gate: no door stores what it refuses, on either database.
		if err := model.GateValue(w.Key, w.Value); err != nil {
			return err
		}
		if w.ID != 0 && pending[w.ID] {
			if err := flush(); err != nil {
				return err
			}
		}
		row := translationRow{ID: w.ID, KeyID: w.KeyID, Language: w.Language, Value: w.Value, Status: w.Status,
			DoNotTranslate: w.DoNotTranslate, LanguageLocked: w.LanguageLocked, SourceVersion: w.SourceVersion,
			UpdatedBy: actor, CreatedAt: ts, UpdatedAt: ts, Held: w.Held, Incomplete: message.FamilyIncomplete(w.Language, w.Value)}
		if w.ID == 0 {
			inserts = append(inserts, row)
			label := string(model.ChangeValueCreated)
			if w.HistoryChange != "" {
				label = w.HistoryChange
			}
			insertLabels = append(insertLabels, label)
		} else {
			updates = append(updates, row)
			pending[w.ID] = true
			label := string(w.Change)
			if w.HistoryChange != "" {
				label = w.HistoryChange
			}
			hist = append(hist, historyRow{TranslationID: w.ID, KeyID: w.KeyID, Language: w.Language, Change: label,
				Value: w.Value, Status: w.Status, DoNotTranslate: w.DoNotTranslate, LanguageLocked: w.LanguageLocked,
				SourceVersion: w.SourceVersion, Actor: actor, CreatedAt: ts})
		}
		if len(inserts) >= t.batch() || len(hist) >= t.batch() {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

func insertedIDs(rows []translationRow) []int64 {
	ids := make([]int64, len(rows))
	for i := range rows {
		ids[i] = rows[i].ID
	}
	return ids
}

func stateOf(r translationRow) model.TranslationState {
	return model.TranslationState{ID: r.ID, Language: r.Language, Value: r.Value, Status: r.Status, DoNotTranslate: r.DoNotTranslate,
		LanguageLocked: r.LanguageLocked, SourceVersion: r.SourceVersion, UpdatedBy: r.UpdatedBy, UpdatedAt: r.UpdatedAt,
		Held: r.Held, ServedValue: r.ServedValue}
}

func (t *tx) KeyTranslations(ctx context.Context, keyID int64) ([]model.TranslationState, error) {
	var rows []translationRow
	if err := t.tx.NewSelect().Model(&rows).Where("key_id = ?", keyID).Order("language").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.TranslationState, len(rows))
	for i, r := range rows {
		out[i] = stateOf(r)
	}
	return out, nil
}

type projectTranslationRow struct {
	Namespace     string `bun:"namespace"`
	Key           string `bun:"key"`
	KeyID         int64  `bun:"key_id"`
	SourceVersion int64  `bun:"key_version"`
	translationRow
}

func (t *tx) projectTranslations(ctx context.Context, f model.SearchFilter) ([]model.ProjectTranslation, error) {
	q := t.tx.NewSelect().TableExpr("translations AS t").
		ColumnExpr("n.key AS namespace, k.key AS key, k.id AS key_id, k.source_version AS key_version").
		ColumnExpr("t.id, t.language, t.value, t.status, t.do_not_translate, t.language_locked, t.source_version, t.updated_by, t.updated_at, t.held, t.served_value").
		Join("JOIN translation_keys AS k ON k.id = t.key_id").
		Join("JOIN namespaces AS n ON n.id = k.namespace_id").
		Where("n.project_id = ?", f.ProjectID).Where("NOT k.hidden")
	if f.Language != "" {
		q = q.Where("t.language = ?", f.Language)
	}
	if f.Status != "" {
		q = q.Where("t.status = ?", f.Status)
	}
	if f.KeyContains != "" {
		q = q.Where(t.db.lower()+`(k.key) LIKE ? ESCAPE '\'`, likePattern(f.KeyContains))
	}
	if f.ValueContains != "" {
		q = q.Where(t.db.lower()+`(t.value) LIKE ? ESCAPE '\'`, likePattern(f.ValueContains))
	}
	q = q.OrderExpr("n.key, k.key, t.language, t.id")
	if f.Limit > 0 {
		q = q.Limit(int64(f.Limit)).Offset(int64(f.Offset))
	}
	return scanProjectTranslations(ctx, q)
}

// scanProjectTranslations runs q, a select of projectTranslationRow columns, into the
// model's rows.
func scanProjectTranslations(ctx context.Context, q *bun.SelectQuery) ([]model.ProjectTranslation, error) {
	var rows []projectTranslationRow
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.ProjectTranslation, len(rows))
	for i, r := range rows {
		out[i] = model.ProjectTranslation{Namespace: r.Namespace, Key: r.Key, KeyID: r.KeyID, SourceVersion: r.SourceVersion, Row: stateOf(r.translationRow)}
	}
	return out, nil
}

// likePattern matches s anywhere, case-insensitively, with LIKE's wildcards escaped.
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(s)) + "%"
}

func (t *tx) ProjectTranslations(ctx context.Context, projectID, language string) ([]model.ProjectTranslation, error) {
	return t.projectTranslations(ctx, model.SearchFilter{ProjectID: projectID, Language: language})
}

// searchCandidates bounds the rows a substring index may name for search to read them
// all and sort them; past it the search walks the project in order instead, where a term
// that common fills a page within a few rows. Atomic: tests lower it while other tests
// search (both ways give the same rows).
var searchCandidates = func() *atomic.Int64 {
	var n atomic.Int64
	n.Store(5000)
	return &n
}()

// Search walks the project's rows in (key id, language) order from the cursor, which an
// index serves (translations_key_language, or translations_status_key for a status), so
// a page costs its own rows and never a sort of the project. For a substring of three or
// more characters, when the next searchWindow keys do not fill the page, the trigram
// index says which rows hold it: when few do, only those are read and sorted. Shorter
// substrings, which trigrams cannot narrow, are checked row by row during the walk (a
// rare one reads the whole project). Every substring is also checked row by row (LIKE,
// strpos on PostgreSQL), so the indexes only ever narrow, never decide.
//
// A substring under three characters with nothing else narrowing is looked for in at most
// searchScan key ids from the cursor per call: past them Search returns what it found
// and through, the last key id it looked at, to continue after (0 when it looked as far as
// the page needed). A rare two-letter term costs each call its window, never the project.
func (t *tx) Search(ctx context.Context, f model.SearchFilter) (rows []model.ProjectTranslation, through int64, err error) {
	lo, hi, err := t.keyRange(ctx, f.ProjectID)
	if err != nil || hi == 0 {
		return nil, 0, err
	}
	indexed := utf8.RuneCountInString(f.ValueContains) >= 3 || utf8.RuneCountInString(f.KeyContains) >= 3
	if (f.ValueContains != "" || f.KeyContains != "") && (f.Language != "" || f.Status != "") && f.Offset == 0 && f.Limit > 0 {
		// A language or status with few rows left in the project (none, or a handful to
		// review) is read whole in its own index: neither a window nor a substring index,
		// which names rows of every language and status (a word of many en rows, in sv
		// without rows: 0.5 s on SQLite; a word of every de row, needs_review: 0.2 s).
		from := max(lo, f.AfterKeyID)
		n, err := t.filteredRows(ctx, f, from, hi, searchCandidates.Load()+1)
		if err != nil || n == 0 {
			return nil, 0, err
		}
		if n <= searchCandidates.Load() {
			rows, err := t.walkRows(ctx, f, lo, hi, nil, nil, false)
			return rows, 0, err
		}
	}
	if !indexed && (f.ValueContains != "" || f.KeyContains != "") && f.Offset == 0 && f.Limit > 0 {
		span := t.scanSpan()
		// The window starts at the cursor's key (its other languages) and always moves past it.
		from := max(lo, f.AfterKeyID)
		if end := max(from+span-1, f.AfterKeyID+1); end < hi {
			rows, err := t.searchRows(ctx, f, from, end, nil, nil)
			if err != nil || len(rows) >= f.Limit {
				return rows, 0, err
			}
			return rows, end, nil
		}
	}
	return t.search(ctx, f, lo, hi, indexed)
}

// searchScan is how many key ids one call of Search reads on PostgreSQL for a substring
// too short for the trigram indexes, and 2/5 of it on SQLite: about 20 ms of rows on the
// 2-core development machine (a two-letter term that matches nothing read 1,000,000 keys
// in 1 s on PostgreSQL, 100,000 in 252 ms on SQLite).
// Atomic: tests lower it while other tests search.
var searchScan = func() *atomic.Int64 {
	var n atomic.Int64
	n.Store(20000)
	return &n
}()

// search is Search within keys lo to hi once a short substring's window is not in the way;
// through as Search's.
func (t *tx) search(ctx context.Context, f model.SearchFilter, lo, hi int64, indexed bool) ([]model.ProjectTranslation, int64, error) {
	// Samples of the project's key names and values say which substrings are common.
	byKey, byValue := utf8.RuneCountInString(f.KeyContains) >= 3, utf8.RuneCountInString(f.ValueContains) >= 3
	var keySample, valueSample []string
	var err error
	if byKey {
		if keySample, err = t.textSample(ctx, lo, hi, false, nil); err != nil {
			return nil, 0, err
		}
	}
	if byValue {
		if valueSample, err = t.textSample(ctx, lo, hi, true, languagesOf(f.Language)); err != nil {
			return nil, 0, err
		}
	}
	from := max(lo, f.AfterKeyID)
	paged := indexed && f.Offset == 0 && f.Limit > 0
	// spread: a text common in the project but not in the rows of this language or status.
	// The index names its rows in every language, and narrowing them to these reads them
	// all (a word of every de row, searched in fr at 1,000,000 keys: 0.4-0.7 s on SQLite,
	// 1.2 s on PostgreSQL): those rows are walked a window of keys per call instead.
	spread := false
	if paged && byValue && (f.Language != "" || f.Status != "") && !common(f.ValueContains, valueSample) {
		all, err := t.textSample(ctx, lo, hi, true, nil)
		if err != nil {
			return nil, 0, err
		}
		spread = common(f.ValueContains, all)
	}
	var window []model.ProjectTranslation
	var windowEnd int64 // the end of a window of keys walked when the name alone is in too many keys
	if paged && byKey && !rarePiece(f.KeyContains, keySample) {
		// A name of words common in the project: the index reads long lists for it, and it
		// may be in too many keys to narrow (element_42, one key in 100 at 1,000,000 keys:
		// its trigram query cost 40-110 ms on SQLite, 35-130 ms on PostgreSQL, for nothing).
		// A name is checked once per key, so a window of keys costs what a short
		// substring's does and fills the page of a name in more than a few keys in 10,000.
		// The index is asked when the window says it can narrow the name.
		rows, end, err := t.windowRows(ctx, f, from, hi)
		if err != nil || end == 0 {
			return rows, 0, err
		}
		var named int64
		if err := t.contains(t.tx.NewSelect().TableExpr("translation_keys AS k").ColumnExpr("COUNT(*)").
			Where("k.id BETWEEN ? AND ?", from, end).Where("NOT k.hidden"), "k.key", f.KeyContains).Scan(ctx, &named); err != nil {
			return nil, 0, mapError(err)
		}
		if named*(hi-from+1) > searchCandidates.Load()*(end-from+1) {
			window, windowEnd = rows, end
		}
	} else if spread {
		return t.windowRows(ctx, f, from, hi)
	} else if paged && (!byValue || common(f.ValueContains, valueSample)) {
		// A common substring fills a page within the next few keys, and the index's answer
		// for it costs more than that walk: look there first. A rare one would not fill it.
		rows, err := t.searchRows(ctx, f, from, min(hi, from+searchWindow), nil, nil)
		if err != nil || len(rows) >= f.Limit {
			return rows, 0, err
		}
	}
	var rowIDs, keyIDs []int64
	narrowed := false
	if byValue && !spread {
		ids, ok, err := t.valueCandidates(ctx, "t.id", f.ValueContains, valueSample, languagesOf(f.Language), f.Status, lo, hi)
		if err != nil {
			return nil, 0, err
		}
		rowIDs, narrowed = ids, ok
	}
	if !narrowed && windowEnd > 0 {
		// No index narrows the rows and the name is in too many keys to walk them all in
		// one call: what the window held, and on after it next call.
		return window, windowEnd, nil
	}
	if !narrowed && byKey {
		ids, ok, err := t.keyCandidates(ctx, f.KeyContains, keySample, lo, hi)
		if err != nil {
			return nil, 0, err
		}
		keyIDs, narrowed = ids, ok
	}
	if narrowed && len(rowIDs) == 0 && len(keyIDs) == 0 {
		return nil, 0, nil
	}
	rows, err := t.searchRows(ctx, f, lo, hi, rowIDs, keyIDs)
	return rows, 0, err
}

// scanSpan is how many key ids one call walks for a substring no index narrows (searchScan).
func (t *tx) scanSpan() int64 {
	span := searchScan.Load()
	if !t.db.postgres {
		span = max(1, span*2/5) // SQLite reads a row about two and a half times as slowly
	}
	return span
}

// windowRows reads the page of f among the next window of keys from from (scanSpan of
// them, or up to hi when that is nearer); end is the window's last key when the page is
// not full there and keys are left after it, else 0.
func (t *tx) windowRows(ctx context.Context, f model.SearchFilter, from, hi int64) (rows []model.ProjectTranslation, end int64, err error) {
	end = max(from+t.scanSpan()-1, f.AfterKeyID+1)
	if end >= hi {
		rows, err = t.searchRows(ctx, f, from, hi, nil, nil)
		return rows, 0, err
	}
	if rows, err = t.searchRows(ctx, f, from, end, nil, nil); err != nil || len(rows) >= f.Limit {
		return rows, 0, err
	}
	return rows, end, nil
}

// searchWindow is how many key ids Search walks before it asks a substring index.
const searchWindow = 1000

// searchRows is the page of rows f selects among keys lo to hi, only among rowIDs or
// keyIDs when given.
func (t *tx) searchRows(ctx context.Context, f model.SearchFilter, lo, hi int64, rowIDs, keyIDs []int64) ([]model.ProjectTranslation, error) {
	return t.walkRows(ctx, f, lo, hi, rowIDs, keyIDs, f.KeyContains != "")
}

// filteredRows counts the rows of f's language and status (one of them at least) among
// keys lo to hi, up to limit, in the index that orders them.
func (t *tx) filteredRows(ctx context.Context, f model.SearchFilter, lo, hi, limit int64) (int64, error) {
	table := "translations"
	if !t.db.postgres {
		if f.Language != "" {
			table += " INDEXED BY translations_language_status"
		} else {
			table += " INDEXED BY translations_status_key"
		}
	}
	q := t.tx.NewSelect().TableExpr(table).ColumnExpr("1").Where("key_id BETWEEN ? AND ?", lo, hi).Limit(int64(limit))
	if f.Language != "" {
		q = q.Where("language = ?", f.Language)
	}
	if f.Status != "" {
		q = q.Where("status = ?", f.Status)
	}
	var n int64
	if err := t.tx.NewSelect().TableExpr("(?) AS r", q).ColumnExpr("COUNT(*)").Scan(ctx, &n); err != nil {
		return 0, mapError(err)
	}
	return n, nil
}

// walkRows is searchRows; byKeys walks the keys for a key name (searchKeys), else the
// rows of the language or status.
func (t *tx) walkRows(ctx context.Context, f model.SearchFilter, lo, hi int64, rowIDs, keyIDs []int64, byKeys bool) ([]model.ProjectTranslation, error) {
	walk := len(rowIDs) == 0 && len(keyIDs) == 0
	if walk && byKeys {
		return t.searchKeys(ctx, f, lo, hi)
	}
	if walk && f.Language != "" && f.Status == "" && f.Limit > 0 && !t.db.postgres {
		return t.searchStatuses(ctx, f, lo, hi)
	}
	// The translations stay outermost, in index order, so a page reads its own rows: SQLite
	// by CROSS JOIN; PostgreSQL by a LATERAL key lookup with a LIMIT, which it cannot
	// flatten. Left to its estimates (stale after an import) it looped over every key of
	// the project for language nb + status approved (160 ms at 100,000 keys).
	keys := "CROSS JOIN translation_keys AS k ON k.id = t.key_id"
	if t.db.postgres {
		keys = "CROSS JOIN LATERAL (SELECT id, key, namespace_id, hidden, source_version FROM translation_keys WHERE id = t.key_id LIMIT 1) AS k"
	}
	join := "CROSS JOIN"
	if t.db.postgres {
		join = "JOIN"
	}
	// Candidates are read by id and sorted; + keeps SQLite off translations_key_language for
	// the key range and the cursor, which with statistics from a smaller table it walked in
	// order instead, reading the project up to the page's last candidate.
	keyID := "t.key_id"
	if !t.db.postgres && (len(rowIDs) > 0 || len(keyIDs) > 0) {
		keyID = "+t.key_id"
	}
	// A walk of one status, or of one language and status, reads only their rows, in key
	// order (translations_status_key, translations_language_status). SQLite, told nothing,
	// walked translations_key_language for a status that almost no row has: the whole
	// project (needs_review at 1,000,000 keys: 1.4-5.9 s).
	table := "translations AS t"
	if !t.db.postgres && len(rowIDs) == 0 && len(keyIDs) == 0 && f.Status != "" {
		if f.Language != "" {
			table += " INDEXED BY translations_language_status"
		} else {
			table += " INDEXED BY translations_status_key"
		}
	}
	q := t.tx.NewSelect().TableExpr(table).
		ColumnExpr("n.key AS namespace, k.key AS key, k.id AS key_id, k.source_version AS key_version").
		ColumnExpr("t.id, t.language, t.value, t.status, t.do_not_translate, t.language_locked, t.source_version, t.updated_by, t.updated_at, t.held, t.served_value").
		Join(keys).
		Join(join+" namespaces AS n ON n.id = k.namespace_id").
		Where("n.project_id = ?", f.ProjectID).Where("NOT k.hidden").
		Where(keyID+" BETWEEN ? AND ?", lo, hi)
	if len(rowIDs) > 0 {
		q = q.Where("t.id IN (?)", bun.In(rowIDs))
	}
	if len(keyIDs) > 0 {
		q = q.Where("t.key_id IN (?)", bun.In(keyIDs))
	}
	if f.Language != "" {
		q = q.Where("t.language = ?", f.Language)
	}
	if f.Status != "" {
		q = q.Where("t.status = ?", f.Status)
	}
	if f.KeyContains != "" {
		q = t.contains(q, "k.key", f.KeyContains)
	}
	if f.ValueContains != "" {
		q = t.contains(q, "t.value", f.ValueContains)
	}
	if f.AfterKeyID > 0 {
		// The first term bounds the index range; the second leaves the rows of the cursor's
		// own key up to its language.
		q = q.Where(keyID+" >= ?", f.AfterKeyID).Where("(t.key_id > ? OR t.language > ?)", f.AfterKeyID, f.AfterLanguage)
	}
	q = q.OrderExpr("t.key_id, t.language")
	if f.Limit > 0 {
		q = q.Limit(int64(f.Limit)).Offset(int64(f.Offset))
	}
	if t.db.postgres && len(rowIDs) == 0 && len(keyIDs) == 0 && f.Limit > 0 {
		return t.walked(ctx, q)
	}
	return scanProjectTranslations(ctx, q)
}

// searchKeys is searchRows of a key name without candidates: a walk of the keys in id
// order that looks up the rows of those whose name holds the substring, and only theirs.
// Walking the rows instead checked the name once per row and read rows of keys it then
// dropped (a two-letter name in a window of 20,000 keys: 66 ms on PostgreSQL, against
// the keys' own 10 ms).
func (t *tx) searchKeys(ctx context.Context, f model.SearchFilter, lo, hi int64) ([]model.ProjectTranslation, error) {
	// The keys stay outermost, in id order, then each key's rows in language order
	// (translations_key_language), which is the search's order: no sort.
	q := t.tx.NewSelect().TableExpr("translation_keys AS k").
		ColumnExpr("n.key AS namespace, k.key AS key, k.id AS key_id, k.source_version AS key_version").
		ColumnExpr("t.id, t.language, t.value, t.status, t.do_not_translate, t.language_locked, t.source_version, t.updated_by, t.updated_at, t.held, t.served_value")
	if t.db.postgres {
		q = q.Join("JOIN namespaces AS n ON n.id = k.namespace_id").Join("JOIN translations AS t ON t.key_id = k.id")
	} else {
		q = q.Join("CROSS JOIN namespaces AS n ON n.id = k.namespace_id").
			Join("CROSS JOIN translations AS t INDEXED BY translations_key_language ON t.key_id = k.id")
	}
	q = q.Where("n.project_id = ?", f.ProjectID).Where("NOT k.hidden").Where("k.id BETWEEN ? AND ?", lo, hi)
	q = t.contains(q, "k.key", f.KeyContains)
	if f.Language != "" {
		q = q.Where("t.language = ?", f.Language)
	}
	if f.Status != "" {
		q = q.Where("t.status = ?", f.Status)
	}
	if f.ValueContains != "" {
		q = t.contains(q, "t.value", f.ValueContains)
	}
	if f.AfterKeyID > 0 {
		q = q.Where("k.id >= ?", f.AfterKeyID).Where("(k.id > ? OR t.language > ?)", f.AfterKeyID, f.AfterLanguage)
	}
	q = q.OrderExpr("k.id, t.language")
	if f.Limit > 0 {
		q = q.Limit(int64(f.Limit)).Offset(int64(f.Offset))
		if t.db.postgres {
			return t.walked(ctx, q)
		}
	}
	return scanProjectTranslations(ctx, q)
}

// searchStatuses is searchRows of one language without candidates on SQLite: a walk of
// each of the language's statuses in translations_language_status, merged by key. The
// statuses are those the index holds for the language, each found by one probe. (On
// PostgreSQL that index orders a language's rows by key: one walk.)
func (t *tx) searchStatuses(ctx context.Context, f model.SearchFilter, lo, hi int64) ([]model.ProjectTranslation, error) {
	probe := "translations"
	if !t.db.postgres {
		probe += " INDEXED BY translations_language_status"
	}
	var rows []model.ProjectTranslation
	for status := ""; ; {
		var next []string
		if err := t.tx.NewSelect().TableExpr(probe).Column("status").
			Where("language = ? AND status > ?", f.Language, status).OrderExpr("status").Limit(1).
			Scan(ctx, &next); err != nil {
			return nil, mapError(err)
		}
		if len(next) == 0 {
			break
		}
		status = next[0]
		// Each walk gives the rows the merged page may take from it: up to its end.
		g := f
		g.Status, g.Offset, g.Limit = status, 0, f.Offset+f.Limit
		page, err := t.walkRows(ctx, g, lo, hi, nil, nil, false)
		if err != nil {
			return nil, err
		}
		rows = append(rows, page...)
	}
	// One language: a key has one row, and key order is the search's order.
	slices.SortFunc(rows, func(a, b model.ProjectTranslation) int { return cmp.Compare(a.KeyID, b.KeyID) })
	if f.Offset >= len(rows) {
		return nil, nil
	}
	return rows[f.Offset:min(len(rows), f.Offset+f.Limit)], nil
}

// walked runs a page of searchRows without candidates on PostgreSQL in key order (inKeyOrder).
// With fresh statistics it still chose to read and sort every row of the language (nb +
// approved at 100,000 keys: 49 ms against 1.4 ms for the walk): it expects the join to the
// project's keys to drop most rows, and then a LIMIT saves nothing.
func (t *tx) walked(ctx context.Context, q *bun.SelectQuery) ([]model.ProjectTranslation, error) {
	var rows []model.ProjectTranslation
	err := t.inKeyOrder(ctx, func() error {
		var err error
		rows, err = scanProjectTranslations(ctx, q)
		return err
	})
	return rows, err
}

// inKeyOrder runs a query that pages in an index's order on PostgreSQL with sequential
// scans and sorts priced out, so that it walks the index and stops at the page's end
// whatever the statistics say (none yet, or from before an import).
func (t *tx) inKeyOrder(ctx context.Context, run func() error) error {
	if !t.db.postgres {
		return run()
	}
	if _, err := t.tx.ExecContext(ctx, "SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off"); err != nil {
		return mapError(err)
	}
	err := run()
	if _, rerr := t.tx.ExecContext(ctx, "SET LOCAL enable_seqscan = on; SET LOCAL enable_sort = on"); rerr != nil && err == nil {
		err = mapError(rerr)
	}
	return err
}

// contains adds the condition that col holds sub, case folded. PostgreSQL answers LIKE
// '%ab%' from a trigram index, which the walk must not use: under three characters there
// is no trigram and it read the index whole (100 ms at 100,000 keys) before a row of the
// walk, and a common word's bitmap costs more than the page (60 ms for a second page of
// "team"). The candidates already came from the index; strpos, which no index serves,
// reads only the rows the walk reaches.
func (t *tx) contains(q *bun.SelectQuery, col, sub string) *bun.SelectQuery {
	if t.db.postgres {
		return q.Where("strpos(LOWER("+col+"), ?) > 0", strings.ToLower(sub))
	}
	return q.Where(t.db.lower()+"("+col+`) LIKE ? ESCAPE '\'`, likePattern(sub))
}

// valueCandidates returns col (t.id, or t.key_id for their keys) of the rows in the key
// range whose value may contain sub and that are in one of languages (any when none) and
// of status (any when ""), and whether they are few enough to read instead of walking
// (false also when PostgreSQL has no trigram index). Search and the editor's text filter
// both narrow through it. The index is asked for the words of sub rare in sample
// (textSample's values; fetched when nil), and the rows it names are checked for sub.
func (t *tx) valueCandidates(ctx context.Context, col, sub string, sample, languages []string, status string, lo, hi int64) ([]int64, bool, error) {
	if t.db.postgres && !t.hasIndex(ctx, "translations_value_trgm") {
		return nil, false, nil
	}
	if sample == nil {
		var err error
		if sample, err = t.textSample(ctx, lo, hi, true, languages); err != nil {
			return nil, false, err
		}
	}
	q := t.trigramQuery("translations_trgm", "translations AS t ON t.id = g.rowid", "t.value", sub, indexPieces(sub, sample)).ColumnExpr(col).
		Where("t.key_id BETWEEN ? AND ?", lo, hi)
	if len(languages) > 0 {
		q = q.Where("t.language IN (?)", bun.In(languages))
	}
	if status != "" {
		q = q.Where("t.status = ?", status)
	}
	return t.candidates(ctx, q)
}

// trigramQuery selects the rows of a table whose col holds every one of pieces, as its
// trigram index answers (fts, SQLite's FTS5 table over it, joined by on), and sub when
// pieces are not sub alone.
func (t *tx) trigramQuery(fts, on, col, sub string, pieces []string) *bun.SelectQuery {
	if len(pieces) == 0 {
		pieces = []string{sub} // never an empty MATCH, nor pieces[0] of nothing
	}
	table, cond, _ := strings.Cut(on, " ON ")
	q := t.tx.NewSelect()
	if t.db.postgres {
		rows, args := pgTrigramRows(fts, table, col, pieces)
		q = q.TableExpr(rows, args...).Join("JOIN " + on)
		for _, p := range pieces {
			q = q.Where("LOWER("+col+`) LIKE ? ESCAPE '\'`, likePattern(p))
		}
	} else {
		phrases := make([]string, len(pieces))
		for i, p := range pieces {
			phrases[i] = ftsPhrase(p)
		}
		// CROSS JOIN: the index's rows outermost. Given a language and status, SQLite drove
		// from translations_language_status instead and asked the index once per row (a
		// word of every de row, in fr and approved at 1,000,000 keys: 66-101 s).
		q = q.TableExpr(fts+" AS g").Join("CROSS JOIN "+table+" ON "+cond).Where(fts+" MATCH ?", strings.Join(phrases, " AND "))
	}
	if len(pieces) > 1 || pieces[0] != sub {
		q = t.contains(q, col, sub)
	}
	return q
}

func languagesOf(language string) []string {
	if language == "" {
		return nil
	}
	return []string{language}
}

// textCandidates returns the keys in lo to hi whose name, or whose value in one of
// languages, may contain sub, sorted, and whether the trigram indexes narrowed them to few
// enough; indexed is false when they cannot help (sub shorter than three characters, or
// no pg_trgm), true with ok false when sub is too common to narrow.
func (t *tx) textCandidates(ctx context.Context, sub string, languages []string, lo, hi int64) (ids []int64, indexed, ok bool, err error) {
	if utf8.RuneCountInString(sub) < 3 || (t.db.postgres && (!t.hasIndex(ctx, "keys_key_trgm") || !t.hasIndex(ctx, "translations_value_trgm"))) {
		return nil, false, false, nil
	}
	byKey, ok, err := t.keyCandidates(ctx, sub, nil, lo, hi)
	if err != nil || !ok {
		return nil, true, false, err
	}
	byValue, ok, err := t.valueCandidates(ctx, "t.key_id", sub, nil, languages, "", lo, hi)
	if err != nil || !ok {
		return nil, true, false, err
	}
	ids = append(byKey, byValue...)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if len(ids) > int(searchCandidates.Load()) {
		return nil, true, false, nil
	}
	return ids, true, true, nil
}

// keyCandidates is valueCandidates for the keys whose name may contain s.
func (t *tx) keyCandidates(ctx context.Context, s string, sample []string, lo, hi int64) ([]int64, bool, error) {
	if t.db.postgres && !t.hasIndex(ctx, "keys_key_trgm") {
		return nil, false, nil
	}
	if sample == nil {
		var err error
		if sample, err = t.textSample(ctx, lo, hi, false, nil); err != nil {
			return nil, false, err
		}
	}
	q := t.trigramQuery("translation_keys_trgm", "translation_keys AS k ON k.id = g.rowid", "k.key", s, indexPieces(s, sample)).Column("k.id")
	return t.candidates(ctx, q.Where("k.id BETWEEN ? AND ?", lo, hi).Where("NOT k.hidden"))
}

func (t *tx) candidates(ctx context.Context, q *bun.SelectQuery) ([]int64, bool, error) {
	var ids []int64
	limit := int(searchCandidates.Load())
	if err := q.Limit(int64(limit)+1).Scan(ctx, &ids); err != nil {
		return nil, false, mapError(err)
	}
	if len(ids) > limit {
		return nil, false, nil
	}
	return ids, true, nil
}

// hasIndex reports whether the index exists: pg_trgm may have been refused to the
// migration, and then a substring is checked row by row.
func (t *tx) hasIndex(ctx context.Context, name string) bool {
	var ok bool
	err := t.tx.NewRaw("SELECT to_regclass(?) IS NOT NULL", name).Scan(ctx, &ok)
	return err == nil && ok
}

// ftsPhrase is s as one FTS5 phrase: a trigram table matches it anywhere, case folded.
func ftsPhrase(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// KeyPage serves paged exports: the (namespace_id, id) index walks the namespace from
// afterID, and rows are handed over as they arrive, so that memory holds one key at a time.
func (t *tx) KeyPage(ctx context.Context, ns model.Namespace, sourceLanguage, language string, afterID int64, limit int, visit func(model.KeyState) bool) error {
	rows, err := t.tx.QueryContext(ctx, `SELECT k.id, k.key, k.hidden, k.source_version,
  s.id, s.value, s.status, s.do_not_translate, s.language_locked, s.source_version, s.updated_by, s.updated_at,
  t.id, t.value, t.status, t.do_not_translate, t.language_locked, t.source_version, t.updated_by, t.updated_at, t.held, t.served_value
FROM translation_keys AS k
LEFT JOIN translations AS s ON s.key_id = k.id AND s.language = ?
LEFT JOIN translations AS t ON t.key_id = k.id AND t.language = ?
WHERE k.namespace_id = ? AND k.id > ? AND NOT k.hidden
ORDER BY k.id LIMIT ?`, sourceLanguage, language, ns.ID, afterID, limit)
	if err != nil {
		return mapError(err)
	}
	defer rows.Close()
	for rows.Next() {
		var r keyStateRow
		if err := rows.Scan(&r.ID, &r.Key, &r.Hidden, &r.SourceVersion,
			&r.SID, &r.SValue, &r.SStatus, &r.SDNT, &r.SLocked, &r.SVersion, &r.SBy, &r.SUpdated,
			&r.TID, &r.TValue, &r.TStatus, &r.TDNT, &r.TLocked, &r.TVersion, &r.TBy, &r.TUpdated, &r.THeld, &r.TServed); err != nil {
			return mapError(err)
		}
		k := model.KeyState{ID: r.ID, Key: r.Key, Hidden: r.Hidden, SourceVersion: r.SourceVersion}
		if r.SID != nil {
			k.Source = &model.TranslationState{ID: *r.SID, Language: sourceLanguage, Value: deref(r.SValue), Status: deref(r.SStatus),
				DoNotTranslate: deref(r.SDNT), LanguageLocked: deref(r.SLocked), SourceVersion: r.SVersion, UpdatedBy: deref(r.SBy), UpdatedAt: deref(r.SUpdated)}
		}
		if r.TID != nil {
			k.Value = &model.TranslationState{ID: *r.TID, Language: language, Value: deref(r.TValue), Status: deref(r.TStatus),
				DoNotTranslate: deref(r.TDNT), LanguageLocked: deref(r.TLocked), SourceVersion: r.TVersion, UpdatedBy: deref(r.TBy), UpdatedAt: deref(r.TUpdated),
				Held: deref(r.THeld), ServedValue: r.TServed}
		}
		if !visit(k) {
			return nil
		}
	}
	return mapError(rows.Err())
}

// sourceValuesBatch bounds the key ids one SourceValues statement names.
const sourceValuesBatch = 10000

func (t *tx) SourceValues(ctx context.Context, sourceLanguage string, keyIDs []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(keyIDs))
	for start := 0; start < len(keyIDs); start += sourceValuesBatch {
		part := keyIDs[start:min(start+sourceValuesBatch, len(keyIDs))]
		in, arg := t.idList(part)
		rows, err := t.tx.QueryContext(ctx, "SELECT key_id, value FROM translations WHERE language = ? AND key_id IN "+in, sourceLanguage, arg)
		if err != nil {
			return nil, mapError(err)
		}
		for rows.Next() {
			var id int64
			var v string
			if err := rows.Scan(&id, &v); err != nil {
				rows.Close()
				return nil, mapError(err)
			}
			out[id] = v
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, mapError(err)
		}
	}
	return out, nil
}

func (t *tx) HeldBack(ctx context.Context, projectID, language string, limit int) ([]model.ProjectTranslation, int, error) {
	q := func() *bun.SelectQuery {
		q := t.tx.NewSelect().TableExpr("translations AS t").
			Join("JOIN translation_keys AS k ON k.id = t.key_id").
			Join("JOIN namespaces AS n ON n.id = k.namespace_id").
			Where("n.project_id = ?", projectID).Where("NOT k.hidden").Where("t.held <> ''")
		if language != "" {
			q = q.Where("t.language = ?", language)
		}
		return q
	}
	n, err := q().Count(ctx)
	total := int(n)
	if err != nil || total == 0 || limit <= 0 {
		return nil, total, mapError(err)
	}
	rows, err := scanProjectTranslations(ctx, q().
		ColumnExpr("n.key AS namespace, k.key AS key, k.id AS key_id, k.source_version AS key_version").
		ColumnExpr("t.id, t.language, t.value, t.status, t.do_not_translate, t.language_locked, t.source_version, t.updated_by, t.updated_at, t.held, t.served_value").
		OrderExpr("n.key, k.key, t.language").Limit(int64(limit)))
	return rows, total, err
}

func (t *tx) HeldCounts(ctx context.Context, projectID, language string) ([]model.HeldCount, error) {
	q := t.tx.NewSelect().TableExpr("translations AS t").
		ColumnExpr("n.key AS namespace, t.language AS language, COUNT(*) AS count").
		Join("JOIN translation_keys AS k ON k.id = t.key_id").
		Join("JOIN namespaces AS n ON n.id = k.namespace_id").
		Where("t.held <> ''").Where("n.project_id = ?", projectID).Where("NOT k.hidden")
	if language != "" {
		q = q.Where("t.language = ?", language)
	}
	var rows []struct {
		Namespace string `bun:"namespace"`
		Language  string `bun:"language"`
		Count     int    `bun:"count"`
	}
	if err := q.GroupExpr("n.key, t.language").OrderExpr("n.key, t.language").Scan(ctx, &rows); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.HeldCount, len(rows))
	for i, r := range rows {
		out[i] = model.HeldCount{Namespace: r.Namespace, Language: r.Language, Count: r.Count}
	}
	return out, nil
}
