package app_test

import (
	"maps"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/model"
)

// The value gate at the editor (issue 15): the hostile values of the other doors' tests,
// as a browser's form carries them, and the strict JSON reading of the editor's JSON
// endpoint. Every refusal is in the error shape and the rows read back are unchanged.

func (e *env) rows(t *testing.T) map[string]string {
	t.Helper()
	var rows []model.ProjectTranslation
	err := e.db.View(e.sys(t), func(tx model.Tx) (err error) {
		rows, err = tx.ProjectTranslations(e.sys(t), e.f.Project.ID, "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range rows {
		out[r.Namespace+"/"+r.Key+"/"+r.Row.Language] = r.Row.Status + " " + r.Row.Value
	}
	return out
}

func TestHostileValueGateEditor(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "greeting", "Hello")
		e.draft(t, "common", "greeting", "nb", "Hei")
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID
		v := versions(b.get(t, p+"/review/nb").want(t, http.StatusOK).body)["greeting"]
		before := e.rows(t)

		values := []struct{ name, value, code string }{
			{"NUL", "a\x00b", model.CodeUnprocessable},
			{"invalid UTF-8", "a\xffb", model.CodeUnprocessable},
			{"surrogate as UTF-8 bytes", "a\xed\xa0\x80b", model.CodeUnprocessable},
			{"over-long", strings.Repeat("x", 144014), model.CodeUnprocessable},
			{"script URL", "javascript:alert(1)", model.CodeInvalidTranslation},
			{"script URL as entities", "&#106;avascript:alert(1)", model.CodeInvalidTranslation},
		}
		for _, c := range values {
			for _, action := range []string{"save", "approve"} {
				form := url.Values{"ns": {"common"}, "key": {"greeting"}, "value": {c.value}, "version": {v}, "action": {action}, "csrf": {b.csrf}}
				req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, e.srv.URL+p+"/review/nb/save", strings.NewReader(form.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.Header.Set("Accept", "application/json")
				res := b.do(t, req)
				want := http.StatusUnprocessableEntity
				if res.status != want || !strings.Contains(res.body, `"error":"`+c.code+`"`) {
					t.Errorf("%s %s: %d %.300s, want %d %s", action, c.name, res.status, res.body, want, c.code)
				}
				if got := e.rows(t); !maps.Equal(got, before) {
					t.Errorf("%s %s changed the rows: %v", action, c.name, got)
				}
			}
		}

		// The editor's JSON endpoint reads strictly: a duplicate key or a lone surrogate is
		// 400 invalid, not a guess at which value was meant.
		for _, body := range []string{
			`{"namespace_key":"common","translation_key":"greeting","value":"A","value":"B"}`,
			`{"namespace_key":"common","translation_key":"greeting","value":"\ud800"}`,
			`{"namespace_key":"common","translation_key":"greeting","value":"x\udc00"}`,
			"{\"namespace_key\":\"common\",\"translation_key\":\"greeting\",\"value\":\"a\xffb\"}",
		} {
			res := b.json(t, p+"/review/nb/check", body, true)
			if res.status != http.StatusBadRequest || !strings.Contains(res.body, `"error":"invalid"`) {
				t.Errorf("check %q: %d %.300s, want 400 invalid", body, res.status, res.body)
			}
		}
		res := b.json(t, p+"/review/nb/check", `{"namespace_key":"common","translation_key":"greeting","value":"Hei \ud83d\ude00"}`, true)
		if res.status != http.StatusOK {
			t.Errorf("check of a valid body: %d %.300s", res.status, res.body)
		}
	})
}
