package formats

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// BenchmarkEncode50k encodes a 50,000-key file, sorted as lokal exports it (bilingual
// formats with the source text), in every format: the encoder's part of a cold export
// (tools BenchmarkExportCold50k).
func BenchmarkEncode50k(b *testing.B) {
	verbs := []string{"Open", "Save", "Close", "Delete", "Share", "Print", "Move", "Copy"}
	f := &File{SourceLanguage: "en", Languages: []string{"en", "nb"}}
	for i := 0; i < 50000; i++ {
		noun := "file"
		switch i % 16 {
		case 0:
			noun = "<strong>" + noun + "</strong>"
		case 8:
			noun += " {{count}}"
		}
		en := fmt.Sprintf("%s the big %s %d now.", verbs[i%8], noun, i)
		f.Entries = append(f.Entries, Entry{Key: fmt.Sprintf("section_%d.element_%d.label", i/100, i%100), Source: en,
			Values: map[string]Value{"en": {Text: en, State: StateTranslated}, "nb": {Text: strings.ToUpper(en), State: StateTranslated}}})
	}
	slices.SortFunc(f.Entries, func(a, b Entry) int { return strings.Compare(a.Key, b.Key) })
	for _, name := range Names() {
		c, _ := Lookup(name)
		b.Run(name, func(b *testing.B) {
			o := Options{Language: "nb", SourceLanguage: "en"}
			ff := *f
			if !c.Multilingual {
				ff.Languages = []string{"nb"}
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				out, err := c.Encode(&ff, o)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(out)))
			}
		})
	}
}
