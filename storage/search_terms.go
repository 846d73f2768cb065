package storage

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/uptrace/bun"
)

// What a trigram index is asked for a substring, and whether to ask it at all. A whole key such as
// section_499.element_99.label is mostly words that nearly every key holds ("section",
// "element", "label"): every trigram of the term is one more posting list the index walks
// beside the others, and those of common words are as long as the table. At 1,000,000 keys
// PostgreSQL's GIN index spent 25-90 ms finding the 20 keys named so, against 1.5-8 ms when
// asked for "_499." and "_99." alone. So the index is asked for the words of the term that
// few of a sample of the project's keys hold, and each key it names is checked against the
// whole term, which keeps the answer exactly the same.

// termSample is how many keys, spread evenly over the project's key ids, show which words
// are common: those that 1 in termCommonShare of the sampled texts hold (about 3%). That is
// also about the share at which a walk of searchWindow keys fills a page, which is when
// Search walks before it asks an index.
const (
	termSample      = 128
	termCommonShare = 32
)

// indexPieces returns the parts of sub to ask a trigram index for: each word of sub (a
// run of letters and digits) with the separators on either side of it, when it has three
// or more characters and is not common in sample (folded texts); or sub alone when that
// leaves nothing, or nothing but sub. Every piece is a substring of sub, so a text holding
// sub holds every piece, and each index folds a piece as it folds sub.
func indexPieces(sub string, sample []string) []string {
	var pieces []string
	for _, p := range wordPieces(sub) {
		if !common(p, sample) {
			pieces = append(pieces, p)
		}
	}
	if len(pieces) == 0 || (len(pieces) == 1 && pieces[0] == sub) {
		return []string{sub}
	}
	return pieces
}

// rarePiece reports whether a piece of sub (wordPieces) is rare in sample: then the index
// finds sub's texts from that piece's short lists. Without one it reads lists as long as
// the table's, for a term such as element_42 whose words every key holds.
func rarePiece(sub string, sample []string) bool {
	for _, p := range wordPieces(sub) {
		if !common(p, sample) {
			return true
		}
	}
	return false
}

// wordPieces returns each word of s (a run of letters and digits) of three or more
// characters with the separators on either side of it.
func wordPieces(s string) []string {
	var pieces []string
	for start := 0; start < len(s); {
		r, n := utf8.DecodeRuneInString(s[start:])
		if !isWordRune(r) {
			start += n
			continue
		}
		end := start
		for end < len(s) {
			r, n := utf8.DecodeRuneInString(s[end:])
			if !isWordRune(r) {
				break
			}
			end += n
		}
		// The separators beside the word pin its ends: "_99." is far rarer than "99".
		from, to := start, end
		if from > 0 {
			_, n := utf8.DecodeLastRuneInString(s[:from])
			from -= n
		}
		if to < len(s) {
			_, n := utf8.DecodeRuneInString(s[to:])
			to += n
		}
		if p := s[from:to]; utf8.RuneCountInString(p) >= 3 {
			pieces = append(pieces, p)
		}
		start = end
	}
	return pieces
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// common reports whether 1 in termCommonShare of sample holds sub, case folded; with no
// sample, whether it is unknown.
func common(sub string, sample []string) bool {
	sub = strings.ToLower(sub)
	n := 0
	for _, s := range sample {
		if strings.Contains(s, sub) {
			n++
		}
	}
	return n*termCommonShare >= len(sample)
}

// textSample returns the folded names of up to termSample keys with ids spread evenly from
// lo to hi, or with values their values in languages (all when none): a handful of lookups
// by primary key, or by (key_id, language), kept in db.samples for the next searches.
func (t *tx) textSample(ctx context.Context, lo, hi int64, values bool, languages []string) ([]string, error) {
	key := fmt.Sprint(lo, hi, values, languages)
	if texts := t.db.samples.get(key); texts != nil {
		return texts, nil
	}
	ids := make([]int64, 0, termSample)
	for i := range int64(termSample) {
		id := lo + i*(hi-lo)/(termSample-1)
		if len(ids) == 0 || ids[len(ids)-1] != id {
			ids = append(ids, id)
		}
	}
	q := t.tx.NewSelect().TableExpr("translation_keys").Column("key").Where("id IN (?)", bun.In(ids))
	if values {
		q = t.tx.NewSelect().TableExpr("translations").Column("value").Where("key_id IN (?)", bun.In(ids))
		if len(languages) > 0 {
			q = q.Where("language IN (?)", bun.In(languages))
		}
	}
	var texts []string
	if err := q.Scan(ctx, &texts); err != nil {
		return nil, mapError(err)
	}
	texts = append([]string{}, texts...) // never nil: nil asks keyCandidates and valueCandidates to fetch one
	for i, s := range texts {
		texts[i] = strings.ToLower(s)
	}
	t.db.samples.put(key, texts)
	return texts, nil
}

// sampleCache keeps samples between searches: reading one is a hundred rows at random,
// 20-30 ms on SQLite when a write has just emptied the connection's page cache, as much as
// the search it serves. A sample is only an estimate: its key holds the project's key id
// range, which moves as keys are added, and it is read again after sampleUses searches,
// as texts change.
type sampleCache struct {
	mu sync.Mutex
	m  map[string]*cachedSample
}

type cachedSample struct {
	texts []string
	uses  int
}

const (
	sampleUses    = 256
	sampleEntries = 256 // samples kept at most: one or two per project searched
)

func (c *sampleCache) get(key string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.m[key]
	if s == nil || s.uses >= sampleUses {
		return nil
	}
	s.uses++
	return s.texts
}

func (c *sampleCache) put(key string, texts []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= sampleEntries {
		c.m = map[string]*cachedSample{}
	}
	c.m[key] = &cachedSample{texts: texts}
}
