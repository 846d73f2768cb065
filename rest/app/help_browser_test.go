package app_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestBrowserRowHelp: a row's panel in a real browser shows translation memory from
// another project of the workspace with its score, and Use puts it into the box; Copy
// source and Ctrl+Shift+P fill the box from the source; the AI button says in place that
// AI is not set up, then once it is shows a suggestion that Use puts into the box unsaved; a stale row shows the source words that changed; Revert puts an
// earlier value back and the history says so.
func TestBrowserRowHelp(t *testing.T) {
	t.Parallel()
	chromium(t)
	// The server's AI has no model until the project names one: not set up at first.
	llm := aitest.New(t, aitest.Echo(func(_, masked string) string { return "ai " + masked }))
	e := newEnv(t, "sqlite", &tools.Options{AIDefault: tools.AIProvider{BaseURL: llm.URL}})
	sys := e.sys(t)
	e.source(t, "common", "greet", "Hello {name}, welcome back", "title", "Your cart")
	e.draft(t, "common", "greet", "nb", "Hei {name}")
	if _, err := e.cat.UpdateTranslation(sys, tools.UpdateTranslationIn{RowRef: e.ref("common", "greet", "nb"), Value: "Hallo {name}!"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cat.UpdateTranslation(sys, tools.UpdateTranslationIn{RowRef: e.ref("common", "title", "nb"), Value: "Handlekurv", Status: model.StatusApproved}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cat.UpdateTranslation(sys, tools.UpdateTranslationIn{RowRef: e.ref("common", "title", "en"), Value: "Your shopping cart"}); err != nil {
		t.Fatal(err)
	}
	shop, err := e.cat.CreateProject(sys, tools.CreateProjectIn{WorkspaceID: e.f.Workspace.ID, Title: "Shop", SourceLanguage: "en", Languages: []string{"nb"}})
	if err != nil {
		t.Fatal(err)
	}
	other := tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: shop.ID}, NamespaceKey: "app", TranslationKey: "welcome"}
	if _, err := e.cat.AddKey(sys, tools.AddKeyIn{KeyRef: other, SourceValue: "Hello {user}, welcome back"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cat.UpdateTranslation(sys, tools.UpdateTranslationIn{RowRef: tools.RowRef{KeyRef: other, Language: "nb"}, Value: "Hei {user}, velkommen tilbake", Status: model.StatusApproved}); err != nil {
		t.Fatal(err)
	}
	ctx := newBrowser(t)
	base := e.srv.URL
	greet, title := rowID(t, e, "greet"), rowID(t, e, "title")
	box := `#value-` + greet
	boxValue := `document.querySelector('` + box + `').value`
	do(t, ctx, "signing in",
		chromedp.Navigate(base+"/app/"), chromedp.WaitVisible(chromedp.CSS(`#email`)),
		chromedp.SendKeys(chromedp.CSS(`#email`), e.f.User.Email),
		chromedp.SendKeys(chromedp.CSS(`#password`), password),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`ul.cards`)))
	do(t, ctx, "opening the row's panel",
		chromedp.Navigate(base+"/app/p/"+e.f.Project.ID+"/review/nb"),
		chromedp.WaitVisible(chromedp.CSS(`#row-`+greet+` details.more summary`)),
		chromedp.Click(chromedp.CSS(`#row-`+greet+` details.more summary`)))
	waitFor(t, ctx, "the memory shows", `!!document.querySelector('#row-`+greet+` .memory button.use')`)
	if m := text(t, ctx, `#row-`+greet+` .memory li`); !strings.Contains(m, "99%") || !strings.Contains(m, "Hei {user}, velkommen tilbake") || !strings.Contains(m, "Shop") {
		t.Errorf("the memory says %q", m)
	}
	if p := eval[[]string](t, ctx, a11yProblems); len(p) > 0 {
		t.Errorf("review page with the panel open: %v", p)
	}
	do(t, ctx, "using the suggestion", press(`#row-`+greet+` .memory button.use`))
	waitFor(t, ctx, "the suggestion is in the box", boxValue+` === 'Hei {user}, velkommen tilbake'`)

	do(t, ctx, "copying the source", press(`#row-`+greet+` button.copy-source`))
	waitFor(t, ctx, "the source is in the box", boxValue+` === 'Hello {name}, welcome back'`)
	eval[bool](t, ctx, `(() => { const b = document.querySelector('`+box+`'); b.value = 'Hei '; b.focus(); b.setSelectionRange(4, 4); return true; })()`)
	do(t, ctx, "inserting the next placeholder", key("P", chromedp.ModifierCtrl, chromedp.ModifierShift))
	waitFor(t, ctx, "the placeholder is inserted", boxValue+` === 'Hei {name}'`)

	do(t, ctx, "asking the AI", chromedp.Click(chromedp.CSS(`#row-`+greet+` button.ai-suggest`)))
	waitFor(t, ctx, "the AI's refusal shows in place", `(document.querySelector('#row-`+greet+` .ai-out')?.textContent ?? '').includes('AI is not set up')`)
	aiModel := "helper"
	if _, err := e.cat.SetProjectAI(sys, e.f.Project.ID, &aiModel, nil); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, "asking the AI again", chromedp.Click(chromedp.CSS(`#row-`+greet+` button.ai-suggest`)))
	waitFor(t, ctx, "the AI's suggestion shows", `!!document.querySelector('#row-`+greet+` .ai-out button.use')`)
	do(t, ctx, "using the AI's suggestion", press(`#row-`+greet+` .ai-out button.use`))
	waitFor(t, ctx, "the AI's suggestion is in the box", boxValue+` === 'ai Hello {name}, welcome back'`)
	if v := e.row(t, "common", "greet", "nb"); v.Value != "Hallo {name}!" {
		t.Errorf("the AI's suggestion was stored: %q", v.Value)
	}

	// Revert to the first draft: the row and its history show it.
	do(t, ctx, "reverting", chromedp.Click(chromedp.CSS(`#row-`+greet+` form.revert-form button`)))
	waitFor(t, ctx, "the row has the old value", boxValue+` === 'Hei {name}'`)
	waitFor(t, ctx, "the history shows the revert", `(document.querySelector('#row-`+greet+` ol.history li')?.textContent ?? '').includes('value reverted')`)
	if v := e.row(t, "common", "greet", "nb"); v.Value != "Hei {name}" || v.Status != model.StatusNeedsReview {
		t.Errorf("after the revert the row is %q %s", v.Value, v.Status)
	}

	// The stale row shows what changed in the source.
	do(t, ctx, "opening the stale row's panel", chromedp.Click(chromedp.CSS(`#row-`+title+` details.more summary`)))
	waitFor(t, ctx, "the source diff shows", `!!document.querySelector('#row-`+title+` .source-diff ins')`)
	if ins := text(t, ctx, `#row-`+title+` .source-diff ins`); ins != "shopping " {
		t.Errorf("inserted words %q", ins)
	}
}

// TestSuggestEndpoint: the AI suggestion answers JSON in the error shape when AI is not
// set up, and a revert needs the CSRF token.
func TestSuggestEndpoint(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "greet", "Hello")
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID + "/review/nb"
		b.get(t, p)
		req := url.Values{"ns": {"common"}, "key": {"greet"}}
		r := b.post(t, p+"/suggest", req, true)
		r.want(t, http.StatusUnprocessableEntity, `"error":"not_configured"`, "AI is not set up")
		b.post(t, p+"/revert", url.Values{"ns": {"common"}, "key": {"greet"}, "history": {"1"}, "version": {"new"}}, false).want(t, http.StatusForbidden)
	})
}

// press clicks the button sel in the page. A text put in the box re-runs QA, whose
// findings move the panel's buttons while a mouse click is on its way: under load the
// click landed beside the button.
func press(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](`document.querySelector(` + strconv.Quote(sel) + `).click()`)
}
