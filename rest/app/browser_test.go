package app_test

// End to end in a real headless Chromium driven from Go with chromedp: what a translator
// does, by keyboard, checked against the REST file the build tools read.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// chromium finds the browser, or skips (fails under CI=true) naming what to install.
func chromium(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		// The race run (-short): a browser driving one page at a time adds nothing the
		// detector can see, and under it the page is too slow for the walk's timings. The
		// plain run drives the same test.
		t.Skip("browser test: run by the plain (not -short) test run")
	}
	for _, name := range []string{os.Getenv("LOKAL_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no Chromium found: CI must run the browser tests (apt-get install chromium, or set LOKAL_CHROMIUM)")
	}
	t.Skip("no Chromium found: apt-get install chromium, or set LOKAL_CHROMIUM")
	return ""
}

// screenshotDir is where the browser tests save their screenshots: LOKAL_SCREENSHOTS, or
// "" when it is unset, and then shot takes none (a full-page PNG costs the browser CPU
// that nobody would look at).
func screenshotDir(t *testing.T) string {
	d := os.Getenv("LOKAL_SCREENSHOTS")
	if d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// The package's one headless Chromium, started by the first browser test and stopped by
// TestMain: starting one per test cost each a second or two of CPU on two busy cores.
var (
	chromeOnce sync.Once
	chromeCtx  context.Context // the browser's first tab, the parent of every test's context
	chromeStop context.CancelFunc
	chromeErr  error
)

// newBrowser is a tab of its own for the test in a browser context of its own (cookies,
// storage and cache apart from every other test's, as in a browser of its own), closed
// when the test ends, with 90 s for the whole test.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	bin := chromium(t)
	chromeOnce.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
			chromedp.WindowSize(1280, 900), chromedp.Flag("lang", "en-US"))
		actx, stopAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, stopFirst := chromedp.NewContext(actx)
		chromeCtx, chromeStop = ctx, func() { stopFirst(); stopAlloc() }
		chromeErr = chromedp.Do(ctx) // starts the browser
	})
	if chromeErr != nil {
		t.Fatalf("starting Chromium: %v", chromeErr)
	}
	ctx, cancel := chromedp.NewContext(chromeCtx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	// A bound on a hung browser, not a speed target: the longest walk (TestBrowserReview)
	// took 94 s on a loaded 2-core machine.
	ctx, cancel2 := context.WithTimeout(ctx, 4*time.Minute)
	t.Cleanup(cancel2)
	if err := chromedp.Do(ctx); err != nil { // opens the tab
		t.Fatalf("opening a tab: %v", err)
	}
	return ctx
}

// stopBrowser ends the shared Chromium, if a test started it.
func stopBrowser() {
	if chromeStop != nil {
		chromeStop()
	}
}

// a11yProblems lists the form controls of the page without a label and the controls a
// keyboard cannot reach.
const a11yProblems = `(() => {
  const out = [];
  for (const el of document.querySelectorAll('input, select, textarea, button, a[href], summary')) {
    if (el.type === 'hidden' || el.closest('[hidden]') || (el.tagName !== 'SUMMARY' && el.closest('details:not([open])'))) continue;
    const name = el.id || el.name || el.textContent.trim().slice(0, 30);
    if (el.tabIndex < 0 || el.disabled) out.push('not focusable: ' + el.tagName + ' ' + name);
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)) {
      const labelled = el.labels?.length > 0 || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
      if (!labelled) out.push('no label: ' + el.tagName + ' ' + name);
    }
    if (el.tagName === 'BUTTON' && !el.textContent.trim() && !el.getAttribute('aria-label')) out.push('button without a name');
  }
  return out;
})()`

// do runs steps in the browser or fails the test with what.
func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a script in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %.80s: %v", expr, err)
	}
	return v
}

// waitFor polls a script until it is true, for at most 30 seconds: the browser tests run
// beside the race run on two cores, where one request behind a page can take seconds; a
// passing poll returns as soon as it holds. A poll that a navigation cuts off (a form
// submitted just before) is started again on the new page.
func waitFor(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(time.Until(deadline))))
		if err == nil {
			return
		}
		navigated := strings.Contains(err.Error(), "navigated or closed") || strings.Contains(err.Error(), "context was destroyed") ||
			strings.Contains(err.Error(), "Cannot find context")
		if !navigated || time.Now().After(deadline) {
			t.Fatalf("waiting until %s (%s): %v", what, expr, err)
		}
	}
}

