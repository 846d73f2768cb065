package main_test

// Real repository layouts end to end: a scratch repository per layout (i18next, gettext
// with a POT, Android, Apple .lproj with a String Catalog, Java bundles, Flutter ARB,
// Rails), pushed with --languages all, checked on the server, then pulled: each language
// lands in the folder its layout names, and nowhere else.

import (
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

type layoutCase struct {
	name      string
	files     string            // lokal.yaml's files:
	languages string            // the project's enabled languages
	repo      map[string]string // the repository before push
	// pushed is "path language namespace" per upload of push --languages all, in order.
	pushed []string
	// server is, per "language/namespace", values the server must hold after the push.
	server map[string]map[string]string
	// pulled is every file of the repository after pull (but lokal.yaml and .lokal/).
	pulled []string
}

const androidSource = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="greeting">Hello</string>
    <string name="farewell">Goodbye</string>
</resources>
`

func androidStrings(greeting, farewell string) string {
	return strings.NewReplacer("Hello", greeting, "Goodbye", farewell).Replace(androidSource)
}

func poFile(lang, hello, goodbye string) string {
	return `msgid ""
msgstr ""
"Language: ` + lang + `\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

#: src/main.c:10
msgid "Hello"
msgstr "` + hello + `"

#: src/main.c:11
msgid "Goodbye"
msgstr "` + goodbye + `"
`
}

var layoutCases = []layoutCase{
	{
		name: "i18next",
		files: `  - path: locales/{language}/{namespace}.json
    format: i18next
`,
		languages: "pt-BR,zh-Hans,de",
		repo: map[string]string{
			"locales/en/common.json":      "{\n  \"greeting\": \"Hello\",\n  \"nav\": {\n    \"home\": \"Home\"\n  }\n}\n",
			"locales/en/checkout.json":    "{\n  \"pay\": \"Pay\"\n}\n",
			"locales/pt-BR/common.json":   "{\n  \"greeting\": \"Olá\",\n  \"nav\": {\n    \"home\": \"Início\"\n  }\n}\n",
			"locales/zh-Hans/common.json": "{\n  \"greeting\": \"你好\",\n  \"nav\": {\n    \"home\": \"首页\"\n  }\n}\n",
		},
		pushed: []string{"locales/en/checkout.json en checkout", "locales/en/common.json en common",
			"locales/pt-BR/common.json pt-BR common", "locales/zh-Hans/common.json zh-Hans common"},
		server: map[string]map[string]string{
			"en/common": {"greeting": "Hello", "nav.home": "Home"}, "pt-BR/common": {"greeting": "Olá", "nav.home": "Início"},
			"zh-Hans/common": {"greeting": "你好"},
		},
		pulled: []string{"locales/de/checkout.json", "locales/de/common.json", "locales/en/checkout.json", "locales/en/common.json",
			"locales/pt-BR/checkout.json", "locales/pt-BR/common.json", "locales/zh-Hans/checkout.json", "locales/zh-Hans/common.json"},
	},
	{
		name: "gettext with a POT",
		files: `  - path: po/{locale}.po
    format: po
    namespace: app
    source: po/app.pot
`,
		languages: "pt-BR,sr-Latn,de",
		repo: map[string]string{
			"po/app.pot":     poFile("", "", ""),
			"po/pt_BR.po":    poFile("pt_BR", "Olá", "Tchau"),
			"po/sr@latin.po": poFile("sr@latin", "Zdravo", "Doviđenja"),
			"po/LINGUAS":     "pt_BR sr@latin\n",
		},
		pushed: []string{"po/app.pot en app", "po/pt_BR.po pt-BR app", "po/sr@latin.po sr-Latn app"},
		server: map[string]map[string]string{
			"en/app": {"Hello": "Hello", "Goodbye": "Goodbye"}, "pt-BR/app": {"Hello": "Olá", "Goodbye": "Tchau"},
			"sr-Latn/app": {"Hello": "Zdravo", "Goodbye": "Doviđenja"},
		},
		pulled: []string{"po/LINGUAS", "po/app.pot", "po/de.po", "po/pt_BR.po", "po/sr@latin.po"},
	},
	{
		name: "Android",
		files: `  - path: app/src/main/res/{android}/strings.xml
    format: android
    namespace: app
`,
		languages: "pt-BR,sr-Latn,de",
		repo: map[string]string{
			"app/src/main/res/values/strings.xml":           androidSource,
			"app/src/main/res/values/colors.xml":            "<resources/>\n",
			"app/src/main/res/values-pt-rBR/strings.xml":    androidStrings("Olá", "Tchau"),
			"app/src/main/res/values-b+sr+Latn/strings.xml": androidStrings("Zdravo", "Doviđenja"),
		},
		pushed: []string{"app/src/main/res/values/strings.xml en app",
			"app/src/main/res/values-b+sr+Latn/strings.xml sr-Latn app", "app/src/main/res/values-pt-rBR/strings.xml pt-BR app"},
		server: map[string]map[string]string{
			"en/app": {"greeting": "Hello"}, "pt-BR/app": {"greeting": "Olá", "farewell": "Tchau"}, "sr-Latn/app": {"farewell": "Doviđenja"},
		},
		pulled: []string{"app/src/main/res/values-b+sr+Latn/strings.xml", "app/src/main/res/values-de/strings.xml",
			"app/src/main/res/values-pt-rBR/strings.xml", "app/src/main/res/values/colors.xml", "app/src/main/res/values/strings.xml"},
	},
	{
		name: "Apple",
		files: `  - path: App/{apple}.lproj/Localizable.strings
    format: strings
    namespace: ios
  - path: App/Catalog.xcstrings
    format: xcstrings
    namespace: catalog
`,
		languages: "zh-Hans,de",
		repo: map[string]string{
			"App/Base.lproj/Localizable.strings":    "/* The first thing a visitor reads */\n\"greeting\" = \"Hello\";\n\"farewell\" = \"Goodbye\";\n",
			"App/zh-Hans.lproj/Localizable.strings": "\"greeting\" = \"你好\";\n\"farewell\" = \"再见\";\n",
			"App/Base.lproj/Main.storyboard":        "<document/>\n",
			"App/Catalog.xcstrings": `{
  "sourceLanguage" : "en",
  "strings" : {
    "Welcome" : {
      "localizations" : {
        "en" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "Welcome!"
          }
        },
        "zh-Hans" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "欢迎！"
          }
        }
      }
    }
  },
  "version" : "1.0"
}
`,
		},
		pushed: []string{"App/Base.lproj/Localizable.strings en ios", "App/Catalog.xcstrings en catalog",
			"App/zh-Hans.lproj/Localizable.strings zh-Hans ios", "App/Catalog.xcstrings zh-Hans catalog", "App/Catalog.xcstrings de catalog"},
		server: map[string]map[string]string{
			"en/ios": {"greeting": "Hello"}, "zh-Hans/ios": {"greeting": "你好", "farewell": "再见"},
			"en/catalog": {"Welcome": "Welcome!"}, "zh-Hans/catalog": {"Welcome": "欢迎！"},
		},
		pulled: []string{"App/Base.lproj/Localizable.strings", "App/Base.lproj/Main.storyboard", "App/Catalog.xcstrings",
			"App/de.lproj/Localizable.strings", "App/zh-Hans.lproj/Localizable.strings"},
	},
	{
		name: "Java",
		files: `  - path: src/main/resources/i18n/Messages_{locale}.properties
    format: properties
    namespace: messages
    source: src/main/resources/i18n/Messages.properties
