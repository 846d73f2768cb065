package formats

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

const photosIn = "{photos, plural, one {%arg photo} other {%arg photos}} in {albums, plural, one {%arg album} other {%arg albums}}"

const deviceEditJSON = `{"ipad":{"stringUnit":{"state":"translated","value":"%[1]s"}},"iphone":{"stringUnit":{"state":"translated","value":"%[1]s"}},"mac":{"stringUnit":{"state":"translated","value":"%[2]s"}},"other":{"stringUnit":{"state":"translated","value":"%[1]s"}}}`

const zhPhotosWritten = `{"one":{"stringUnit":{"state":"translated","value":"1 张照片"}},"other":{"stringUnit":{"state":"translated","value":"%lld 张照片"}}}`

// A catalog as Xcode writes it: plurals in ja, ko and zh-Hans with Xcode's one beside
// other, a substitution with argNum and two variables (reordered in German), device
// variations, extractionState manual and stale, shouldTranslate false, the empty key and
// needs_review and stale states. It decodes to the values lokal stores and encodes back
// byte for byte.
func TestXCStringsCatalogGolden(t *testing.T) {
	t.Parallel()
	tr := func(s string) Value { return Value{Text: s, State: StateTranslated} }
	want := &File{
		SourceLanguage: "en",
		Languages:      []string{"en", "ja", "ko", "zh-Hans", "de"},
		Meta:           map[string]string{"version": "1.0", "emptyKey": `{"shouldTranslate":false}`},
		Warnings:       []Warning{{Message: xcEmptyKeyWarning}},
		Entries: []Entry{
			{Key: "%lld photos", Source: "{count, plural, one {%lld photo} other {%lld photos}}", Values: map[string]Value{
				"en": tr("{count, plural, one {%lld photo} other {%lld photos}}"),
				// Japanese and Korean have other alone: Xcode's one, the same text, is
				// what Encode writes anyway.
				"ja": tr("{count, plural, other {%lld枚の写真}}"),
				"ko": tr("{count, plural, other {사진 %lld장}}"),
				// A one form that differs is kept as written.
				"zh-Hans": tr("{count, plural, other {%lld 张照片}}"),
			}, Meta: map[string]string{"zh-Hans:plural.written": zhPhotosWritten}},
			{Key: "%lld photos in %lld albums", Source: photosIn, Comment: "Library summary.", Values: map[string]Value{
				"de": tr("In {albums, plural, one {%arg Album} other {%arg Alben}} liegen {photos, plural, one {%arg Foto} other {%arg Fotos}}"),
				"en": tr(photosIn),
			}, Meta: map[string]string{
				"de:substitutions": "true", "de:argNum.albums": "2", "de:argNum.photos": "1", "de:position.albums": "2", "de:position.photos": "1",
				"de:formatSpecifier.albums": "lld", "de:formatSpecifier.photos": "lld",
				"en:substitutions": "true", "en:argNum.albums": "2", "en:argNum.photos": "1",
				"en:formatSpecifier.albums": "lld", "en:formatSpecifier.photos": "lld",
			}},
			{Key: "Brand", Source: "Lumen", DoNotTranslate: true, Values: map[string]Value{"en": tr("Lumen")},
				Meta: map[string]string{"extractionState": "manual"}},
			{Key: "Delete", Source: "Delete", Values: map[string]Value{
				"de": {Text: "Löschen", State: StateNeedsReview}, "ja": tr("削除"), "zh-Hans": {Text: "删除", State: StateNeedsReview}}},
			{Key: "Old title", Source: "Old title", Values: map[string]Value{"de": tr("Alter Titel"), "ja": {Text: "古いタイトル", State: StateStale}},
				Meta: map[string]string{"extractionState": "stale"}},
			{Key: "Tap to edit", Source: "Tap to edit", Values: map[string]Value{"de": tr("Tippen zum Bearbeiten"), "en": tr("Tap to edit")},
				Meta: map[string]string{
					"de.variations.device": fmt.Sprintf(deviceEditJSON, "Tippen zum Bearbeiten", "Klicken zum Bearbeiten"), "de:value": "device",
					"en.variations.device": fmt.Sprintf(deviceEditJSON, "Tap to edit", "Click to edit"), "en:value": "device",
				}},
		},
	}
	o := Options{Language: AllLanguages}
	f := goldenRoundTrip(t, "xcstrings", "xcstrings/Catalog.xcstrings", o, want)
	entriesRoundTrip(t, "xcstrings", f, o)

	// What only Meta keeps is named; what a store of values alone writes back the same is not.
	unkept := map[string][]string{}
	for _, e := range f.Entries {
		if u := xcstringsUnkept(e); u != nil {
			unkept[e.Key] = u
		}
	}
	wantUnkept := map[string][]string{
		"%lld photos":                {`the zh-Hans plural's one form ("1 张照片"), which zh-Hans never selects (Xcode writes one beside other): without the file's copy, one is written as other reads`},
		"%lld photos in %lld albums": {"the de substitutions' albums argNum 2, photos argNum 1, albums position 2, photos position 1: without them the substitutions take the arguments in the order the text names them, as %lld, so a reordered or non-integer argument shows the wrong number"},
		"Brand":                      {`extractionState "manual" (a key added by hand): without it Xcode marks the key stale once its code does not use it`},
		"Old title":                  {`extractionState "stale" (Xcode's mark that the code no longer uses the key)`},
		"Tap to edit": {"the de device variations (ipad, iphone, mac, other): without them every device shows one text",
			"the en device variations (ipad, iphone, mac, other): without them every device shows one text"},
	}
	if !reflect.DeepEqual(unkept, wantUnkept) {
		t.Errorf("Unkept:\n got %q\nwant %q", unkept, wantUnkept)
	}

	// Edited in lokal: the zh-Hans plural's kept one gives way to Xcode's one as other
	// reads; a ja plural's one follows its other.
	f.Entries[0].Values["zh-Hans"] = tr("{count, plural, other {%lld 张相片}}")
	f.Entries[0].Values["ja"] = Value{Text: "{count, plural, other {写真%lld枚}}", State: StateNeedsReview}
	out, err := Encode("xcstrings", f, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"zh-Hans" : {
          "variations" : {
            "plural" : {
              "one" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%lld 张相片"
                }
              },
              "other" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%lld 张相片"
                }
              }`, `"ja" : {
          "variations" : {
            "plural" : {
              "one" : {
                "stringUnit" : {
                  "state" : "needs_review",
                  "value" : "写真%lld枚"
                }
              },
              "other" : {
                "stringUnit" : {
                  "state" : "needs_review",
                  "value" : "写真%lld枚"
                }
              }`} {
		if !strings.Contains(string(out), s) {
			t.Errorf("the edited file lacks\n%s\nfile:\n%s", s, out)
		}
	}
	if strings.Contains(string(out), "1 张照片") {
		t.Errorf("the zh-Hans one form of the old value is still written:\n%s", out)
	}
	back, err := Decode("xcstrings", out, o)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Entries[0]; got.Values["zh-Hans"] != f.Entries[0].Values["zh-Hans"] || got.Values["ja"] != f.Entries[0].Values["ja"] || got.Meta != nil {
		t.Errorf("the edited plurals read back as %q, Meta %q", got.Values, got.Meta)
	}
}

// Each language whose plurals have other alone gets Xcode's one; a plural that another
// tool wrote with other alone is written back so.
func TestXCStringsOtherOnlyPlurals(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"ja", "ko", "zh-Hans", "zh-Hant", "vi", "th", "id"} {
		f := &File{SourceLanguage: "en", Entries: []Entry{{Key: "%lld songs", Source: "%lld songs",
			Values: map[string]Value{lang: {Text: "{n, plural, other {# x}}", State: StateTranslated}}}}}
		out, err := Encode("xcstrings", f, Options{Language: lang})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), `"one" : {`) || strings.Count(string(out), `"value" : "%lld x"`) != 2 {
			t.Errorf("%s: the plural is not written with one beside other:\n%s", lang, out)
		}
	}
	// German has one: no Xcode one to add, nothing else changes.
	de := &File{SourceLanguage: "en", Entries: []Entry{{Key: "k", Source: "k", Values: map[string]Value{"de": {Text: "{n, plural, other {# x}}"}}}}}
	if out, err := Encode("xcstrings", de, Options{Language: "de"}); err != nil || strings.Contains(string(out), `"one"`) {
		t.Errorf("de: %v\n%s", err, out)
	}

	data := []byte(`{
  "sourceLanguage" : "en",
  "strings" : {
    "%lld songs" : {
      "localizations" : {
        "ko" : {
          "variations" : {
            "plural" : {
              "other" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "노래 %lld곡"
                }
              }
            }
          }
        }
      }
    }
  },
  "version" : "1.0"
}
`)
	o := Options{Language: AllLanguages}
	f, err := Decode("xcstrings", data, o)
	if err != nil {
		t.Fatal(err)
	}
	if v := f.Entries[0].Values["ko"].Text; v != "{count, plural, other {노래 %lld곡}}" {
		t.Errorf("ko = %q", v)
	}
	out, err := Encode("xcstrings", f, o)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(data) {
		t.Errorf("a ko plural without one came back as\n%s", out)
	}
}

// A pull of the catalog from a store that kept values only: unchanged, the file comes back
// as it is (the empty key, the zh-Hans one, the devices, argNum); a changed ja plural
// rewrites its two value lines only.
func TestXCStringsCatalogMerge(t *testing.T) {
	t.Parallel()
	local := readTestdata(t, "xcstrings/Catalog.xcstrings")
	o := Options{Language: AllLanguages, SourceLanguage: "en"}
	export := func(edit func(f *File)) []byte {
		f, err := Decode("xcstrings", local, o)
		if err != nil {
			t.Fatal(err)
		}
		f.Meta, f.Warnings = nil, nil
		for i := range f.Entries {
			f.Entries[i].Meta = nil
		}
		edit(f)
		out, err := Encode("xcstrings", f, o)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	merged, err := MergeFile("xcstrings", local, export(func(*File) {}), o)
	if err != nil {
		t.Fatal(err)
	}
	if string(merged) != string(local) {
		t.Errorf("nothing changed, yet the merge gives\n%s", merged)
	}
	merged, err = MergeFile("xcstrings", local, export(func(f *File) {
		f.Entries[0].Values["ja"] = Value{Text: "{count, plural, other {写真%lld枚}}", State: StateTranslated}
	}), o)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(string(local), `"value" : "%lld枚の写真"`, `"value" : "写真%lld枚"`, 2)
	if string(merged) != want {
		t.Errorf("merge of one ja plural:\n%s\nwant\n%s", merged, want)
	}
}

// Substitutions too: Xcode's one beside other in Japanese reads as the other form, and a
// form the language never selects (two in Russian) is kept aside and written back; an
// edited Japanese value gets Xcode's one again.
func TestXCStringsSubstitutionsSetAside(t *testing.T) {
	t.Parallel()
	file := func(lang, forms string) []byte {
		return []byte(`{"sourceLanguage":"en","strings":{"%lld songs on %lld discs":{"localizations":{"` + lang +
			`":{"stringUnit":{"state":"translated","value":"%#@discs@の%#@songs@"},"substitutions":{` +
			`"discs":{"argNum":2,"formatSpecifier":"lld","variations":{"plural":{` + forms + `}}},` +
			`"songs":{"argNum":1,"formatSpecifier":"lld","variations":{"plural":{` + forms + `}}}}}}}},"version":"1.0"}`)
	}
	o := Options{Language: AllLanguages}
	for _, c := range []struct{ lang, forms, value, written string }{
		{"ja", `"one":{"stringUnit":{"state":"translated","value":"%arg枚"}},"other":{"stringUnit":{"state":"translated","value":"%arg枚"}}`,
			"{discs, plural, other {%arg枚}}の{songs, plural, other {%arg枚}}", ""},
		{"ru", `"other":{"stringUnit":{"state":"translated","value":"%arg шт."}},"two":{"stringUnit":{"state":"translated","value":"пара"}}`,
			"{discs, plural, other {%arg шт.}}の{songs, plural, other {%arg шт.}}",
			`{"other":{"stringUnit":{"state":"translated","value":"%arg шт."}},"two":{"stringUnit":{"state":"translated","value":"пара"}}}`},
	} {
		data := file(c.lang, c.forms)
		f, err := Decode("xcstrings", data, o)
		if err != nil {
			t.Fatal(err)
		}
		e := f.Entries[0]
		if got := e.Values[c.lang].Text; got != c.value {
			t.Errorf("%s: value %q, want %q", c.lang, got, c.value)
		}
		if e.Meta[c.lang+".substitutions"] != "" || e.Meta[c.lang+":written.songs"] != c.written {
			t.Errorf("%s: Meta %q", c.lang, e.Meta)
		}
		out, err := Encode("xcstrings", f, o)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode("xcstrings", out, o)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back.Entries, f.Entries) {
			t.Errorf("%s: the encoding reads back as %+v, want %+v\n%s", c.lang, back.Entries, f.Entries, out)
		}
		if c.lang == "ru" && !strings.Contains(string(out), `"value" : "пара"`) {
			t.Errorf("ru: the two form is not written back:\n%s", out)
		}
	}
	f, err := Decode("xcstrings", file("ja", `"one":{"stringUnit":{"state":"translated","value":"%arg枚"}},"other":{"stringUnit":{"state":"translated","value":"%arg枚"}}`), o)
	if err != nil {
		t.Fatal(err)
	}
	f.Entries[0].Values["ja"] = Value{Text: "{discs, plural, other {%arg組}}の{songs, plural, other {%arg曲}}", State: StateTranslated}
	out, err := Encode("xcstrings", f, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"%arg組", "%arg曲"} {
		if n := strings.Count(string(out), `"value" : "`+v+`"`); n != 2 {
			t.Errorf("%s is written %d times, want as one and other:\n%s", v, n, out)
		}
	}
}
