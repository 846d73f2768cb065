package formats

import (
	"testing"
)

func TestXLIFFGoldenAngular(t *testing.T) {
	t.Parallel()
	goldenRoundTrip(t, "xliff", "xliff/angular.de.xlf", Options{Language: "de", SourceLanguage: "en"}, nil)
}

func TestXLIFFGoldenXcode(t *testing.T) {
	t.Parallel()
	f := goldenRoundTrip(t, "xliff", "xliff/xcode.ru.xliff", Options{Language: "ru", SourceLanguage: "en"}, nil)
	for _, e := range f.Entries {
		t.Logf("%q src=%q val=%q c=%q meta=%q", e.Key, e.Source, e.Values, e.Comment, e.Meta)
	}
	t.Logf("%q", f.Meta)
}

func TestXLIFF2Golden(t *testing.T) {
	t.Parallel()
	f := goldenRoundTrip(t, "xliff2", "xliff2/angular.pl.xlf", Options{Language: "pl", SourceLanguage: "en"}, nil)
	for _, e := range f.Entries { t.Logf("%q src=%q val=%q c=%q meta=%q", e.Key, e.Source, e.Values, e.Comment, e.Meta) }
	t.Logf("%q", f.Meta)
}