// text waits for the element sel names and reads its text in the page itself: read by
// node id (chromedp.TextContent), an element the page had just re-rendered answered "No
// node with given id found" on a busy machine.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	q := fmt.Sprintf("document.querySelector(%q)", sel)
	waitFor(t, ctx, sel, q+" !== null")
	return eval[string](t, ctx, q+".textContent")
}

func key(k string, mods ...chromedp.Modifier) chromedp.Action[chromedp.Void] {
	return chromedp.KeyEvent(k, chromedp.KeyModifiers(mods...))
}

// tabWalk presses Tab through the page and reports the controls it never reached.
func tabWalk(t *testing.T, ctx context.Context, presses int) []string {
	t.Helper()
	eval[bool](t, ctx, `(() => { let i = 0; for (const el of document.querySelectorAll('input, select, textarea, button, a[href], summary')) {
	  if (el.type === 'hidden' || el.closest('[hidden]') || (el.tagName !== 'SUMMARY' && el.closest('details:not([open])'))) continue; el.dataset.walk = 'w' + (i++); } document.activeElement?.blur(); window.__seen = new Set();
	  document.addEventListener('focusin', (e) => { if (e.target.dataset?.walk) window.__seen.add(e.target.dataset.walk); }); return true; })()`)
	for i := 0; i < presses; i++ {
		do(t, ctx, "pressing Tab", chromedp.KeyEvent(kb.Tab))
	}
	return eval[[]string](t, ctx, `[...document.querySelectorAll('[data-walk]')].filter((el) => !window.__seen.has(el.dataset.walk)).map((el) => el.tagName + ' ' + (el.id || el.name || el.textContent.trim().slice(0, 30)))`)
}

