package main_test

// lokal project set --syntax and project show run as a process: the syntax detected from
// the source values, set, refused with the valid names, and cleared back to detection.

import (
	"github.com/lokal-dev/lokal/storage/storagetest"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

func TestCLIProjectSyntax(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		db := []string{"--project", f.project, "--database", dsn}
		syntaxOf := func(obj map[string]any) any { return obj["settings"].(map[string]any)["syntax"] }
		show := func() map[string]any {
			t.Helper()
			return jsonObject(t, showFields, append([]string{"project", "show", "--json"}, db...)...)
		}
		set := func(flag string) map[string]any {
			t.Helper()
			return jsonObject(t, showFields, append([]string{"project", "set", flag, "--json"}, db...)...)
		}
		text := func() string {
			t.Helper()
			r := lokal(t, nil, append([]string{"project", "show"}, db...)...)
			if r.code != 0 {
				t.Fatalf("project show exited %d: %s", r.code, r.stderr)
			}
			for _, line := range strings.Split(r.stdout, "\n") {
				if strings.HasPrefix(line, "syntax: ") {
					return line
				}
			}
			t.Fatalf("project show printed no syntax line: %q", r.stdout)
			return ""
		}

		wantJSON(t, "project without values", syntaxOf(show()), `{"names":[],"source":"detected"}`)
		if got := text(); got != "syntax: none (detected)" {
			t.Errorf("text without values: %q", got)
		}

		store, err := storage.Open(t.Context(), dsn, &storage.Options{MustExist: true})
		if err != nil {
			t.Fatal(err)
		}
		cat := storagetest.Catalog(store, nil)
		_, err = cat.Sync(model.WithPrincipal(t.Context(), tools.System), tools.SyncIn{
			NamespaceRef: tools.NamespaceRef{ProjectID: f.project, Language: "en", Namespace: "app"},
			Translations: map[string]string{"files": "{count, plural, one {# file} other {# files}}", "hi": "Hi %{name}"}})
		store.Close()
		if err != nil {
			t.Fatal(err)
		}

		wantJSON(t, "detected", syntaxOf(show()), `{"names":["icu","rails"],"source":"detected"}`)
		if got := text(); got != "syntax: icu, rails (detected)" {
			t.Errorf("text detected: %q", got)
		}
		wantJSON(t, "set", syntaxOf(set("--syntax=HTML, i18next")), `{"names":["i18next","html"],"source":"set"}`)
		wantJSON(t, "shown after set", syntaxOf(show()), `{"names":["i18next","html"],"source":"set"}`)
		if got := text(); got != "syntax: i18next, html (set)" {
			t.Errorf("text set: %q", got)
		}

		msg := fails(t, nil, append([]string{"project", "set", "--syntax", "icu,mustache"}, db...)...)
		if !strings.Contains(msg, `"mustache"`) || !strings.Contains(msg, strings.Join(message.SyntaxNames(), ", ")) {
			t.Errorf("unknown syntax: %q, want it named with the valid names", msg)
		}
		wantJSON(t, "unchanged after a refusal", syntaxOf(show()), `{"names":["i18next","html"],"source":"set"}`)

		wantJSON(t, "set none", syntaxOf(set("--syntax=none")), `{"names":[],"source":"set"}`)
		wantJSON(t, "cleared", syntaxOf(set("--syntax=")), `{"names":["icu","rails"],"source":"detected"}`)
		wantJSON(t, "shown after clearing", syntaxOf(show()), `{"names":["icu","rails"],"source":"detected"}`)
	})
}
