package formats

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Entry is one translation to render. Key is dot-separated ("section.element"); keys may also
// be arbitrary page text (key equal to the source text, may contain spaces, dots, quotes, newlines, unicode).
type Entry struct {
	Key    string // dot-separated key
	Source string // source-language text ("" when unknown)
	Value  string // translation in Language
	// Stale: Value was made against an older source text. po marks such an entry fuzzy
	// (gettext's "needs checking"); the other formats have no place for it.
	Stale bool
}

// Formats lists the accepted format names in order: json, yml, po, strings.
var Formats = []string{"json", "yml", "po", "strings"}

type renderer func(language string, entries []Entry) ([]byte, error)

var renderers = map[string]renderer{
	"json":    renderJSON,
	"yml":     renderYAML,
	"po":      renderPO,
	"strings": renderStrings,
}

var contentTypes = map[string]string{
	"json":    "application/json",
	"yml":     "application/x-yaml",
	"po":      "text/x-gettext-translation",
	"strings": "text/plain; charset=utf-8",
}

// Render writes entries (in any order; output is sorted by Key, deterministic) in the named format.
// Language is the target language code (e.g. "nb", "pt-BR"). Unknown format returns an error.
//
// Render also returns an error when language is empty or contains control characters (it is
// written into the yml and po files, where it must not break the syntax), when a key is empty
// (gettext would read an empty msgctxt/msgid pair as a second header), or when two entries
// share a key (every format is a map; silently dropping one would lose a translation).
// Invalid UTF-8 in any field is replaced by U+FFFD, since every format is UTF-8 text; po
// also replaces NUL and EOT, and fails if two keys then become equal.
func Render(format, language string, entries []Entry) ([]byte, error) {
	render, ok := renderers[format]
	if !ok {
		return nil, fmt.Errorf("formats: unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
	}
	if err := checkLanguage(language); err != nil {
		return nil, err
	}
	sorted, err := normalize(entries)
	if err != nil {
		return nil, err
	}
	return render(language, sorted)
}

// ContentType returns the media type for a format (application/json, application/x-yaml or text/yaml, text/x-gettext-translation for po, text/plain; charset=utf-8 for strings).
// It returns "" for an unknown format.
func ContentType(format string) string {
	return contentTypes[format]
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
func normalize(entries []Entry) ([]Entry, error) {
	out := make([]Entry, len(entries))
	for i, e := range entries {
		out[i] = Entry{
			Key:    strings.ToValidUTF8(e.Key, "\uFFFD"),
			Source: strings.ToValidUTF8(e.Source, "\uFFFD"),
			Value:  strings.ToValidUTF8(e.Value, "\uFFFD"),
			Stale:  e.Stale,
		}
		if out[i].Key == "" {
			return nil, fmt.Errorf("formats: entry %d has an empty key", i)
		}
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Key, b.Key) })
	for i := 1; i < len(out); i++ {
		if out[i].Key == out[i-1].Key {
			return nil, fmt.Errorf("formats: duplicate key %q", out[i].Key)
		}
	}
	return out, nil
}
