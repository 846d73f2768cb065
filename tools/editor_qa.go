package tools

import (
	"crypto/sha256"
	"encoding/hex"
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
