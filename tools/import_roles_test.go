package tools_test

import (
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestImportRoles: a file's import asks the rights its file needs: a translator imports
// their own language as needs_review, a reviewer as approved too; the source language,
// every language at once and other languages are refused (403), and nothing is stored; a
// dry run (the preview) needs only to read the project.
func TestImportRoles(t *testing.T) {
	t.Parallel()
	const ok, no, ro = "", model.CodeForbidden, model.CodeReadOnlyKey
	type imp struct {
		name, lang, status string
		dry                bool
	}
	imports := []imp{
		{"nb needs_review", "nb", model.StatusNeedsReview, false},
		{"nb approved", "nb", model.StatusApproved, false},
		{"de needs_review", "de", model.StatusNeedsReview, false},
		{"en (source)", "en", model.StatusApproved, false},
		{"all", "all", model.StatusNeedsReview, false},
		{"dry de", "de", model.StatusApproved, true},
		{"dry en", "en", model.StatusApproved, true},
	}
	want := map[string][]string{
		"owner":      {ok, ok, ok, ok, ok, ok, ok},
		"manager":    {ok, ok, ok, ok, ok, ok, ok},
		"reviewer":   {ok, ok, no, no, no, ok, ok},
		"translator": {ok, no, no, no, no, ok, ok},
		"nobody":     {no, no, no, no, no, no, no},
		"rw key":     {ok, ok, ok, ok, ok, ok, ok},
		"ro key":     {ro, ro, ro, ro, ro, ro, ro},
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		rf := newRoleFixture(t, dialect)
		for _, who := range []string{"owner", "manager", "reviewer", "translator", "nobody", "rw key", "ro key"} {
			ctx := model.WithPrincipal(t.Context(), rf.tokens[who])
			for i, c := range imports {
				in := tools.ImportIn{ProjectArg: tools.ProjectArg{ProjectID: rf.project}, NamespaceKey: "common", Language: c.lang,
					Format: "json", Content: `{"hello": "From ` + who + `"}`, Status: c.status, DryRun: c.dry}
				if c.lang == "all" {
					in.Format, in.Content = "csv", "key,en,nb\nhello,Hello,Hei "+who+"\n"
				}
				_, err := rf.cat.Import(ctx, in)
				if got := codeOf(err); got != want[who][i] {
					t.Errorf("%s: import %s = %v, want %q", who, c.name, err, want[who][i])
				}
			}
		}
		// The translator's file landed in nb for review; their refused files left de alone.
		sys := model.WithPrincipal(t.Context(), tools.System)
		before, err := rf.cat.GetTranslation(sys, row(rf.project, "de").KeyRef)
		if err != nil {
			t.Fatal(err)
		}
		tr := model.WithPrincipal(t.Context(), rf.tokens["translator"])
		if _, err := rf.cat.Import(tr, tools.ImportIn{ProjectArg: tools.ProjectArg{ProjectID: rf.project}, NamespaceKey: "common", Language: "nb",
			Format: "json", Content: `{"hello": "Hei fra fil"}`, Status: model.StatusNeedsReview}); err != nil {
			t.Fatal(err)
		}
		if _, err := rf.cat.Import(tr, tools.ImportIn{ProjectArg: tools.ProjectArg{ProjectID: rf.project}, NamespaceKey: "common", Language: "de",
			Format: "json", Content: `{"hello": "Hallo aus Datei"}`}); codeOf(err) != model.CodeForbidden {
			t.Fatalf("a translator importing de: %v", err)
		}
		after, err := rf.cat.GetTranslation(sys, row(rf.project, "de").KeyRef)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range after.Translations {
			if v.Language == "nb" && (v.Value != "Hei fra fil" || v.Status != model.StatusNeedsReview) {
				t.Errorf("nb after the translator's import: %q %s", v.Value, v.Status)
			}
			if v.Language == "de" && v.Value != before.Translations[i].Value {
				t.Errorf("de changed by a refused import: %q", v.Value)
			}
		}
	})
}
