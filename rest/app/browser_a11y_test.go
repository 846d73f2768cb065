package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/lokal-dev/lokal/tools"
)

// contrastProblems is a small axe-style check of the page as drawn: every visible text
// against the background it is drawn on (4.5:1, 3:1 when large), the edge of every text
// control against what surrounds it, and the focus ring of every control against the
// background around it (3:1, WCAG 2.2 AA: 1.4.3 and 1.4.11). Backgrounds are composed
// from the element's ancestors, translucent layers blended.
const contrastProblems = `(() => {
  const parse = (c) => { const m = /rgba?\(([^)]+)\)/.exec(c || ''); if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number); return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const blend = (t, u) => ({r: t.r * t.a + u.r * (1 - t.a), g: t.g * t.a + u.g * (1 - t.a), b: t.b * t.a + u.b * (1 - t.a), a: 1});
  const bg = (el) => { const layers = [];
    for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; } }
    let out = {r: 255, g: 255, b: 255, a: 1}; for (let i = layers.length - 1; i >= 0; i--) out = blend(layers[i], out); return out; };
  const visible = (el) => { const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !el.closest('[hidden]') && !(el.closest('details:not([open])') && !el.closest('summary')); };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '') + ' "' + (el.textContent || el.value || '').trim().slice(0, 25) + '"';
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), seen = new Set();
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!walker.currentNode.textContent.trim() || seen.has(el) || !visible(el) || el.closest('option, script, style')) continue;
    seen.add(el);
    const s = getComputedStyle(el), fg = parse(s.color); if (!fg || fg.a === 0) continue;
    const b = bg(el), r = ratio(blend(fg, b), b), size = parseFloat(s.fontSize), bold = parseInt(s.fontWeight, 10) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (r < need) out.push('text ' + name(el) + ' ' + r.toFixed(2) + ':1');
  }
  for (const el of document.querySelectorAll('input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=file]), select, textarea')) {
    if (!visible(el)) continue;
    const s = getComputedStyle(el), c = parse(s.borderTopColor), b = bg(el.parentElement);
    if (parseFloat(s.borderTopWidth) === 0 || !c) { out.push('no edge: ' + name(el)); continue; }
    const r = ratio(blend(c, b), b); if (r < 3) out.push('edge ' + name(el) + ' ' + r.toFixed(2) + ':1');
  }
  for (const el of document.querySelectorAll('input:not([type=hidden]), select, textarea, button, a[href], summary')) {
    if (!visible(el)) continue;
    el.focus({preventScroll: true});
    if (document.activeElement !== el) continue;
    const s = getComputedStyle(el), c = parse(s.outlineColor), b = bg(el.parentElement);
    if (s.outlineStyle === 'none' || parseFloat(s.outlineWidth) < 2 || !c) { out.push('no focus ring: ' + name(el)); continue; }
    const r = ratio(blend(c, b), b); if (r < 3) out.push('focus ring ' + name(el) + ' ' + r.toFixed(2) + ':1');
  }
  document.activeElement?.blur();
  return [...new Set(out)];
})()`

// TestBrowserNarrowAndContrast: every page of the editor, at a phone's 390 px and at a
// desktop's width, scrolls no wider than the screen, keeps its text, control edges and
// focus rings within WCAG 2.2 AA contrast and labels every form control.
func TestBrowserNarrowAndContrast(t *testing.T) {
	t.Parallel()
	chromium(t)
	e := newEnv(t, "sqlite", nil)
	e.source(t, "common", "greeting", "Hello {name}", "checkout.items", "You have {count, plural, one {# item} other {# items}} in your cart",
		"a.very.long.key.that.has.no.breaks.anywhere_in_it_at_all_and_goes_on", "https://example.com/a/long/address/without/any/space/to/break/at")
	e.draft(t, "common", "greeting", "nb", "Hei {navn}")
	settingsPagesFixture(t, e) // the settings, terminology and checkups pages' lists
	if _, err := e.cat.AddComment(e.sys(t), tools.AddCommentIn{RowRef: e.ref("common", "greeting", "nb"), Body: "Sjekk navnet"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cat.AddWebhook(e.sys(t), e.f.Project.ID, "http://127.0.0.1:9/a/rather/long/path/for/a/webhook/receiver", nil); err != nil {
		t.Fatal(err)
	}
	inv, err := e.cat.Invite(e.sys(t), tools.InviteIn{ProjectID: e.f.Project.ID, Email: "new.translator@example.com", Role: "translator", Languages: []string{"nb"}})
	if err != nil {
		t.Fatal(err)
	}
	_, invite, _ := strings.Cut(inv.Link, "/app/invite/")
	e.member(t, "a.translator.with.a.long.address@example.com", "translator", "nb", "sv")
	dir := screenshotDir(t)
	ctx := newBrowser(t)
	base, p := e.srv.URL, "/app/p/"+e.f.Project.ID
	pages := []struct{ name, path, ready string }{
		{"sign-in", "/app/signin", `#email`},
		{"projects", "/app/", `ul.cards`},
		{"project", p + "/", `#import-form`},
		{"progress", p + "/progress?lang=nb", `#progress-ns svg.bar`},
		{"review", p + "/review/nb", `#rows article.row`},
		{"row", p + "/review/nb/row?ns=common&key=greeting", `.comment-form`},
		{"connect", p + "/connect", `#keys`},
		{"members", p + "/members", `form.member-set select`},
		{"invitation", "/app/invite/" + invite, `h1`},
		{"not found", "/app/nothing", `h1`},
		{"settings", p + "/settings", `#add-language`},
		{"terminology", p + "/terminology", `#glossary-form`},
		{"checkups", p + "/checkups", `#report`},
	}
	for _, width := range []int64{390, 1280} {
		do(t, ctx, "setting the viewport", chromedp.EmulateViewport(width, 844), focused)
		for i, pg := range pages {
			if i == 1 && width == 390 {
				do(t, ctx, "signing in",
					chromedp.SendKeys(chromedp.CSS(`#email`), e.f.User.Email),
					chromedp.SendKeys(chromedp.CSS(`#password`), password),
					chromedp.Submit(chromedp.CSS(`#password`)),
					chromedp.WaitVisible(chromedp.CSS(`ul.cards`)))
			}
			do(t, ctx, "opening "+pg.name, chromedp.Navigate(base+pg.path), chromedp.WaitVisible(chromedp.CSS(pg.ready)))
			if width == 390 {
				shot(t, ctx, dir, strings.ReplaceAll(pg.name, " ", "-")+"-390.png")
				if w := eval[int](t, ctx, `document.scrollingElement.scrollWidth`); w > 390 {
					wide := eval[[]string](t, ctx, `[...document.querySelectorAll('body *')].filter((el) => (el.getBoundingClientRect().right > 390.5 || el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible') && !el.closest('.skip')).slice(0, 8).map((el) => el.tagName + (el.id ? '#' + el.id : '') + '.' + el.className + ' ' + el.scrollWidth)`)
					t.Errorf("%s at 390 px scrolls to %d px; wider: %v", pg.name, w, wide)
				}
			}
			if probs := eval[[]string](t, ctx, contrastProblems); len(probs) > 0 {
				t.Errorf("%s at %d px, contrast: %s", pg.name, width, strings.Join(probs, "; "))
			}
			if probs := eval[[]string](t, ctx, a11yProblems); len(probs) > 0 {
				t.Errorf("%s at %d px: %v", pg.name, width, probs)
			}
		}
	}
}

// focused makes the headless page behave as the focused window, so that focus rings are
// drawn (and computed) as a person would see them.
var focused = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	_, err := cdp.Call(ctx, t, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
	return err
})