`,
		languages: "pt-BR,de,zh-Hans",
		repo: map[string]string{
			"src/main/resources/i18n/Messages.properties":       "# Shown on the start page\ngreeting=Hello\nfarewell=Goodbye\n",
			"src/main/resources/i18n/Messages_pt_BR.properties": "greeting=Olá\nfarewell=Tchau\n",
			"src/main/resources/i18n/Messages_de.properties":    "greeting=Hallo\nfarewell=Tschüss\n",
		},
		pushed: []string{"src/main/resources/i18n/Messages.properties en messages",
			"src/main/resources/i18n/Messages_de.properties de messages", "src/main/resources/i18n/Messages_pt_BR.properties pt-BR messages"},
		server: map[string]map[string]string{
			"en/messages": {"greeting": "Hello"}, "pt-BR/messages": {"greeting": "Olá"}, "de/messages": {"farewell": "Tschüss"},
		},
		pulled: []string{"src/main/resources/i18n/Messages.properties", "src/main/resources/i18n/Messages_de.properties",
			"src/main/resources/i18n/Messages_pt_BR.properties", "src/main/resources/i18n/Messages_zh_Hans.properties"},
	},
	{
		name: "Flutter ARB",
		files: `  - path: lib/l10n/app_{locale}.arb
    format: arb
    namespace: app
