package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCheckPathName: a name the server sends fills a placeholder only when it is one plain
// file name; every way out of its folder is refused with the name quoted.
func TestCheckPathName(t *testing.T) {
	t.Parallel()
	for _, name := range []string{
		"common", "home", "app_1", "a.b", "A-Z", "en", "pt-BR", "zh-Hant-TW", "sr-Latn", "es-419",
		"x-default", "Ünïcødé", "日本語", "a..b", "a.", "v1.2",
	} {
		if err := checkPathName("namespace", name); err != nil {
			t.Errorf("checkPathName(%q) = %v, want nil", name, err)
		}
	}
	hostile := map[string]string{
		"":                     "empty",
		".":                    "dot",
		"..":                   "dot",
		"...":                  "dot",
		".git":                 "dot",
		".lokal":               "dot",
		"../../evil":           "path separator",
		"../":                  "path separator",
		"a/../../b":            "path separator",
		"a/b":                  "path separator",
		"/tmp/x":               "path separator",
		"/":                    "path separator",
		`..\..\evil`:           "path separator",
		`a\b`:                  "path separator",
		`\\server\share\x`:     "path separator",
		`\\?\C:\x`:             "path separator",
		"C:":                   "colon",
		"C:x":                  "colon",
		"c:evil":               "colon",
		"file:stream":          "colon",
		"a\x00b":               "control character",
		"\x00":                 "control character",
		"en\n":                 "control character",
		"a\tb":                 "control character",
		"\x7f":                 "control character",
		" ..":                  "space",
		".. ":                  "dot",
		"a ":                   "space",
		" a":                   "space",
		"nb/../../../etc":      "path separator",
		"%2e%2e/x":             "path separator",
		"\u2215..\u2215x/../y": "path separator",
	}
	for name, want := range hostile {
		err := checkPathName("namespace", name)
		if err == nil {
			t.Errorf("checkPathName(%q) = nil, want a refusal", name)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, strconv.Quote(name)) || !strings.Contains(msg, "namespace") {
			t.Errorf("checkPathName(%q) = %q, want the kind and the name quoted", name, msg)
		}
		if !strings.Contains(msg, want) {
			t.Errorf("checkPathName(%q) = %q, want it to say %q", name, msg, want)
		}
	}
}

// TestCheckRepoPath: a path made from lokal.yaml and the server's names must stay under the
// root once cleaned.
func TestCheckRepoPath(t *testing.T) {
	t.Parallel()
	for _, rel := range []string{"locales/en/common.json", "a.json", "po/nb/app.po", "a..b/c"} {
		if err := checkRepoPath(rel); err != nil {
			t.Errorf("checkRepoPath(%q) = %v, want nil", rel, err)
		}
	}
	for _, rel := range []string{"", ".", "..", "../x", "a/../../x", "/etc/passwd", "a//b", "a/./b", "a/", "locales/../../x.json"} {
		err := checkRepoPath(rel)
		if err == nil || !strings.Contains(err.Error(), `"`+rel+`"`) {
			t.Errorf("checkRepoPath(%q) = %v, want a refusal naming it", rel, err)
		}
	}
}

// TestPullPlanRefusesServerNames: a hostile namespace or language stops the plan, and the
// error names it; a bad name a path does not use is not looked at.
func TestPullPlanRefusesServerNames(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, `server: http://127.0.0.1:1
project: p1
files:
  - path: locales/{language}/{namespace}.json
    format: i18next
`)
	for bad, info := range map[string]projectInfo{
		"../../evil": {SourceLanguage: "en", Namespaces: []string{"common", "../../evil"}},
		"/tmp/x":     {SourceLanguage: "en", Namespaces: []string{"/tmp/x"}},
		"a/../../b":  {SourceLanguage: "en", Namespaces: []string{"a/../../b"}},
		"../../lang": {SourceLanguage: "../../lang", Namespaces: []string{"common"}},
		`..\..\evil`: {SourceLanguage: "en", EnabledLanguages: []string{`..\..\evil`}, Namespaces: []string{"common"}},
	} {
		_, err := pullPlan(cfg, info, info.languages())
		if err == nil || !strings.Contains(err.Error(), strconv.Quote(bad)) {
			t.Errorf("pull plan for %+v: %v, want a refusal naming %q", info, err, bad)
		}
	}
	fixed := mustConfig(t, `server: http://127.0.0.1:1
project: p1
files:
  - path: ios/Localizable.xcstrings
    format: xcstrings
    namespace: ios
`)
	info := projectInfo{SourceLanguage: "en", EnabledLanguages: []string{"../x"}, Namespaces: []string{"ios", "../y"}}
	if _, err := pullPlan(fixed, info, info.languages()); err != nil {
		t.Errorf("pull plan of a fixed all-language file: %v, want no refusal for names it does not use", err)
	}
}

// TestRepoRootRefusesLinksOut: a read, a stat and a write through a symbolic link that leads
// outside are refused in plain words and change nothing outside; a link inside is followed.
func TestRepoRootRefusesLinksOut(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	repo, outside := filepath.Join(base, "repo"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(repo, "locales", "en"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(outside, "secret.json")
	if err := os.WriteFile(secret, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"locales/nb":             outside,
		"locales/en/secret.json": secret,
		"locales/sv":             "../../outside",
		"locales/inside":         "en",
	}
	for rel, target := range links {
		if err := os.Symlink(target, filepath.Join(repo, filepath.FromSlash(rel))); err != nil {
			t.Fatal(err)
		}
	}
	r, err := openRepoRoot(repo)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, rel := range []string{"locales/nb/common.json", "locales/en/secret.json", "locales/sv/common.json", "locales/nb/new/deep.json"} {
		if err := r.writeAtomic(rel, []byte("{}")); err == nil || !strings.Contains(err.Error(), "leads outside the repository") {
			t.Errorf("writing %s: %v, want a refusal", rel, err)
		}
		if _, err := r.readFile(rel); err == nil || !strings.Contains(err.Error(), "leads outside the repository") {
			t.Errorf("reading %s: %v, want a refusal", rel, err)
		}
	}
	if _, err := r.stat("locales/en/secret.json"); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("stat of a link out: %v, want a refusal", err)
	}
	if data, _ := os.ReadFile(secret); string(data) != "secret" {
		t.Errorf("the file outside now holds %q", data)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 1 {
		t.Errorf("outside holds %d entries, want only secret.json", len(ents))
	}
	if err := r.writeAtomic("locales/inside/common.json", []byte("{}")); err != nil {
		t.Errorf("writing through a link inside: %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(repo, "locales", "en", "common.json")); err != nil || string(data) != "{}" {
		t.Errorf("the link inside led to %q, %v", data, err)
	}
}
