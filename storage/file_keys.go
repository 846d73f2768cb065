package storage

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/tools/model"
)

// fileKeysSpan bounds how sparse a namespace's key ids may be for namespaceFileKeys to
// read them as ranges: past this many ids per key, most of the range is other
// namespaces' keys and the per-key lookups of keyStates read less.
const fileKeysSpan = 4

// namespaceFileKeys appends to out every key of ns with its fileRows in the source
// language and in language, as keyStates does, unsorted. The keys and the languages'
// rows are read as ranges of ids and placed here by key id: as a join each
// key cost a B-tree search per language, which was most of a cold export's 50,000 keys
// (no index is added for it: each costs every write). Sparse ids fall back to keyStates;
// PostgreSQL joins the ranges itself (joinedFileKeys).
func (t *tx) namespaceFileKeys(ctx context.Context, ns model.Namespace, sourceLanguage, language string, out *[]model.KeyState) error {
	var lo, hi, n int64
	if err := t.tx.QueryRowContext(ctx, `SELECT COALESCE(MIN(id), 0), COALESCE(MAX(id), 0), COUNT(*) FROM translation_keys WHERE namespace_id = ?`, ns.ID).Scan(&lo, &hi, &n); err != nil {
		return mapError(err)
	}
	if n == 0 {
		return nil
	}
	if hi-lo+1 > fileKeysSpan*n+1000 {
		return t.keyStates(ctx, ns, sourceLanguage, language, nil, fileRows, out)
	}
	if t.db.postgres {
		return t.joinedFileKeys(ctx, ns, lo, hi, int(n), sourceLanguage, language, out)
	}
	return t.sqliteFileKeys(ctx, ns, lo, hi, int(n), sourceLanguage, language, out)
}

// sqliteFileKeys is namespaceFileKeys on SQLite. modernc.org/sqlite reads each column of a
// row under the connection's mutex, a text column three times (type, text, declared
// type) and copied: the small integers of a row are read packed into one
// (sqliteKeyBits, sqliteRowBits), a text column as an expression (which has no declared
// type), and what a row rarely has (held values, another status) by id afterwards.
func (t *tx) sqliteFileKeys(ctx context.Context, ns model.Namespace, lo, hi int64, n int, sourceLanguage, language string, out *[]model.KeyState) error {
	// NOT INDEXED leaves the rowid range (the table in id order) rather than the
	// namespace's index and a table search per key.
	rows, err := t.tx.QueryContext(ctx, `SELECT id, +key, hidden + (source_version << 1), NULLIF(description, '') FROM translation_keys NOT INDEXED
WHERE id BETWEEN ? AND ? AND namespace_id = ? ORDER BY id`, lo, hi, ns.ID)
	if err != nil {
		return mapError(err)
	}
	start := len(*out)
	*out = slices.Grow(*out, n)
	vals := make([]any, 4)
	ptrs := make([]any, len(vals))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var sc scanner
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			rows.Close()
			return mapError(err)
		}
		bits := sc.int(vals[2])
		*out = append(*out, model.KeyState{ID: sc.int(vals[0]), Key: sc.str(vals[1]), Hidden: bits&1 != 0,
			SourceVersion: bits >> 1, Description: sc.str(vals[3])})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return mapError(err)
	}
	if sc.err != nil {
		return sc.err
	}
	keys := (*out)[start:]
	// at[id-lo] is the key of id's place in keys, -1 for another namespace's.
	at := make([]int32, hi-lo+1)
	for i := range at {
		at[i] = -1
	}
	for i := range keys {
		at[keys[i].ID-lo] = int32(i)
	}
	// Both languages' rows are read by one statement. Rows written together have
	// neighbouring ids, and read as a range of the table they cost no search each from
	// the index to the table, which was most of reading them; their ids are counted from
	// the index alone, in one pass for both languages. Where they are sparse the index is
	// walked instead.
	var rlo, rhi, rn int64
	if err := t.tx.QueryRowContext(ctx, `SELECT COALESCE(MIN(id), 0), COALESCE(MAX(id), 0), COUNT(*) FROM translations INDEXED BY translations_key_language
WHERE key_id BETWEEN ? AND ? AND language IN (?, ?)`, lo, hi, sourceLanguage, language).Scan(&rlo, &rhi, &rn); err != nil {
		return mapError(err)
	}
	if rn > 0 {
		q := `SELECT r.key_id, r.id, +r.value, ` + sqliteRowBits + ` FROM translations AS r NOT INDEXED
WHERE r.id BETWEEN ? AND ? AND r.key_id BETWEEN ? AND ? AND r.language IN (?, ?)`
		args := []any{sourceLanguage, rlo, rhi, lo, hi, sourceLanguage, language}
		if rhi-rlo+1 > fileKeysSpan*rn+1000 {
			q = `SELECT r.key_id, r.id, +r.value, ` + sqliteRowBits + ` FROM translations AS r INDEXED BY translations_key_language
WHERE r.key_id BETWEEN ? AND ? AND r.language IN (?, ?)`
			args = []any{sourceLanguage, lo, hi, sourceLanguage, language}
		}
		if err := t.sqliteFileRows(ctx, q, args, lo, at, keys, sourceLanguage, language); err != nil {
			return err
		}
	}
	if language == sourceLanguage {
		for i := range keys {
			if s := keys[i].Source; s != nil {
				v := *s
				keys[i].Value = &v
			}
		}
	}
	return nil
}

