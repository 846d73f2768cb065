package app_test

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// memberBrowser adds a user of the fixture's workspace with a role on its project (and languages)
// and a password, and returns a browser signed in as them.
func (e *env) memberBrowser(t *testing.T, email, role string, langs ...string) *browser {
	t.Helper()
	u, err := e.cat.CreateUser(e.sys(t), tools.CreateUserIn{WorkspaceID: e.f.Workspace.ID, Email: email})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cat.SetMember(e.sys(t), tools.SetMemberIn{ProjectID: e.f.Project.ID, User: u.ID, Role: role, Languages: langs}); err != nil {
		t.Fatal(err)
	}
	if err := e.cat.SetPassword(e.sys(t), u.ID, password); err != nil {
		t.Fatal(err)
	}
	b := e.browser(t)
	b.signIn(t, email)
	return b
}

func (e *env) projectNow(t *testing.T, id string) model.Project {
	t.Helper()
	v, err := e.cat.ShowProject(e.sys(t), id)
	if err != nil {
		t.Fatal(err)
	}
	return v.Project
}

// TestCreateProjectPage: an owner creates a project from the projects page and lands on
// its settings, its languages named; bad input comes back beside the form with what was
// typed and creates nothing; a translator sees no form and is refused (403) all the same.
func TestCreateProjectPage(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		owner := e.browser(t)
		owner.signIn(t, e.f.User.Email)
		count := func() int {
			ps, err := e.cat.WorkspaceProjects(e.sys(t), e.f.Workspace.ID)
			if err != nil {
				t.Fatal(err)
			}
			return len(ps)
		}
		before := count()
		owner.get(t, "/app/").want(t, http.StatusOK, `id="create-form"`, `id="create-source" name="source" list="language-list"`, `<option value="br">Breton</option>`)
		owner.post(t, "/app/projects", url.Values{"title": {"Shop"}, "source": {"en"}, "languages": {"nb, xx"}}, true).
			want(t, http.StatusBadRequest, `id="create-error"`, `language &#34;xx&#34; is not a BCP 47 language tag`, `value="Shop"`, `value="nb, xx"`)
		owner.post(t, "/app/projects", url.Values{"title": {"  "}, "source": {"en"}}, true).
			want(t, http.StatusBadRequest, `id="create-error"`, "title must be 1 to 200 characters")
		if n := count(); n != before {
			t.Fatalf("refused forms made projects: %d, want %d", n, before)
		}
		p := owner.post(t, "/app/projects", url.Values{"title": {"Shop"}, "source": {"en"}, "languages": {"nb, de pt-br br tok es_CL"}}, true)
		if p.status != http.StatusSeeOther || !strings.HasSuffix(p.header.Get("Location"), "/settings") {
			t.Fatalf("creating: %d %s %.300s", p.status, p.header.Get("Location"), p.body)
		}
		owner.get(t, p.header.Get("Location")).want(t, http.StatusOK, "nb — Norwegian Bokmål", "de — German", "pt-BR — Portuguese (Brazil)",
			"br — Breton", "es-CL — Spanish (Chile)", `<td data-label="Language">tok</td>`, `value="Shop"`)
		owner.get(t, "/app/").want(t, http.StatusOK, ">Shop</a>")

		tr := e.memberBrowser(t, "tr@acme.test", model.RoleTranslator, "nb")
		if page := tr.get(t, "/app/").want(t, http.StatusOK); strings.Contains(page.body, `id="create-form"`) {
			t.Errorf("a translator's projects page offers to create a project")
		}
		tr.post(t, "/app/projects", url.Values{"title": {"Mine"}, "source": {"en"}}, true).want(t, http.StatusForbidden, "only an owner of the workspace")
		if n := count(); n != before+1 {
			t.Errorf("projects after a translator's try: %d, want %d", n, before+1)
		}
	})
}

