package tools

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"sync"

	"github.com/lokal-dev/lokal/tools/model"
)

// qaCache remembers, per project and language, which rows had QA findings at which version
// of the row and its source, so the QA filter analyses only rows that changed since: the
// analysis is what costs, reading rows is cheap. Memory is bounded by qaCacheLanguages
// entries of one bit and a short hash per row.
type qaCache struct {
	mu    sync.Mutex
	langs map[string]*qaLanguage // project id + "\x00" + language
	order []string               // oldest first, for eviction
}

type qaLanguage struct {
	terms string              // fingerprint of the glossary and do-not-translate terms
	rows  map[int64]qaVerdict // by key id
	mu    sync.Mutex
}

type qaVerdict struct {
	version string // of the row and its source
	flagged bool
}

// qaCacheLanguages bounds how many project languages the cache keeps.
const qaCacheLanguages = 32

func (q *qaCache) language(projectID, language, terms string) *qaLanguage {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.langs == nil {
		q.langs = map[string]*qaLanguage{}
	}
	id := projectID + "\x00" + language
	l := q.langs[id]
	if l == nil || l.terms != terms {
		if l == nil && len(q.order) >= qaCacheLanguages {
			delete(q.langs, q.order[0])
			q.order = q.order[1:]
		}
		if l == nil {
			q.order = append(q.order, id)
		}
		l = &qaLanguage{terms: terms, rows: map[int64]qaVerdict{}}
		q.langs[id] = l
	}
	return l
}

func termsFingerprint(t terms) string {
	h := sha256.New()
	for _, g := range t.glossary {
		h.Write([]byte(g.SourceTerm + "\x00" + g.TargetTerm + "\x00" + g.Locale + "\x01"))
	}
	h.Write([]byte(strings.Join(t.dnt, "\x00") + "\x01" + t.syntax.String()))
	return hex.EncodeToString(h.Sum(nil))
}

// flaggedRows is qaRows through the cache.
func (c *Catalog) flaggedRows(proj model.Project, t terms, language string, rows []model.ReviewRow) map[int64]bool {
	l := c.qa.language(proj.ID, language, termsFingerprint(t))
	out := map[int64]bool{}
	var todo []model.ReviewRow
	versions := make(map[int64]string, len(rows))
	l.mu.Lock()
	for _, r := range rows {
		if r.Value == nil || r.Value.Value == "" {
			continue
		}
		v := rowVersion(r.Value) + rowVersion(&r.Source)
		versions[r.KeyID] = v
		if got, ok := l.rows[r.KeyID]; ok && got.version == v {
			if got.flagged {
				out[r.KeyID] = true
			}
			continue
		}
		todo = append(todo, r)
	}
	l.mu.Unlock()
	if len(todo) == 0 {
		return out
	}
	found := c.qaRows(proj, t, language, todo)
	l.mu.Lock()
	for _, r := range todo {
		l.rows[r.KeyID] = qaVerdict{version: versions[r.KeyID], flagged: found[r.KeyID]}
		if found[r.KeyID] {
			out[r.KeyID] = true
		}
	}
	l.mu.Unlock()
	return out
}

// qaQueuedMax bounds the keys written since the checkup last ran that the QA filter
// checks on the request (about one checkup chunk of analysis, remembered by the qaCache);
// past it the filter checks the rows it walks instead.
const qaQueuedMax = 1000

// qaPageFromFindings fills out with a page of the QA filter from the checkup's open
// findings, which the checkup keeps per key and language: the keys it has checked since
// their last write (every key not in its queue) are read from there, the queued ones are
// checked now. It reports false, having changed nothing, when the findings cannot say:
// no checkup yet, what the analysis depends on changed since (glossary, terms, syntax,
// languages), a full pass under way, or more keys queued than qaQueuedMax; and for rows
// named by key id.
func (c *Catalog) qaPageFromFindings(ctx context.Context, tx model.Tx, proj model.Project, t terms, f model.ReviewFilter, limit int, out *ReviewPage) (bool, error) {
	if len(f.KeyIDs) > 0 {
		return false, nil // named rows: checking them is as cheap
	}
	latest, err := tx.LatestCheckup(ctx, proj.ID)
	if model.IsNotFound(err) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if latest.Fingerprint != newCheckupConfig(proj, t.syntax, t.glossary, t.dnt).fingerprint || (latest.Full && latest.CursorNS >= 0) {
		return false, nil
	}
	// The queue before the findings: a chunk of the checkup that commits in between takes
	// keys off the queue only with their findings.
	marks, err := tx.CheckupQueue(ctx, proj.ID, 0, nil, qaQueuedMax+1)
	if err != nil || len(marks) > qaQueuedMax {
		return false, err
	}
	queued := map[int64]bool{}
	var queuedIDs []int64
	for _, m := range marks {
		if m.KeyID > f.AfterKeyID && !queued[m.KeyID] {
			queued[m.KeyID] = true
			queuedIDs = append(queuedIDs, m.KeyID)
		}
	}
	var flaggedQueued []model.ReviewRow
	if len(queuedIDs) > 0 {
		qf := f
		qf.KeyIDs, qf.Limit = queuedIDs, 0
		rows, err := tx.ReviewRows(ctx, qf)
		if err != nil {
			return false, err
		}
		flagged := c.flaggedRows(proj, t, f.Language, rows)
		for _, r := range rows {
			if flagged[r.KeyID] {
				flaggedQueued = append(flaggedQueued, r)
			}
		}
	}
	// Each pass reads enough keys with findings to fill the page even when every queued
	// key is among them; another pass only when rows were not shown (hidden keys whose
	// findings the checkup has yet to close).
	var page []model.ReviewRow
	n := limit + 1 + len(queuedIDs)
	after := f.AfterKeyID
	for {
		ids, err := tx.OpenFindingKeys(ctx, model.FindingKeysFilter{ProjectID: proj.ID, Namespace: f.Namespace, Language: f.Language, AfterKeyID: after, Limit: n})
		if err != nil {
			return false, err
		}
		full := len(ids) == n
		clean := ids[:0:0]
		for _, id := range ids {
			if !queued[id] {
				clean = append(clean, id)
			}
		}
		var rows []model.ReviewRow
		if len(clean) > 0 {
			cf := f
			cf.KeyIDs, cf.AfterKeyID, cf.Limit = clean, after, 0
			if rows, err = tx.ReviewRows(ctx, cf); err != nil {
				return false, err
			}
		}
		for _, r := range flaggedQueued {
			if r.KeyID > after && (!full || r.KeyID <= ids[len(ids)-1]) {
				rows = append(rows, r)
			}
		}
		slices.SortFunc(rows, func(a, b model.ReviewRow) int { return cmp.Compare(a.KeyID, b.KeyID) })
		page = append(page, rows...)
		if len(page) > limit || !full {
			break
		}
		after = ids[len(ids)-1]
	}
	if len(page) > limit {
		page = page[:limit]
		out.Next = page[limit-1].KeyID
	}
	for _, r := range page {
		out.Rows = append(out.Rows, c.reviewItem(proj, t, f.Language, r))
	}
	return true, nil
}
