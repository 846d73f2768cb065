package main_test

import (
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestCLIProjectSetConfirmRemove: project set --languages refuses to take off a language
// with translations until --confirm-remove names it, says the count and that nothing is
// deleted, and changes nothing when it refuses; a language without translations goes at once.
func TestCLIProjectSetConfirmRemove(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		db, err := storage.Open(t.Context(), dsn, &storage.Options{MustExist: true})
		if err != nil {
			t.Fatal(err)
		}
		cat := storagetest.Catalog(db, nil)
		ctx := model.WithPrincipal(t.Context(), tools.System)
		key := tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: f.project}, NamespaceKey: "common", TranslationKey: "hello"}
		if _, err := cat.AddKey(ctx, tools.AddKeyIn{KeyRef: key, SourceValue: "Hello"}); err != nil {
			t.Fatal(err)
		}
		if _, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: tools.RowRef{KeyRef: key, Language: "nb"}, Value: "Hei"}); err != nil {
			t.Fatal(err)
		}
		db.Close()
		db2 := []string{"--database", dsn, "--json"}
		msg := fails(t, nil, append([]string{"project", "set", "--project", f.project, "--languages", "sv"}, db2...)...)
		for _, want := range []string{"Norwegian Bokmål has 1 translation", "confirm the removal of nb", "kept and come back if you add the language again"} {
			if !strings.Contains(msg, want) {
				t.Errorf("removing nb without confirming: %q, want it to say %q", msg, want)
			}
		}
		show := func() string {
			return strings.Join(sortedStrings(t, jsonObject(t, nil, append([]string{"project", "show", "--project", f.project}, db2...)...)["enabled_languages"]), ",")
		}
		if got := show(); got != "en,nb,sv" {
			t.Fatalf("languages after a refused removal: %s", got)
		}
		jsonObject(t, nil, append([]string{"project", "set", "--project", f.project, "--languages", "nb"}, db2...)...)
		if got := show(); got != "en,nb" {
			t.Fatalf("sv has no translations and goes at once: %s", got)
		}
		jsonObject(t, nil, append([]string{"project", "set", "--project", f.project, "--languages=", "--confirm-remove", "nb"}, db2...)...)
		if got := show(); got != "en" {
			t.Fatalf("languages after a confirmed removal: %s", got)
		}
		jsonObject(t, nil, append([]string{"project", "set", "--project", f.project, "--languages", "nb"}, db2...)...)
		db, err = storage.Open(t.Context(), dsn, &storage.Options{MustExist: true})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		got, err := storagetest.Catalog(db, nil).GetTranslation(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range got.Translations {
			if v.Language == "nb" && v.Value != "Hei" {
				t.Errorf("nb after adding it back: %q, want Hei", v.Value)
			}
		}
	})
}
