package storage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// keyStateRow is one row of a keys join with the source and target rows, as KeyPage
// scans it.
type keyStateRow struct {
	ID            int64
	Key           string
	Hidden        bool
	SourceVersion int64

	SID      *int64
	SValue   *string
	SStatus  *string
	SDNT     *bool
	SLocked  *bool
	SVersion *int64
	SBy      *string
	SUpdated *time.Time
	TID      *int64
	TValue   *string
	TStatus  *string
	TDNT     *bool
	TLocked  *bool
	TVersion *int64
	TBy      *string
	TUpdated *time.Time
	THeld    *string
	TServed  *string
}

// keysFilterBatch bounds the keys one Keys query names: a worst-case body names
// hundreds of thousands, and one literal of them all would cost tens of MB to build and parse.
const keysFilterBatch = 10000

func (t *tx) Keys(ctx context.Context, ns model.Namespace, sourceLanguage, language string, only ...string) ([]model.KeyState, error) {
	return t.sortedKeys(ctx, ns, sourceLanguage, language, only, fullRows)
}

// FileKeys implements model.KeyTx: Keys without who changed a row, when, and its language
// lock, which no file shows and which cost an export of 50,000 keys a time parsed per row;
// with the keys' descriptions, which a query of their own read by scanning the namespace.
func (t *tx) FileKeys(ctx context.Context, ns model.Namespace, sourceLanguage, language string, only ...string) ([]model.KeyState, error) {
	return t.sortedKeys(ctx, ns, sourceLanguage, language, only, fileRows)
}

