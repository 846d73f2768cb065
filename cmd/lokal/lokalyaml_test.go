package main

// lokal.yaml's patterns without a server: which files push finds and which pull writes.

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeTree(t *testing.T, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func mustConfig(t *testing.T, yaml string) *repoConfig {
	t.Helper()
	cfg, err := parseConfig([]byte(yaml))
	if err != nil {
		t.Fatalf("parseConfig: %v", err)
	}
	return cfg
}

// TestPushPlan: the source files of every entry first, then the translations asked for;
// {namespace} is globbed and must be the same text where it appears twice; a
// multi-language file is sent once per language; files of other languages are left out.
func TestPushPlan(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root,
		"locales/en/common.json", "locales/en/home.json", "locales/de/common.json", "locales/fr/home.json",
		"locales/en/notes.txt", "locales/en/sub/deep.json",
		"po/en/app.en.po", "po/en/other.de.po", "po/de/app.de.po",
		"ios/Localizable.xcstrings")
	cfg := mustConfig(t, `server: https://lokal.example.com
project: p1
files:
  - path: locales/{language}/{namespace}.json
    format: i18next
  - path: po/{language}/{namespace}.{language}.po
    format: po
  - path: ios/Localizable.xcstrings
    format: xcstrings
    namespace: ios
`)
	cfg.Root = root
	rr, err := openRepoRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rr.Close() })
	info := projectInfo{SourceLanguage: "en", EnabledLanguages: []string{"de", "fr"}}
	plan, skipped, err := pushPlan(cfg, rr, pushLanguages{info: info, langs: []string{"de"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range plan {
		got = append(got, u.language+" "+u.namespace+" "+u.rel)
	}
	want := []string{
		"en common locales/en/common.json", "en home locales/en/home.json",
		"en app po/en/app.en.po",
		"en ios ios/Localizable.xcstrings",
		"de common locales/de/common.json",
		"de app po/de/app.de.po",
		"de ios ios/Localizable.xcstrings",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("push plan:\n got %q\nwant %q", got, want)
	}
	if len(skipped) != 1 || skipped[0].Path != "locales/fr/home.json" || skipped[0].Language != "fr" || skipped[0].Reason != notAsked {
		t.Errorf("not pushed: %+v, want locales/fr/home.json, a translation not asked for", skipped)
	}

	// An entry that names no source file is a mistake in lokal.yaml.
	cfg = mustConfig(t, "server: https://lokal.example.com\nproject: p1\nfiles:\n  - path: web/{language}/{namespace}.json\n    format: i18next\n")
	cfg.Root = root
	if _, _, err := pushPlan(cfg, rr, pushLanguages{info: info}); err == nil {
		t.Errorf("pushPlan found files for a path that names none")
	}
}

// TestPullPlan: every namespace of the project in every language for a {namespace} path,
// the fixed namespace otherwise, one all-language request for a multi-language file, the
// source language only for a one-language path without {language}; the namespaces other
// entries name are not written into the {namespace} path.
func TestPullPlan(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, `server: http://127.0.0.1:1
project: p1
files:
  - path: locales/{language}/{namespace}.json
    format: i18next
  - path: ios/Localizable.xcstrings
    format: xcstrings
    namespace: ios
  - path: po/template.pot
    format: po
    namespace: app
`)
	cfg.Root = t.TempDir()
	info := projectInfo{SourceLanguage: "en", EnabledLanguages: []string{"de", "nb"}, Namespaces: []string{"app", "common", "home", "ios"}}
	plan, err := pullPlan(cfg, info, info.languages())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range plan {
		got = append(got, d.language+" "+d.namespace+" "+d.rel)
	}
	want := []string{
		"en common locales/en/common.json", "de common locales/de/common.json", "nb common locales/nb/common.json",
		"en home locales/en/home.json", "de home locales/de/home.json", "nb home locales/nb/home.json",
		"all ios ios/Localizable.xcstrings",
		"en app po/template.pot",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pull plan:\n got %q\nwant %q", got, want)
	}
	plan, _ = pullPlan(cfg, info, []string{"de"})
	if len(plan) != 3 || plan[2].language != "all" {
		t.Errorf("pull plan for de: %+v, want de/common, de/home and the all-language file", plan)
	}
}

// TestConfigErrors: each mistake is named by its field, as the file spells it.
func TestConfigErrors(t *testing.T) {
	t.Parallel()
	head := "server: https://lokal.example.com\nproject: p1\n"
	for _, tc := range []struct{ yaml, want string }{
		{"", "empty"},
		{"- a\n", "want a mapping"},
		{head + "files: x\n", "files must be a list"},
		{head + "files: []\n", "files is empty"},
		{head + "files:\n  - x\n", "files[0] must be a mapping"},
		{head + "files:\n  - path: a/{language}.json\n", "files[0].format is missing"},
		{head + "files:\n  - format: json\n", "files[0].path is missing"},
		{head + "files:\n  - path: a/{namespace}.json\n    format: json\n    namespace: x\n", "files[0].namespace: give either"},
		{head + "files:\n  - path: /abs/{namespace}.json\n    format: json\n", "files[0].path"},
		{head + "files:\n  - path: a/*/{namespace}.json\n    format: json\n", "glob characters"},
		{head + "files:\n  - path: a/{language}{namespace}.json\n    format: json\n", "separated by text"},
		{head + "server: https://x\nfiles: []\n", "server given twice"},
		{"server: https://x\nproject: a/b\nfiles: []\n", "not a project id"},
		{"server: https://x\nproject: [a]\nfiles: []\n", "project must be a string"},
		{head + "files:\n  - path: a/{namespace}.csv\n    format: csv\n    csv_cells: bogus\n", "files[0].csv_cells \"bogus\": want guarded or raw"},
		{head + "files:\n  - path: a/{namespace}.json\n    format: json\n    csv_cells: raw\n", "for a csv file"},
	} {
		_, err := parseConfig([]byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.yaml, err, tc.want)
		}
	}
}
