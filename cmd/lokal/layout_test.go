package main

// Layouts without a server: how each placeholder spells a language, how a name reads back,
// and which files a scan places, refuses or leaves to source:.

import (
	"reflect"
	"strings"
	"testing"
)

func entry(t *testing.T, files string) fileSpec {
	t.Helper()
	return mustConfig(t, "server: https://lokal.example.com\nproject: p1\nfiles:\n"+files).Files[0]
}

// TestSpellings: each placeholder writes a language as its tools do, and reads back what it
// wrote and the other names those tools use.
func TestSpellings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		path  string
		write map[string]string // language -> spelled
		read  map[string]string // name -> language
	}{
		{"l/{language}/app.json",
			map[string]string{"en": "en", "pt-BR": "pt-BR", "zh-Hans": "zh-Hans", "es-419": "es-419"},
			map[string]string{"pt_BR": "pt-BR", "zh-hant": "zh-Hant", "iw": "he"}},
		{"po/{locale}.po",
			map[string]string{"en": "en", "pt-BR": "pt_BR", "zh-Hans": "zh_Hans", "sr-Latn-RS": "sr_Latn_RS"},
			map[string]string{"sr_RS@latin": "sr-Latn-RS", "sr@latin": "sr-Latn", "uz@cyrillic": "uz-Cyrl", "ca_ES@valencia": "ca-ES-valencia", "nb_NO": "nb-NO", "pt-BR": "pt-BR"}},
		{"res/{android}/strings.xml",
			map[string]string{"en": "values", "de": "values-de", "pt-BR": "values-pt-rBR", "sr-Latn": "values-b+sr+Latn", "es-419": "values-b+es+419", "fil": "values-fil"},
			map[string]string{"values-in": "id", "values-zh-rTW": "zh-TW", "values-b+zh+Hant+HK": "zh-Hant-HK"}},
		{"{apple}.lproj/Localizable.strings",
			map[string]string{"en": "en", "pt-BR": "pt-BR", "zh-Hans": "zh-Hans", "es-419": "es-419"},
			map[string]string{"Base": "en", "English": "en", "pt_BR": "pt-BR"}},
	} {
		f := entry(t, "  - path: \""+tc.path+"\"\n    format: json\n    namespace: app\n")
		for l, want := range tc.write {
			if got := f.spell(l, "en"); got != want {
				t.Errorf("%s: %s spelled %q, want %q", tc.path, l, got, want)
			}
			if back, err := f.read(want, "en"); err != nil || back != l {
				t.Errorf("%s: %q read back as %q, %v; want %s", tc.path, want, back, err, l)
			}
		}
		for name, want := range tc.read {
			if got, err := f.read(name, "en"); err != nil || got != want {
				t.Errorf("%s: %q read as %q, %v; want %s", tc.path, name, got, err, want)
			}
		}
	}
	for _, bad := range []string{"values-night", "values-de-night", "strings", "values-v21"} {
		f := entry(t, "  - path: res/{android}/strings.xml\n    format: android\n    namespace: app\n")
		if l, err := f.read(bad, "en"); err == nil {
			t.Errorf("{android} read %q as %s, want no language", bad, l)
		}
	}
}

