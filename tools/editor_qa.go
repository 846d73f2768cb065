package tools

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math"
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
	// checkMax is qaCheckMax when 0; tests lower it.
	checkMax int
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

// qaCheckMax bounds the rows one page of the QA filter checks on the request: those the
// checkup has not checked since their last write (all of them before a checkup or while a
// full pass runs, the queued ones otherwise). At 1 row in 500 with a problem a full page
// means 25,000 rows, seconds of reading and analysis; 1,000 rows not seen before cost
// 40-160 ms on a loaded 2-core machine, so a page checks half that, ends where the checks
// stopped, says so (Partial), and the next page goes on from there.
const qaCheckMax = 500

func (c *Catalog) qaCheckBound() int {
	if c.qa.checkMax > 0 {
		return c.qa.checkMax
	}
	return qaCheckMax
}

// qaPage fills out with a page of the QA filter: the rows with a problem as they are now.
// The checkup's open findings say it for the keys it checked since their last write; the
// others are checked on the request, at most qaCheckMax of them.
func (c *Catalog) qaPage(ctx context.Context, tx model.Tx, proj model.Project, t terms, f model.ReviewFilter, limit int, out *ReviewPage) error {
	if len(f.KeyIDs) == 0 {
		current, err := c.findingsCurrent(ctx, tx, proj, t)
		if err != nil {
			return err
		}
		if current {
			return c.qaPageFromFindings(ctx, tx, proj, t, f, limit, out)
		}
	}
	return c.qaWalk(ctx, tx, proj, t, f, limit, out)
}

// findingsCurrent reports whether the open findings of every key the checkup queue does not
// hold are its findings as it is now: false before any checkup, when what the analysis
// depends on changed since (glossary, terms, syntax, languages), while a full pass runs,
// and while a write of many keys queued the whole project.
func (c *Catalog) findingsCurrent(ctx context.Context, tx model.Tx, proj model.Project, t terms) (bool, error) {
	latest, err := tx.LatestCheckup(ctx, proj.ID)
	if model.IsNotFound(err) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if latest.Fingerprint != newCheckupConfig(proj, t.syntax, t.glossary, t.dnt).fingerprint || (latest.Full && latest.CursorNS >= 0) {
		return false, nil
	}
	wholes, err := tx.CheckupQueue(ctx, proj.ID, 0, []int64{model.CheckupWholeProject}, 1)
	return len(wholes) == 0, err
}

// qaWalk checks the rows in key order until a page of rows with a problem, or, unless rows
// are named by key id, qaCheckMax rows.
func (c *Catalog) qaWalk(ctx context.Context, tx model.Tx, proj model.Project, t terms, f model.ReviewFilter, limit int, out *ReviewPage) error {
	checked := 0
	for {
		f.Limit = 1000
		if len(f.KeyIDs) == 0 {
			f.Limit = min(f.Limit, c.qaCheckBound()-checked)
		}
		rows, _, err := tx.ReviewRows(ctx, f)
		if err != nil {
			return err
		}
		checked += len(rows)
		flagged := c.flaggedRows(proj, t, f.Language, rows)
		for _, r := range rows {
			if !flagged[r.KeyID] {
				continue
			}
			if len(out.Rows) == limit {
				out.Next = idCursor(out.Rows[limit-1].KeyID)
				return nil
			}
			out.Rows = append(out.Rows, c.reviewItem(proj, t, f.Language, r))
		}
		if len(rows) < f.Limit {
			return nil
		}
		f.AfterKeyID = rows[len(rows)-1].KeyID
		if len(f.KeyIDs) == 0 && checked >= c.qaCheckBound() {
			out.Next, out.Partial = idCursor(f.AfterKeyID), true
			return nil
		}
	}
}

