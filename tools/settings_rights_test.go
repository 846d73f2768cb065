package tools_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// sessions signs each user of the role fixture in to the editor.
func (rf roleFixture) sessions(t *testing.T) map[string]context.Context {
	t.Helper()
	sys := model.WithPrincipal(t.Context(), tools.System)
	out := map[string]context.Context{}
	const pw = "correct horse battery"
	for name, u := range rf.users {
		if err := rf.cat.SetPassword(sys, u.ID, pw); err != nil {
			t.Fatal(err)
		}
		in, err := rf.cat.SignIn(t.Context(), tools.SignInIn{Email: u.Email, Password: pw, ClientIP: "127.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		ctx, _, err := rf.cat.OpenSession(t.Context(), in.Token)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = ctx
	}
	return out
}

// TestSettingsRightsThroughTheCatalogue: the editor's project settings, terminology and
// checkups are decided by the catalogue: an owner creates projects; owners and managers
// change a project's title and languages, its terminology, and run checkups; translators
// and reviewers read the terminology and the report and are refused the rest (forbidden).
func TestSettingsRightsThroughTheCatalogue(t *testing.T) {
	t.Parallel()
	const ok, no = "", model.CodeForbidden
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		rf := newRoleFixture(t, dialect)
		cat, id := rf.cat, rf.project
		sys := model.WithPrincipal(t.Context(), tools.System)
		sessions := rf.sessions(t)
		if _, err := cat.RunCheckup(sys, id, "cli"); err != nil {
			t.Fatal(err)
		}
		n := 0
		ops := []struct {
			name string
			run  func(ctx context.Context) error
		}{
			{"create_project", func(ctx context.Context) error {
				_, err := cat.CreateProject(ctx, tools.CreateProjectIn{Title: "New", SourceLanguage: "en", Languages: []string{"de"}})
				return err
			}},
			{"set title", func(ctx context.Context) error {
				title := "Roles"
				_, err := cat.SetProject(ctx, id, tools.SetProjectIn{Title: &title})
				return err
			}},
			{"set languages", func(ctx context.Context) error {
				langs := []string{"nb", "de"}
				_, err := cat.SetProject(ctx, id, tools.SetProjectIn{Languages: &langs, Editable: &langs})
				return err
			}},
			{"list terminology", func(ctx context.Context) error {
				_, err := cat.ListTerminology(ctx, tools.TerminologyIn{ProjectArg: tools.ProjectArg{ProjectID: id}})
				return err
			}},
			{"glossary add+remove", func(ctx context.Context) error {
				n++
				g, err := cat.AddGlossaryTerm(ctx, tools.GlossaryIn{ProjectArg: tools.ProjectArg{ProjectID: id}, SourceTerm: "Cart", TargetTerm: "Handlekurv " + string(rune('a'+n)), Locale: "nb"})
				if err != nil {
					return err
				}
				return cat.RemoveGlossaryTerm(ctx, id, g.ID)
			}},
			{"dnt add+remove", func(ctx context.Context) error {
				if _, err := cat.AddDoNotTranslate(ctx, id, "lokal"); err != nil {
					return err
				}
				return cat.RemoveDoNotTranslate(ctx, id, "lokal")
			}},
			{"substitution add+remove", func(ctx context.Context) error {
				r, err := cat.AddSubstitution(ctx, id, "...", "…", "all")
				if err != nil {
					return err
				}
				return cat.RemoveSubstitution(ctx, id, r.ID)
			}},
			{"run checkup", func(ctx context.Context) error { _, err := cat.RunCheckup(ctx, id, "editor"); return err }},
			{"checkup report", func(ctx context.Context) error {
				_, err := cat.GetCheckupReport(ctx, tools.CheckupIn{ProjectArg: tools.ProjectArg{ProjectID: id}})
				return err
			}},
		}
		want := map[string][]string{
			//            create set-t set-l terms gloss dnt  subst run  report
			"owner":      {ok, ok, ok, ok, ok, ok, ok, ok, ok},
			"manager":    {no, ok, ok, ok, ok, ok, ok, ok, ok},
			"reviewer":   {no, no, no, ok, no, no, no, no, ok},
			"translator": {no, no, no, ok, no, no, no, no, ok},
			"nobody":     {no, no, no, no, no, no, no, no, no},
		}
		for _, who := range []string{"owner", "manager", "reviewer", "translator", "nobody"} {
			for i, op := range ops {
				if got := codeOf(op.run(sessions[who])); got != want[who][i] {
					t.Errorf("%s: %s = %q, want %q", who, op.name, got, want[who][i])
				}
			}
		}
		// The removals are refused before anything is looked at: a translator learns
		// nothing, and the pair stays.
		g, err := cat.AddGlossaryTerm(sys, tools.GlossaryIn{ProjectArg: tools.ProjectArg{ProjectID: id}, SourceTerm: "Checkout", TargetTerm: "Kasse", Locale: "nb"})
		if err != nil {
			t.Fatal(err)
		}
		if err := cat.RemoveGlossaryTerm(sessions["translator"], id, g.ID); codeOf(err) != model.CodeForbidden {
			t.Errorf("a translator removing a pair: %v, want forbidden", err)
		}
		// Tokens: a workspace token of the owner does not create projects (the editor's
		// operation), and a project's key does not run checkups.
		if _, err := cat.CreateProject(model.WithPrincipal(t.Context(), rf.tokens["owner"]), tools.CreateProjectIn{Title: "Via token", SourceLanguage: "en"}); codeOf(err) != model.CodeUnauthorized {
			t.Errorf("an owner's workspace token creating a project: %v, want unauthorized", err)
		}
		if _, err := cat.RunCheckup(model.WithPrincipal(t.Context(), rf.tokens["rw key"]), id, "cli"); codeOf(err) != model.CodeUnauthorized {
			t.Errorf("a key running a checkup: %v, want unauthorized", err)
		}
		// Terminology beyond the glossary is the operator's and the editor's: no token's.
		if err := cat.RemoveGlossaryTerm(model.WithPrincipal(t.Context(), rf.tokens["owner"]), id, g.ID); codeOf(err) != model.CodeUnauthorized {
			t.Errorf("an owner's workspace token removing a pair: %v, want unauthorized", err)
		}
		if _, err := cat.AddDoNotTranslate(model.WithPrincipal(t.Context(), rf.tokens["rw key"]), id, "Acme"); codeOf(err) != model.CodeUnauthorized {
			t.Errorf("a key adding a do-not-translate term: %v, want unauthorized", err)
		}
		// An owner creates in their own workspace only.
		if _, err := cat.CreateProject(sessions["owner"], tools.CreateProjectIn{WorkspaceID: rf.f.OtherWorkspace.ID, Title: "Theirs", SourceLanguage: "en"}); codeOf(err) != model.CodeUnauthorized {
			t.Errorf("an owner creating a project in another workspace: %v, want unauthorized", err)
		}
		out, err := cat.ListTerminology(sys, tools.TerminologyIn{ProjectArg: tools.ProjectArg{ProjectID: id}})
		if err != nil || len(out.Glossary) != 1 || len(out.DoNotTranslate) != 0 || len(out.Substitutions) != 0 {
			t.Errorf("terminology after the table: %+v %v; want the one pair", out, err)
		}
		me, err := cat.Me(sessions["owner"])
		if err != nil || len(*me.Projects) < 3 {
			t.Errorf("the owner's projects after creating one: %v", err)
		}
	})
}