// TestSettingsPage: a manager renames the project, removes a language and adds it back
// (its translation is still there), chooses the editable and auto-translated languages and
// the syntax; refused input is shown beside its form with what was typed and changes
// nothing; a translator gets no link and 403 from the server.
func TestSettingsPage(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "greeting", "Hello")
		e.draft(t, "common", "greeting", "nb", "Hei")
		id := e.f.Project.ID
		s := "/app/p/" + id + "/settings"
		mgr := e.memberBrowser(t, "mgr@acme.test", model.RoleManager)
		mgr.get(t, "/app/p/"+id+"/").want(t, http.StatusOK, `href="/app/p/`+id+`/settings"`, `/terminology"`, `/checkups"`)
		mgr.get(t, s).want(t, http.StatusOK, "nb — Norwegian Bokmål", "sv — Swedish", "nothing is deleted")

		mgr.post(t, s+"/title", url.Values{"title": {strings.Repeat("x", 201)}}, true).want(t, http.StatusBadRequest, `id="title-error"`, `value="`+strings.Repeat("x", 201)+`"`)
		if got := e.projectNow(t, id).Title; got != "Web app" {
			t.Fatalf("title after a refused form: %q", got)
		}
		mgr.post(t, s+"/title", url.Values{"title": {"Web shop"}}, true).want(t, http.StatusSeeOther)
		if got := e.projectNow(t, id).Title; got != "Web shop" {
			t.Errorf("title: %q, want Web shop", got)
		}

		// Remove nb and add it back: the draft is there again. nb has a translation, so the
		// first click asks for a confirmation and changes nothing.
		mgr.post(t, s+"/languages/remove", url.Values{"language": {"nb"}}, true).want(t, http.StatusConflict, `id="remove-confirm"`,
			"Norwegian Bokmål has 1 translation", "kept and come back if you add the language again",
			`<input type="hidden" name="confirm" value="nb"><button type="submit">Remove nb — Norwegian Bokmål</button>`)
		if p := e.projectNow(t, id); !p.HasLanguage("nb") {
			t.Fatalf("an unconfirmed removal took nb off: %v", p.EnabledLanguages)
		}
		mgr.post(t, s+"/languages/remove", url.Values{"language": {"nb"}, "confirm": {"nb"}}, true).want(t, http.StatusSeeOther)
		if p := e.projectNow(t, id); p.HasLanguage("nb") || !p.HasLanguage("sv") {
			t.Fatalf("languages after removing nb: %v", p.EnabledLanguages)
		}
		if page := mgr.get(t, s); strings.Contains(page.body, `aria-label="Remove nb — Norwegian Bokmål"`) || !strings.Contains(page.body, `<option value="nb">Norwegian Bokmål</option>`) {
			t.Errorf("the settings page after removing nb still lists it, or does not offer it back")
		}
		mgr.post(t, s+"/languages", url.Values{"language": {"en"}}, true).want(t, http.StatusBadRequest, `id="languages-error"`, "source language")
		mgr.post(t, s+"/languages", url.Values{"language": {"nb"}}, true).want(t, http.StatusSeeOther)
		if v := e.row(t, "common", "greeting", "nb"); v.Value != "Hei" {
			t.Errorf("nb's translation after adding nb back: %q, want Hei", v.Value)
		}
		mgr.get(t, "/app/p/"+id+"/review/nb").want(t, http.StatusOK, "Hei")

		// Any BCP 47 tag may be typed, as gettext or Java spell it too; a tag that is none is
		// refused beside the form with what was typed.
		mgr.post(t, s+"/languages", url.Values{"language": {"xx-!!"}}, true).want(t, http.StatusBadRequest, `id="languages-error"`,
			`language &#34;xx-!!&#34; is not a BCP 47 language tag`, `value="xx-!!"`)
		mgr.post(t, s+"/languages", url.Values{"language": {"zh_hant_hk"}}, true).want(t, http.StatusSeeOther)
		if p := e.projectNow(t, id); !p.HasLanguage("zh-Hant-HK") {
			t.Errorf("languages after adding zh_hant_hk: %v, want zh-Hant-HK among them", p.EnabledLanguages)
		}
		mgr.get(t, s).want(t, http.StatusOK, "zh-Hant-HK — Chinese (Traditional Han, Hong Kong SAR China)")

		// Editable and auto-translate languages: whole lists; a language not on is refused.
		mgr.post(t, s+"/languages/flags", url.Values{"editable": {"nb", "fr"}}, true).want(t, http.StatusBadRequest, `id="flags-error"`, "fr is not enabled")
		mgr.post(t, s+"/languages/flags", url.Values{"editable": {"sv"}, "auto": {"nb"}}, true).want(t, http.StatusSeeOther)
		p := e.projectNow(t, id)
		if !slices.Equal(p.EditableLanguages, []string{"en", "sv"}) || !slices.Equal(p.AutoTranslateLanguages, []string{"nb"}) {
			t.Errorf("editable %v auto %v, want [en sv] and [nb]", p.EditableLanguages, p.AutoTranslateLanguages)
		}
		mgr.post(t, s+"/syntax", url.Values{"syntax": {"klingon"}}, true).want(t, http.StatusBadRequest, `id="syntax-error"`, `value="klingon"`)
		mgr.post(t, s+"/syntax", url.Values{"syntax": {"icu,html"}}, true).want(t, http.StatusSeeOther)
		mgr.get(t, s).want(t, http.StatusOK, "set here", `value="icu,html"`)

		// A translator: no link, and the server refuses.
		tr := e.memberBrowser(t, "tr@acme.test", model.RoleTranslator, "nb")
		if page := tr.get(t, "/app/p/"+id+"/").want(t, http.StatusOK, `/terminology"`); strings.Contains(page.body, `/settings"`) {
			t.Errorf("a translator's project page links to the settings")
		}
		tr.get(t, s).want(t, http.StatusForbidden, "managers and owners only")
		tr.post(t, s+"/title", url.Values{"title": {"Mine"}}, true).want(t, http.StatusForbidden)
		tr.post(t, s+"/languages/remove", url.Values{"language": {"sv"}, "confirm": {"sv"}}, true).want(t, http.StatusForbidden)
		if p := e.projectNow(t, id); p.Title != "Web shop" || !p.HasLanguage("sv") {
			t.Errorf("a translator's refused forms changed the project: %q %v", p.Title, p.EnabledLanguages)
		}
	})
}