// sortedKeys is Keys with the row columns cols.
func (t *tx) sortedKeys(ctx context.Context, ns model.Namespace, sourceLanguage, language string, only []string, cols rowColumns) ([]model.KeyState, error) {
	out, all, err := t.keys(ctx, ns, sourceLanguage, language, only, cols)
	if err != nil {
		return nil, err
	}
	if all && len(only) > 0 {
		named := make(map[string]bool, len(only))
		for _, k := range only {
			named[k] = true
		}
		kept := out[:0]
		for _, k := range out {
			if named[k.Key] {
				kept = append(kept, k)
			}
		}
		out = kept
	}
	// Sorted here rather than by SQL so that the order is bytewise on both dialects.
	slices.SortFunc(out, func(a, b model.KeyState) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

// SyncKeys reads the keys a sync names with the three columns of their rows it compares
// (id, value, do_not_translate): a full sync names the whole namespace, and the rows' other
// five columns (a time among them) cost about as much to decode as the rest.
func (t *tx) SyncKeys(ctx context.Context, ns model.Namespace, sourceLanguage, language string, only []string) ([]model.KeyState, bool, error) {
	if len(only) == 0 {
		return nil, false, nil
	}
	return t.keys(ctx, ns, sourceLanguage, language, only, syncRows)
}

// keys reads the keys of ns named in only, or every key when only is empty or names most
// of the namespace (then all is true and out holds the keys not named as well), unsorted.
func (t *tx) keys(ctx context.Context, ns model.Namespace, sourceLanguage, language string, only []string, cols rowColumns) (out []model.KeyState, all bool, err error) {
	all = len(only) == 0
	if len(only) > keysFilterBatch {
		// Naming most of the namespace costs more than reading it: the statement would
		// carry a hash per key. Then the namespace is read and the keys picked here.
		n, err := t.tx.NewSelect().Model((*keyRow)(nil)).Where("namespace_id = ?", ns.ID).Count(ctx)
		if err != nil {
			return nil, false, mapError(err)
		}
		all = n <= 2*int64(len(only))
	}
	if all {
		if cols == fileRows {
			err := t.namespaceFileKeys(ctx, ns, sourceLanguage, language, &out)
			return out, true, err
		}
		err := t.keyStates(ctx, ns, sourceLanguage, language, nil, cols, &out)
		return out, true, err
	}
	for start := 0; start < len(only); start += keysFilterBatch {
		part := only[start:min(start+keysFilterBatch, len(only))]
		if err := t.keyStates(ctx, ns, sourceLanguage, language, part, cols, &out); err != nil {
			return nil, false, err
		}
	}
	return out, false, nil
}

// rowColumns are the columns of a translation row keyStates reads.
type rowColumns string

const (
	// fullRows are all ten: id, value, status, do_not_translate, language_locked,
	// source_version, updated_by, updated_at, held, served_value.
	fullRows rowColumns = "%[1]s.id, %[1]s.value, %[1]s.status, %[1]s.do_not_translate, %[1]s.language_locked, %[1]s.source_version, %[1]s.updated_by, %[1]s.updated_at, %[1]s.held, %[1]s.served_value"
	// syncRows are what a sync compares: id, value, do_not_translate.
	syncRows rowColumns = "%[1]s.id, %[1]s.value, %[1]s.do_not_translate"
	// fileRows are what a file shows: id, value, status, do_not_translate,
	// source_version, held, served_value.
	fileRows rowColumns = "%[1]s.id, %[1]s.value, %[1]s.status, %[1]s.do_not_translate, %[1]s.source_version, %[1]s.held, %[1]s.served_value"
)

func (c rowColumns) n() int {
	switch c {
	case syncRows:
		return 3
	case fileRows:
		return 7
	}
	return 10
}

// keyStates appends to out the keys of ns (those named in names, when not nil)
// with their rows in the source language and in language. In the source language the
// row is joined and read once and shared by Source and Value.
//
// On PostgreSQL each row is looked up through a lateral subquery: as a plain join of a
// large namespace the planner hashes the whole project's rows of the language (a
// sequential scan of millions of rows for 50,000 keys). The LIMIT keeps it from
// flattening the subquery back into such a join; the unique index makes it a no-op.
//
// The rows are scanned by hand: bun's reflection over a struct of pointers cost about
// as much as the query itself for a 50,000-key namespace.
func (t *tx) keyStates(ctx context.Context, ns model.Namespace, sourceLanguage, language string, names []string, rowCols rowColumns, out *[]model.KeyState) error {
	join := func(alias string) string {
		if t.db.postgres {
			return "\nLEFT JOIN LATERAL (SELECT * FROM translations WHERE key_id = k.id AND language = ? LIMIT 1) AS " + alias + " ON TRUE"
		}
		return "\nLEFT JOIN translations AS " + alias + " ON " + alias + ".key_id = k.id AND " + alias + ".language = ?"
	}
	same := language == sourceLanguage
	cols, from, args := ",\n  "+fmt.Sprintf(string(rowCols), "t"), join("s")+join("t"), []any{sourceLanguage, language, ns.ID}
	if same {
		cols, from, args = "", join("s"), []any{sourceLanguage, ns.ID}
	}
	filter := ""
	if names != nil {
		var arg any
		col, values := t.keyLookup(names)
		filter, arg = t.inStrings("k."+col, values)
		filter, args = " AND "+filter, append(args, arg)
	}
	keyCols := "k.id, k.key, k.hidden, k.source_version"
	if rowCols == fileRows {
		keyCols += ", k.description"
	}
	rows, err := t.tx.QueryContext(ctx, "SELECT "+keyCols+",\n  "+fmt.Sprintf(string(rowCols), "s")+cols+`
FROM translation_keys AS k`+from+`
WHERE k.namespace_id = ?`+filter, args...)
	if err != nil {
		return mapError(err)
	}
	defer rows.Close()
	w := rowCols.n()
	kc := 4
	if rowCols == fileRows {
		kc = 5
	}
	n := kc + w
	if !same {
		n += w
	}
	vals := make([]any, n)
	ptrs := make([]any, n)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var sc scanner
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return mapError(err)
		}
		k := model.KeyState{ID: sc.int(vals[0]), Key: sc.str(vals[1]), Hidden: sc.bool(vals[2]), SourceVersion: sc.int(vals[3])}
		if kc == 5 {
			k.Description = sc.str(vals[4])
		}
		k.Source = sc.translation(vals[kc:kc+w], sourceLanguage)
		if same {
			if k.Source != nil {
				v := *k.Source
				k.Value = &v
			}
		} else {
			k.Value = sc.translation(vals[kc+w:kc+2*w], language)
		}
		if sc.err != nil {
			return sc.err
		}
		*out = append(*out, k)
	}
	return mapError(rows.Err())
}

// scanner converts the values the drivers return (pgdriver's typed values; SQLite's
// integers for booleans and, for a time it could not parse, text) and keeps the first
// value it could not convert.
type scanner struct{ err error }

func (s *scanner) fail(v any, want string) {
	if s.err == nil {
		s.err = fmt.Errorf("scanning keys: %T is not %s", v, want)
	}
}

func (s *scanner) int(v any) int64 {
	n, ok := v.(int64)
	if !ok {
		s.fail(v, "an integer")
	}
	return n
}

func (s *scanner) str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case nil:
		return ""
	}
	s.fail(v, "text")
	return ""
}

func (s *scanner) bool(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case int64:
		return x != 0
	case nil:
		return false
	}
	s.fail(v, "a boolean")
	return false
}

func (s *scanner) time(v any) time.Time {
	switch x := v.(type) {
	case time.Time:
		return x
	case string, []byte:
		t, err := time.Parse("2006-01-02 15:04:05.999999999-07:00", s.str(x))
		if err != nil && s.err == nil {
			s.err = fmt.Errorf("scanning keys: %w", err)
		}
		return t
	}
	s.fail(v, "a time")
	return time.Time{}
}