// TestTerminologyRemoval: each kind of entry is removed once, the second removal and an
// entry of another project are not found, and the operator removes as the editor does.
func TestTerminologyRemoval(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		cat := storagetest.Catalog(db, nil)
		sys := model.WithPrincipal(t.Context(), tools.System)
		id, other := f.Project.ID, f.Sibling.ID
		g, err := cat.AddGlossaryPair(sys, tools.GlossaryIn{ProjectArg: tools.ProjectArg{ProjectID: id}, SourceTerm: "Cart", TargetTerm: "Handlekurv", Locale: "nb"})
		if err != nil {
			t.Fatal(err)
		}
		r, err := cat.AddSubstitution(sys, id, "...", "…", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cat.AddDoNotTranslate(sys, id, "lokal"); err != nil {
			t.Fatal(err)
		}
		if err := cat.RemoveGlossaryTerm(sys, other, g.ID); codeOf(err) != model.CodeNotFound {
			t.Errorf("removing a pair through another project: %v, want not_found", err)
		}
		if err := cat.RemoveSubstitution(sys, other, r.ID); codeOf(err) != model.CodeNotFound {
			t.Errorf("removing a rule through another project: %v, want not_found", err)
		}
		if err := cat.RemoveDoNotTranslate(sys, id, "Lokal"); codeOf(err) != model.CodeNotFound {
			t.Errorf("removing a term spelled otherwise: %v, want not_found", err)
		}
		for name, rm := range map[string]func() error{
			"pair": func() error { return cat.RemoveGlossaryTerm(sys, id, g.ID) },
			"rule": func() error { return cat.RemoveSubstitution(sys, id, r.ID) },
			"term": func() error { return cat.RemoveDoNotTranslate(sys, id, "lokal") },
		} {
			if err := rm(); err != nil {
				t.Errorf("removing the %s: %v", name, err)
			}
			if err := rm(); codeOf(err) != model.CodeNotFound {
				t.Errorf("removing the %s again: %v, want not_found", name, err)
			}
		}
		out, err := cat.ListTerminology(sys, tools.TerminologyIn{ProjectArg: tools.ProjectArg{ProjectID: id}})
		if err != nil || len(out.Glossary)+len(out.DoNotTranslate)+len(out.Substitutions) != 0 {
			t.Errorf("terminology after removing everything: %+v %v", out, err)
		}
	})
}

