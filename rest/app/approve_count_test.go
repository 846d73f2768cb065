package app_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestBatchApproveCountsOnlyChangedRows: approving a selection that holds rows approved
// already says how many it approved and how many were approved before, instead of counting
// them all as approved now.
func TestBatchApproveCountsOnlyChangedRows(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "a", "Save", "b", "Open", "c", "Close")
		e.draft(t, "common", "a", "nb", "Lagre")
		e.draft(t, "common", "b", "nb", "Åpne")
		if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref("common", "c", "nb"), Value: "Lukk", Status: model.StatusApproved}); err != nil {
			t.Fatal(err)
		}
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID
		v := versions(b.get(t, p+"/review/nb?filter=needs_review").body)
		for k, ver := range versions(b.get(t, p+"/review/nb?filter=approved").body) {
			v[k] = ver
		}
		var sel []string
		for _, k := range []string{"a", "b", "c"} {
			if v[k] == "" {
				t.Fatalf("no version of %s on the review pages: %v", k, v)
			}
			sel = append(sel, "common\t"+k+"\t"+v[k])
		}
		res := b.post(t, p+"/review/nb/approve", url.Values{"sel": sel}, true).want(t, http.StatusSeeOther)
		loc, _ := url.Parse(res.header.Get("Location"))
		if got, want := loc.Query().Get("done"), "Approved 2 rows; 1 was approved already"; got != want {
			t.Errorf("the batch says %q, want %q", got, want)
		}
		for _, k := range []string{"a", "b", "c"} {
			if got := e.row(t, "common", k, "nb"); got.Status != model.StatusApproved {
				t.Errorf("%s is %s after the batch", k, got.Status)
			}
		}
	})
}