`,
		languages: "pt-BR,zh-Hans,de",
		repo: map[string]string{
			"lib/l10n/app_en.arb":      "{\n  \"@@locale\": \"en\",\n  \"greeting\": \"Hello\",\n  \"@greeting\": {\n    \"description\": \"Shown first\"\n  },\n  \"farewell\": \"Goodbye\"\n}\n",
			"lib/l10n/app_pt_BR.arb":   "{\n  \"@@locale\": \"pt_BR\",\n  \"greeting\": \"Olá\",\n  \"farewell\": \"Tchau\"\n}\n",
			"lib/l10n/app_zh_Hans.arb": "{\n  \"@@locale\": \"zh_Hans\",\n  \"greeting\": \"你好\",\n  \"farewell\": \"再见\"\n}\n",
			"l10n.yaml":                "arb-dir: lib/l10n\ntemplate-arb-file: app_en.arb\n",
		},
		pushed: []string{"lib/l10n/app_en.arb en app", "lib/l10n/app_pt_BR.arb pt-BR app", "lib/l10n/app_zh_Hans.arb zh-Hans app"},
		server: map[string]map[string]string{
			"en/app": {"greeting": "Hello"}, "pt-BR/app": {"greeting": "Olá"}, "zh-Hans/app": {"farewell": "再见"},
		},
		pulled: []string{"l10n.yaml", "lib/l10n/app_de.arb", "lib/l10n/app_en.arb", "lib/l10n/app_pt_BR.arb", "lib/l10n/app_zh_Hans.arb"},
	},
	{
		// Xcode exports one XLIFF per translation, its sources inside: no file of the source
		// language, so push reads the sources from the first, and pull writes none.
		name: "Xcode XLIFF",
		files: `  - path: Localizations/{language}.xliff
    format: xliff
    namespace: app
`,
		languages: "de,ru",
		repo: map[string]string{
			"Localizations/de.xliff": xcodeXLIFF("de", "Hallo", "Tschüss"),
			"Localizations/ru.xliff": xcodeXLIFF("ru", "Привет", "Пока"),
		},
		pushed: []string{"Localizations/de.xliff en app", "Localizations/de.xliff de app", "Localizations/ru.xliff ru app"},
		server: map[string]map[string]string{
			"en/app": {"greeting": "Hello", "farewell": "Goodbye"}, "de/app": {"greeting": "Hallo"}, "ru/app": {"farewell": "Пока"},
		},
		pulled: []string{"Localizations/de.xliff", "Localizations/ru.xliff"},
	},
	{
		name: "Rails",
		files: `  - path: config/locales/{language}.yml
    format: yaml
    namespace: rails
