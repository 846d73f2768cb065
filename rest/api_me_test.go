package rest_test

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// projectFields are the fields of the spec's Project object.
var projectFields = []string{"id", "title", "source_language", "enabled_languages", "editable_languages",
	"namespaces", "deploy_configured", "integration_type", "auto_translate_languages"}

// checkProject checks a Project object of the answer: every spec field with its type, and
// the values of p.
func checkProject(t *testing.T, raw json.RawMessage, p model.Project, namespaces []string) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("project is not an object: %s", raw)
	}
	for _, f := range projectFields {
		v, ok := m[f]
		if !ok {
			t.Errorf("project has no field %q: %s", f, raw)
			continue
		}
		switch f {
		case "id", "title", "source_language", "integration_type":
			if _, ok := v.(string); !ok {
				t.Errorf("project.%s is %T, want a string", f, v)
			}
		case "deploy_configured":
			if _, ok := v.(bool); !ok {
				t.Errorf("project.%s is %T, want a boolean", f, v)
			}
		default:
			list, ok := v.([]any)
			if !ok {
				t.Errorf("project.%s is %T, want an array", f, v)
			}
			for _, e := range list {
				if _, ok := e.(string); !ok {
					t.Errorf("project.%s has a %T, want strings", f, e)
				}
			}
		}
	}
	var got struct {
		ID               string   `json:"id"`
		Title            string   `json:"title"`
		SourceLanguage   string   `json:"source_language"`
		EnabledLanguages []string `json:"enabled_languages"`
		Namespaces       []string `json:"namespaces"`
		DeployConfigured bool     `json:"deploy_configured"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("decoding project: %v", err)
	}
	if got.ID != p.ID || got.Title != p.Title || got.SourceLanguage != p.SourceLanguage {
		t.Errorf("project %s %q %s, want %s %q %s", got.ID, got.Title, got.SourceLanguage, p.ID, p.Title, p.SourceLanguage)
	}
	wantKeys(t, "enabled_languages", got.EnabledLanguages, p.EnabledLanguages)
	wantKeys(t, "namespaces", got.Namespaces, namespaces)
	if got.DeployConfigured {
		t.Errorf("deploy_configured is true with no workflow configured")
	}
}

// TestAPIMe covers endpoint 9 for project and workspace tokens.
func TestAPIMe(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		seed(t, s)
		s.sync(t, "en", "app", map[string]string{"a": "A"})

		t.Run("project token", func(t *testing.T) {
			r := s.call(t, "GET", "/api/me", bearerAuth(s.pat), nil).wantStatus(t, http.StatusOK)
			var body map[string]json.RawMessage
			r.decode(t, &body)
			if !jsonEqual(t, body["user"], map[string]string{"id": s.user.ID, "email": s.user.Email}) {
				t.Errorf("user %s, want id %s and email %s only", body["user"], s.user.ID, s.user.Email)
			}
			if _, ok := body["project"]; !ok {
				t.Fatalf("no project: %s", r.body)
			}
			checkProject(t, body["project"], s.proj, []string{"app", "common"})
			var p struct {
				EnabledLanguages []string `json:"enabled_languages"`
			}
			json.Unmarshal(body["project"], &p)
			wantKeys(t, "enabled_languages", p.EnabledLanguages, []string{"en", "nb", "sv"})
			if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q", ct)
			}
		})

		t.Run("workspace token", func(t *testing.T) {
			r := s.call(t, "GET", "/api/me", bearerAuth(s.wsToken), nil).wantStatus(t, http.StatusOK)
			var body struct {
				User      json.RawMessage   `json:"user"`
				Workspace map[string]any    `json:"workspace"`
				Projects  []json.RawMessage `json:"projects"`
			}
			r.decode(t, &body)
			if !jsonEqual(t, body.User, map[string]string{"id": s.user.ID, "email": s.user.Email}) {
				t.Errorf("user %s", body.User)
			}
			if body.Workspace == nil || body.Workspace["id"] != s.ws.ID || body.Workspace["name"] != s.ws.Name {
				t.Errorf("workspace %v, want id %s and name %s", body.Workspace, s.ws.ID, s.ws.Name)
			}
			if len(body.Projects) != 2 {
				t.Fatalf("%d projects, want the 2 of the workspace: %s", len(body.Projects), r.body)
			}
			byID := map[string]json.RawMessage{}
			for _, raw := range body.Projects {
				var p struct {
					ID string `json:"id"`
				}
				json.Unmarshal(raw, &p)
				byID[p.ID] = raw
			}
			if _, ok := byID[s.other.ID]; ok {
				t.Errorf("another workspace's project is listed")
			}
			for _, c := range []struct {
				p   model.Project
				nss []string
			}{{s.proj, []string{"app", "common"}}, {s.sibling, []string{"common"}}} {
				raw, ok := byID[c.p.ID]
				if !ok {
					t.Errorf("project %s (%s) is not listed", c.p.ID, c.p.Title)
					continue
				}
				checkProject(t, raw, c.p, c.nss)
			}
		})

		t.Run("workspace token of a workspace with no project", func(t *testing.T) {
			ws, err := s.cat.CreateWorkspace(sys(t), tools.CreateWorkspaceIn{Name: "Empty"})
			if err != nil {
				t.Fatal(err)
			}
			u, err := s.cat.CreateUser(sys(t), tools.CreateUserIn{WorkspaceID: ws.ID, Email: "solo@empty.test"})
			if err != nil {
				t.Fatal(err)
			}
			tok, err := s.cat.CreateToken(sys(t), tools.CreateTokenIn{UserID: u.ID, WorkspaceID: ws.ID})
			if err != nil {
				t.Fatal(err)
			}
			r := s.call(t, "GET", "/api/me", bearerAuth(tok.Token), nil).wantStatus(t, http.StatusOK)
			var body map[string]json.RawMessage
			r.decode(t, &body)
			if string(body["projects"]) != "[]" {
				t.Errorf("projects is %s, want [] (every active project of the workspace: none)", orMissing(body["projects"]))
			}
		})

		t.Run("tokens stay private", func(t *testing.T) {
			for _, auth := range []string{bearerAuth(s.pat), bearerAuth(s.wsToken)} {
				r := s.call(t, "GET", "/api/me", auth, nil).wantStatus(t, http.StatusOK)
				for _, secret := range []string{s.pat, s.wsToken, s.rw, s.ro} {
					if strings.Contains(string(r.body), secret) {
						t.Errorf("/api/me shows a token: %s", r.body)
					}
				}
			}
		})
	})
}

func orMissing(raw json.RawMessage) string {
	if raw == nil {
		return "missing"
	}
	return string(raw)
}

// TestAPILanguages covers GET /api/languages/{project_id}: no token, the shape
// i18next-locize-backend reads, and translated.latest moving as values arrive.
func TestAPILanguages(t *testing.T) {
	t.Parallel()
	type lang struct {
		Name                string             `json:"name"`
		NativeName          string             `json:"nativeName"`
		IsReferenceLanguage bool               `json:"isReferenceLanguage"`
		Translated          map[string]float64 `json:"translated"`
	}
	get := func(t *testing.T, s *server, auth string) map[string]lang {
		t.Helper()
		r := s.call(t, "GET", "/api/languages/"+s.proj.ID, auth, nil).wantStatus(t, http.StatusOK)
		var raw map[string]map[string]json.RawMessage
		r.decode(t, &raw)
		codes := make([]string, 0, len(raw))
		for code, fields := range raw {
			codes = append(codes, code)
			for _, f := range []string{"name", "nativeName", "isReferenceLanguage", "translated"} {
				if _, ok := fields[f]; !ok {
					t.Errorf("%s has no %s: %s", code, f, r.body)
				}
			}
		}
		sort.Strings(codes)
		if !sameKeys(codes, []string{"en", "nb", "sv"}) {
			t.Errorf("languages %v, want en, nb and sv", codes)
		}
		var out map[string]lang
		r.decode(t, &out)
		for code, l := range out {
			if l.IsReferenceLanguage != (code == "en") {
				t.Errorf("%s: isReferenceLanguage %v", code, l.IsReferenceLanguage)
			}
			if l.Name == "" || l.NativeName == "" {
				t.Errorf("%s: name %q, nativeName %q", code, l.Name, l.NativeName)
			}
			latest, ok := l.Translated["latest"]
			if !ok || latest < 0 || latest > 1 {
				t.Errorf("%s: translated %v, want latest between 0 and 1", code, l.Translated)
			}
		}
		return out
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		abc(t, s) // a, b, c in English; a in Norwegian
		langs := get(t, s, "")
		if langs["en"].Name != "English" || langs["nb"].NativeName != "Norsk bokmål" {
			t.Errorf("names: en %+v, nb %+v", langs["en"], langs["nb"])
		}
		want := map[string]float64{"en": 1, "nb": 1.0 / 3, "sv": 0}
		for code, ratio := range want {
			if got := langs[code].Translated["latest"]; !near(got, ratio) {
				t.Errorf("%s translated.latest %v, want %v", code, got, ratio)
			}
		}

		s.overwrite(t, "nb", "ui", map[string]string{"b": "B-nb", "c": "C-nb"})
		s.overwrite(t, "sv", "ui", map[string]string{"a": "A-sv"})
		langs = get(t, s, tokenAuth(s.rw)) // a token sent anyway changes nothing
		for code, ratio := range map[string]float64{"en": 1, "nb": 1, "sv": 1.0 / 3} {
			if got := langs[code].Translated["latest"]; !near(got, ratio) {
				t.Errorf("after translating: %s translated.latest %v, want %v", code, got, ratio)
			}
		}

		for _, path := range []string{"/api/languages/00000000-0000-4000-8000-000000000000", "/api/languages/not-a-uuid"} {
			s.call(t, "GET", path, "", nil).wantStatus(t, http.StatusNotFound).wantError(t, "")
		}
	})
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
