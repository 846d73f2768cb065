package storage

import (
	"context"
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
// language and in language, as keyStates does, unsorted. The keys and each language's
// rows are read as ranges of ids, in id order, and merged here by key id: as a join each
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
	// SQLite: NOT INDEXED leaves the rowid range (the table in id order) rather than the
	// namespace's index and a table search per key; INDEXED BY keeps the translations'
	// (key_id, language) index, walked in order, whatever the statistics say.
	keysFrom, rowsFrom := "translation_keys", "translations AS r"
	if !t.db.postgres {
		keysFrom, rowsFrom = "translation_keys NOT INDEXED", "translations AS r INDEXED BY translations_key_language"
	}
	rows, err := t.tx.QueryContext(ctx, `SELECT id, key, hidden, source_version, description FROM `+keysFrom+`
WHERE id BETWEEN ? AND ? AND namespace_id = ? ORDER BY id`, lo, hi, ns.ID)
	if err != nil {
		return mapError(err)
	}
	start := len(*out)
	*out = slices.Grow(*out, int(n))
	vals := make([]any, 5)
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
		*out = append(*out, model.KeyState{ID: sc.int(vals[0]), Key: sc.str(vals[1]), Hidden: sc.bool(vals[2]),
			SourceVersion: sc.int(vals[3]), Description: sc.str(vals[4])})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return mapError(err)
	}
	if sc.err != nil {
		return sc.err
	}
	keys := (*out)[start:]
	// at[id-lo] is the key of id's place in keys, -1 for another namespace's: rows read in
	// their own id order are placed through it.
	var at []int32
	// keys are in id order: each language's rows are merged into them by key id.
	cols := fmt.Sprintf(string(fileRows), "r")
	if !t.db.postgres {
		// modernc.org/sqlite reads a text column under the connection's mutex three times
		// (type, text, declared type) and copies it: a status is read as its number.
		cols = strings.Replace(cols, "r.status", fileStatusCode, 1)
	}
	read := func(lang string, set func(k *model.KeyState, r *model.TranslationState)) error {
		q, args := `SELECT r.key_id, `+cols+` FROM `+rowsFrom+`
WHERE r.key_id BETWEEN ? AND ? AND r.language = ? ORDER BY r.key_id`, []any{lo, hi, lang}
		if !t.db.postgres {
			// SQLite: rows written together have neighbouring ids, and read as a range of
			// the table they cost no search each from the index to the table, which was
			// most of reading them. Their ids are counted from the index alone.
			var rlo, rhi, rn int64
			if err := t.tx.QueryRowContext(ctx, `SELECT COALESCE(MIN(id), 0), COALESCE(MAX(id), 0), COUNT(*) FROM translations INDEXED BY translations_key_language
WHERE key_id BETWEEN ? AND ? AND language = ?`, lo, hi, lang).Scan(&rlo, &rhi, &rn); err != nil {
				return mapError(err)
			}
			if rn == 0 {
				return nil
			}
			if rhi-rlo+1 <= fileKeysSpan*rn+1000 {
				q, args = `SELECT r.key_id, `+cols+` FROM translations AS r NOT INDEXED
WHERE r.id BETWEEN ? AND ? AND r.key_id BETWEEN ? AND ? AND r.language = ?`, []any{rlo, rhi, lo, hi, lang}
				if at == nil {
					at = make([]int32, hi-lo+1)
					for i := range at {
						at[i] = -1
					}
					for i := range keys {
						at[keys[i].ID-lo] = int32(i)
					}
				}
			}
		}
		rows, err := t.tx.QueryContext(ctx, q, args...)
		if err != nil {
			return mapError(err)
		}
		defer rows.Close()
		byID := len(args) == 5
		vals := make([]any, 1+fileRows.n())
		ptrs := make([]any, len(vals))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		// The rows are allocated together, at most one per key: 50,000 allocations
		// apiece were a good part of a cold export's garbage.
		slab := make([]model.TranslationState, 0, len(keys))
		versions := make([]int64, 0, len(keys))
		i := 0
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				return mapError(err)
			}
			id := sc.int(vals[0])
			if byID {
				if i = int(at[id-lo]); i < 0 {
					continue
				}
			} else {
				for i < len(keys) && keys[i].ID < id {
					i++
				}
				if i == len(keys) {
					break
				}
			}
			if keys[i].ID == id && vals[1] != nil {
				slab = append(slab, model.TranslationState{})
				r := &slab[len(slab)-1]
				sc.fileRow(r, vals[1:], lang, &versions)
				set(&keys[i], r)
			}
		}
		if sc.err != nil {
			return sc.err
		}
		return mapError(rows.Err())
	}
	if err := read(sourceLanguage, func(k *model.KeyState, r *model.TranslationState) { k.Source = r }); err != nil {
		return err
	}
	if language == sourceLanguage {
		for i := range keys {
			if s := keys[i].Source; s != nil {
				v := *s
				keys[i].Value = &v
			}
		}
		return nil
	}
	return read(language, func(k *model.KeyState, r *model.TranslationState) { k.Value = r })
}

// fileStatusCode is a row's status as fileRow reads it: the two statuses as numbers,
// another as its text.
const fileStatusCode = "CASE r.status WHEN 'approved' THEN 1 WHEN 'needs_review' THEN 2 ELSE r.status END"

// fileRow fills r from the fileRows columns v (as translation does; the status as text or
// as fileStatusCode), its source version appended to versions, which has room for it.
func (s *scanner) fileRow(r *model.TranslationState, v []any, language string, versions *[]int64) {
	r.ID, r.Language, r.Value, r.DoNotTranslate = s.int(v[0]), language, s.str(v[1]), s.bool(v[3])
	switch st := v[2].(type) { // one string per status, not one per row kept for as long as the cache
	case int64:
		r.Status = model.StatusApproved
		if st == 2 {
			r.Status = model.StatusNeedsReview
		}
	default:
		switch r.Status = s.str(st); r.Status {
		case model.StatusApproved:
			r.Status = model.StatusApproved
		case model.StatusNeedsReview:
			r.Status = model.StatusNeedsReview
		}
	}
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
	rows, err := t.tx.QueryContext(ctx, "SELECT "+cols+" FROM "+from, args...)
	if err != nil {
		return mapError(err)
	}
	defer rows.Close()
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