`,
		languages: "pt-BR,de",
		repo: map[string]string{
			"config/locales/en.yml":    "en:\n  greeting: Hello\n  nav:\n    home: Home\n",
			"config/locales/pt-BR.yml": "pt-BR:\n  greeting: Olá\n  nav:\n    home: Início\n",
		},
		pushed: []string{"config/locales/en.yml en rails", "config/locales/pt-BR.yml pt-BR rails"},
		server: map[string]map[string]string{
			"en/rails": {"greeting": "Hello", "nav.home": "Home"}, "pt-BR/rails": {"nav.home": "Início"},
		},
		pulled: []string{"config/locales/de.yml", "config/locales/en.yml", "config/locales/pt-BR.yml"},
	},
}

// TestPushPullLayouts: per layout, push --languages all sends each file as the language its
// name spells (and says so), the server holds each language's values, and pull writes the
// languages into the folders the layout names (values-de, de.lproj, Messages_zh_Hans,
// po/de.po) with nothing anywhere else. A subtest asks that pull leave the repository's
// own files byte-identical (git diff empty).
func TestPushPullLayouts(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		srv := startServe(t, dsn)
		for _, tc := range layoutCases {
			t.Run(tc.name, func(t *testing.T) {
				r := layoutRepo(t, dsn, srv, tc)
				var push pushJSON
				r.ok(t, &push, "push", "--languages", "all")
				var got []string
				for _, f := range push.Files {
					got = append(got, f.Path+" "+f.Language+" "+f.Namespace)
				}
				if !slices.Equal(got, tc.pushed) {
					t.Errorf("push --languages all sent\n%q\nwant\n%q", got, tc.pushed)
				}
				for ln, want := range tc.server {
					lang, ns, _ := strings.Cut(ln, "/")
					have := r.flat(t, lang, ns)
					for k, v := range want {
						if have[k] != v {
							t.Errorf("the server has %s %s = %q, want %q (all: %v)", ln, k, have[k], v, have)
						}
					}
				}
				// The text output names each file's language and namespace.
				res := r.run(t, "push", "--dry-run")
				for _, p := range tc.pushed {
					f := strings.Fields(p)
					if f[1] == "en" && !strings.Contains(res.stdout, f[0]+" (en, "+f[2]+")") {
						t.Errorf("push text lacks %s (en, %s): %s", f[0], f[2], res.stdout)
					}
				}

				var pull pullJSON
				r.ok(t, &pull, "pull")
				if files := repoFiles(t, r.dir); !slices.Equal(files, tc.pulled) {
					t.Errorf("after pull the repository has\n%q\nwant\n%q", files, tc.pulled)
				}
				t.Run("git diff", func(t *testing.T) {
					// A pull with nothing changed leaves the team's files byte-identical.
					cmd := exec.Command("git", "diff", "--exit-code")
					cmd.Dir = r.dir
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Errorf("pull changed the repository's files: %v\n%s", err, truncate(string(out), 4000))
					}
				})
				t.Run("one change", func(t *testing.T) {
					// One translation changed on the server: the pull changes its one line.
					var ln, key string
					for _, l := range slices.Sorted(maps.Keys(tc.server)) {
						if !strings.HasPrefix(l, "en/") {
							ln, key = l, slices.Sorted(maps.Keys(tc.server[l]))[0]
							break
						}
					}
					lang, ns, _ := strings.Cut(ln, "/")
					body, _ := json.Marshal(map[string]string{key: "Changed in review"})
					if code, out := r.srv.do(t, "PUT", "/api/overwrite/"+r.project+"/latest/"+lang+"/"+ns, "Bearer "+r.key, string(body)); code != 200 {
						t.Fatalf("overwrite %s %s: %d %s", ln, key, code, out)
					}
					r.ok(t, &pull, "pull")
					cmd := exec.Command("git", "diff", "--numstat")
					cmd.Dir = r.dir
					out, err := cmd.Output()
					if lines := strings.Split(strings.TrimSpace(string(out)), "\n"); err != nil || len(lines) != 1 || !strings.HasPrefix(lines[0], "1\t1\t") {
						diff := exec.Command("git", "diff")
						diff.Dir = r.dir
						full, _ := diff.Output()
						t.Errorf("%s %s changed: git diff --numstat %q (%v), want one line of one file\n%s", ln, key, out, err, truncate(string(full), 4000))
					}
				})
			})
		}
	})
}

// layoutRepo is a git repository holding tc's files, with a project of its own on srv.
func layoutRepo(t *testing.T, dsn string, srv *serveProcess, tc layoutCase) *repo {
	t.Helper()
	f := makeFixture(t, dsn)
	if res := lokal(t, nil, "project", "set", "--project", f.project, "--languages", tc.languages, "--database", dsn); res.code != 0 {
		t.Fatalf("project set --languages %s: %s", tc.languages, res.stderr)
	}
	key := str(t, jsonObject(t, []string{"key", "read_only"}, "key", "create", "--project", f.project, "--json", "--database", dsn), "key")
	r := &repo{dir: t.TempDir(), key: key, project: f.project, srv: srv}
	r.write(t, "lokal.yaml", "server: http://"+srv.addr+"\nproject: "+f.project+"\nfiles:\n"+tc.files)
	r.write(t, ".gitignore", ".lokal/\n")
	for rel, content := range tc.repo {
		r.write(t, rel, content)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "start"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = r.dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	return r
}

// repoFiles is every file under dir but lokal.yaml, .gitignore, .git/ and .lokal/, sorted.
func repoFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && (rel == ".git" || rel == ".lokal") {
			return filepath.SkipDir
		}
		if !d.IsDir() && rel != "lokal.yaml" && rel != ".gitignore" {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestPushRefusesNothingSilently: a file a path matches whose name holds no language is an
// error naming it; a language the project lacks is listed as not pushed with how to add
// it, and an error with --languages all or --languages naming it; a file source: stands
// in for is listed as not pushed, and pull leaves it alone.
func TestPushRefusesNothingSilently(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		r := newRepo(t, dsn, `  - path: res/{android}/strings.xml
    format: android
    namespace: app
  - path: po/{locale}.po
    format: po
    namespace: po
    source: po/app.pot