func shot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBrowserReview(t *testing.T) {
	t.Parallel()
	chromium(t)
	e := newEnv(t, "sqlite", nil)
	e.source(t, "common",
		"checkout.title", "Your cart",
		"checkout.items", "You have %{count} items in your cart",
		"checkout.pay", "Pay <strong>now</strong>",
		"checkout.help", "Ask {name} for help",
		"checkout.done", "Thank you")
	e.draft(t, "common", "checkout.title", "nb", "Handlekurven din")
	e.draft(t, "common", "checkout.items", "nb", "Du har varer i handlekurven") // lost %{count}
	e.draft(t, "common", "checkout.pay", "nb", "Betal <strong>nå</strong>")
	e.draft(t, "common", "checkout.help", "nb", "Spør {name} om hjelp")
	if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref("common", "checkout.done", "nb"), Value: "Takk", Status: model.StatusApproved}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cat.AddGlossaryTerm(e.sys(t), tools.GlossaryIn{ProjectArg: tools.ProjectArg{ProjectID: e.f.Project.ID}, SourceTerm: "cart", TargetTerm: "handlekurv", Locale: "nb"}); err != nil {
		t.Fatal(err)
	}
	dir := screenshotDir(t)
	ctx := newBrowser(t)
	base := e.srv.URL
	review := base + "/app/p/" + e.f.Project.ID + "/review/nb"

	// Sign in through the form.
	do(t, ctx, "opening the sign-in form", chromedp.Navigate(base+"/app/"), chromedp.WaitVisible(chromedp.CSS(`#email`)))
	if p := eval[[]string](t, ctx, a11yProblems); len(p) > 0 {
		t.Errorf("sign-in page: %v", p)
	}
	do(t, ctx, "signing in",
		chromedp.SendKeys(chromedp.CSS(`#email`), e.f.User.Email),
		chromedp.SendKeys(chromedp.CSS(`#password`), password),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`ul.cards`)))

	// Filter AI drafts with the filter form.
	do(t, ctx, "filtering AI drafts",
		chromedp.Navigate(review),
		chromedp.WaitVisible(chromedp.CSS(`#filter`)),
		chromedp.SetValue(chromedp.CSS(`#filter`), "ai"),
		chromedp.Click(chromedp.CSS(`form.filters button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#rows article.row`)))
	waitFor(t, ctx, "the filter applies", `location.search.includes('filter=ai')`)
	if keys := eval[[]string](t, ctx, `[...document.querySelectorAll('#rows article.row')].map((r) => r.dataset.key)`); strings.Join(keys, ",") != "checkout.help,checkout.items,checkout.pay,checkout.title" { // key order
		t.Fatalf("AI drafts shown: %v", keys)
	}
	if p := eval[[]string](t, ctx, a11yProblems); len(p) > 0 {
		t.Errorf("review page: %v", p)
	}
	if missed := tabWalk(t, ctx, 80); len(missed) > 0 {
		t.Errorf("Tab never reached on the review page: %v", missed)
	}

	// The broken draft shows its finding; typing a fix clears it, live, from the server's check.
	items := rowID(t, e, "checkout.items")
	sel := `#value-` + items
	if qa := text(t, ctx, `#qa-`+items); !strings.Contains(qa, "%{count}") {
		t.Fatalf("the broken draft's QA says %q", qa)
	}
	do(t, ctx, "typing a fix",
		chromedp.Focus(chromedp.CSS(sel)),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.KeyEvent(kb.Backspace),
		chromedp.SendKeys(chromedp.CSS(sel), "Du har %{count} varer"))
	waitFor(t, ctx, "QA flags the missing glossary term", `!!document.querySelector('#qa-`+items+` li[data-kind="glossary_violation"]')`)
	do(t, ctx, "typing the rest", chromedp.SendKeys(chromedp.CSS(sel), " i handlekurven"))
	waitFor(t, ctx, "QA is clean", `document.querySelectorAll('#qa-`+items+` li').length === 0`)
	shot(t, ctx, dir, "review.png")

	// Ctrl+Enter approves and moves to the next row.
	pay := rowID(t, e, "checkout.pay")
	do(t, ctx, "approve and next", key("\r", chromedp.ModifierCtrl))
	waitFor(t, ctx, "the row shows approved", `!!document.querySelector('#row-`+items+` .badge.approved')`)
	waitFor(t, ctx, "the next row has the focus", `document.activeElement.id === 'value-`+pay+`'`)

	// Alt+Up goes back; the approval is in the row's history.
	do(t, ctx, "previous row", key(kb.ArrowUp, chromedp.ModifierAlt))
	waitFor(t, ctx, "the approved row has the focus", `document.activeElement.id === 'value-`+items+`'`)
	do(t, ctx, "opening the history", chromedp.Click(chromedp.CSS(`#row-`+items+` details.more summary`)), chromedp.WaitVisible(chromedp.CSS(`#row-`+items+` ol.history`)))
	if h := text(t, ctx, `#row-`+items+` ol.history li`); !strings.Contains(h, "approved") || !strings.Contains(h, "Du har %{count} varer i handlekurven") || !strings.Contains(h, e.f.User.Email) {
		t.Errorf("newest history entry: %q", h)
	}
	if got := restFile(t, e)["checkout.items"]; got != "Du har %{count} varer i handlekurven" {
		t.Errorf("the REST file serves %q", got)
	}
	if got := e.row(t, "common", "checkout.items", "nb"); got.Status != model.StatusApproved {
		t.Errorf("status after approve: %s", got.Status)
	}

	// Live: a change made elsewhere shows up; a row being typed in keeps the typed text.
	help := rowID(t, e, "checkout.help")
	do(t, ctx, "typing in another row", chromedp.Focus(chromedp.CSS(`#value-`+help)), chromedp.KeyEvent(kb.End), chromedp.SendKeys(chromedp.CSS(`#value-`+help), " (typed)"))
	agent := model.WithPrincipal(t.Context(), model.Principal{Kind: model.KindSystem, Agent: "ai:other-model"})
	for k, v := range map[string]string{"checkout.pay": "Betal <strong>med en gang</strong>", "checkout.help": "Spør {name}"} {
		if _, err := e.cat.UpdateTranslation(agent, tools.UpdateTranslationIn{RowRef: e.ref("common", k, "nb"), Value: v}); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, ctx, "the change made elsewhere shows", `document.querySelector('#value-`+pay+`').value === 'Betal <strong>med en gang</strong>'`)
	waitFor(t, ctx, "the row being typed in says it changed", `!document.querySelector('#row-`+help+` .conflict').hidden`)
	if typed := eval[string](t, ctx, `document.querySelector('#value-`+help+`').value`); typed != "Spør {name} om hjelp (typed)" {
		t.Errorf("the live update touched the text being typed: %q", typed)
	}
	// Saving it now is a clear conflict, never a silent overwrite.
	do(t, ctx, "saving by keyboard", key("s", chromedp.ModifierCtrl))
	waitFor(t, ctx, "the conflict shows", `!!document.querySelector('#row-`+help+` .conflict button')`)
	if c := text(t, ctx, `#row-`+help+` .conflict`); !strings.Contains(c, "changed by AI (other-model)") || !strings.Contains(c, "Spør {name}") {
		t.Errorf("conflict says %q", c)
	}
	if got := e.row(t, "common", "checkout.help", "nb"); got.Value != "Spør {name}" {
		t.Errorf("the conflicting save overwrote: %q", got.Value)
	}

	// The Connect page.
	do(t, ctx, "opening Connect", chromedp.Navigate(base+"/app/p/"+e.f.Project.ID+"/connect"), chromedp.WaitVisible(chromedp.CSS(`#keys`)))
	if p := eval[[]string](t, ctx, a11yProblems); len(p) > 0 {
		t.Errorf("connect page: %v", p)
	}
	if missed := tabWalk(t, ctx, 120); len(missed) > 0 {
		t.Errorf("Tab never reached on the connect page: %v", missed)
	}

	// A webhook added on the page gets an approval made afterwards; its outcome is shown.
	recv := newReceiver(t, http.StatusNoContent)
	do(t, ctx, "adding a webhook",
		chromedp.SendKeys(chromedp.CSS(`#hook-url`), recv.URL+"/hooks"),
		chromedp.Submit(chromedp.CSS(`#hook-url`)),
		chromedp.WaitVisible(chromedp.CSS(`#secret-value`)))
	if s := eval[string](t, ctx, `document.querySelector('#secret-value').value`); !strings.HasPrefix(s, tools.WebhookSecretPrefix) {
		t.Errorf("the webhook secret shown is %q", s)
	}
	if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref("common", "checkout.title", "nb"), Value: "Handlekurven din", Status: model.StatusApproved}); err != nil {
		t.Fatal(err)
	}
	e.deliver(t)
	if recv.posts.Load() == 0 {
		t.Fatal("the receiver got no delivery")
	}
	do(t, ctx, "reopening Connect", chromedp.Navigate(base+"/app/p/"+e.f.Project.ID+"/connect#webhooks"), chromedp.WaitVisible(chromedp.CSS(`#webhooks tr.webhook`)))
	if o := text(t, ctx, `#webhooks tr.webhook td.outcome`); !strings.Contains(o, "delivered, HTTP 204") {
		t.Errorf("the webhook's last outcome says %q", o)
	}
	do(t, ctx, "opening the deliveries by keyboard", chromedp.Focus(chromedp.CSS(`details.deliveries summary`)), chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`details.deliveries tr.delivery`)))
	if d := text(t, ctx, `details.deliveries tr.delivery`); !strings.Contains(d, "translation.approved") || !strings.Contains(d, "checkout.title") || !strings.Contains(d, "delivered") || !strings.Contains(d, "204") {
		t.Errorf("the delivery row says %q", d)
	}
	if p := eval[[]string](t, ctx, a11yProblems); len(p) > 0 {
		t.Errorf("connect page with a webhook: %v", p)
	}
	shot(t, ctx, dir, "connect.png")

	// 200% zoom: a 1280-pixel window at scale 2 is 640 CSS pixels wide.
	do(t, ctx, "zooming to 200%", chromedp.EmulateViewport(640, 900, chromedp.EmulateScale(2)), chromedp.Navigate(review), chromedp.WaitVisible(chromedp.CSS(`#rows`)))
	if eval[bool](t, ctx, `document.documentElement.scrollWidth > document.documentElement.clientWidth + 1`) {
		t.Error("at 200% zoom the review page scrolls sideways")
	}
	if dir != "" {
		t.Logf("screenshots in %s", dir)
	}
}

func rowID(t *testing.T, e *env, key string) string {
	t.Helper()
	page, err := e.cat.ReviewQueue(e.sys(t), tools.ReviewIn{ProjectID: e.f.Project.ID, Language: "nb", Text: key})
	if err != nil || len(page.Rows) == 0 {
		t.Fatalf("finding %s: %v", key, err)
	}
	return strconv.FormatInt(page.Rows[0].KeyID, 10)
}

// restFile is what a build tool fetches: spec endpoint 1 with the read/write key.
func restFile(t *testing.T, e *env) map[string]string {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, e.srv.URL+"/api/"+e.f.Project.ID+"/latest/nb/common", nil)
	req.Header.Set("Authorization", "Token token="+e.f.RW)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	out := map[string]string{}
	if err := jsonUnmarshal(b, &out); err != nil {
		t.Fatalf("the REST file: %v: %s", err, b)
	}
	return out
}