// translation is the row of the columns v (fullRows, fileRows or syncRows), nil when the join found
// none.
func (s *scanner) translation(v []any, language string) *model.TranslationState {
	if v[0] == nil {
		return nil
	}
	if len(v) == 3 {
		return &model.TranslationState{ID: s.int(v[0]), Language: language, Value: s.str(v[1]), DoNotTranslate: s.bool(v[2])}
	}
	r := &model.TranslationState{ID: s.int(v[0]), Language: language, Value: s.str(v[1]), Status: s.str(v[2]),
		DoNotTranslate: s.bool(v[3])}
	version, held, served := v[4], v[5], v[6] // fileRows
	if len(v) == 10 {
		r.LanguageLocked, r.UpdatedBy, r.UpdatedAt = s.bool(v[4]), s.str(v[6]), s.time(v[7])
		version, held, served = v[5], v[8], v[9]
	}
	r.Held = s.str(held)
	if version != nil {
		n := s.int(version)
		r.SourceVersion = &n
	}
	if served != nil {
		text := s.str(served)
		r.ServedValue = &text
	}
	return r
}

// inStrings is the condition "col is one of values" with its one argument: an array on
// PostgreSQL, a JSON array on SQLite, so that the statement's text does not grow with
// the list and the database looks each value up instead of comparing with every one. On
// PostgreSQL the array is read through a subquery, as in idList: "= ANY" of the constant
// made the planner price each of thousands of hashes.
func (t *tx) inStrings(col string, values []string) (string, any) {
	if t.db.postgres {
		return col + " IN (SELECT unnest(?::text[]))", pgdialect.Array(values)
	}
	b, _ := json.Marshal(values) // strings always marshal
	return col + " IN (SELECT value FROM json_each(?))", string(b)
}

// idList is the right-hand side of "col IN ..." for ids, with its one argument. On
// PostgreSQL it is a subquery over one array: the planner then knows how many ids there
// are and looks each one up by index, where a list of a thousand constants made it price
// every constant (tens of ms of planning) and then scan the whole table for them.
func (t *tx) idList(ids []int64) (string, any) {
	if t.db.postgres {
		return "(SELECT unnest(?::bigint[]))", pgdialect.Array(ids)
	}
	return "(?)", bun.In(ids)
}

// notInIDs is the condition "col is none of ids" with its one argument, as inStrings.
func (t *tx) notInIDs(col string, ids []int64) (string, any) {
	if t.db.postgres {
		// An anti-join, which PostgreSQL hashes (spilling to disk past work_mem, where a
		// NOT IN subquery would rescan the list per row): as a constant "= ANY" of tens of
		// thousands of ids the planner spent longer pricing each id than the scan took.
		return "NOT EXISTS (SELECT 1 FROM unnest(?::bigint[]) AS kept(kept_id) WHERE kept_id = " + col + ")", pgdialect.Array(ids)
	}
	b, _ := json.Marshal(ids)
	return col + " NOT IN (SELECT value FROM json_each(?))", string(b)
}