`)
		env := []string{"LOKAL_API_KEY=" + r.key}
		r.write(t, "res/values/strings.xml", androidSource)
		r.write(t, "res/values-nb/strings.xml", androidStrings("Hei", "Ha det"))
		r.write(t, "res/values-fr/strings.xml", androidStrings("Bonjour", "Au revoir"))
		r.write(t, "po/app.pot", poFile("", "", ""))
		r.write(t, "po/en.po", poFile("en", "Hello", "Goodbye"))

		var push pushJSON
		r.ok(t, &push, "push")
		var notPushed []string
		for _, n := range push.NotPushed {
			notPushed = append(notPushed, n.Path+" "+n.Language)
		}
		if !slices.Equal(notPushed, []string{"res/values-fr/strings.xml fr", "res/values-nb/strings.xml nb", "po/en.po en"}) {
			t.Errorf("not pushed: %+v", push.NotPushed)
		}
		for _, n := range push.NotPushed {
			if n.Language == "fr" && !strings.Contains(n.Reason, `no language "fr"`) || n.Language == "fr" && !strings.Contains(n.Reason, "lokal project set --project "+r.project+" --languages nb,sv,fr") {
				t.Errorf("why fr is not pushed: %q", n.Reason)
			}
			if n.Language == "en" && !strings.Contains(n.Reason, "po/app.pot") {
				t.Errorf("why po/en.po is not pushed: %q", n.Reason)
			}
		}
		res := r.run(t, "push")
		for _, want := range []string{"res/values-fr/strings.xml (fr, app): not pushed: the project has no language \"fr\"",
			"po/en.po (en, po): not pushed: the source language's file is po/app.pot", "1 file of nb not pushed: translations go with --languages nb"} {
			if !strings.Contains(res.stdout, want) {
				t.Errorf("push text lacks %q:\n%s", want, res.stdout)
			}
		}
		if msg := failsAt(t, r.dir, env, "", "push", "--languages", "all"); !strings.Contains(msg, `res/values-fr/strings.xml is in fr: the project has no language "fr"`) {
			t.Errorf("push --languages all with fr: %q", msg)
		}
		if msg := failsAt(t, r.dir, env, "", "push", "--languages", "fr"); !strings.Contains(msg, `no language "fr"`) || !strings.Contains(msg, "lokal project set") {
			t.Errorf("push --languages fr: %q", msg)
		}
		if got := r.flat(t, "nb", "app"); len(got) != 0 {
			t.Errorf("a refused push stored %v", got)
		}

		// pull writes the languages, never po/en.po, nor the template (xgettext's file).
		var pull pullJSON
		r.ok(t, &pull, "pull")
		if r.read(t, "po/en.po") != poFile("en", "Hello", "Goodbye") || pull.result("po/en.po") != "absent" {
			t.Errorf("pull touched po/en.po: %+v", pull.Files)
		}
		if pull.result("po/app.pot") != "absent" || pull.result("po/nb.po") != "created" || pull.result("res/values-sv/strings.xml") != "created" {
			t.Errorf("pull: %+v", pull.Files)
		}

		// A folder the path matches that holds no language stops push, naming it.
		r.write(t, "res/values-night/strings.xml", androidSource)
		if msg := failsAt(t, r.dir, env, "", "push"); !strings.Contains(msg, "res/values-night/strings.xml") || !strings.Contains(msg, "files[0].ignore") {
			t.Errorf("push with values-night: %q", msg)
		}
		os.Remove(filepath.Join(r.dir, "res/values-night/strings.xml"))
	})
}

// xcodeXLIFF is a translation's XLIFF as Xcode exports it: one <file> per strings file,
// the source texts beside the targets.
func xcodeXLIFF(lang, greeting, farewell string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="1.2" xsi:schemaLocation="urn:oasis:names:tc:xliff:document:1.2 http://docs.oasis-open.org/xliff/v1.2/os/xliff-core-1.2-strict.xsd">
  <file original="App/en.lproj/Localizable.strings" source-language="en" target-language="` + lang + `" datatype="plaintext">
    <header>
      <tool tool-id="com.apple.dt.xcode" tool-name="Xcode" tool-version="16.0" build-num="16A242d"/>
    </header>
    <body>
      <trans-unit id="greeting" xml:space="preserve">
        <source>Hello</source>
        <target>` + greeting + `</target>
        <note>The first thing a visitor reads</note>
      </trans-unit>
      <trans-unit id="farewell" xml:space="preserve">
        <source>Goodbye</source>
        <target>` + farewell + `</target>
        <note/>
      </trans-unit>
    </body>
  </file>
</xliff>
`
}