// sqliteRowBits packs a row's small integers as sqliteFileRows reads them: its status
// (1 approved, 2 needs review, 0 another, read by id), do_not_translate, whether it is
// in the source language (the first argument), whether it is held (held and
// served_value read by id), and from bit 5 its source version plus one (0 for none).
// SQLite's | and << bind alike, from the left: the parts are added.
const sqliteRowBits = `CASE r.status WHEN 'approved' THEN 1 WHEN 'needs_review' THEN 2 ELSE 0 END
  + (r.do_not_translate << 2) + ((r.language = ?) << 3) + ((r.held <> '' OR r.served_value IS NOT NULL) << 4)
  + (COALESCE(r.source_version + 1, 0) << 5)`

// sqliteFileRows reads the rows of query q (key_id, id, value, sqliteRowBits) into keys,
// whose places at gives by key id.
func (t *tx) sqliteFileRows(ctx context.Context, q string, args []any, lo int64, at []int32, keys []model.KeyState, sourceLanguage, language string) error {
	rows, err := t.tx.QueryContext(ctx, q, args...)
	if err != nil {
		return mapError(err)
	}
	defer rows.Close()
	var vals [4]any
	ptrs := []any{&vals[0], &vals[1], &vals[2], &vals[3]}
	// The rows are allocated together: 50,000 allocations apiece were a good part of a
	// cold export's garbage.
	slab := make([]model.TranslationState, 0, 2*len(keys))
	versions := make([]int64, 0, 2*len(keys))
	var rare []*model.TranslationState
	var sc scanner
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return mapError(err)
		}
		id := sc.int(vals[0])
		i := int32(-1)
		if id >= lo && id-lo < int64(len(at)) {
			i = at[id-lo]
		}
		if i < 0 {
			continue
		}
		bits := sc.int(vals[3])
		slab = append(slab, model.TranslationState{ID: sc.int(vals[1]), Value: sc.str(vals[2]), DoNotTranslate: bits&4 != 0})
		r := &slab[len(slab)-1]
		switch bits & 3 {
		case 1:
			r.Status = model.StatusApproved
		case 2:
			r.Status = model.StatusNeedsReview
		}
		if v := bits >> 5; v > 0 {
			versions = append(versions, v-1)
			r.SourceVersion = &versions[len(versions)-1]
		}
		if bits&3 == 0 || bits&16 != 0 {
			rare = append(rare, r)
		}
		if k := &keys[i]; bits&8 != 0 {
			r.Language, k.Source = sourceLanguage, r
		} else {
			r.Language, k.Value = language, r
		}
	}
	if sc.err != nil {
		return sc.err
	}
	if err := rows.Err(); err != nil {
		return mapError(err)
	}
	return t.sqliteRareRows(ctx, rare)
}

// sqliteRareRows reads the status, held and served_value of rows by id.
func (t *tx) sqliteRareRows(ctx context.Context, rare []*model.TranslationState) error {
	for len(rare) > 0 {
		part := rare[:min(len(rare), 500)]
		rare = rare[len(part):]
		byID := make(map[int64]*model.TranslationState, len(part))
		args := make([]any, len(part))
		for i, r := range part {
			byID[r.ID], args[i] = r, r.ID
		}
		rows, err := t.tx.QueryContext(ctx, `SELECT id, status, held, served_value FROM translations WHERE id IN (?`+strings.Repeat(", ?", len(part)-1)+`)`, args...)
		if err != nil {
			return mapError(err)
		}
		var sc scanner
		var vals [4]any
		for rows.Next() {
			if err := rows.Scan(&vals[0], &vals[1], &vals[2], &vals[3]); err != nil {
				rows.Close()
				return mapError(err)
			}
			r := byID[sc.int(vals[0])]
			if r == nil {
				continue
			}
			r.Status = fileStatus(sc.str(vals[1]))
			r.Held = sc.str(vals[2])
			if vals[3] != nil {
				text := sc.str(vals[3])
				r.ServedValue = &text
			}
		}
		rows.Close()
		if sc.err != nil {
			return sc.err
		}
		if err := rows.Err(); err != nil {
			return mapError(err)
		}
	}
	return nil
}

