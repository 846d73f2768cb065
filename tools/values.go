package tools

import (
	"iter"
	"maps"
	"slices"
)

// writeValues are a write's values by key: the map a JSON body decodes to (valueMap), or an
// import's pairs sorted once (sortedValues), which hold half a map's bytes a key and are
// their own sorted names.
type writeValues interface {
	value(key string) (string, bool)
	count() int
	names() []string // sorted
	all() iter.Seq2[string, string]
}

type valueMap map[string]string

func (m valueMap) value(k string) (string, bool)  { v, ok := m[k]; return v, ok }
func (m valueMap) count() int                     { return len(m) }
func (m valueMap) names() []string                { return sortedKeys(m) }
func (m valueMap) all() iter.Seq2[string, string] { return maps.All(m) }

// sortedValues are keys, sorted and unique, with vals[i] the value of keys[i].
type sortedValues struct{ keys, vals []string }

// sortValues is m as sortedValues: m can go once they are made.
func sortValues(m map[string]string) *sortedValues {
	s := &sortedValues{keys: sortedKeys(m)}
	s.vals = make([]string, len(s.keys))
	for i, k := range s.keys {
		s.vals[i] = m[k]
	}
	return s
}

func (s *sortedValues) value(k string) (string, bool) {
	if i, ok := slices.BinarySearch(s.keys, k); ok {
		return s.vals[i], true
	}
	return "", false
}

func (s *sortedValues) count() int      { return len(s.keys) }
func (s *sortedValues) names() []string { return s.keys }

func (s *sortedValues) all() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for i, k := range s.keys {
			if !yield(k, s.vals[i]) {
				return
			}
		}
	}
}