// VisibleKeysExcept returns, ordered by key, the visible keys of ns other than keep,
// which must all be visible keys of ns. A full sync hides what it returns: when the
// namespace holds no other visible key, which is the usual sync, a count tells so
// without reading any key.
func (t *tx) VisibleKeysExcept(ctx context.Context, ns model.Namespace, keep []int64) ([]model.KeyRecord, error) {
	visible, err := t.tx.NewSelect().Model((*keyRow)(nil)).Where("namespace_id = ?", ns.ID).Where("NOT hidden").Count(ctx)
	if err != nil {
		return nil, mapError(err)
	}
	if visible <= int64(len(keep)) {
		return nil, nil
	}
	if !t.db.postgres && len(keep) > 0 {
		return t.visibleKeysExceptSQLite(ctx, ns, keep)
	}
	var rows []keyRow
	q := t.tx.NewSelect().Model(&rows).Column("id", "key").Where("namespace_id = ?", ns.ID).Where("NOT hidden")
	if len(keep) > 0 {
		cond, arg := t.notInIDs("id", keep)
		q = q.Where(cond, arg)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.KeyRecord, len(rows))
	for i, r := range rows {
		out[i] = model.KeyRecord{ID: r.ID, NamespaceID: ns.ID, Key: r.Key}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

// visibleKeysExceptSQLite reads the ids of the visible keys from their covering index
// (keys_namespace_visible) and leaves out keep here: SQLite built an index of a full
// sync's 50,000 kept ids (json_each) to compare each key with, four times the cost.
func (t *tx) visibleKeysExceptSQLite(ctx context.Context, ns model.Namespace, keep []int64) ([]model.KeyRecord, error) {
	kept := make(map[int64]bool, len(keep))
	for _, id := range keep {
		kept[id] = true
	}
	rows, err := t.tx.QueryContext(ctx, `SELECT id FROM translation_keys WHERE namespace_id = ? AND NOT hidden`, ns.ID)
	if err != nil {
		return nil, mapError(err)
	}
	var others []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, mapError(err)
		}
		if !kept[id] {
			others = append(others, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.KeyRecord, 0, len(others))
	for start := 0; start < len(others); start += countBatch {
		var part []keyRow
		if err := t.tx.NewSelect().Model(&part).Column("id", "key").
			Where("id IN (?)", bun.In(others[start:min(start+countBatch, len(others))])).Scan(ctx); err != nil {
			return nil, mapError(err)
		}
		for _, r := range part {
			out = append(out, model.KeyRecord{ID: r.ID, NamespaceID: ns.ID, Key: r.Key})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// KeyHash is the unique-index form of a key.
func KeyHash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// keyLookup is the column and the values a lookup of keys by name compares: the names'
// hashes on PostgreSQL (keys_namespace_hash: a btree entry there is bounded, a key is
// not), the names themselves on SQLite (keys_namespace_key, migrateSQLiteKeyIndex).
func (t *tx) keyLookup(names []string) (col string, values []string) {
	if !t.db.postgres {
		return "key", names
	}
	hashes := make([]string, len(names))
	for i, k := range names {
		hashes[i] = KeyHash(k)
	}
	return "key_hash", hashes
}

func (t *tx) InsertKeys(ctx context.Context, keys []model.NewKey) ([]int64, error) {
	if len(keys) == 0 {
		return []int64{}, nil
	}
	t.db.analyze.inserted(len(keys))
	t.indexed += len(keys)
	if t.db.postgres {
		return t.insertKeysPostgres(ctx, keys, now())
	}
	return t.insertKeysSQLite(ctx, keys, now())
}

func (t *tx) SetHidden(ctx context.Context, keyIDs []int64, hidden bool) error {
	t.indexed += len(keyIDs)
	ts := now()
	for start := 0; start < len(keyIDs); start += batch {
		list, arg := t.idList(keyIDs[start:min(start+batch, len(keyIDs))])
		if _, err := t.tx.NewUpdate().Model((*keyRow)(nil)).Set("hidden = ?", hidden).Set("updated_at = ?", ts).
			Where("id IN "+list, arg).Exec(ctx); err != nil {
			return mapError(err)
		}
	}
	return nil
}

func (t *tx) SourceChanged(ctx context.Context, keyIDs []int64) error {
	t.indexed += len(keyIDs)
	ts := now()
	actor := model.PrincipalFrom(ctx).Actor()
	for start := 0; start < len(keyIDs); start += batch {
		list, arg := t.idList(keyIDs[start:min(start+batch, len(keyIDs))])
		if _, err := t.tx.NewUpdate().Model((*keyRow)(nil)).Set("source_version = source_version + 1").Set("updated_at = ?", ts).
			Where("id IN "+list, arg).Exec(ctx); err != nil {
			return mapError(err)
		}
		// Clearing a lock is a flag change: it goes into the history like any other.
		var locked []translationRow
		if err := t.tx.NewSelect().Model(&locked).Where("key_id IN "+list, arg).Where("language_locked").Scan(ctx); err != nil {
			return mapError(err)
		}
		if len(locked) == 0 {
			continue
		}
		ids := make([]int64, len(locked))
		hist := make([]historyRow, len(locked))
		for i, r := range locked {
			ids[i] = r.ID
			hist[i] = historyRow{TranslationID: r.ID, KeyID: r.KeyID, Language: r.Language, Change: string(model.ChangeFlagChanged), Value: r.Value,
				Status: r.Status, DoNotTranslate: r.DoNotTranslate, LanguageLocked: false, SourceVersion: r.SourceVersion,
				Actor: actor, CreatedAt: ts}
		}
		if _, err := t.tx.NewUpdate().Model((*translationRow)(nil)).Set("language_locked = ?", false).Set("updated_at = ?", ts).
			Where("id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
			return mapError(err)
		}
		if _, err := t.tx.NewInsert().Model(&hist).Exec(ctx); err != nil {
			return mapError(err)
		}
	}
	return nil
}

func (t *tx) KeyByName(ctx context.Context, ns model.Namespace, key string) (model.KeyRecord, error) {
	var r keyRow
	col, values := t.keyLookup([]string{key})
	if err := t.tx.NewSelect().Model(&r).Where("namespace_id = ?", ns.ID).Where("? = ?", bun.Ident(col), values[0]).Scan(ctx); err != nil {
		return model.KeyRecord{}, notFound(err, "key %q in namespace %q", key, ns.Key)
	}
	return model.KeyRecord{ID: r.ID, NamespaceID: r.NamespaceID, Key: r.Key, Hidden: r.Hidden, SourceVersion: r.SourceVersion}, nil
}
