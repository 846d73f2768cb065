package formats

import (
	"testing"
)

func TestARBGoldenArabic(t *testing.T) {
	t.Parallel()
	v := func(s string) map[string]Value { return map[string]Value{"ar": {Text: s}} }
	want := &File{
		Languages: []string{"ar"},
		Meta:      map[string]string{"@@locale": "ar", "@@context": "تطبيق الملفات", "@@last_modified": "2026-11-24T12:00:00Z"},
		Entries: []Entry{
			{Key: "appTitle", Values: v("الملفات"), Comment: "The title of the app, in the app bar."},
			// ICU stays as written: the explicit =1 beside Arabic's six categories, {count} in forms.
			{Key: "fileCount", Values: v("{count, plural, =0 {لا ملفات} zero {لا ملفات} one {ملف واحد} two {ملفان} few {{count} ملفات} many {{count} ملفًا} other {{count} ملف}}"),
				Comment: "How many files the folder holds.",
				Meta:    map[string]string{"metadata": `{"placeholders":{"count":{"type":"int","format":"compact","example":"42"}}}`}},
			{Key: "greeting", Values: v("مرحبًا {userName}، لديك {count} رسائل"),
				Meta: map[string]string{"metadata": `{"type":"text","placeholders":{"userName":{"type":"String","example":"Amal"},"count":{"type":"int"}}}`}},
			{Key: "noMeta", Values: v(`بلا "وصف"`)},
			{Key: "gender", Values: v("{sex, select, male {هو} female {هي} other {هم}}"), Comment: "A pronoun.",
				Meta: map[string]string{"metadata": `{"context":"profile"}`}},
			{Key: "orphan", Values: map[string]Value{}, Comment: "Metadata whose message is not in this file."},
		},
	}
	f := goldenRoundTrip(t, "arb", "arb/app_ar.arb", Options{Language: "ar"}, want)
	entriesRoundTrip(t, "arb", f, Options{Language: "ar"})
}

func TestARBEncodeFromLokal(t *testing.T) {
	t.Parallel()
	f := &File{Meta: map[string]string{"@@x-generator": "lokal", "@@locale": "ja", "@@x-count": "3", "@@x-count:json": "true"}, Entries: []Entry{
		{Key: "b", Values: map[string]Value{"ja": {Text: "{n, plural, other {# 件}}"}}, Comment: "count"},
		{Key: "a", Values: map[string]Value{"de": {Text: "nur Deutsch"}}, Comment: "untranslated: left out"},
	}}
	out, err := Encode("arb", f, Options{Language: "ja"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "@@locale": "ja",
  "@@x-count": 3,
  "@@x-generator": "lokal",
  "b": "{n, plural, other {# 件}}",
  "@b": {
    "description": "count"
  }
}
`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	back, err := Decode("arb", out, Options{Language: "ja"})
	if err != nil {
		t.Fatal(err)
	}
	if back.Meta["@@x-count"] != "3" || back.Meta["@@x-count:json"] != "true" {
		t.Errorf("a @@ value that is not a string: Meta = %q", back.Meta)
	}
}

func TestARBRefusesBrokenFiles(t *testing.T) {
	t.Parallel()
	checkRefusals(t, "arb", struct {
		name, data string
		line       int
	}{"metadata not an object", "{\n  \"a\": \"x\",\n  \"@a\": \"y\"\n}", 3})
}

func FuzzDecodeARB(f *testing.F) {
	f.Add(readTestdata(f, "arb/app_ar.arb"))
	f.Add([]byte(`{"@a":{"description":7,"x":[1,{"y":null}]},"a":"v","@@n":1.5e3,"@":{}}`))
	f.Add([]byte(`{"@@a:json":"true","@@b":"1","@@b:json":"true","@@c":[],"@@c:json":"false"}`))
	for _, c := range brokenJSONCases {
		f.Add([]byte(c.data))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRoundTrip(t, "arb", data, Options{Language: "ar"})
	})
}
