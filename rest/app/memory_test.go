package app_test

import (
	"html"
	"net/http"
	"net/url"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestRowPageShortSource: the row page of a key whose source text has no word of three
// letters (what an anonymous Embed harvest can plant) answers 200 with the exact match's
// approved translation as a suggestion; it dropped the connection with a panic.
func TestRowPageShortSource(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		texts := map[string]string{"ok": "OK?", "go": "Go on", "bold": "<b>x</b>", "count": "{{n}}"}
		for k, v := range texts {
			e.source(t, "harvest", k, v, k+"_twin", v)
			if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref("harvest", k+"_twin", "nb"),
				Value: "NB " + k, Status: model.StatusApproved}); err != nil {
				t.Fatal(err)
			}
		}
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID
		for k := range texts {
			b.get(t, p+"/review/nb/row?ns=harvest&key="+url.QueryEscape(k)).want(t, http.StatusOK, html.EscapeString("NB "+k))
		}
	})
}
