package app_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestBrowserProjectSetup: in Chromium, the workspace's owner creates a project from the
// projects page, adds German on its settings page (named, with the note that removing
// deletes nothing) and a glossary pair on its terminology page; the catalogue holds them.
func TestBrowserProjectSetup(t *testing.T) {
	t.Parallel()
	chromium(t)
	e := newEnv(t, "sqlite", nil)
	ctx := newBrowser(t)
	do(t, ctx, "signing in",
		chromedp.Navigate(e.srv.URL+"/app/"), chromedp.WaitVisible(chromedp.CSS(`#email`)),
		chromedp.SendKeys(chromedp.CSS(`#email`), e.f.User.Email),
		chromedp.SendKeys(chromedp.CSS(`#password`), password),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`#create-form`)))
	do(t, ctx, "creating a project",
		chromedp.SendKeys(chromedp.CSS(`#create-title`), "Mobile app"),
		chromedp.SetValue(chromedp.CSS(`#create-source`), "en"),
		chromedp.SendKeys(chromedp.CSS(`#create-languages`), "nb, sv"),
		chromedp.Click(chromedp.CSS(`#create-form button[type=submit]`)))
	waitFor(t, ctx, "the new project's settings", `location.pathname.endsWith('/settings') && !!document.querySelector('#add-language')`)
	if got := eval[string](t, ctx, `document.querySelector('#project-title').value`); got != "Mobile app" {
		t.Errorf("the settings page's title field: %q", got)
	}
	langs := `[...document.querySelectorAll('#languages tbody td[data-label="Language"]')].map((td) => td.textContent.trim())`
	if got := eval[[]string](t, ctx, langs); !slices.Equal(got, []string{"nb — Norwegian Bokmål", "sv — Swedish"}) {
		t.Errorf("languages listed: %v", got)
	}
	// The language form is filled and sent in the page, in one step: a busy run's DOM
	// tracking lost the input's node id between two chromedp steps ('No node with given
	// id found' while adding German).
	addLanguage := func(tag string) bool {
		return eval[bool](t, ctx, fmt.Sprintf(`(() => { const i = document.querySelector('#add-language');
		  const b = document.querySelector('#languages form.row-form button[type=submit]');
		  if (!i || !b) return false; i.value = %q; i.dispatchEvent(new Event('input', { bubbles: true })); b.click(); return true })()`, tag))
	}
	if !addLanguage("de") {
		t.Fatal("adding German: no language form")
	}
	waitFor(t, ctx, "German listed", langs+`.includes('de — German')`)
	if n := eval[int](t, ctx, `document.querySelectorAll('#add-language-list option').length`); n < 100 {
		t.Errorf("the language picker suggests %d languages, want CLDR's", n)
	}
	// A tag the list does not hold, as gettext spells it.
	waitFor(t, ctx, "the language form after the reload", `!!document.querySelector('#add-language')`)
	if !addLanguage("zh_Hant_HK") {
		t.Fatal("typing a tag the list does not hold: no language form")
	}
	waitFor(t, ctx, "zh-Hant-HK listed", langs+`.includes('zh-Hant-HK — Chinese (Traditional Han, Hong Kong SAR China)')`)
	if !strings.Contains(text(t, ctx, `#remove-note`), "nothing is deleted") {
		t.Errorf("the settings page does not say that removing a language deletes nothing")
	}
	if p := eval[[]string](t, ctx, a11yProblems); len(p) > 0 {
		t.Errorf("settings page: %v", p)
	}
	do(t, ctx, "opening the terminology", chromedp.Click(chromedp.CSS(`nav.toc a[href$="/terminology"]`)), chromedp.WaitVisible(chromedp.CSS(`#glossary-form`)))
	do(t, ctx, "adding a glossary pair",
		chromedp.SendKeys(chromedp.CSS(`#glossary-source`), "Cart"),
		chromedp.SendKeys(chromedp.CSS(`#glossary-target`), "Warenkorb"),
		chromedp.SetValue(chromedp.CSS(`#glossary-locale`), "de"),
		chromedp.Click(chromedp.CSS(`#glossary-form button[type=submit]`)))
	waitFor(t, ctx, "the pair listed", `[...document.querySelectorAll('#glossary tbody tr')].some((tr) => tr.textContent.includes('Warenkorb') && tr.textContent.includes('de — German'))`)

	ps, err := e.cat.WorkspaceProjects(e.sys(t), e.f.Workspace.ID)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ps, func(p model.Project) bool { return p.Title == "Mobile app" })
	if i < 0 {
		t.Fatalf("no project Mobile app in %v", ps)
	}
	if got := ps[i].EnabledLanguages; !slices.Equal(got, []string{"en", "nb", "sv", "de", "zh-Hant-HK"}) {
		t.Errorf("the project's languages: %v", got)
	}
	terms, err := e.cat.ListTerminology(e.sys(t), tools.TerminologyIn{ProjectArg: tools.ProjectArg{ProjectID: ps[i].ID}})
	if err != nil || len(terms.Glossary) != 1 || terms.Glossary[0].TargetTerm != "Warenkorb" || terms.Glossary[0].Locale != "de" {
		t.Errorf("the project's glossary: %+v %v", terms.Glossary, err)
	}
}
