package storage

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// shortTexts are the source texts an anonymous Embed harvest can plant whose words are
// all under three letters, or markup and placeholders.
var shortTexts = []string{"", "OK?", "Go on", "<b>x</b>", "{{n}}", "a b", "?!", "ok", "é", "<br/>", "{0} {1}", "  ", "Hi, yo!"}

// FuzzMemoryTerms: the words asked of the index, and the probe for an exact lookup, are
// defined for every text: never a panic, at most memoryWords words of three or more
// characters each, and a probe that the text holds (folded) whenever it has three runes.
func FuzzMemoryTerms(f *testing.F) {
	for _, s := range shortTexts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) { checkMemoryTerms(t, text) })
}

// TestMemoryTermsShortInputs runs the fuzz property over random short texts of short
// words, punctuation and markup, the class that crashed the editor's row page.
func TestMemoryTermsShortInputs(t *testing.T) {
	t.Parallel()
	parts := []string{"a", "ok", "OK", "go", "on", "x", "?", "!", " ", "<b>", "</b>", "{{n}}", "{0}", "é", "ß", "-", "'", "🙂", "abc", "\t"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		var b strings.Builder
		for range r.IntN(6) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		checkMemoryTerms(t, b.String())
	}
}

func checkMemoryTerms(t *testing.T, text string) {
	t.Helper()
	sample := []string{"ok?", "go on", "<b>x</b>", "abc def"}
	words := memoryTerms(strings.FieldsFunc(text, func(r rune) bool { return !isWordRune(r) }), sample)
	if len(words) > memoryWords {
		t.Fatalf("%q: %d words %q", text, len(words), words)
	}
	for _, w := range words {
		if utf8.RuneCountInString(w) < 3 {
			t.Fatalf("%q: word %q is too short for a trigram index", text, w)
		}
	}
	if p := memoryProbe(words, text); utf8.RuneCountInString(text) >= 3 && !strings.Contains(strings.ToLower(text), p) {
		t.Fatalf("%q: probe %q is not in the text", text, p)
	}
	if len(indexPieces(text, sample)) == 0 {
		t.Fatalf("%q: no piece to ask the index for", text)
	}
}
