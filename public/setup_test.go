package public_test

// Which projects the public routes serve: a new site's page namespace before its first
// harvest, projects the Embed is not set up for, the languages list under the emergency
// switch, and sites on loopback hosts with ports (local testing).

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestFirstVisitReadsAnEmptyPage: before anything is harvested the page namespace does not
// exist; its dictionary and changes answer empty (200) so that the script goes on to
// harvest, and fill in once strings and translations arrive. Other unknown namespaces are
// still 404.
func TestFirstVisitReadsAnEmptyPage(t *testing.T) {
	t.Parallel()
	forEachDialect(t, nil, func(t *testing.T, e *env) {
		id := e.site(t, "www.example.test")
		origin := map[string]string{"Origin": "https://www.example.test"}
		path := "/api/" + id + "/dictionary/de/page"
		first := e.call(t, "GET", path, nil, origin)
		e.want(t, first, 200)
		if strings.TrimSpace(string(first.body)) != "{}" || first.header.Get("ETag") == "" {
			t.Fatalf("first dictionary: %s %v", first.body, first.header)
		}
		if r := e.call(t, "GET", path+"?src=0", nil, origin); r.status != 200 || strings.TrimSpace(string(r.body)) != "{}" {
			t.Fatalf("first src=0 dictionary: %d %s", r.status, r.body)
		}
		since := time.Now().UTC().Add(-time.Minute).Format(time.RFC3339)
		ch := e.call(t, "GET", "/api/"+id+"/changes/de/page?since="+since, nil, origin)
		e.want(t, ch, 200)
		if !strings.Contains(string(ch.body), `"changes":[]`) {
			t.Fatalf("first changes: %s", ch.body)
		}
		for _, p := range []string{"/api/" + id + "/dictionary/de/marketing", "/api/" + id + "/changes/de/marketing?since=" + since} {
			r := e.call(t, "GET", p, nil, origin)
			e.want(t, r, 404)
			var eb struct{ Error, Message string }
			r.json(t, &eb)
			if eb.Error != "not_found" || !strings.Contains(eb.Message, "namespace") {
				t.Fatalf("GET %s: %s", p, r.body)
			}
		}
		if ns := e.namespaces(t, id); len(ns) != 0 {
			t.Fatalf("reading the dictionary made namespaces %v", ns)
		}

		// The first harvest creates the namespace; the cached empty map gives way to translations.
		e.want(t, e.call(t, "POST", "/api/embed/"+id+"/harvest", map[string]any{"strings": []string{"Hello", "Goodbye"}}, origin), 204)
		if ns := e.namespaces(t, id); !slices.Equal(ns, []string{"page"}) {
			t.Fatalf("after a harvest: namespaces %v", ns)
		}
		e.translate(t, id, "Hello", "de", "Hallo", model.StatusApproved)
		r := e.call(t, "GET", path, nil, origin)
		e.want(t, r, 200)
		var m map[string]string
		r.json(t, &m)
		if len(m) != 1 || m["Hello"] != "Hallo" {
			t.Fatalf("after a translation: %s", r.body)
		}
	})
}

func (e *env) namespaces(t *testing.T, id string) []string {
	t.Helper()
	v, err := e.cat.ShowProject(sys(t), id)
	if err != nil {
		t.Fatal(err)
	}
	return v.Namespaces
}