// TestRemovedLanguageKeepsItsTranslations: a manager taking a language off the project
// hides it, once confirmed (it has a translation); its translations stay, and turning it
// on again shows them as they were.
func TestRemovedLanguageKeepsItsTranslations(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		rf := newRoleFixture(t, dialect)
		cat, id := rf.cat, rf.project
		manager := rf.sessions(t)["manager"]
		only := []string{"de"}
		if _, err := cat.SetProject(manager, id, tools.SetProjectIn{Languages: &only}); model.ErrorCode(err) != model.CodeConflict ||
			!strings.Contains(err.Error(), "Norwegian Bokmål has 1 translation") {
			t.Fatalf("removing nb unconfirmed: %v, want a conflict naming its translation", err)
		}
		v, err := cat.SetProject(manager, id, tools.SetProjectIn{Languages: &only, ConfirmRemove: []string{"nb"}})
		if err != nil {
			t.Fatal(err)
		}
		if v.HasLanguage("nb") {
			t.Fatalf("nb is still on after removing it: %v", v.EnabledLanguages)
		}
		both := []string{"de", "nb"}
		if _, err := cat.SetProject(manager, id, tools.SetProjectIn{Languages: &both}); err != nil {
			t.Fatal(err)
		}
		got, err := cat.GetTranslation(manager, row(id, "nb").KeyRef)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, tr := range got.Translations {
			if tr.Language == "nb" {
				found = tr.Value == "Hei nb"
			}
		}
		if !found {
			t.Errorf("nb after turning it on again: %+v, want its translation Hei nb", got.Translations)
		}
		st, err := cat.GetProjectStatus(manager, tools.ProjectStatusIn{ProjectArg: tools.ProjectArg{ProjectID: id}})
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range st.Languages {
			if l.Language == "nb" && l.Translated != 1 {
				t.Errorf("nb's status after turning it on again: %+v, want 1 translated", l)
			}
		}
	})
}
