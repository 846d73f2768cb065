package app_test

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	neturl "net/url"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
)

// TestCheckQACategories: QA while typing reports the checkup's structural categories,
// form by form, through the editor's check endpoint.
func TestCheckQACategories(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		if _, err := e.cat.EnableLanguage(e.sys(t), tools.EnableLanguageIn{ProjectArg: tools.ProjectArg{ProjectID: e.f.Project.ID}, Language: "pl"}); err != nil {
			t.Fatal(err)
		}
		e.source(t, "qa", "files", "{n, plural, one {# file} other {# files}}",
			"owner", "{n, plural, one {{name} has a file} other {# files}}",
			"hello", "Hello {name}",
			"tom", "Tom &amp; Jerry")
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID
		cases := []struct {
			name, key, value, kind string
			want                   int
			form                   string // of the first finding of kind, when set
		}{
			{"polish plural with only one and other", "files", "{n, plural, one {# plik} other {# pliki}}", "plural_categories", 1, ""},
			{"polish plural complete", "files", "{n, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}", "plural_categories", 0, ""},
			{"argument moved between forms", "owner", "{n, plural, one {# plik} few {{name} ma # pliki} many {# plików} other {# pliku}}", "placeholder_mismatch", 2, "n:one"}, // and n:few,
			{"unclosed brace", "hello", "Cześć {name", "icu_syntax", 1, ""},
			{"entity written as its character", "tom", "Tom & Jerry", "markup_mismatch", 0, ""},
		}
		for _, c := range cases {
			res := b.json(t, p+"/review/pl/check", `{"namespace_key":"qa","translation_key":"`+c.key+`","value":`+quote(c.value)+`}`, true).want(t, http.StatusOK)
			var out tools.CheckOut
			if err := json.Unmarshal([]byte(res.body), &out); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			var got []map[string]string
			for _, f := range out.Findings {
				if f.Kind == c.kind {
					got = append(got, f.Detail)
				}
			}
			if len(got) != c.want {
				t.Errorf("%s: %d %s findings, want %d: %+v", c.name, len(got), c.kind, c.want, out.Findings)
				continue
			}
			if c.form != "" {
				forms := map[string]bool{}
				for _, d := range got {
					forms[d["form"]] = true
				}
				if !forms[c.form] {
					t.Errorf("%s: no finding names the form %s: %+v", c.name, c.form, got)
				}
			}
		}
		// The highlighting reads the same tree: the plural's syntax and its argument are
		// marked, the entity is text.
		b.get(t, p+"/review/pl").want(t, http.StatusOK,
			`<mark class="ph" title="placeholder">{n, plural, one {</mark>`,
			`<mark class="ph" title="placeholder">{name}</mark>`,
			`Tom &amp;amp; Jerry`)
	})
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestQAPartialPage: before a checkup, a page of the QA filter over more rows than one page
// checks says it stopped and links on from the last row it checked; the pages that follow
// reach the row with a problem past them, and the last says nothing of stopping.
func TestQAPartialPage(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: 2,100 keys written")
	}
	forEachDialect(t, func(t *testing.T, e *env) {
		en, nb := map[string]string{}, map[string]string{}
		for i := range 2100 {
			k := fmt.Sprintf("k%04d", i)
			en[k], nb[k] = fmt.Sprintf("Hello {name}, line %d", i), fmt.Sprintf("Hei {name}, linje %d", i)
		}
		keep := false
		sync := func(lang string, tr map[string]string) {
			t.Helper()
			if _, err := e.cat.Sync(e.sys(t), tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: e.f.Project.ID, Language: lang, Namespace: "big"},
				Translations: tr, PreserveSourceValues: &keep}); err != nil {
				t.Fatal(err)
			}
		}
		sync("en", en)
		// The row with a problem is the last the QA filter checks (it follows key ids),
		// past what one page checks.
		var last string
		var lastID int64
		for after := ""; ; {
			p, err := e.cat.ReviewQueue(e.sys(t), tools.ReviewIn{ProjectID: e.f.Project.ID, Language: "nb", Namespace: "big", After: after, Limit: 200})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range p.Rows {
				if r.KeyID > lastID {
					last, lastID = r.Key, r.KeyID
				}
			}
			if after = p.Next; after == "" {
				break
			}
		}
		nb[last] = "Hei, linje"
		sync("nb", nb)
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		// Every page but the last stops at the bound with no row to show and links on.
		url := "/app/p/" + e.f.Project.ID + "/review/nb?filter=qa&ns=big"
		partial := 0
		for range 10 {
			p := b.get(t, url).want(t, http.StatusOK)
			got := versions(p.body)
			if !strings.Contains(p.body, `id="partial"`) {
				if len(got) != 1 || got[last] == "" {
					t.Errorf("the last page shows %v, want %s", got, last)
				}
				break
			}
			partial++
			if len(got) != 0 {
				t.Errorf("a partial page before the problem shows %v", got)
			}
			url = nextRowsLink(t, p.body, "Check the next rows")
		}
		if partial == 0 {
			t.Errorf("no page said it stopped before checking all 2,100 rows")
		}
	})
}

// nextRowsLink is the address of a partial page's link on (named text), which must go on
// after a key id.
func nextRowsLink(t *testing.T, body, text string) string {
	t.Helper()
	end := strings.Index(body, `" rel="next">`+text+`<`)
	start := strings.LastIndex(body[:max(end, 0)], `href="`)
	if end < 0 || start < 0 {
		t.Fatalf("the partial page links nowhere on: %.2000s", body)
	}
	link := html.UnescapeString(body[start+len(`href="`) : end])
	u, err := neturl.Parse(link)
	if err != nil {
		t.Fatalf("the next rows link %q: %v", link, err)
	}
	if u.Query().Get("after") == "" {
		t.Fatalf("the next rows link %q goes on after no row", link)
	}
	return link
}