// TestPublicRoutesServeOnlyEmbedProjects: an api project with no host and no allowed
// origin is read with a token only; the dictionary, changes, public info and ping answer
// 404 for it, as for an unknown project, until the Embed is set up for it.
func TestPublicRoutesServeOnlyEmbedProjects(t *testing.T) {
	t.Parallel()
	forEachDialect(t, nil, func(t *testing.T, e *env) {
		id := e.f.Project.ID
		ref := tools.NamespaceRef{ProjectID: id, Language: "en", Namespace: "page"}
		if _, err := e.cat.Sync(sys(t), tools.SyncIn{NamespaceRef: ref, Translations: map[string]string{"greeting": "Hello"}}); err != nil {
			t.Fatal(err)
		}
		ref.Language = "nb"
		if _, err := e.cat.Overwrite(sys(t), tools.OverwriteIn{NamespaceRef: ref, Translations: map[string]string{"greeting": "Hei"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.cat.Overwrite(sys(t), tools.OverwriteIn{NamespaceRef: ref, Translations: map[string]string{"greeting": "Hallo"}}); err != nil {
			t.Fatal(err)
		}
		since := time.Now().UTC().Add(-time.Minute).Format(time.RFC3339)
		routes := []struct{ method, path string }{
			{"GET", "/api/" + id + "/dictionary/nb/page"},
			{"GET", "/api/" + id + "/dictionary/nb/page?src=0"},
			{"GET", "/api/" + id + "/changes/nb/page?since=" + since},
			{"GET", "/api/" + id + "/public_info"},
			{"POST", "/api/" + id + "/install_ping"},
		}
		closed := func(when string) {
			t.Helper()
			for _, rt := range routes {
				for _, h := range []map[string]string{nil, {"Origin": "https://anyone.test"}} {
					r := e.call(t, rt.method, rt.path, nil, h)
					if r.status != 404 || strings.Contains(string(r.body), "Hallo") || strings.Contains(string(r.body), "Hei") {
						t.Fatalf("%s: %s %s answered %d %s, want 404", when, rt.method, rt.path, r.status, r.body)
					}
					var eb struct{ Error string }
					r.json(t, &eb)
					if eb.Error != "not_found" {
						t.Fatalf("%s: %s %s: %s, want the error shape with not_found", when, rt.method, rt.path, r.body)
					}
				}
			}
		}
		closed("api project")
		// Endpoint 1 answers 401 for the same namespace without a token.
		e.want(t, e.call(t, "GET", "/api/"+id+"/latest/nb/page", nil, nil), http.StatusUnauthorized)

		// An allowed origin sets the Embed up: the dictionary serves it (and guards it).
		e.set(t, id, tools.SetProjectIn{AllowedOrigins: &[]string{"https://app.example.test"}})
		r := e.call(t, "GET", routes[0].path, nil, map[string]string{"Origin": "https://app.example.test"})
		e.want(t, r, 200)
		if !strings.Contains(string(r.body), `"Hello":"Hallo"`) {
			t.Fatalf("with an allowed origin: %s", r.body)
		}
		e.want(t, e.call(t, "GET", routes[0].path, nil, map[string]string{"Origin": "https://anyone.test"}), 403)
		// So does a bound host; taking both away closes it again.
		e.set(t, id, tools.SetProjectIn{AllowedOrigins: &[]string{}, Hosts: &[]string{"app.example.test"}})
		e.want(t, e.call(t, "GET", routes[2].path, nil, nil), 200)
		e.set(t, id, tools.SetProjectIn{Hosts: &[]string{}})
		closed("api project after its host went")
	})
}

// TestLanguagesFollowTheSwitch: GET /api/languages/{id} answers 404 for a project the
// Embed serves while the workspace's Embed is off, like the Embed's public routes; an
// application's project (read by i18next-locize-backend, which sends no token there) is
// not concerned by the Embed's switch.
func TestLanguagesFollowTheSwitch(t *testing.T) {
	t.Parallel()
	forEachDialect(t, nil, func(t *testing.T, e *env) {
		site := e.site(t, "www.example.test")
		api := e.f.Project.ID
		lang := func(id string, status int) {
			t.Helper()
			r := e.call(t, "GET", "/api/languages/"+id, nil, nil)
			e.want(t, r, status)
			if status == 404 {
				var eb struct{ Error string }
				r.json(t, &eb)
				if eb.Error != "not_found" || strings.Contains(string(r.body), "isReferenceLanguage") {
					t.Fatalf("languages while off: %s", r.body)
				}
			} else if !strings.Contains(string(r.body), `"isReferenceLanguage":true`) {
				t.Fatalf("languages: %s", r.body)
			}
		}
		lang(site, 200)
		lang(api, 200)
		e.authorize(t, tools.SetWorkspaceIn{Embed: ptr(false)})
		lang(site, 404)
		lang(api, 200)
		e.authorize(t, tools.SetWorkspaceIn{Embed: ptr(true)})
		lang(site, 200)
	})
}

// TestLoopbackSites: for local testing, localhost with a port and loopback addresses may be
// authorized; a page's port tells two local sites apart, and its origin must match the
// project's allowed origins port and all. A public name's port is dropped.
func TestLoopbackSites(t *testing.T) {
	t.Parallel()
	forEachDialect(t, nil, func(t *testing.T, e *env) {
		e.authorize(t, tools.SetWorkspaceIn{AuthorizedHosts: &[]string{"localhost:8000", "127.0.0.1", "[::1]:8000", "*.example.test"}})
		w, err := e.cat.ShowWorkspace(sys(t), e.f.Workspace.ID)
		if err != nil || !slices.Equal(w.AuthorizedHosts, []string{"localhost:8000", "127.0.0.1", "[::1]:8000", "*.example.test"}) {
			t.Fatalf("authorized hosts %v, %v", w.AuthorizedHosts, err)
		}
		for _, bad := range []string{"10.0.0.1", "192.168.1.2:8000", "example.test:443", "*.localhost:3000", "http://localhost:8000"} {
			_, err := e.cat.SetWorkspace(sys(t), e.f.Workspace.ID, tools.SetWorkspaceIn{AuthorizedHosts: &[]string{bad}})
			if model.ErrorCode(err) != model.CodeInvalid {
				t.Errorf("authorized host %q: %v, want invalid", bad, err)
			}
		}
		resolve := func(host string, status int) string {
			t.Helper()
			r := e.call(t, "POST", "/api/embed/resolve", map[string]any{"token": e.f.Workspace.PublicToken, "host": host, "page_lang": "en",
				"languages": []string{"nb"}}, nil)
			e.want(t, r, status)
			var out struct {
				ProjectID string `json:"project_id"`
			}
			if status == 200 {
				r.json(t, &out)
			}
			return out.ProjectID
		}
		local := resolve("localhost:8000", 200)
		v, err := e.cat.ShowProject(sys(t), local)
		if err != nil || !slices.Equal(v.Settings.Hosts, []string{"localhost:8000"}) ||
			!slices.Equal(v.Settings.AllowedOrigins, []string{"https://localhost:8000", "http://localhost:8000"}) {
			t.Fatalf("localhost:8000 project %+v, %v", v.Settings, err)
		}
		if again := resolve("LOCALHOST:8000", 200); again != local {
			t.Fatalf("second resolve %s, want %s", again, local)
		}
		resolve("localhost:3000", 403)
		resolve("localhost", 403)
		path := "/api/" + local + "/dictionary/nb/page"
		e.want(t, e.call(t, "GET", path, nil, map[string]string{"Origin": "http://localhost:8000"}), 200)
		e.want(t, e.call(t, "GET", path, nil, map[string]string{"Origin": "http://localhost:3000"}), 403)

		// A pattern without a port takes every port; each port is its own site.
		a, b := resolve("127.0.0.1:5173", 200), resolve("127.0.0.1:5174", 200)
		if a == b || a == "" {
			t.Fatalf("two ports, projects %s and %s", a, b)
		}
		e.want(t, e.call(t, "POST", "/api/embed/"+a+"/harvest", map[string]any{"strings": []string{"Local text"}},
			map[string]string{"Origin": "http://127.0.0.1:5173"}), 204)
		if m := e.page(t, a, "en", "page"); m["Local text"] != "Local text" {
			t.Fatalf("harvest from 127.0.0.1:5173: %v", m)
		}
		e.want(t, e.call(t, "POST", "/api/embed/"+b+"/harvest", map[string]any{"strings": []string{"Wrong port"}},
			map[string]string{"Origin": "http://127.0.0.1:5173"}), 204)
		if m := e.page(t, b, "en", "page"); len(m) != 0 {
			t.Fatalf("a harvest from another port was stored: %v", m)
		}
		// A loopback host bound without a port serves every port (as bound before pages
		// reported ports).
		e.set(t, e.f.Sibling.ID, tools.SetProjectIn{Hosts: &[]string{"localhost"}})
		if got := resolve("localhost:3000", 200); got != e.f.Sibling.ID {
			t.Fatalf("localhost:3000 resolved to %s, want the project bound to localhost", got)
		}
		if got := resolve("localhost:8000", 200); got != local {
			t.Fatalf("localhost:8000 resolved to %s, want its own project %s", got, local)
		}
		six := resolve("[::1]:8000", 200)
		e.want(t, e.call(t, "GET", "/api/"+six+"/dictionary/nb/page", nil, map[string]string{"Origin": "http://[::1]:8000"}), 200)

		// Not loopback: refused whatever the patterns say; a public name's port is dropped.
		resolve("10.0.0.1:8000", 422)
		resolve("[2001:db8::1]:8000", 422)
		www := resolve("www.example.test", 200)
		if got := resolve("www.example.test:8443", 200); got != www {
			t.Fatalf("www.example.test:8443 resolved to %s, want the project of www.example.test %s", got, www)
		}
	})
}
