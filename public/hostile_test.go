package public_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/model"
)

// rows is every translation row of project, read from the database.
func (e *env) rows(t *testing.T, project string) map[string]string {
	t.Helper()
	var rows []model.ProjectTranslation
	err := e.db.View(sys(t), func(tx model.Tx) (err error) {
		rows, err = tx.ProjectTranslations(sys(t), project, "")
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

// TestHostileValueGateHarvest: the value gate's hostile values through the no-token
// harvest (endpoint 13). It answers 204 whatever it got, so the proof is the rows read
// back: none of them is stored, not even as U+FFFD or as one of two duplicate keys. The
// resolve endpoint reads strictly too and says so.
func TestHostileValueGateHarvest(t *testing.T) {
	t.Parallel()
	forEachDialect(t, nil, func(t *testing.T, e *env) {
		id := e.site(t, "www.example.test")
		e.want(t, e.call(t, "POST", "/api/embed/"+id+"/harvest", `{"strings":["Welcome home"]}`, nil), 204)
		before := e.rows(t, id)
		if len(before) != 1 {
			t.Fatalf("the valid harvest stored %v", before)
		}
		bodies := []struct{ name, body string }{
			{"NUL", `{"strings":["Hello\u0000there"]}`},
			{"raw invalid UTF-8", "{\"strings\":[\"Hello \xff there\"]}"},
			{"lone high surrogate", `{"strings":["Hello \ud800 there"]}`},
			{"unpaired low surrogate", `{"strings":["Hello \udc00 there"]}`},
			{"reversed surrogate pair", `{"strings":["Hello \ude00\ud83d there"]}`},
			{"over-long", `{"strings":["` + strings.Repeat("x", 144014) + `"]}`},
			{"script URL", `{"strings":["javascript:alert(1)"]}`},
			{"script URL as entities", `{"strings":["&#106;avascript:alert(1)"]}`},
			{"duplicate key", `{"strings":["First spelling"],"strings":["Second spelling"]}`},
		}
		for _, b := range bodies {
			r := e.call(t, "POST", "/api/embed/"+id+"/harvest", b.body, map[string]string{"Content-Type": "text/plain"})
			if r.status != 204 || len(r.body) != 0 {
				t.Errorf("%s: %d %s, want 204 with no body", b.name, r.status, r.body)
			}
			if got := e.rows(t, id); !maps.Equal(got, before) {
				t.Errorf("%s stored something: %v", b.name, got)
			}
		}

		for _, body := range []string{
			`{"token":"x","token":"y","host":"www.example.test","page_lang":"en","languages":["de"]}`,
			`{"token":"x","host":"www.example.test\ud800","page_lang":"en","languages":["de"]}`,
		} {
			r := e.call(t, "POST", "/api/embed/resolve", body, nil)
			if r.status != 400 || !strings.Contains(string(r.body), `"error":"invalid"`) {
				t.Errorf("resolve %s: %d %s, want 400 invalid", body, r.status, r.body)
			}
		}
	})
}