// TestTerminologyPage: a manager adds and removes glossary pairs, do-not-translate terms
// and substitution rules; refused input keeps what was typed; a translator reads the
// lists without forms and is refused (403) adding and removing.
func TestTerminologyPage(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		id := e.f.Project.ID
		tp := "/app/p/" + id + "/terminology"
		mgr := e.memberBrowser(t, "mgr@acme.test", model.RoleManager)
		mgr.get(t, tp).want(t, http.StatusOK, "No glossary pairs yet", `id="glossary-form"`, `<option value="nb">nb — Norwegian Bokmål</option>`)
		mgr.post(t, tp+"/glossary", url.Values{"source": {""}, "target": {"Handlekurv"}, "locale": {"nb"}}, true).
			want(t, http.StatusBadRequest, `id="glossary-error"`, `value="Handlekurv"`, `<option value="nb" selected>`)
		mgr.post(t, tp+"/glossary", url.Values{"source": {"Cart"}, "target": {"Handlekurv"}, "locale": {"nb"}}, true).want(t, http.StatusSeeOther)
		mgr.post(t, tp+"/glossary", url.Values{"source": {"Cart"}, "target": {"Handlekurv"}, "locale": {"nb"}}, true).
			want(t, http.StatusConflict, `id="glossary-error"`, "already has")
		mgr.post(t, tp+"/glossary", url.Values{"source": {"cart "}, "target": {"Varekurv"}, "locale": {"nb"}}, true).
			want(t, http.StatusConflict, `id="glossary-error"`, `the glossary already translates &#34;Cart&#34; as &#34;Handlekurv&#34; for Norwegian Bokmål: remove that pair first`, `value="Varekurv"`)
		mgr.post(t, tp+"/dnt", url.Values{"term": {"lokal"}}, true).want(t, http.StatusSeeOther)
		mgr.post(t, tp+"/substitutions", url.Values{"from": {"..."}, "to": {"…"}, "locale": {"all"}}, true).want(t, http.StatusSeeOther)
		mgr.post(t, tp+"/substitutions", url.Values{"from": {""}, "to": {"x"}, "locale": {"zz"}}, true).
			want(t, http.StatusBadRequest, `id="substitutions-error"`, `value="x"`)
		page := mgr.get(t, tp).want(t, http.StatusOK, "Handlekurv", "lokal", "<code>...</code>", `aria-label="Remove the term lokal"`)
		terms, err := e.cat.ListTerminology(e.sys(t), tools.TerminologyIn{ProjectArg: tools.ProjectArg{ProjectID: id}})
		if err != nil || len(terms.Glossary) != 1 || len(terms.DoNotTranslate) != 1 || len(terms.Substitutions) != 1 {
			t.Fatalf("terminology: %+v %v", terms, err)
		}
		gid, sid := itoa64(terms.Glossary[0].ID), itoa64(terms.Substitutions[0].ID)
		if !strings.Contains(page.body, `name="id" value="`+gid+`"`) {
			t.Errorf("the page has no remove button for pair %s", gid)
		}

		tr := e.memberBrowser(t, "tr@acme.test", model.RoleTranslator, "nb")
		if p := tr.get(t, tp).want(t, http.StatusOK, "Handlekurv", "lokal"); strings.Contains(p.body, `id="glossary-form"`) || strings.Contains(p.body, ">Remove</button>") {
			t.Errorf("a translator's terminology page offers to change it")
		}
		for path, form := range map[string]url.Values{
			"/glossary":             {"source": {"Order"}, "target": {"Bestilling"}},
			"/glossary/remove":      {"id": {gid}},
			"/dnt":                  {"term": {"Acme"}},
			"/dnt/remove":           {"term": {"lokal"}},
			"/substitutions":        {"from": {"!"}, "to": {" !"}},
			"/substitutions/remove": {"id": {sid}},
		} {
			tr.post(t, tp+path, form, true).want(t, http.StatusForbidden, "managers and owners only")
		}
		if after, _ := e.cat.ListTerminology(e.sys(t), tools.TerminologyIn{ProjectArg: tools.ProjectArg{ProjectID: id}}); len(after.Glossary) != 1 || len(after.DoNotTranslate) != 1 || len(after.Substitutions) != 1 {
			t.Errorf("a translator's refused forms changed the terminology: %+v", after)
		}

		mgr.post(t, tp+"/glossary/remove", url.Values{"id": {gid}}, true).want(t, http.StatusSeeOther)
		mgr.post(t, tp+"/dnt/remove", url.Values{"term": {"lokal"}}, true).want(t, http.StatusSeeOther)
		mgr.post(t, tp+"/substitutions/remove", url.Values{"id": {sid}}, true).want(t, http.StatusSeeOther)
		mgr.post(t, tp+"/substitutions/remove", url.Values{"id": {"nonsense"}}, true).want(t, http.StatusNotFound)
		mgr.get(t, tp).want(t, http.StatusOK, "No glossary pairs yet", "No do-not-translate terms yet", "No substitution rules yet")
	})
}