// qaWindowEnd is where the keys with findings after after would fill a page of n rows (0
// when they would not), read before the queue only to bound its walk: the checkup deletes
// the marks it took in key order, and until PostgreSQL vacuums the queue their index
// entries stay, so a walk of the queue from the namespace's first key stepped over every
// mark taken so far (132-218 ms for an empty queue after a million keys' marks were taken).
// The findings that decide the page are read again after the queue.
func (c *Catalog) qaWindowEnd(ctx context.Context, tx model.Tx, proj model.Project, f model.ReviewFilter, after int64, n int) (int64, error) {
	ids, err := tx.OpenFindingKeys(ctx, model.FindingKeysFilter{ProjectID: proj.ID, Namespace: f.Namespace, Language: f.Language, AfterKeyID: after, Limit: n})
	if err != nil || len(ids) < n {
		return 0, err
	}
	return ids[n-1], nil
}

// qaPageFromFindings fills out with a page of the QA filter when the findings are current
// (findingsCurrent): it walks the keys with open findings and the queued keys together in
// key order, shows the first unless queued, and checks the queued ones now. A chunk of the
// checkup that commits meanwhile takes keys off the queue only with their findings, so the
// queue is read before the findings.
func (c *Catalog) qaPageFromFindings(ctx context.Context, tx model.Tx, proj model.Project, t terms, f model.ReviewFilter, limit int, out *ReviewPage) error {
	var page []model.ReviewRow
	checked := 0
	after := f.AfterKeyID
	for {
		// The window (after, end] holds the queued keys it checks, at most the bound's, and
		// the keys with findings of at most the rest of a page. Queued keys are the
		// project's: those of other namespaces count, so that a namespace with few of them
		// does not walk the whole queue, and drop out when the rows are read.
		end := int64(math.MaxInt64)
		room := c.qaCheckBound() - checked
		n := limit + 1 - len(page)
		through, err := c.qaWindowEnd(ctx, tx, proj, f, after, n)
		if err != nil {
			return err
		}
		queued, err := tx.QueuedKeys(ctx, model.QueuedKeysFilter{ProjectID: proj.ID, AfterKeyID: after, ThroughKeyID: through, Limit: room + 1})
		if err != nil {
			return err
		}
		partial := false
		if len(queued) > room {
			end, partial, queued = queued[room]-1, true, queued[:room]
		}
		ids, err := tx.OpenFindingKeys(ctx, model.FindingKeysFilter{ProjectID: proj.ID, Namespace: f.Namespace, Language: f.Language, AfterKeyID: after, Limit: n})
		if err != nil {
			return err
		}
		if len(ids) == n && ids[n-1] < end {
			end, partial = ids[n-1], false
		}
		if through > 0 && through < end {
			// The queue was read up to through only: the page goes on from there.
			end, partial = through, false
		}
		isQueued := map[int64]bool{}
		var check, clean []int64
		for _, id := range queued {
			if id <= end {
				isQueued[id] = true
				check = append(check, id)
			}
		}
		for _, id := range ids {
			if id <= end && !isQueued[id] {
				clean = append(clean, id)
			}
		}
		checked += len(check)
		var rows []model.ReviewRow
		if len(clean) > 0 {
			cf := f
			cf.KeyIDs, cf.Limit = clean, 0
			if rows, _, err = tx.ReviewRows(ctx, cf); err != nil {
				return err
			}
		}
		if len(check) > 0 {
			qf := f
			qf.KeyIDs, qf.Limit = check, 0
			qrows, _, err := tx.ReviewRows(ctx, qf)
			if err != nil {
				return err
			}
			flagged := c.flaggedRows(proj, t, f.Language, qrows)
			for _, r := range qrows {
				if flagged[r.KeyID] {
					rows = append(rows, r)
				}
			}
		}
		slices.SortFunc(rows, func(a, b model.ReviewRow) int { return cmp.Compare(a.KeyID, b.KeyID) })
		page = append(page, rows...)
		if len(page) > limit {
			page = page[:limit]
			out.Next = idCursor(page[limit-1].KeyID)
			break
		}
		if partial {
			out.Next, out.Partial = idCursor(end), true
			break
		}
		if end == math.MaxInt64 {
			break
		}
		after = end
	}
	for _, r := range page {
		out.Rows = append(out.Rows, c.reviewItem(proj, t, f.Language, r))
	}
	return nil
}
