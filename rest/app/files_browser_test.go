package app_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserImport: a file chosen in the project page's import form is previewed, then
// imported with Confirm, in a real browser (multipart upload, the CSRF field, the
// base64 file carried back).
func TestBrowserImport(t *testing.T) {
	t.Parallel()
	chromium(t)
	e := newEnv(t, "sqlite", nil)
	e.source(t, "common", "greeting", "Hello")
	file := filepath.Join(t.TempDir(), "en.po")
	if err := os.WriteFile(file, []byte(sourcePO), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := screenshotDir(t)
	ctx := newBrowser(t)
	base := e.srv.URL

	do(t, ctx, "signing in",
		chromedp.Navigate(base+"/app/"), chromedp.WaitVisible(chromedp.CSS(`#email`)),
		chromedp.SendKeys(chromedp.CSS(`#email`), e.f.User.Email),
		chromedp.SendKeys(chromedp.CSS(`#password`), password),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`ul.cards`)))
	do(t, ctx, "opening the project", chromedp.Navigate(base+"/app/p/"+e.f.Project.ID+"/"), chromedp.WaitVisible(chromedp.CSS(`#import-form`)))
	if p := eval[[]string](t, ctx, a11yProblems); len(p) > 0 {
		t.Errorf("project page: %v", p)
	}
	shot(t, ctx, dir, "project-files.png")
	do(t, ctx, "choosing the file and the form's fields",
		chromedp.SetUploadFiles(chromedp.CSS(`#import-file`), []string{file}),
		chromedp.SetValue(chromedp.CSS(`#import-ns`), "onboarding"),
		chromedp.SetValue(chromedp.CSS(`#import-format`), "po"),
		chromedp.Click(chromedp.CSS(`#import-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#confirm`)))
	if s := text(t, ctx, `#import-summary`); !strings.Contains(s, "Nothing is stored yet") || !strings.Contains(s, "2 created") {
		t.Errorf("the preview says %q", s)
	}
	if p := eval[[]string](t, ctx, a11yProblems); len(p) > 0 {
		t.Errorf("preview page: %v", p)
	}
	if slices.Contains(e.namespaces(t), "onboarding") {
		t.Fatal("the preview stored the namespace")
	}
	shot(t, ctx, dir, "import-preview.png")
	do(t, ctx, "confirming", chromedp.Click(chromedp.CSS(`#confirm`)))
	waitFor(t, ctx, "the result shows", `document.querySelector('h1')?.textContent === 'Imported'`)
	if s := text(t, ctx, `#import-summary`); !strings.Contains(s, "Stored: 2 keys: 2 created") {
		t.Errorf("the result says %q", s)
	}
	if out, err := e.cat.GetTranslation(e.sys(t), e.ref("onboarding", "signup", "en").KeyRef); err != nil || out.Translations[0].Value != "Sign up" {
		t.Fatalf("after confirming in the browser, signup reads %+v, %v", out, err)
	}
}