// TestCheckupsPage: a manager runs a checkup and sees its findings per key, each language
// linked to its row; a translator sees the report without the button and is refused (403)
// running one.
func TestCheckupsPage(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "greeting", "Hello {name}")
		e.draft(t, "common", "greeting", "nb", "Hei {navn}")
		id := e.f.Project.ID
		cp := "/app/p/" + id + "/checkups"
		mgr := e.memberBrowser(t, "mgr@acme.test", model.RoleManager)
		tr := e.memberBrowser(t, "tr@acme.test", model.RoleTranslator, "nb")
		mgr.get(t, cp).want(t, http.StatusOK, `id="no-report"`, "Run a checkup now")
		tr.post(t, cp+"/run", nil, true).want(t, http.StatusForbidden, `id="run-error"`, "managers and owners only")
		mgr.post(t, cp+"/run", nil, true).want(t, http.StatusSeeOther)
		mgr.get(t, cp).want(t, http.StatusOK, "Findings per key", "<code>common · greeting</code>", "placeholders differ from the source",
			`href="/app/p/`+id+`/review/nb/row?ns=common&amp;key=greeting"`, "sv — Swedish")
		if p := tr.get(t, cp).want(t, http.StatusOK, "<code>common · greeting</code>"); strings.Contains(p.body, "Run a checkup now") {
			t.Errorf("a translator's checkups page offers to run one")
		}
	})
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// settingsPagesFixture fills the fixture project's terminology and runs its checkup, so
// that the contrast and label check (TestBrowserNarrowAndContrast) sees every list of
// the settings, terminology and checkups pages.
func settingsPagesFixture(t *testing.T, e *env) {
	t.Helper()
	id := e.f.Project.ID
	if _, err := e.cat.AddGlossaryPair(e.sys(t), tools.GlossaryIn{ProjectArg: tools.ProjectArg{ProjectID: id}, SourceTerm: "Shopping cart", TargetTerm: "Handlekurv", Locale: "nb"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cat.AddDoNotTranslate(e.sys(t), id, "lokal"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cat.AddSubstitution(e.sys(t), id, " !", "\u00a0!", "all"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cat.RunCheckup(e.sys(t), id, "cli"); err != nil {
		t.Fatal(err)
	}
}

// TestSettingsPagesAcrossWorkspaces: to a user of another workspace, even its owner, the
// project's settings, terminology and checkups do not exist, and their forms change nothing.
func TestSettingsPagesAcrossWorkspaces(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		them := e.browser(t)
		them.signIn(t, e.f.OtherUser.Email)
		p := "/app/p/" + e.f.Project.ID
		for _, path := range []string{"/settings", "/terminology", "/checkups"} {
			them.get(t, p+path).want(t, http.StatusNotFound)
		}
		for path, form := range map[string]url.Values{
			"/settings/title":            {"title": {"Theirs"}},
			"/settings/languages":        {"language": {"de"}},
			"/terminology/glossary":      {"source": {"Cart"}, "target": {"Kurv"}},
			"/terminology/dnt":           {"term": {"Acme"}},
			"/checkups/run":              nil,
			"/settings/languages/remove": {"language": {"nb"}},
		} {
			if got := them.post(t, p+path, form, true); got.status != http.StatusNotFound {
				t.Errorf("another workspace's owner posting %s: %d, want 404", path, got.status)
			}
		}
		if pr := e.projectNow(t, e.f.Project.ID); pr.Title != "Web app" || pr.HasLanguage("de") || !pr.HasLanguage("nb") {
			t.Errorf("the project after another workspace's forms: %q %v", pr.Title, pr.EnabledLanguages)
		}
	})
}
