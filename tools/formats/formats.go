package formats

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Row is one key's translation for Render, lokal's export of one language. Key is
// dot-separated ("section.element"); keys may also be arbitrary page text (key equal to the
// source text, may contain spaces, dots, quotes, newlines, unicode).
type Row struct {
	Key    string // dot-separated key
	Source string // source-language text ("" when unknown)
	Value  string // translation in Language
	// Stale: Value was made against an older source text; NeedsReview: Value is a draft
	// not yet approved. po marks either entry fuzzy (gettext's "needs checking"); the other
	// formats Render writes have no place for them.
	Stale, NeedsReview bool
}

// Formats lists the accepted format names in the contract's order; yml is also accepted
// for yaml.
var Formats = Names()

// Render writes rows (in any order; output is sorted by Key, deterministic) in the named
// format: lokal's export of one language, through the format's codec. Language is the
// target language code (e.g. "nb", "pt-BR").
//
// Render returns an error when language is empty or contains control characters (it is
// written into the yml and po files, where it must not break the syntax), when a key is empty
// (gettext would read an empty msgctxt/msgid pair as a second header), or when two rows
// share a key (every format is a map; silently dropping one would lose a translation).
// Invalid UTF-8 in any field is replaced by U+FFFD, since every format is UTF-8 text; po
// also replaces NUL and EOT, and fails if two keys then become equal.
func Render(format, language string, rows []Row) ([]byte, error) {
	c, ok := Lookup(format)
	if !ok {
		return nil, unknownFormat(format)
	}
	if err := checkLanguage(language); err != nil {
		return nil, err
	}
	sorted, err := normalize(rows)
	if err != nil {
		return nil, err
	}
	f := &File{Languages: []string{language}, Entries: make([]Entry, len(sorted))}
	for i, r := range sorted {
		v := Value{Text: r.Value}
		switch {
		case r.Stale:
			v.State = StateStale
		case r.NeedsReview:
			v.State = StateNeedsReview
		}
		f.Entries[i] = Entry{Key: r.Key, Source: r.Source, Values: map[string]Value{language: v}}
	}
	return c.Encode(f, Options{Language: language})
}

// rowsOf is f's entries as Rows of one language, for the renderers written for Render.
func rowsOf(f *File, language string) []Row {
	out := make([]Row, len(f.Entries))
	for i, e := range f.Entries {
		v := e.Values[language]
		out[i] = Row{Key: e.Key, Source: e.Source, Value: v.Text, Stale: v.State == StateStale, NeedsReview: v.State == StateNeedsReview}
	}
	return out
}

// ContentType returns the media type of a format, or "" for an unknown one.
func ContentType(format string) string {
	if c, ok := Lookup(format); ok {
		return c.ContentType
	}
	return ""
}

func checkLanguage(language string) error {
	if language == "" {
		return fmt.Errorf("formats: empty language code")
	}
	if !utf8.ValidString(language) || strings.ContainsFunc(language, unicode.IsControl) {
		return fmt.Errorf("formats: invalid language code %q", language)
	}
	return nil
}

// normalize returns a sorted copy of entries with valid UTF-8, so the caller's slice is
// never reordered and every renderer sees the same input.
func normalize(entries []Row) ([]Row, error) {
	out := make([]Row, len(entries))
	for i, e := range entries {
		out[i] = Row{
			Key:    strings.ToValidUTF8(e.Key, "\uFFFD"),
			Source: strings.ToValidUTF8(e.Source, "\uFFFD"),
			Value:  strings.ToValidUTF8(e.Value, "\uFFFD"),
			Stale:  e.Stale, NeedsReview: e.NeedsReview,
		}
		if out[i].Key == "" {
			return nil, fmt.Errorf("formats: entry %d has an empty key", i)
		}
	}
	slices.SortFunc(out, func(a, b Row) int { return strings.Compare(a.Key, b.Key) })
	for i := 1; i < len(out); i++ {
		if out[i].Key == out[i-1].Key {
			return nil, fmt.Errorf("formats: duplicate key %q", out[i].Key)
		}
	}
	return out, nil
}