// TestLanguagesMap: languages: names a language as its files do, the entry's map over the
// top-level one, spelled by the placeholder; the files' name reads back as lokal's code.
func TestLanguagesMap(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, `server: https://lokal.example.com
project: p1
languages: {nb: "no", pt-BR: pt}
files:
  - path: res/{android}/strings.xml
    format: android
    namespace: app
  - path: po/{locale}.po
    format: po
    namespace: app
    languages: {pt_br: pt_BR, zh-Hans: zh_CN}
`)
	android, po := cfg.Files[0], cfg.Files[1]
	for f, cases := range map[*fileSpec]map[string]string{
		&android: {"nb": "values-no", "pt-BR": "values-pt", "de": "values-de"},
		&po:      {"nb": "no", "pt-BR": "pt_BR", "zh-Hans": "zh_CN"},
	} {
		for l, want := range cases {
			if got := f.spell(l, "en"); got != want {
				t.Errorf("%s: %s spelled %q, want %q", f.Path, l, got, want)
			}
			if back, err := f.read(want, "en"); err != nil || back != l {
				t.Errorf("%s: %q read back as %q, %v; want %s", f.Path, want, back, err, l)
			}
		}
	}
	head := "server: https://lokal.example.com\nproject: p1\n"
	for _, tc := range []struct{ yaml, want string }{
		{head + "languages: [nb]\nfiles: []\n", "languages must be a mapping"},
		{head + "languages: {xx-bogus-tag-here: a}\nfiles: []\n", `languages: language "xx-bogus-tag-here" is not`},
		{head + "languages: {nb: ../x}\nfiles: []\n", `languages.nb "../x"`},
		{head + "files:\n  - path: po/{locale}.po\n    format: po\n    namespace: a\n    languages: {nb: pt, pt-PT: pt}\n", "nb and pt-PT are both named pt"},
		{head + "files:\n  - path: po/app.po\n    format: po\n    namespace: a\n    languages: {nb: no}\n", "names no language"},
		{head + "files:\n  - path: po/{locale}/{language}.po\n    format: po\n    namespace: a\n", "spell the language one way"},
		{head + "files:\n  - path: res/values-{android}/strings.xml\n    format: android\n    namespace: a\n", "{android} is a whole folder name"},
		{head + "files:\n  - path: po/{locale}.po\n    format: po\n    namespace: a\n    source: po/{locale}.pot\n", "unknown placeholder {locale} (want {namespace})"},
		{head + "files:\n  - path: po/{locale}/{namespace}.po\n    format: po\n    source: po/app.pot\n", "in both path and source"},
		{head + "files:\n  - path: po/app.po\n    format: po\n    namespace: a\n    source: po/app.pot\n", "files[0].source: the path"},
		{head + "files:\n  - path: i/{language}.xcstrings\n    format: xcstrings\n    namespace: a\n    source: i/x.xcstrings\n", "holds every language"},
		{head + "files:\n  - path: po/{locale}.po\n    format: po\n    namespace: a\n    ignore: po/x.po\n", "ignore must be a list"},
		{head + "files:\n  - path: po/{locale}.po\n    format: po\n    namespace: a\n    ignore: ['[']\n", "not a path pattern"},
	} {
		if _, err := parseConfig([]byte(tc.yaml)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.yaml, err, tc.want)
		}
	}
}

func scanOf(t *testing.T, files string, tree ...string) (scanned, error) {
	t.Helper()
	root := t.TempDir()
	writeTree(t, root, tree...)
	rr, err := openRepoRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rr.Close() })
	return entry(t, files).scan(rr, "en")
}

func placedList(ps []placed) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Language+" "+p.Namespace+" "+p.Rel)
	}
	return out
}

// TestScan: every file a path matches is placed by its name, or is an error naming it.
func TestScan(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, files string
		tree        []string
		want        []string // placed
		shadowed    []string
		err         string
	}{
		{name: "java bundles: Messages_pt_BR is Messages in pt-BR, not Messages_pt in Breton",
			files: "  - path: src/{namespace}_{locale}.properties\n    format: properties\n    source: src/{namespace}.properties\n",
			tree:  []string{"src/Messages.properties", "src/Messages_de.properties", "src/Messages_pt_BR.properties", "src/Errors.properties", "src/Errors_sr_RS@latin.properties"},
			want: []string{"en Errors src/Errors.properties", "sr-Latn-RS Errors src/Errors_sr_RS@latin.properties",
				"en Messages src/Messages.properties", "de Messages src/Messages_de.properties", "pt-BR Messages src/Messages_pt_BR.properties"}},
		{name: "gettext with a template and an en.po that source: stands in for",
			files: "  - path: po/{locale}.po\n    format: po\n    namespace: app\n    source: po/app.pot\n",
			tree:  []string{"po/app.pot", "po/de.po", "po/pt_BR.po", "po/en.po", "po/LINGUAS"},
			want:  []string{"en app po/app.pot", "de app po/de.po", "pt-BR app po/pt_BR.po"}, shadowed: []string{"en app po/en.po"}},
		{name: "android: values is the source, other qualifiers are named",
			files: "  - path: res/{android}/strings.xml\n    format: android\n    namespace: app\n",
			tree:  []string{"res/values/strings.xml", "res/values-pt-rBR/strings.xml", "res/values-b+sr+Latn/strings.xml", "res/values-night/colors.xml", "res/values-night/strings.xml"},
			err:   `res/values-night/strings.xml: files[0].path names no language: "values-night"`},
		{name: "android: ignore: leaves a folder out",
			files: "  - path: res/{android}/strings.xml\n    format: android\n    namespace: app\n    ignore: [res/values-night/*]\n",
			tree:  []string{"res/values/strings.xml", "res/values-pt-rBR/strings.xml", "res/values-night/strings.xml"},
			want:  []string{"pt-BR app res/values-pt-rBR/strings.xml", "en app res/values/strings.xml"}},
		{name: "apple: Base and en both the source",
			files: "  - path: \"{apple}.lproj/Localizable.strings\"\n    format: strings\n    namespace: ios\n",
			tree:  []string{"Base.lproj/Localizable.strings", "en.lproj/Localizable.strings", "zh-Hans.lproj/Localizable.strings"},
			err:   "Base.lproj/Localizable.strings and en.lproj/Localizable.strings both hold en"},
		{name: "apple: source: Base, en.lproj set aside",
			files: "  - path: \"{apple}.lproj/Localizable.strings\"\n    format: strings\n    namespace: ios\n    source: Base.lproj/Localizable.strings\n",
			tree:  []string{"Base.lproj/Localizable.strings", "en.lproj/Localizable.strings", "zh-Hans.lproj/Localizable.strings"},
			want:  []string{"en ios Base.lproj/Localizable.strings", "zh-Hans ios zh-Hans.lproj/Localizable.strings"}, shadowed: []string{"en ios en.lproj/Localizable.strings"}},
		{name: "two spellings of one language",
			files: "  - path: locales/{language}/{namespace}.json\n    format: i18next\n",
			tree:  []string{"locales/en/a.json", "locales/pt-BR/a.json", "locales/pt_BR/a.json"},
			err:   "locales/pt-BR/a.json and locales/pt_BR/a.json both hold pt-BR"},
		{name: "a folder that is no language",
			files: "  - path: locales/{language}/{namespace}.json\n    format: i18next\n",
			tree:  []string{"locales/en/a.json", "locales/schemas/a.json", "locales/.cache/a.json"},
			err:   `locales/schemas/a.json: files[0].path names no language: "schemas"`},
	} {
		sc, err := scanOf(t, tc.files, tc.tree...)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := placedList(sc.files); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
		if got := placedList(sc.shadowed); !reflect.DeepEqual(got, tc.shadowed) {
			t.Errorf("%s: shadowed %q, want %q", tc.name, got, tc.shadowed)
		}
	}
}

