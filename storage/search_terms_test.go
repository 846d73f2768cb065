package storage

import (
	"fmt"
	"slices"
	"testing"
)

// TestIndexPieces: a trigram index is asked for the words of a substring that few sampled
// texts hold, each with the separators beside it, and for the whole substring when no word
// is rare or the substring is one word.
func TestIndexPieces(t *testing.T) {
	t.Parallel()
	var sample []string
	for i := range termSample {
		sample = append(sample, fmt.Sprintf("section_%d.element_%d.label", i*7%500, i%100))
	}
	for _, tc := range []struct {
		sub  string
		want []string
	}{
		// "section", "element" and "label" are in every sampled name.
		{"section_499.element_98.label", []string{"_499.", "_98."}},
		{"Section_499.ELEMENT_98", []string{"_499.", "_98"}},
		{"section_.element_.label", []string{"section_.element_.label"}},
		{"quokka", []string{"quokka"}},
		{"the quokka", []string{"the ", " quokka"}},
		{"element_98.label", []string{"_98."}},
		// One word with its separators is the substring: asked as it is.
		{"_499.", []string{"_499."}},
		// "_4" has under three characters: too short for a trigram index.
		{"section_4", []string{"section_4"}},
	} {
		if got := indexPieces(tc.sub, sample); !slices.Equal(got, tc.want) {
			t.Errorf("indexPieces(%q) = %q, want %q", tc.sub, got, tc.want)
		}
	}
	// Without a sample every word counts as common.
	if got := indexPieces("section_499.label", nil); !slices.Equal(got, []string{"section_499.label"}) {
		t.Errorf("without a sample: %q", got)
	}
}

// TestSampleCache: a sample serves sampleUses searches and is then read again; the cache
// holds at most sampleEntries samples.
func TestSampleCache(t *testing.T) {
	t.Parallel()
	var c sampleCache
	if c.get("a") != nil {
		t.Fatal("an empty cache gave a sample")
	}
	c.put("a", []string{"x"})
	for i := range sampleUses {
		if got := c.get("a"); !slices.Equal(got, []string{"x"}) {
			t.Fatalf("use %d: %q", i, got)
		}
	}
	if got := c.get("a"); got != nil {
		t.Fatalf("after %d uses the sample is still served: %q", sampleUses, got)
	}
	for i := range sampleEntries + 1 {
		c.put(fmt.Sprint(i), []string{"y"})
	}
	if len(c.m) > sampleEntries {
		t.Errorf("%d samples kept, want at most %d", len(c.m), sampleEntries)
	}
}
