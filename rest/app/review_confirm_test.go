package app_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestApproveConfirmsStale: Approve on an approved row whose source changed since, with its
// text unchanged, confirms it (current and approved in one step, as an overwrite with the
// same value does), the flash says so, and the stale filter no longer shows it; Approve
// on a current approved row still changes nothing.
func TestApproveConfirmsStale(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "door", "Open the door", "save", "Save")
		for k, v := range map[string]string{"door": "Åpne døren", "save": "Lagre"} {
			if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref("common", k, "nb"), Value: v, Status: model.StatusApproved}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref("common", "door", "en"), Value: "Open the door!"}); err != nil {
			t.Fatal(err)
		}
		if got := e.row(t, "common", "door", "nb"); !got.Stale || got.Status != model.StatusApproved {
			t.Fatalf("before: door in nb is %+v, want approved and stale", got)
		}
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID + "/review/nb"
		v := versions(b.get(t, p+"?filter=stale").want(t, http.StatusOK).body)
		if _, ok := v["door"]; !ok || len(v) != 1 {
			t.Fatalf("the stale filter shows %v, want door", v)
		}
		res := b.post(t, p+"/save", url.Values{"ns": {"common"}, "key": {"door"}, "value": {"Åpne døren"}, "version": {v["door"]},
			"action": {"approve"}, "back": {p + "?filter=stale"}}, true).want(t, http.StatusSeeOther)
		loc, _ := url.Parse(res.header.Get("Location"))
		if done := loc.Query().Get("done"); !strings.Contains(done, "confirmed") || !strings.Contains(done, "current") {
			t.Errorf("the flash after approving the stale row says %q, want that it was confirmed and is current", done)
		}
		if got := e.row(t, "common", "door", "nb"); got.Stale || got.Status != model.StatusApproved || got.Value != "Åpne døren" {
			t.Errorf("after Approve: door in nb is %+v, want approved, current, text kept", got)
		}
		if v := versions(b.get(t, loc.String()).want(t, http.StatusOK).body); len(v) != 0 {
			t.Errorf("the stale filter after confirming shows %v, want nothing", v)
		}
		// A current approved row: Approve again is a plain no-op.
		v = versions(b.get(t, p).want(t, http.StatusOK).body)
		res = b.post(t, p+"/save", url.Values{"ns": {"common"}, "key": {"save"}, "value": {"Lagre"}, "version": {v["save"]}, "action": {"approve"}}, true).want(t, http.StatusSeeOther)
		loc, _ = url.Parse(res.header.Get("Location"))
		if done := loc.Query().Get("done"); strings.Contains(done, "confirmed") {
			t.Errorf("approving a current approved row says %q", done)
		}
		if got := versions(b.get(t, p).want(t, http.StatusOK).body)["save"]; got != v["save"] {
			t.Errorf("approving a current approved row unchanged wrote it (version %s to %s)", v["save"], got)
		}
	})
}

// TestBatchApproveConfirmsStale: approving selected rows together confirms the stale ones
// among them as Approve on one row does (an approved stale row is no longer "approved
// already", a stale draft becomes current as well as approved), and the message names them.
func TestBatchApproveConfirmsStale(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "door", "Open the door", "wall", "A wall", "save", "Save")
		for k, v := range map[string]string{"door": "Åpne døren", "save": "Lagre"} {
			if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref("common", k, "nb"), Value: v, Status: model.StatusApproved}); err != nil {
				t.Fatal(err)
			}
		}
		e.draft(t, "common", "wall", "nb", "En vegg")
		for k, v := range map[string]string{"door": "Open the door!", "wall": "A high wall"} {
			if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref("common", k, "en"), Value: v}); err != nil {
				t.Fatal(err)
			}
		}
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID + "/review/nb"
		v := versions(b.get(t, p).want(t, http.StatusOK).body)
		var sel []string
		for _, k := range []string{"door", "save", "wall"} {
			sel = append(sel, "common\t"+k+"\t"+v[k])
		}
		res := b.post(t, p+"/approve", url.Values{"sel": sel}, true).want(t, http.StatusSeeOther)
		loc, _ := url.Parse(res.header.Get("Location"))
		done := loc.Query().Get("done")
		if !strings.Contains(done, "Approved 2 rows") || !strings.Contains(done, "confirmed") || !strings.Contains(done, "door, wall") || !strings.Contains(done, "1 was approved already") {
			t.Errorf("the batch approval says %q, want 2 approved, door and wall confirmed, save approved already", done)
		}
		for _, k := range []string{"door", "wall"} {
			if got := e.row(t, "common", k, "nb"); got.Stale || got.Status != model.StatusApproved {
				t.Errorf("after the batch approval %s in nb is %+v, want approved and current", k, got)
			}
		}
		if v := versions(b.get(t, p+"?filter=stale").want(t, http.StatusOK).body); len(v) != 0 {
			t.Errorf("the stale filter after the batch approval shows %v, want nothing", v)
		}
	})
}
