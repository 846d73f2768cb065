package public_test

import (
	"fmt"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

func TestResolve(t *testing.T) {
	t.Parallel()
	forEachDialect(t, nil, func(t *testing.T, e *env) {
		tok := e.f.Workspace.PublicToken
		body := func(host string) map[string]any {
			return map[string]any{"token": tok, "host": host, "page_lang": "de-DE", "languages": []string{"en-US", "fr", "zh-TW", "br", "xx-!!"}}
		}
		e.want(t, e.call(t, "POST", "/api/embed/resolve", body("www.example.test"), nil), 403) // nothing authorized yet
		e.authorize(t, tools.SetWorkspaceIn{})
		for _, c := range []struct {
			name   string
			body   any
			status int
			code   string
		}{
			{"unknown token", map[string]any{"token": "pub_nope", "host": "www.example.test"}, 404, "not_found"},
			{"no token", map[string]any{"host": "www.example.test"}, 404, "not_found"},
			{"not JSON", "{", 400, "invalid"},
			{"address", body("10.0.0.1"), 422, "unprocessable"},
			{"path", body("example.test/x"), 422, "unprocessable"},
			{"empty host", body(""), 422, "unprocessable"},
			{"unauthorized host", body("evil.test"), 403, "forbidden"},
			{"bare parent of a wildcard", body("test"), 403, "forbidden"},
		} {
			r := e.call(t, "POST", "/api/embed/resolve", c.body, nil)
			e.want(t, r, c.status)
			var eb struct{ Error string }
			r.json(t, &eb)
			if eb.Error != c.code {
				t.Errorf("%s: error %q, want %q", c.name, eb.Error, c.code)
			}
		}

		// The browser's tags are seeded plain: en-US is en, de-DE de, zh-TW keeps its
		// region (not zh's likely one), br is a language like any other, xx-!! no tag.
		r := e.call(t, "POST", "/api/embed/resolve", body("WWW.Example.test"), nil)
		e.want(t, r, 200)
		var out struct {
			ProjectID string `json:"project_id"`
		}
		r.json(t, &out)
		v, err := e.cat.ShowProject(sys(t), out.ProjectID)
		if err != nil {
			t.Fatal(err)
		}
		if v.IntegrationType != "embed" || v.SourceLanguage != "de" || !slices.Equal(v.EnabledLanguages, []string{"de", "en", "fr", "zh-TW", "br"}) ||
			!slices.Equal(v.Settings.Hosts, []string{"www.example.test"}) ||
			!slices.Equal(v.Settings.AllowedOrigins, []string{"https://www.example.test", "http://www.example.test"}) {
			t.Fatalf("new project %+v", v)
		}
		again := e.call(t, "POST", "/api/embed/resolve", body("www.example.test"), nil)
		e.want(t, again, 200)
		if !strings.Contains(string(again.body), out.ProjectID) {
			t.Fatalf("second resolve %s, want %s", again.body, out.ProjectID)
		}

		// The host limit counts hosts bound in the workspace.
		e.authorize(t, tools.SetWorkspaceIn{HostLimit: ptr(1)})
		e.want(t, e.call(t, "POST", "/api/embed/resolve", body("shop.example.test"), nil), 402)
		e.want(t, e.call(t, "POST", "/api/embed/resolve", body("www.example.test"), nil), 200)

		// A host bound in another workspace is not this account's.
		if _, err := e.cat.SetProject(sys(t), e.f.Other.ID, tools.SetProjectIn{Hosts: &[]string{"rival.example.test"}}); err != nil {
			t.Fatal(err)
		}
		e.authorize(t, tools.SetWorkspaceIn{HostLimit: ptr(0)})
		e.want(t, e.call(t, "POST", "/api/embed/resolve", body("rival.example.test"), nil), 403)

		// The emergency switch.
		e.authorize(t, tools.SetWorkspaceIn{Embed: ptr(false)})
		off := e.call(t, "POST", "/api/embed/resolve", body("www.example.test"), nil)
		e.want(t, off, 503)
		if off.header.Get("Retry-After") == "" {
			t.Error("503 without Retry-After")
		}
		e.authorize(t, tools.SetWorkspaceIn{Embed: ptr(true)})
		e.want(t, e.call(t, "POST", "/api/embed/resolve", body("www.example.test"), nil), 200)
	})
}

func TestHarvest(t *testing.T) {
	t.Parallel()
	forEachDialect(t, nil, func(t *testing.T, e *env) {
		id := e.site(t, "www.example.test")
		harvest := func(project, origin string, strs any) {
			t.Helper()
			h := map[string]string{"Content-Type": "text/plain"}
			if origin != "" {
				h["Origin"] = origin
			}
			r := e.call(t, "POST", "/api/embed/"+project+"/harvest", map[string]any{"strings": strs}, h)
			e.want(t, r, 204)
			if len(r.body) != 0 {
				t.Fatalf("harvest answered a body: %s", r.body)
			}
		}
		long := strings.Repeat("é", 5000)
		harvest(id, "https://www.example.test", []string{"Welcome home", "  Buy now  ", "A", "42", "— !", long, long + "x",
			`<a href="javascript:alert(1)">x</a>`, "Welcome home"})
		got := e.page(t, id, "en", "page")
		want := map[string]string{"Welcome home": "Welcome home", "Buy now": "Buy now", long: long}
		if len(got) != len(want) {
			t.Fatalf("stored %d strings %v, want %d", len(got), keys(got), len(want))
		}
		for k := range want {
			if got[k] != k {
				t.Fatalf("missing %q in %v", k, keys(got))
			}
		}

		// Silent refusals: each answers 204 and stores nothing.
		harvest(id, "https://evil.test", []string{"From elsewhere"})
		harvest(id, "https://www.example.test:8443", []string{"Other port is the same origin entry"})
		harvest(e.f.Project.ID, "", []string{"An api project"})
		harvest("00000000-0000-0000-0000-000000000000", "", []string{"No such project"})
		harvest("not-a-uuid", "", []string{"Not an id"})
		many := make([]string, 51)
		for i := range many {
			many[i] = fmt.Sprintf("String number %d", i)
		}
		harvest(id, "", many)
		e.want(t, e.call(t, "POST", "/api/embed/"+id+"/harvest", "not json", nil), 204)
		e.authorize(t, tools.SetWorkspaceIn{Embed: ptr(false)})
		harvest(id, "", []string{"While switched off"})
		e.authorize(t, tools.SetWorkspaceIn{Embed: ptr(true)})

		got = e.page(t, id, "en", "page")
		if _, ok := got["Other port is the same origin entry"]; !ok {
			t.Error("an allowed origin entry without a port refused another port")
		}
		delete(got, "Other port is the same origin entry")
		if len(got) != 3 {
			t.Fatalf("silent refusals stored something: %v", keys(got))
		}
		if m := e.page(t, e.f.Project.ID, "en", "page"); len(m) != 0 {
			t.Fatalf("an api project took harvested strings: %v", m)
		}
		harvest(id, "", many[:50])
		if n := len(e.page(t, id, "en", "page")); n != 54 {
			t.Fatalf("after 50 strings: %d stored, want 54", n)
		}
	})
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestDictionary(t *testing.T) {
	t.Parallel()
	forEachDialect(t, nil, func(t *testing.T, e *env) {
		id := e.site(t, "www.example.test")
		e.want(t, e.call(t, "POST", "/api/embed/"+id+"/harvest", map[string]any{"strings": []string{"Hello", "Goodbye", "Cart"}}, nil), 204)
		e.translate(t, id, "Hello", "de", "Hallo", model.StatusApproved)
		e.translate(t, id, "Goodbye", "de", "Tschüss (Entwurf)", model.StatusNeedsReview)
		path := "/api/" + id + "/dictionary/de/page"
		dict := func(path string, h map[string]string) (map[string]string, *resp) {
			t.Helper()
			r := e.call(t, "GET", path, nil, h)
			e.want(t, r, 200)
			m := map[string]string{}
			r.json(t, &m)
			return m, r
		}
		m, r := dict(path, nil)
		if len(m) != 1 || m["Hello"] != "Hallo" {
			t.Fatalf("auto_apply off: %v, want approved only", m)
		}
		if r.header.Get("ETag") == "" || r.header.Get("Access-Control-Allow-Origin") != "*" {
			t.Fatalf("headers %v", r.header)
		}
		e.want(t, e.call(t, "GET", path, nil, map[string]string{"If-None-Match": r.header.Get("ETag")}), 304)

		e.set(t, id, tools.SetProjectIn{AutoApply: ptr(true)})
		m, r2 := dict(path, nil)
		if m["Goodbye"] != "Tschüss (Entwurf)" || len(m) != 2 {
			t.Fatalf("auto_apply on: %v", m)
		}
		if r2.header.Get("ETag") == r.header.Get("ETag") {
			t.Fatal("a settings write kept the ETag")
		}
		e.want(t, e.call(t, "GET", path, nil, map[string]string{"If-None-Match": r.header.Get("ETag")}), 200)

		// A correction: the old value becomes a prior while keep-site-up-to-date is on.
		e.translate(t, id, "Hello", "de", "Hallo!", model.StatusApproved)
		m, _ = dict(path, nil)
		if _, ok := m["Hallo"]; ok || m["Hello"] != "Hallo!" {
			t.Fatalf("keep off: %v", m)
		}
		prior, _ := dict(path+"?src=0", nil)
		if len(prior) != 0 {
			t.Fatalf("src=0 with keep off: %v", prior)
		}
		e.set(t, id, tools.SetProjectIn{KeepSiteUpToDate: ptr(true)})
		m, full := dict(path, nil)
		if m["Hallo"] != "Hallo!" || m["Hello"] != "Hallo!" {
			t.Fatalf("keep on: %v", m)
		}
		prior, pr := dict(path+"?src=0", nil)
		if len(prior) != 1 || prior["Hallo"] != "Hallo!" {
			t.Fatalf("src=0: %v", prior)
		}
		if pr.header.Get("ETag") == full.header.Get("ETag") {
			t.Fatal("the ETag does not vary with src")
		}
		e.want(t, e.call(t, "GET", path+"?src=0", nil, map[string]string{"If-None-Match": pr.header.Get("ETag")}), 304)
		e.want(t, e.call(t, "GET", path+"?src=0", nil, map[string]string{"If-None-Match": full.header.Get("ETag")}), 200)
		e.want(t, e.call(t, "GET", path+"?src=1", nil, nil), 400)

		// Regional fallback, gzip, and the guards.
		if m, _ := dict("/api/"+id+"/dictionary/de-AT/page", nil); m["Hello"] != "Hallo!" {
			t.Fatalf("de-AT: %v", m)
		}
		gz := e.call(t, "GET", path, nil, map[string]string{"Accept-Encoding": "gzip"})
		if gz.header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("no gzip: %v", gz.header)
		}
		if m, _ := dict(path, map[string]string{"Origin": "http://www.example.test:3000"}); m["Hello"] == "" {
			t.Fatal("allowed origin got an empty map")
		}
		for _, c := range []struct {
			path   string
			origin string
			status int
		}{
			{path, "https://evil.test", 403},
			{path, "null", 403},
			{"/api/" + id + "/dictionary/sv/page", "", 404},
			{"/api/" + id + "/dictionary/de/nope", "", 404},
			{"/api/" + id + "/dictionary/de/" + strings.Repeat("x", 300), "", 404},
			{"/api/00000000-0000-0000-0000-000000000000/dictionary/de/page", "", 404},
			{"/api/not-a-uuid/dictionary/de/page", "", 404},
		} {
			h := map[string]string{}
			if c.origin != "" {
				h["Origin"] = c.origin
			}
			if r := e.call(t, "GET", c.path, nil, h); r.status != c.status {
				t.Errorf("GET %s from %q: %d, want %d (%s)", c.path, c.origin, r.status, c.status, r.body)
			}
		}
		e.set(t, id, tools.SetProjectIn{AllowedOrigins: &[]string{"https://*.example.test"}})
		if r := e.call(t, "GET", path, nil, map[string]string{"Origin": "https://a.b.example.test"}); r.status != 200 {
			t.Fatalf("wildcard origin: %d", r.status)
		}
		if r := e.call(t, "GET", path, nil, map[string]string{"Origin": "https://example.test"}); r.status != 403 {
			t.Fatalf("wildcard matched its bare parent: %d", r.status)
		}

		// The emergency switch hides the project.
		e.authorize(t, tools.SetWorkspaceIn{Embed: ptr(false)})
		e.want(t, e.call(t, "GET", path, nil, nil), 404)
		e.authorize(t, tools.SetWorkspaceIn{Embed: ptr(true)})
		e.want(t, e.call(t, "GET", path, nil, nil), 200)

		// Reads count as visitor demand, shown before and after they are stored.
		st, err := e.cat.GetProjectStatus(sys(t), tools.ProjectStatusIn{ProjectArg: tools.ProjectArg{ProjectID: id}})
		if err != nil {
			t.Fatal(err)
		}
		before := st.Embed.VisitorDemand["de"]
		if before < 5 {
			t.Fatalf("demand %v", st.Embed.VisitorDemand)
		}
		if err := e.cat.EmbedMaintenance(sys(t)); err != nil {
			t.Fatal(err)
		}
		v, err := e.cat.ShowProject(sys(t), id)
		if err != nil {
			t.Fatal(err)
		}
		if v.Embed.VisitorDemand["de"] != before {
			t.Fatalf("stored demand %v, want de=%d", v.Embed.VisitorDemand, before)
		}
	})
}

func TestChanges(t *testing.T) {
	t.Parallel()
	forEachDialect(t, nil, func(t *testing.T, e *env) {
		id := e.site(t, "www.example.test")
		start := time.Now().UTC().Add(-time.Second)
		e.want(t, e.call(t, "POST", "/api/embed/"+id+"/harvest", map[string]any{"strings": []string{"Hello", "Goodbye"}}, nil), 204)
		e.translate(t, id, "Hello", "de", "Hallo", model.StatusApproved)
		e.translate(t, id, "Hello", "de", "Servus", model.StatusApproved)
		path := "/api/" + id + "/changes/de/page?since="
		r := e.call(t, "GET", path+start.Format(time.RFC3339Nano), nil, nil)
		e.want(t, r, 200)
		var out struct {
			Since      time.Time `json:"since"`
			ServerTime time.Time `json:"server_time"`
			Changes    []struct {
				Key     string   `json:"key"`
				Current string   `json:"current"`
				Priors  []string `json:"priors"`
			} `json:"changes"`
			Truncated bool `json:"truncated"`
		}
		r.json(t, &out)
		if len(out.Changes) != 1 || out.Changes[0].Key != "Hello" || out.Changes[0].Current != "Servus" ||
			!slices.Equal(out.Changes[0].Priors, []string{"Hallo"}) || out.Truncated || out.ServerTime.IsZero() {
			t.Fatalf("changes %s", r.body)
		}
		// A later change comes first, and a later since leaves the older one out.
		mid := time.Now().UTC()
		e.translate(t, id, "Goodbye", "de", "Tschüss", model.StatusApproved)
		keys := func(since time.Time) []string {
			t.Helper()
			r := e.call(t, "GET", path+since.Format(time.RFC3339Nano), nil, nil)
			e.want(t, r, 200)
			out.Changes = nil
			r.json(t, &out)
			var ks []string
			for _, c := range out.Changes {
				ks = append(ks, c.Key)
			}
			return ks
		}
		if got := keys(start); !slices.Equal(got, []string{"Goodbye", "Hello"}) {
			t.Errorf("since the start: %v, want Goodbye then Hello", got)
		}
		if got := keys(mid); !slices.Equal(got, []string{"Goodbye"}) {
			t.Errorf("since the middle: %v, want Goodbye", got)
		}
		future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		for _, c := range []struct {
			path   string
			status int
		}{
			{"/api/" + id + "/changes/de/page", 400},
			{path + "yesterday", 400},
			{path + future, 400},
			{path + time.Now().Add(-8*24*time.Hour).UTC().Format(time.RFC3339), 400},
			{"/api/" + id + "/changes/sv/page?since=" + start.Format(time.RFC3339), 404},
			{"/api/" + id + "/changes/de/other?since=" + start.Format(time.RFC3339), 404},
			{"/api/00000000-0000-0000-0000-000000000000/changes/de/page?since=" + start.Format(time.RFC3339), 404},
		} {
			if r := e.call(t, "GET", c.path, nil, nil); r.status != c.status {
				t.Errorf("GET %s: %d, want %d (%s)", c.path, r.status, c.status, r.body)
			}
		}
		e.want(t, e.call(t, "GET", path+start.Format(time.RFC3339Nano), nil, map[string]string{"Origin": "https://evil.test"}), 403)

		// More than 500 changed keys: the newest 500 and truncated.
		strs := map[string]string{}
		for i := range 501 {
			strs[fmt.Sprintf("Line %03d", i)] = fmt.Sprintf("Zeile %03d", i)
		}
		list := make([]string, 0, len(strs))
		for k := range strs {
			list = append(list, k)
		}
		if _, err := e.cat.RegisterPageStrings(sys(t), tools.PageStringsIn{ProjectID: id, Namespace: "page", SourceStrings: list}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.cat.Overwrite(sys(t), tools.OverwriteIn{NamespaceRef: tools.NamespaceRef{ProjectID: id, Language: "de", Namespace: "page"},
			Translations: strs}); err != nil {
			t.Fatal(err)
		}
		r = e.call(t, "GET", path+start.Format(time.RFC3339Nano), nil, nil)
		e.want(t, r, 200)
		r.json(t, &out)
		if len(out.Changes) != 500 || !out.Truncated {
			t.Fatalf("%d changes, truncated %v", len(out.Changes), out.Truncated)
		}
	})
}

func TestPingAndPublicInfo(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{now: time.Now()}
	forEachDialect(t, func() *envOptions { return &envOptions{cat: &tools.Options{Now: clock.Now}} }, func(t *testing.T, e *env) {
		id := e.site(t, "www.example.test")
		v, _ := e.cat.ShowProject(sys(t), id)
		if v.Embed.ScriptLive || v.Embed.LastPingAt != nil {
			t.Fatalf("live before a ping: %+v", v.Embed)
		}
		e.want(t, e.call(t, "POST", "/api/"+id+"/install_ping", nil, nil), 204)
		e.want(t, e.call(t, "POST", "/api/00000000-0000-0000-0000-000000000000/install_ping", nil, nil), 404)
		e.want(t, e.call(t, "POST", "/api/nope/install_ping", nil, nil), 404)
		st, err := e.cat.GetProjectStatus(sys(t), tools.ProjectStatusIn{ProjectArg: tools.ProjectArg{ProjectID: id}})
		if err != nil || !st.Embed.ScriptLive || st.Embed.LastPingAt == nil {
			t.Fatalf("after a ping: %+v, %v", st.Embed, err)
		}

		r := e.call(t, "GET", "/api/"+id+"/public_info", nil, nil)
		e.want(t, r, 200)
		var info struct {
			SourceLanguage   string   `json:"source_language"`
			EnabledLanguages []string `json:"enabled_languages"`
			ShowSwitcher     bool     `json:"show_switcher"`
			Capabilities     struct {
				Mode       string `json:"mode"`
				JITHarvest bool   `json:"jit_harvest"`
				AutoApply  bool   `json:"auto_apply"`
			} `json:"capabilities"`
			LanguageNames map[string]string `json:"language_names"`
		}
		r.json(t, &info)
		// The switcher names each language in itself, from CLDR, capitalized for a menu.
		if n := info.LanguageNames; n["en"] != "English" || n["de"] != "Deutsch" || n["fr"] != "Français" {
			t.Errorf("language names %v", n)
		}
		if info.SourceLanguage != "en" || !slices.Equal(info.EnabledLanguages, []string{"en", "de", "fr"}) || !info.ShowSwitcher ||
			info.Capabilities.Mode != "swap" || !info.Capabilities.JITHarvest || info.Capabilities.AutoApply {
			t.Fatalf("public info %s", r.body)
		}
		if cc := r.header.Get("Cache-Control"); cc != "public, max-age=300" {
			t.Fatalf("Cache-Control %q", cc)
		}
		e.want(t, e.call(t, "GET", "/api/"+id+"/public_info", nil, map[string]string{"If-None-Match": r.header.Get("ETag")}), 304)
		e.want(t, e.call(t, "GET", "/api/00000000-0000-0000-0000-000000000000/public_info", nil, nil), 404)
		e.set(t, id, tools.SetProjectIn{Mode: ptr("off")})
		if r := e.call(t, "GET", "/api/"+id+"/public_info", nil, nil); !strings.Contains(string(r.body), `"mode":"off"`) {
			t.Fatalf("after a settings change: %s", r.body)
		}
		e.authorize(t, tools.SetWorkspaceIn{Embed: ptr(false)})
		e.want(t, e.call(t, "GET", "/api/"+id+"/public_info", nil, nil), 404)
		e.want(t, e.call(t, "POST", "/api/"+id+"/install_ping", nil, nil), 404)
	})
	// Pings are removed after seven days by the maintenance job (one clock for both
	// dialects: moved only here, after both ran).
	t.Run("retention", func(t *testing.T) {
		e := newEnv(t, "sqlite", &envOptions{cat: &tools.Options{Now: clock.Now}})
		id := e.site(t, "www.example.test")
		e.want(t, e.call(t, "POST", "/api/"+id+"/install_ping", nil, nil), 204)
		later := &fakeClock{now: clock.Now().Add(tools.PingRetention + time.Minute)}
		cat2 := storagetest.Catalog(e.db, &tools.Options{Now: later.Now})
		if v, _ := cat2.ShowProject(sys(t), id); v.Embed.ScriptLive {
			t.Fatal("live eight days after the last ping")
		}
		if err := cat2.EmbedMaintenance(sys(t)); err != nil {
			t.Fatal(err)
		}
		if v, _ := e.cat.ShowProject(sys(t), id); v.Embed.LastPingAt != nil {
			t.Fatalf("the ping was kept: %+v", v.Embed)
		}
	})
}

type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time { return c.now }

func TestPerIPLimits(t *testing.T) {
	t.Parallel()
	limiter := tools.NewMemoryLimiter(nil, 50)
	opts := func() *envOptions {
		return &envOptions{trusted: []string{"127.0.0.1/32"}, cat: &tools.Options{Limiter: limiter,
			Budgets: map[string]int{tools.PublicDictionaryBudget.Name: 3, tools.PublicHarvestBudget.Name: 2, tools.PublicResolveBudget.Name: 2}}}
	}
	e := newEnv(t, "sqlite", opts())
	id := e.site(t, "www.example.test") // one resolve spent by 127.0.0.1
	from := func(ip string) map[string]string { return map[string]string{"X-Forwarded-For": ip} }
	path := "/api/" + id + "/dictionary/de/page"
	e.call(t, "POST", "/api/embed/"+id+"/harvest", map[string]any{"strings": []string{"Hello"}}, nil)
	for range 3 {
		e.want(t, e.call(t, "GET", path, nil, from("203.0.113.7")), 200)
	}
	r := e.call(t, "GET", path, nil, from("203.0.113.7"))
	e.want(t, r, 429)
	if r.header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
	e.want(t, e.call(t, "GET", path, nil, from("203.0.113.8")), 200)
	// One IPv6 subscriber's /64 is one client.
	for i := range 3 {
		e.want(t, e.call(t, "GET", path, nil, from(fmt.Sprintf("2001:db8:1:2::%x", i+1))), 200)
	}
	e.want(t, e.call(t, "GET", path, nil, from("2001:db8:1:2::ff")), 429)
	// Harvest's limit answers 429 too: it says nothing about the project.
	e.want(t, e.call(t, "POST", "/api/embed/"+id+"/harvest", `{"strings":["x"]}`, nil), 204)
	e.want(t, e.call(t, "POST", "/api/embed/"+id+"/harvest", `{"strings":["x"]}`, nil), 429)

	// A flood of addresses keeps the limiter within its bound.
	for i := range 300 {
		r := e.call(t, "GET", path, nil, from(fmt.Sprintf("198.51.%d.%d", i/250, i%250+1)))
		if r.status != 200 {
			t.Fatalf("address %d: %d", i, r.status)
		}
	}
	if n := limiter.Len(); n > 50 {
		t.Fatalf("limiter holds %d buckets, bound 50", n)
	}

	// Without trusted proxies X-Forwarded-For is ignored: the socket's address counts.
	e2 := newEnv(t, "sqlite", &envOptions{cat: &tools.Options{Budgets: map[string]int{tools.PublicDictionaryBudget.Name: 2}}})
	id2 := e2.site(t, "www.example.test")
	e2.call(t, "POST", "/api/embed/"+id2+"/harvest", map[string]any{"strings": []string{"Hello"}}, nil)
	p2 := "/api/" + id2 + "/dictionary/de/page"
	e2.want(t, e2.call(t, "GET", p2, nil, from("203.0.113.1")), 200)
	e2.want(t, e2.call(t, "GET", p2, nil, from("203.0.113.2")), 200)
	e2.want(t, e2.call(t, "GET", p2, nil, from("203.0.113.3")), 429)
}

func TestCORSAndScript(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite", nil)
	id := e.site(t, "www.example.test")
	pre := e.call(t, "OPTIONS", "/api/embed/"+id+"/harvest", nil, map[string]string{"Origin": "https://www.example.test",
		"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"})
	e.want(t, pre, 204)
	if pre.header.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(strings.ToLower(pre.header.Get("Access-Control-Allow-Headers")), "content-type") ||
		!strings.Contains(pre.header.Get("Access-Control-Allow-Methods"), "POST") {
		t.Fatalf("preflight headers %v", pre.header)
	}

	js := e.call(t, "GET", "/embed.js", nil, map[string]string{"Accept-Encoding": "gzip"})
	e.want(t, js, 200)
	if js.header.Get("Content-Encoding") != "gzip" || !strings.HasPrefix(js.header.Get("Content-Type"), "text/javascript") ||
		js.header.Get("ETag") == "" || !strings.Contains(js.header.Get("Cache-Control"), "max-age") {
		t.Fatalf("script headers %v", js.header)
	}
	if len(js.body) > 10*1024 {
		t.Fatalf("embed.js is %d bytes gzipped, budget 10 KB", len(js.body))
	}
	e.want(t, e.call(t, "GET", "/embed.js", nil, map[string]string{"If-None-Match": js.header.Get("ETag")}), http.StatusNotModified)
	// The edit code and the i18next post-processor are served alike (edit mode only), and
	// none of the three inserts HTML or evaluates text.
	for _, path := range []string{"/embed.js", "/embed-edit.js", "/incontext.js"} {
		gz := e.call(t, "GET", path, nil, map[string]string{"Accept-Encoding": "gzip"})
		e.want(t, gz, 200)
		if gz.header.Get("Content-Encoding") != "gzip" || !strings.HasPrefix(gz.header.Get("Content-Type"), "text/javascript") ||
			gz.header.Get("ETag") == "" || gz.header.Get("ETag") == js.header.Get("ETag") && path != "/embed.js" ||
			!strings.Contains(gz.header.Get("Cache-Control"), "max-age") || gz.header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s headers %v", path, gz.header)
		}
		e.want(t, e.call(t, "GET", path, nil, map[string]string{"If-None-Match": gz.header.Get("ETag")}), http.StatusNotModified)
		plain := e.call(t, "GET", path, nil, nil)
		for _, banned := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "eval(", "new Function", "document.write"} {
			if strings.Contains(string(plain.body), banned) {
				t.Errorf("%s uses %s", path, banned)
			}
		}
	}
}

