package storage

import (
	"context"
	"slices"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

var _ model.PageContextTx = (*tx)(nil)

type pageContextRow struct {
	bun.BaseModel `bun:"table:page_contexts"`
	KeyID         int64     `bun:"key_id,pk"`
	URL           string    `bun:"url,pk"`
	ProjectID     string    `bun:"project_id,notnull"`
	Title         string    `bun:"title,notnull"`
	Role          string    `bun:"role,notnull"`
	Before        string    `bun:"before_text,notnull"`
	After         string    `bun:"after_text,notnull"`
	Width         float64   `bun:"width,notnull"`
	Box           float64   `bun:"box,notnull"`
	Position      int       `bun:"position,notnull"`
	SeenAt        time.Time `bun:"seen_at,notnull"`
	Who           string    `bun:"who,notnull"`
}

func (r pageContextRow) context() model.PageContext {
	return model.PageContext{URL: r.URL, Title: r.Title, Role: r.Role, Before: r.Before, After: r.After,
		Width: r.Width, Box: r.Box, Position: r.Position, SeenAt: r.SeenAt}
}

// RecordPageContexts implements model.PageContextTx.
func (t *tx) RecordPageContexts(ctx context.Context, projectID string, rows []model.PageContextRow, perKey, perPage int) error {
	if len(rows) == 0 {
		return nil
	}
	// One row per key and URL in a statement (ON CONFLICT may not touch a row twice): the last wins.
	seen := map[[2]any]int{}
	var set []pageContextRow
	for _, r := range rows {
		row := pageContextRow{KeyID: r.KeyID, URL: r.URL, ProjectID: projectID, Title: r.Title, Role: r.Role,
			Before: r.Before, After: r.After, Width: r.Width, Box: r.Box, Position: r.Position, SeenAt: r.SeenAt.UTC(), Who: r.Who}
		k := [2]any{r.KeyID, r.URL}
		if i, ok := seen[k]; ok {
			set[i] = row
			continue
		}
		seen[k] = len(set)
		set = append(set, row)
	}
	var keys []int64
	var urls []string
	for start := 0; start < len(set); start += batch {
		part := set[start:min(start+batch, len(set))]
		if _, err := t.tx.NewInsert().Model(&part).On("CONFLICT (key_id, url) DO UPDATE").
			Set("project_id = EXCLUDED.project_id, title = EXCLUDED.title, role = EXCLUDED.role").
			Set("before_text = EXCLUDED.before_text, after_text = EXCLUDED.after_text, width = EXCLUDED.width, box = EXCLUDED.box").
			Set("position = EXCLUDED.position, seen_at = EXCLUDED.seen_at, who = EXCLUDED.who").Exec(ctx); err != nil {
			return mapError(err)
		}
	}
	for _, r := range set {
		keys = append(keys, r.KeyID)
		urls = append(urls, r.URL)
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	slices.Sort(urls)
	urls = slices.Compact(urls)
	// A key seen on more pages than kept loses its oldest; so does a page with more keys.
	for start := 0; start < len(keys); start += batch {
		var over []int64
		if err := t.tx.NewRaw(`SELECT key_id FROM page_contexts WHERE key_id IN (?) GROUP BY key_id HAVING COUNT(*) > ?`,
			bun.In(keys[start:min(start+batch, len(keys))]), perKey).Scan(ctx, &over); err != nil {
			return mapError(err)
		}
		for _, id := range over {
			if _, err := t.tx.NewRaw(`DELETE FROM page_contexts WHERE key_id = ? AND url NOT IN
(SELECT url FROM page_contexts WHERE key_id = ? ORDER BY seen_at DESC, url LIMIT ?)`, id, id, perKey).Exec(ctx); err != nil {
				return mapError(err)
			}
		}
	}
	for _, u := range urls {
		var n int
		if err := t.tx.NewRaw(`SELECT COUNT(*) FROM page_contexts WHERE project_id = ? AND url = ?`, projectID, u).Scan(ctx, &n); err != nil {
			return mapError(err)
		}
		if n <= perPage {
			continue
		}
		if _, err := t.tx.NewRaw(`DELETE FROM page_contexts WHERE project_id = ? AND url = ? AND key_id NOT IN
(SELECT key_id FROM page_contexts WHERE project_id = ? AND url = ? ORDER BY seen_at DESC, position, key_id LIMIT ?)`,
			projectID, u, projectID, u, perPage).Exec(ctx); err != nil {
			return mapError(err)
		}
	}
	return nil
}

// PageContexts implements model.PageContextTx.
func (t *tx) PageContexts(ctx context.Context, keyIDs []int64) (map[int64][]model.PageContext, error) {
	out := map[int64][]model.PageContext{}
	for start := 0; start < len(keyIDs); start += batch {
		var rows []pageContextRow
		if err := t.tx.NewSelect().Model(&rows).Where("key_id IN (?)", bun.In(keyIDs[start:min(start+batch, len(keyIDs))])).
			Order("seen_at DESC", "url").Scan(ctx); err != nil {
			return nil, mapError(err)
		}
		for _, r := range rows {
			out[r.KeyID] = append(out[r.KeyID], r.context())
		}
	}
	return out, nil
}

// PageKeys implements model.PageContextTx.
func (t *tx) PageKeys(ctx context.Context, projectID, url, sourceLanguage string) ([]model.PageKeyRow, error) {
	var rows []struct {
		KeyID     int64   `bun:"key_id"`
		Namespace string  `bun:"namespace"`
		Key       string  `bun:"key"`
		Source    *string `bun:"source"`
		Position  int     `bun:"position"`
	}
	if err := t.tx.NewRaw(`SELECT p.key_id, n.key AS namespace, k.key, s.value AS source, p.position
FROM page_contexts AS p JOIN translation_keys AS k ON k.id = p.key_id JOIN namespaces AS n ON n.id = k.namespace_id
LEFT JOIN translations AS s ON s.key_id = k.id AND s.language = ?
WHERE p.project_id = ? AND p.url = ? AND NOT k.hidden ORDER BY p.position, n.key, k.key`, sourceLanguage, projectID, url).Scan(ctx, &rows); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.PageKeyRow, len(rows))
	for i, r := range rows {
		out[i] = model.PageKeyRow{KeyID: r.KeyID, Namespace: r.Namespace, Key: r.Key, Position: r.Position}
		if r.Source != nil {
			out[i].Source = *r.Source
		}
	}
	return out, nil
}

// KeysBySource implements model.PageContextTx.
func (t *tx) KeysBySource(ctx context.Context, ns model.Namespace, sourceLanguage string, texts []string) (map[string]model.KeyRecord, error) {
	out := map[string]model.KeyRecord{}
	for start := 0; start < len(texts); start += batch {
		var rows []struct {
			ID            int64  `bun:"id"`
			Key           string `bun:"key"`
			SourceVersion int64  `bun:"source_version"`
			Value         string `bun:"value"`
		}
		if err := t.tx.NewRaw(`SELECT k.id, k.key, k.source_version, s.value FROM translation_keys AS k
JOIN translations AS s ON s.key_id = k.id AND s.language = ?
WHERE k.namespace_id = ? AND NOT k.hidden AND s.value IN (?) ORDER BY k.key`,
			sourceLanguage, ns.ID, bun.In(texts[start:min(start+batch, len(texts))])).Scan(ctx, &rows); err != nil {
			return nil, mapError(err)
		}
		for _, r := range rows {
			if _, ok := out[r.Value]; !ok {
				out[r.Value] = model.KeyRecord{ID: r.ID, NamespaceID: ns.ID, Key: r.Key, SourceVersion: r.SourceVersion}
			}
		}
	}
	return out, nil
}