// TestPullPlanLayouts: pull writes each language where the repository keeps it, else as
// the placeholder spells it, the source of a source: entry into that file only; a
// language two names would share is refused before anything is written.
func TestPullPlanLayouts(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, "res/values/strings.xml", "res/values-in/strings.xml",
		"po/app.pot", "po/en.po", "po/sr@latin.po",
		"locales/pt_BR/common.json")
	cfg := mustConfig(t, `server: http://127.0.0.1:1
project: p1
files:
  - path: res/{android}/strings.xml
    format: android
    namespace: app
  - path: po/{locale}.po
    format: po
    namespace: po
    source: po/app.pot
  - path: locales/{language}/{namespace}.json
    format: i18next
`)
	cfg.Root = root
	info := projectInfo{SourceLanguage: "en", EnabledLanguages: []string{"id", "pt-BR", "sr-Latn", "zh-Hans"}, Namespaces: []string{"app", "common", "home", "po"}}
	plan, err := pullPlan(cfg, info, info.languages())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range plan {
		got = append(got, d.language+" "+d.rel)
	}
	want := []string{
		"en res/values/strings.xml", "id res/values-in/strings.xml", "pt-BR res/values-pt-rBR/strings.xml",
		"sr-Latn res/values-b+sr+Latn/strings.xml", "zh-Hans res/values-b+zh+Hans/strings.xml",
		"id po/id.po", "pt-BR po/pt_BR.po", "sr-Latn po/sr@latin.po", "zh-Hans po/zh_Hans.po",
		"en locales/en/common.json", "id locales/id/common.json", "pt-BR locales/pt_BR/common.json", "sr-Latn locales/sr-Latn/common.json", "zh-Hans locales/zh-Hans/common.json",
		"en locales/en/home.json", "id locales/id/home.json", "pt-BR locales/pt_BR/home.json", "sr-Latn locales/sr-Latn/home.json", "zh-Hans locales/zh-Hans/home.json",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pull plan:\n got %q\nwant %q", got, want)
	}

	clash := mustConfig(t, `server: http://127.0.0.1:1
project: p1
files:
  - path: po/{locale}.po
    format: po
    namespace: po
    languages: {pt-BR: pt}
`)
	clash.Root = t.TempDir()
	info = projectInfo{SourceLanguage: "en", EnabledLanguages: []string{"pt", "pt-BR"}, Namespaces: []string{"po"}}
	if _, err := pullPlan(clash, info, info.languages()); err == nil || !strings.Contains(err.Error(), "cannot name the language pt") {
		t.Errorf("pull plan with pt and pt-BR both named pt: %v", err)
	}
}