// TestDictionaryPatchedAfterWrites: after writes to a few keys (a correction that makes a
// prior, a draft, a new approval, a new harvested key, a key hidden) the dictionary, patched from the keys
// written, serves each change at once and is the same bytes as one built whole.
func TestDictionaryPatchedAfterWrites(t *testing.T) {
	t.Parallel()
	forEachDialect(t, nil, func(t *testing.T, e *env) {
		id := e.site(t, "www.example.test")
		e.set(t, id, tools.SetProjectIn{KeepSiteUpToDate: ptr(true)})
		harvest := func(s ...string) {
			t.Helper()
			e.want(t, e.call(t, "POST", "/api/embed/"+id+"/harvest", map[string]any{"strings": s}, nil), 204)
		}
		harvest("Hello", "Goodbye", "Cart")
		e.translate(t, id, "Hello", "de", "Hallo", model.StatusApproved)
		read := func() (map[string]string, *resp) {
			t.Helper()
			r := e.call(t, "GET", "/api/"+id+"/dictionary/de/page", nil, nil)
			e.want(t, r, 200)
			m := map[string]string{}
			r.json(t, &m)
			return m, r
		}
		if m, _ := read(); m["Hello"] != "Hallo" || len(m) != 1 {
			t.Fatalf("first read: %v", m)
		}
		e.translate(t, id, "Hello", "de", "Hallo!", model.StatusApproved)
		e.translate(t, id, "Goodbye", "de", "Tschüss", model.StatusNeedsReview)
		e.translate(t, id, "Cart", "de", "Warenkorb", model.StatusApproved)
		if m, _ := read(); m["Hello"] != "Hallo!" || m["Hallo"] != "Hallo!" || m["Cart"] != "Warenkorb" || len(m) != 3 {
			t.Fatalf("after three writes: %v, want Hello and its prior Hallo to Hallo!, and Cart", m)
		}
		harvest("Checkout")
		e.translate(t, id, "Checkout", "de", "Kasse", model.StatusApproved)
		if m, _ := read(); m["Checkout"] != "Kasse" || len(m) != 4 {
			t.Fatalf("after a new key: %v", m)
		}
		// A full sync without Cart hides it: its entry goes.
		keep := true
		if _, err := e.cat.Sync(sys(t), tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: id, Language: "en", Namespace: "page"},
			Translations: map[string]string{"Hello": "Hello", "Goodbye": "Goodbye", "Checkout": "Checkout"}, PreserveSourceValues: &keep}); err != nil {
			t.Fatal(err)
		}
		m, patched := read()
		if _, ok := m["Cart"]; ok || len(m) != 3 {
			t.Fatalf("after hiding Cart: %v", m)
		}
		// A settings write rebuilds the file whole: the same bytes.
		e.set(t, id, tools.SetProjectIn{Title: ptr("Renamed")})
		if _, whole := read(); string(whole.body) != string(patched.body) || whole.header.Get("ETag") != patched.header.Get("ETag") {
			t.Errorf("patched %s, built whole %s", patched.body, whole.body)
		}
	})
}
