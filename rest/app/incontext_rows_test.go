package app_test

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestEditorRowsShowPageContext: a row whose key was seen on the site shows, on its own
// page, where (page title and URL, role, neighbouring text) with an "Open in context" link
// to the page in edit mode in a new window; a value that would overflow its box is flagged
// on the row in the list before approval, a short one is not, and approving it still works.
func TestEditorRowsShowPageContext(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "ui", "pay", "Pay {amount} now", "back", "Back")
		for k, v := range map[string]string{"pay": "Fullfør betalingen av {amount} nå", "back": "Tilbake"} {
			if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref("ui", k, "nb"), Value: v}); err != nil {
				t.Fatal(err)
			}
		}
		hosts := []string{"shop.example"}
		if _, err := e.cat.SetWorkspace(e.sys(t), e.f.Workspace.ID, tools.SetWorkspaceIn{AuthorizedHosts: &hosts}); err != nil {
			t.Fatal(err)
		}
		seen := func(key, role string, width, box float64, pos int) tools.ContextItem {
			return tools.ContextItem{Key: key, PageContext: tools.PageContext{URL: "https://shop.example/cart?x=1", Title: "Checkout", Role: role,
				Before: "Total: 12 kr", After: "Back to shop", Width: width, Box: box, Position: pos}}
		}
		if _, err := e.cat.RecordContext(e.sys(t), tools.RecordContextIn{ProjectID: e.f.Project.ID, Namespace: "ui",
			Items: []tools.ContextItem{seen("pay", "button", 70, 80, 1), seen("back", "link", 30, 100, 2)}}); err != nil {
			t.Fatal(err)
		}
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID + "/review/nb"
		list := b.get(t, p).want(t, http.StatusOK).body
		if n := strings.Count(list, `class="overflow-warning"`); n != 1 {
			t.Errorf("%d overflow warnings in the list, want 1 (pay)", n)
		}
		pay := list[strings.Index(list, `data-key="pay"`):]
		pay = pay[:strings.Index(pay, "</article>")]
		if !strings.Contains(pay, "May not fit") || !strings.Contains(pay, `value="approve"`) {
			t.Errorf("the pay row lacks the warning or Approve: %s", pay)
		}
		row := b.get(t, p+"/row?ns=ui&key=pay").want(t, http.StatusOK, "Where it is shown", "Checkout", "button",
			html.EscapeString("Total: 12 kr"), html.EscapeString("Back to shop"),
			`<a class="open-in-context" href="https://shop.example/cart#lokal-edit" target="_blank" rel="noopener">Open in context</a>`).body
		if strings.Contains(row, "x=1") {
			t.Errorf("the page's query was kept")
		}
		b.get(t, p+"/row?ns=ui&key=back").want(t, http.StatusOK, "Where it is shown", "link")
		if strings.Contains(b.get(t, p+"/row?ns=ui&key=back").body, `class="overflow-warning"`) {
			t.Errorf("a short value is flagged")
		}
		v := versions(list)
		b.post(t, p+"/save", url.Values{"ns": {"ui"}, "key": {"pay"}, "value": {"Fullfør betalingen av {amount} nå"}, "version": {v["pay"]},
			"action": {"approve"}}, true).want(t, http.StatusSeeOther)
		if got := e.row(t, "ui", "pay", "nb"); got.Status != model.StatusApproved {
			t.Errorf("the overflowing row after Approve: %s, want approved", got.Status)
		}
	})
}