// fileStatus is status as the constant of that name where there is one: one string per
// status, not one per row kept for as long as the cache.
func fileStatus(status string) string {
	switch status {
	case model.StatusApproved:
		return model.StatusApproved
	case model.StatusNeedsReview:
		return model.StatusNeedsReview
	}
	return status
}

// fileRow fills r from the fileRows columns v (as translation does), its source version
// appended to versions, which has room for it.
func (s *scanner) fileRow(r *model.TranslationState, v []any, language string, versions *[]int64) {
	r.ID, r.Language, r.Value, r.DoNotTranslate = s.int(v[0]), language, s.str(v[1]), s.bool(v[3])
	r.Status = fileStatus(s.str(v[2]))
	if v[4] != nil {
		*versions = append(*versions, s.int(v[4]))
		r.SourceVersion = &(*versions)[len(*versions)-1]
	}
	r.Held = s.str(v[5])
	if v[6] != nil {
		text := s.str(v[6])
		r.ServedValue = &text
	}
}

// joinedFileKeys is namespaceFileKeys on PostgreSQL: each key with its rows as one row,
// the three ranges joined by the server. pgdriver sets the connection's read deadline
// for every row it reads, a quarter of reading the keys and rows as three lists.
func (t *tx) joinedFileKeys(ctx context.Context, ns model.Namespace, lo, hi int64, n int, sourceLanguage, language string, out *[]model.KeyState) error {
	same := language == sourceLanguage
	cols := "k.id, k.key, k.hidden, k.source_version, k.description, " + fmt.Sprintf(string(fileRows), "s")
	from := `(SELECT id, key, hidden, source_version, description FROM translation_keys WHERE id BETWEEN ? AND ? AND namespace_id = ?) AS k
LEFT JOIN (SELECT * FROM translations WHERE key_id BETWEEN ? AND ? AND language = ?) AS s ON s.key_id = k.id`
	args := []any{lo, hi, ns.ID, lo, hi, sourceLanguage}
	if !same {
		cols += ", " + fmt.Sprintf(string(fileRows), "t")
		from += `
LEFT JOIN (SELECT * FROM translations WHERE key_id BETWEEN ? AND ? AND language = ?) AS t ON t.key_id = k.id`
		args = append(args, lo, hi, language)
	}
	// Statistics from before a namespace's keys were written estimate its id range at one
	// row, and the plan then joins each key to every row of the last language by a nested
	// loop: 50,000 keys ran for minutes. Joined by merge or hash the cost is linear
	// whatever the estimates; the setting is the transaction's and put back after.
	var nestloop string
	if err := t.tx.QueryRowContext(ctx, `SELECT current_setting('enable_nestloop'), set_config('enable_nestloop', 'off', true)`).Scan(&nestloop, new(string)); err != nil {
		return mapError(err)
	}
	rows, err := t.tx.QueryContext(ctx, "SELECT "+cols+" FROM "+from, args...)
	if err != nil {
		return mapError(err)
	}
	defer rows.Close()
	if err := t.readJoinedFileKeys(rows, n, sourceLanguage, language, same, out); err != nil {
		return err
	}
	rows.Close()
	_, err = t.tx.ExecContext(ctx, `SELECT set_config('enable_nestloop', ?, true)`, nestloop)
	return mapError(err)
}

// readJoinedFileKeys appends the keys of joinedFileKeys's rows to out.
func (t *tx) readJoinedFileKeys(rows *sql.Rows, n int, sourceLanguage, language string, same bool, out *[]model.KeyState) error {
	w := fileRows.n()
	vals := make([]any, 5+w)
	if !same {
		vals = make([]any, 5+2*w)
	}
	ptrs := make([]any, len(vals))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	*out = slices.Grow(*out, n)
	// The rows are allocated together, as namespaceFileKeys does.
	slab := make([]model.TranslationState, 0, 2*n)
	versions := make([]int64, 0, 2*n)
	var sc scanner
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return mapError(err)
		}
		k := model.KeyState{ID: sc.int(vals[0]), Key: sc.str(vals[1]), Hidden: sc.bool(vals[2]),
			SourceVersion: sc.int(vals[3]), Description: sc.str(vals[4])}
		row := func(v []any, lang string) *model.TranslationState {
			if v[0] == nil {
				return nil
			}
			slab = append(slab, model.TranslationState{})
			r := &slab[len(slab)-1]
			sc.fileRow(r, v, lang, &versions)
			return r
		}
		k.Source = row(vals[5:5+w], sourceLanguage)
		if same {
			if k.Source != nil {
				v := *k.Source
				k.Value = &v
			}
		} else {
			k.Value = row(vals[5+w:], language)
		}
		*out = append(*out, k)
	}
	if sc.err != nil {
		return sc.err
	}
	return mapError(rows.Err())
}
