package rest_test

import (
	"encoding/json"
	"fmt"
	"github.com/lokal-dev/lokal/tools/formats"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/leonelquinteros/gotext"
	"howett.net/plist"
)

// TestMCPListProjects: the workspace endpoint lists every project of the token's workspace
// and nothing of another; a project endpoint lists its one project.
func TestMCPListProjects(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		path    string // placeholders of expand
		auth    string
		args    map[string]any
		want    []string // placeholders of expand
		wantErr string
	}{
		{name: "workspace endpoint lists both projects of the workspace", path: "/api/mcp", auth: "Bearer {ws}", want: []string{"{project}", "{sibling}"}},
		{name: "another workspace's token lists its own project only", path: "/api/mcp", auth: "Bearer {other_ws}", want: []string{"{other}"}},
		{name: "workspace endpoint narrowed by project_id", path: "/api/mcp", auth: "Bearer {ws}", args: map[string]any{"project_id": "{sibling}"}, want: []string{"{sibling}"}},
		{name: "workspace endpoint, project_id of another workspace", path: "/api/mcp", auth: "Bearer {ws}", args: map[string]any{"project_id": "{other}"}, wantErr: "unauthorized"},
		{name: "project endpoint, read/write key", path: "/api/{project}/mcp", auth: "Token token={rw}", want: []string{"{project}"}},
		{name: "project endpoint, read-only key", path: "/api/{project}/mcp", auth: "Token token={ro}", want: []string{"{project}"}},
		{name: "project endpoint, personal token", path: "/api/{project}/mcp", auth: "Bearer {pat}", want: []string{"{project}"}},
		{name: "project endpoint, workspace token", path: "/api/{project}/mcp", auth: "Bearer {ws}", want: []string{"{project}"}},
		{name: "sibling's project endpoint, workspace token", path: "/api/{sibling}/mcp", auth: "Bearer {ws}", want: []string{"{sibling}"}},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		seed(t, s)
		titles := map[string]string{s.proj.ID: "Web app", s.sibling.ID: "Docs", s.other.ID: "Rival app"}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				m := s.mcpConnect(t, s.expand(tc.path), s.expand(tc.auth), mcpOpts{})
				args := map[string]any{}
				for k, v := range tc.args {
					args[k] = s.expand(v.(string))
				}
				if tc.wantErr != "" {
					mcpErr(t, m, "list_projects", args, tc.wantErr)
					return
				}
				out := mcpOK[mcpProjects](t, m, "list_projects", args)
				var ids, want []string
				for _, p := range out.Projects {
					ids = append(ids, p.ID)
					if p.Title != titles[p.ID] || p.SourceLanguage != "en" {
						t.Errorf("project %s: title %q, source %q; want %q, en", p.ID, p.Title, p.SourceLanguage, titles[p.ID])
					}
					if p.ID == s.proj.ID {
						if !slices.Contains(p.EnabledLanguages, "nb") || !slices.Contains(p.EnabledLanguages, "sv") {
							t.Errorf("enabled languages %v, want nb and sv among them", p.EnabledLanguages)
						}
						if !slices.Contains(p.Namespaces, "common") {
							t.Errorf("namespaces %v, want common among them", p.Namespaces)
						}
					}
				}
				for _, w := range tc.want {
					want = append(want, s.expand(w))
				}
				wantKeys(t, "project ids", ids, want)
			})
		}
	})
}

// TestMCPGetProjectStatus follows the per-language counts as strings are added, translated
// and their source changed.
func TestMCPGetProjectStatus(t *testing.T) {
	t.Parallel()
	type counts struct{ translated, missing, drifted int }
	steps := []struct {
		name  string
		tool  string
		args  map[string]any
		total int
		want  map[string]counts
		ns    []string // namespaces that must be listed
	}{
		{name: "seeded source only", total: 3, ns: []string{"common"},
			want: map[string]counts{"en": {3, 0, 0}, "nb": {0, 3, 0}, "sv": {0, 3, 0}}},
		{name: "a draft counts as translated", tool: "update_translation",
			args:  map[string]any{"namespace_key": "common", "translation_key": "a", "language": "nb", "value": "A nb"},
			total: 3, want: map[string]counts{"en": {3, 0, 0}, "nb": {1, 2, 0}, "sv": {0, 3, 0}}},
		{name: "an approved value counts as translated", tool: "update_translation",
			args:  map[string]any{"namespace_key": "common", "translation_key": "b", "language": "nb", "value": "B nb", "status": "approved"},
			total: 3, want: map[string]counts{"en": {3, 0, 0}, "nb": {2, 1, 0}, "sv": {0, 3, 0}}},
		{name: "a changed source drifts its translations", tool: "update_translation",
			args:  map[string]any{"namespace_key": "common", "translation_key": "a", "language": "en", "value": "A, changed", "status": "approved"},
			total: 3, want: map[string]counts{"en": {3, 0, 0}, "nb": {2, 1, 1}, "sv": {0, 3, 0}}},
		{name: "retranslating clears the drift", tool: "update_translation",
			args:  map[string]any{"namespace_key": "common", "translation_key": "a", "language": "nb", "value": "A nb, endret"},
			total: 3, want: map[string]counts{"en": {3, 0, 0}, "nb": {2, 1, 0}, "sv": {0, 3, 0}}},
		{name: "a new key is missing in every target", tool: "add_key",
			args:  map[string]any{"namespace_key": "common", "translation_key": "d", "source_value": "D"},
			total: 4, want: map[string]counts{"en": {4, 0, 0}, "nb": {2, 2, 0}, "sv": {0, 4, 0}}},
		{name: "registered strings in a new namespace", tool: "register_source_strings",
			args:  map[string]any{"namespace_key": "extra", "strings": map[string]string{"x": "X", "y": "Y"}},
			total: 6, ns: []string{"common", "extra"}, want: map[string]counts{"en": {6, 0, 0}, "nb": {2, 4, 0}, "sv": {0, 6, 0}}},
		{name: "a Swedish value", tool: "update_translation",
			args:  map[string]any{"namespace_key": "extra", "translation_key": "x", "language": "sv", "value": "X sv"},
			total: 6, ns: []string{"common", "extra"}, want: map[string]counts{"en": {6, 0, 0}, "nb": {2, 4, 0}, "sv": {1, 5, 0}}},
		{name: "an enabled language starts with everything missing", tool: "enable_language",
			args:  map[string]any{"language": "de"},
			total: 6, want: map[string]counts{"en": {6, 0, 0}, "nb": {2, 4, 0}, "sv": {1, 5, 0}, "de": {0, 6, 0}}},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		s.mcpSeed(t, "common", map[string]string{"a": "A", "b": "B", "c": "C"}, nil)
		m := s.mcpProject(t, bearerAuth(s.pat))
		ws := s.mcpWorkspace(t)
		for _, step := range steps {
			t.Run(step.name, func(t *testing.T) {
				if step.tool != "" {
					mcpOK[map[string]any](t, m, step.tool, step.args)
				}
				st := m.status(t)
				if st.ProjectID != s.proj.ID || st.SourceLanguage != "en" || st.Title != "Web app" {
					t.Errorf("project %s, source %s, title %q", st.ProjectID, st.SourceLanguage, st.Title)
				}
				for lang, c := range step.want {
					if !slices.Contains(st.EnabledLanguages, lang) && lang != st.SourceLanguage {
						t.Errorf("enabled languages %v lack %s", st.EnabledLanguages, lang)
					}
					got := st.lang(t, lang)
					want := mcpLanguageStats{Language: lang, Total: step.total, Translated: c.translated, Missing: c.missing, Drifted: c.drifted}
					if got != want {
						t.Errorf("%s counts %+v, want %+v", lang, got, want)
					}
				}
				for _, ns := range step.ns {
					if !slices.Contains(st.Namespaces, ns) {
						t.Errorf("namespaces %v lack %s", st.Namespaces, ns)
					}
				}
				// The workspace endpoint answers the same for project_id.
				wst := mcpOK[mcpStatus](t, ws, "get_project_status", map[string]any{"project_id": s.proj.ID})
				if !jsonEqual(t, wst, st) {
					t.Errorf("workspace endpoint answers %+v, project endpoint %+v", wst, st)
				}
			})
		}
		t.Run("errors", func(t *testing.T) {
			for _, tc := range []struct {
				name string
				args map[string]any
				code string
			}{
				{name: "workspace endpoint without project_id", args: map[string]any{}, code: "invalid"},
				{name: "workspace endpoint, another workspace's project", args: map[string]any{"project_id": s.other.ID}, code: "unauthorized"},
				{name: "workspace endpoint, unknown project", args: map[string]any{"project_id": uuid.NewString()}, code: "not_found"},
			} {
				t.Run(tc.name, func(t *testing.T) { mcpErr(t, ws, "get_project_status", tc.args, tc.code) })
			}
			t.Run("workspace endpoint, the sibling project", func(t *testing.T) {
				st := mcpOK[mcpStatus](t, ws, "get_project_status", map[string]any{"project_id": s.sibling.ID})
				if st.ProjectID != s.sibling.ID || st.Title != "Docs" {
					t.Errorf("got project %s %q, want the sibling", st.ProjectID, st.Title)
				}
			})
		})
	})
}

// TestMCPGetEmbedSnippet: one script tag carrying the workspace's public token.
func TestMCPGetEmbedSnippet(t *testing.T) {
	t.Parallel()
	type snippet struct {
		Snippet     string `json:"snippet"`
		PublicToken string `json:"public_token"`
	}
	cases := []struct {
		name      string
		path      string
		auth      string
		args      map[string]any
		otherWork bool // the token is the other workspace's
	}{
		{name: "project endpoint, read-only key", path: "/api/{project}/mcp", auth: "Token token={ro}"},
		{name: "project endpoint, personal token", path: "/api/{project}/mcp", auth: "Bearer {pat}"},
		{name: "workspace endpoint, project_id", path: "/api/mcp", auth: "Bearer {ws}", args: map[string]any{"project_id": "{project}"}},
		{name: "workspace endpoint, the sibling shares the workspace token", path: "/api/mcp", auth: "Bearer {ws}", args: map[string]any{"project_id": "{sibling}"}},
		{name: "another workspace has its own token", path: "/api/{other}/mcp", auth: "Token token={other_rw}", otherWork: true},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				m := s.mcpConnect(t, s.expand(tc.path), s.expand(tc.auth), mcpOpts{})
				args := map[string]any{}
				for k, v := range tc.args {
					args[k] = s.expand(v.(string))
				}
				res := m.call(t, "get_embed_snippet", args)
				out := mcpOK[snippet](t, m, "get_embed_snippet", args)
				token, notToken := s.ws.PublicToken, s.otherWS.PublicToken
				if tc.otherWork {
					token, notToken = notToken, token
				}
				if token == "" {
					t.Fatal("the fixture workspace has no public token")
				}
				if n := strings.Count(strings.ToLower(out.Snippet), "<script"); n != 1 {
					t.Errorf("snippet has %d <script tags, want 1: %s", n, out.Snippet)
				}
				if !strings.HasPrefix(strings.TrimSpace(out.Snippet), "<script") || !strings.HasSuffix(strings.TrimSpace(out.Snippet), "</script>") {
					t.Errorf("snippet is not one script element: %s", out.Snippet)
				}
				if !strings.Contains(out.Snippet, token) || out.PublicToken != token {
					t.Errorf("snippet %s (public_token %q) lacks the workspace's public token %q", out.Snippet, out.PublicToken, token)
				}
				if strings.Contains(out.Snippet, notToken) {
					t.Errorf("snippet carries the other workspace's token: %s", out.Snippet)
				}
				for _, secret := range []string{s.rw, s.ro, s.pat, s.wsToken, s.otherRW} {
					if strings.Contains(out.Snippet, secret) {
						t.Errorf("snippet leaks an API token: %s", out.Snippet)
					}
				}
				if !strings.Contains(mcpText(res), out.Snippet) {
					t.Errorf("text %q does not carry the snippet", mcpText(res))
				}
			})
		}
	})
}

// mcpReadSeed gives the main project two namespaces with Norwegian values, one of them a
// draft, and the sibling one namespace.
func mcpReadSeed(t *testing.T, s *server) {
	t.Helper()
	s.mcpSeed(t, "common",
		map[string]string{"greeting": "Hello %{name}!", "nav.home": "Home", "quote": `Say "hi"`, "untranslated": "Untranslated"},
		map[string]map[string]string{"nb": {"greeting": "Hei %{name}!", "quote": `Si "hei"`}})
	s.mcpSeed(t, "app", map[string]string{"title": "App"}, map[string]map[string]string{"nb": {"title": "Appen"}})
	mcpOK[mcpRow](t, s.mcpProject(t, bearerAuth(s.pat)), "update_translation",
		map[string]any{"namespace_key": "common", "translation_key": "nav.home", "language": "nb", "value": "Hjem"})
	s.call(t, "PUT", "/api/sync/"+s.sibling.ID+"/latest/en/common", bearerAuth(s.wsToken),
		map[string]string{"title": "Docs"}).wantStatus(t, http.StatusOK)
}

// TestMCPGetTranslations renders one language in each format, for one namespace and for
// the whole project, and parses every file back.
func TestMCPGetTranslations(t *testing.T) {
	t.Parallel()
	commonNB := map[string]string{"greeting": "Hei %{name}!", "nav.home": "Hjem", "quote": `Si "hei"`}
	commonEN := map[string]string{"greeting": "Hello %{name}!", "nav.home": "Home", "quote": `Say "hi"`, "untranslated": "Untranslated"}
	prefixed := func(ns string, m map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range m {
			out[ns+"."+k] = v
		}
		return out
	}
	projectNB := prefixed("common", commonNB)
	maps.Copy(projectNB, map[string]string{"app.title": "Appen"})

	cases := []struct {
		name      string
		workspace bool // call the workspace endpoint with project_id
		args      map[string]any
		format    string            // the format the result must name
		want      map[string]string // the file read back, flattened
		wantNS    map[string]map[string]string
		wantIDs   map[string]string // po: msgctxt → msgid
		wantErr   string
	}{
		{name: "json, one namespace, drafts included", args: map[string]any{"language": "nb", "format": "json", "namespace_key": "common"}, format: "json", want: commonNB},
		{name: "json is the default format", args: map[string]any{"language": "nb", "namespace_key": "common"}, format: "json", want: commonNB},
		{name: "json, source language", args: map[string]any{"language": "en", "namespace_key": "common"}, format: "json", want: commonEN},
		{name: "json, a language with no values yet", args: map[string]any{"language": "sv", "namespace_key": "common"}, format: "json", want: map[string]string{}},
		{name: "json, whole project, by namespace", args: map[string]any{"language": "nb"}, format: "json",
			wantNS: map[string]map[string]string{"common": commonNB, "app": {"title": "Appen"}}},
		{name: "yml, one namespace", args: map[string]any{"language": "nb", "format": "yml", "namespace_key": "common"}, format: "yml", want: commonNB},
		{name: "yml, whole project", args: map[string]any{"language": "nb", "format": "yml"}, format: "yml", want: projectNB},
		{name: "po, one namespace, untranslated keys included", args: map[string]any{"language": "nb", "format": "po", "namespace_key": "common"}, format: "po", want: withUntranslated(commonNB, "untranslated"),
			wantIDs: map[string]string{"greeting": "Hello %{name}!", "nav.home": "Home", "quote": `Say "hi"`, "untranslated": "Untranslated"}},
		{name: "po, whole project", args: map[string]any{"language": "nb", "format": "po"}, format: "po", want: withUntranslated(projectNB, "common.untranslated"),
			wantIDs: map[string]string{"common.greeting": "Hello %{name}!", "common.nav.home": "Home", "common.quote": `Say "hi"`, "common.untranslated": "Untranslated", "app.title": "App"}},
		{name: "po, a language with no values yet", args: map[string]any{"language": "sv", "format": "po", "namespace_key": "app"}, format: "po", want: map[string]string{"title": ""},
			wantIDs: map[string]string{"title": "App"}},
		{name: "strings, one namespace", args: map[string]any{"language": "nb", "format": "strings", "namespace_key": "common"}, format: "strings", want: commonNB},
		{name: "strings, whole project", args: map[string]any{"language": "nb", "format": "strings"}, format: "strings", want: projectNB},
		{name: "workspace endpoint, project_id", workspace: true, args: map[string]any{"project_id": "{project}", "language": "nb", "namespace_key": "common"}, format: "json", want: commonNB},
		{name: "workspace endpoint, the sibling project", workspace: true, args: map[string]any{"project_id": "{sibling}", "language": "en", "namespace_key": "common"}, format: "json",
			want: map[string]string{"title": "Docs"}},
		{name: "unknown language", args: map[string]any{"language": "xx"}, wantErr: "not_found"},
		{name: "a supported language that is not on", args: map[string]any{"language": "de", "namespace_key": "common"}, wantErr: "not_found"},
		{name: "unknown format", args: map[string]any{"language": "nb", "format": "xml"}, wantErr: "invalid"},
		{name: "unknown namespace", args: map[string]any{"language": "nb", "namespace_key": "nope"}, wantErr: "not_found"},
		{name: "language is required", args: map[string]any{"namespace_key": "common"}, wantErr: "invalid"},
		{name: "workspace endpoint, another workspace's project", workspace: true, args: map[string]any{"project_id": "{other}", "language": "nb"}, wantErr: "unauthorized"},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		mcpReadSeed(t, s)
		proj := s.mcpProject(t, tokenAuth(s.ro))
		ws := s.mcpWorkspace(t)
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				m := proj
				args := map[string]any{}
				for k, v := range tc.args {
					args[k] = s.expand(v.(string))
				}
				if tc.workspace {
					m = ws
				}
				if tc.wantErr != "" {
					mcpErr(t, m, "get_translations", args, tc.wantErr)
					return
				}
				res := m.call(t, "get_translations", args)
				f := mcpOK[mcpFile](t, m, "get_translations", args)
				if f.Format != tc.format || f.Language != args["language"] {
					t.Errorf("format %q language %q, want %q %q", f.Format, f.Language, tc.format, args["language"])
				}
				if f.ContentType == "" {
					t.Errorf("no content_type")
				}
				if got := mcpText(res); got != f.Content {
					t.Errorf("text form is not the file:\n%s\nvs\n%s", got, f.Content)
				}
				lang := args["language"].(string)
				if tc.wantNS != nil {
					var got map[string]map[string]string
					if err := json.Unmarshal([]byte(f.Content), &got); err != nil {
						t.Fatalf("whole-project json is not {namespace: {key: value}} (%v): %s", err, f.Content)
					}
					if !jsonEqual(t, got, tc.wantNS) {
						t.Errorf("file %v, want %v", got, tc.wantNS)
					}
					n := 0
					for _, m := range tc.wantNS {
						n += len(m)
					}
					if f.Count != n {
						t.Errorf("count %d, want %d", f.Count, n)
					}
					return
				}
				got, ids := mcpReadFile(t, f.Format, lang, f.Content)
				if !jsonEqual(t, got, tc.want) {
					t.Errorf("file read back:\n got %v\nwant %v\n%s", got, tc.want, f.Content)
				}
				if f.Count != len(tc.want) {
					t.Errorf("count %d, want %d", f.Count, len(tc.want))
				}
				if tc.wantIDs != nil && !jsonEqual(t, ids, tc.wantIDs) {
					t.Errorf("po msgids by msgctxt:\n got %v\nwant %v", ids, tc.wantIDs)
				}
			})
		}
	})
}

// withUntranslated is m with an empty value for each key: how a po file lists a key that has
// no translation yet.
func withUntranslated(m map[string]string, keys ...string) map[string]string {
	out := maps.Clone(m)
	for _, k := range keys {
		out[k] = ""
	}
	return out
}

// mcpReadFile parses a rendered file with its ecosystem's parser and returns key → value
// (and, for po, msgctxt → msgid).
func mcpReadFile(t *testing.T, format, lang, content string) (map[string]string, map[string]string) {
	t.Helper()
	switch format {
	case "json":
		var m map[string]string
		if err := json.Unmarshal([]byte(content), &m); err != nil {
			t.Fatalf("json file (%v): %s", err, content)
		}
		return m, nil
	case "yml":
		// Read by the yaml codec itself: it nests keys (and writes Rails arrays) its own way.
		f, err := formats.Decode("yaml", []byte(content), formats.Options{Language: lang, SourceLanguage: lang})
		if err != nil {
			t.Fatalf("yml file (%v): %s", err, content)
		}
		out := map[string]string{}
		for _, e := range f.Entries {
			out[e.Key] = e.Values[lang].Text
		}
		return out, nil
	case "po":
		if !strings.HasPrefix(content, "msgid \"\"\nmsgstr \"\"\n") {
			t.Errorf("po file has no header entry:\n%s", content)
		}
		po := gotext.NewPo()
		po.Parse([]byte(content))
		if po.Language != lang {
			t.Errorf("po Language header %q, want %q", po.Language, lang)
		}
		values, ids := map[string]string{}, map[string]string{}
		for ctx, trs := range po.GetDomain().GetCtxTranslations() {
			for id, tr := range trs {
				if id == "" {
					continue
				}
				values[ctx], ids[ctx] = tr.Trs[0], id
			}
		}
		return values, ids
	case "strings":
		var m map[string]string
		if _, err := plist.Unmarshal([]byte(content), &m); err != nil {
			t.Fatalf(".strings file (%v): %s", err, content)
		}
		if m == nil {
			m = map[string]string{}
		}
		return m, nil
	}
	t.Fatalf("unknown format %q", format)
	return nil, nil
}

// TestMCPGetTranslation returns one key's values, statuses, flags and comments across
// languages.
func TestMCPGetTranslation(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		mcpReadSeed(t, s)
		w := s.mcpProject(t, bearerAuth(s.pat))
		user := s.mcpActorOfUser()
		mcpOK[mcpRow](t, w, "update_translation", map[string]any{"namespace_key": "common", "translation_key": "greeting", "language": "sv", "value": "Hej %{name}!"})
		mcpOK[mcpRow](t, w, "flag_translation", map[string]any{"namespace_key": "common", "translation_key": "greeting", "language": "nb", "flag": "language_locked", "value": true})
		mcpOK[mcpRow](t, w, "flag_translation", map[string]any{"namespace_key": "common", "translation_key": "greeting", "language": "sv", "flag": "do_not_translate", "value": true})
		mcpOK[mcpComment](t, w, "add_comment", map[string]any{"namespace_key": "common", "translation_key": "greeting", "language": "nb", "body": "Check the tone"})
		mcpOK[mcpComment](t, w, "add_comment", map[string]any{"namespace_key": "common", "translation_key": "greeting", "language": "nb", "body": "Approved by legal"})
		mcpOK[mcpComment](t, w, "add_comment", map[string]any{"namespace_key": "common", "translation_key": "untranslated", "language": "sv", "body": "Needs context"})

		type want struct {
			value, status  string
			dnt, locked    bool
			comments       []string
			updatedByUser  bool
			noRow          bool // only comments, no value
			mustNotContain bool // the language must not appear
		}
		cases := []struct {
			name    string
			ns, key string
			want    map[string]want
			wantErr string
		}{
			{name: "values, statuses, flags and comments in every language", ns: "common", key: "greeting", want: map[string]want{
				"en": {value: "Hello %{name}!", status: "approved"},
				"nb": {value: "Hei %{name}!", status: "approved", locked: true, comments: []string{"Check the tone", "Approved by legal"}, updatedByUser: true},
				"sv": {value: "Hej %{name}!", status: "needs_review", dnt: true, updatedByUser: true},
			}},
			{name: "a draft", ns: "common", key: "nav.home", want: map[string]want{
				"en": {value: "Home", status: "approved"},
				"nb": {value: "Hjem", status: "needs_review", updatedByUser: true},
				"sv": {mustNotContain: true},
			}},
			{name: "a comment on a language with no value yet", ns: "common", key: "untranslated", want: map[string]want{
				"en": {value: "Untranslated", status: "approved"},
				"sv": {noRow: true, comments: []string{"Needs context"}},
				"nb": {mustNotContain: true},
			}},
			{name: "unknown key", ns: "common", key: "nope", wantErr: "not_found"},
			{name: "unknown namespace", ns: "nope", key: "greeting", wantErr: "not_found"},
			{name: "translation_key is required", ns: "common", wantErr: "invalid"},
		}
		r := s.mcpProject(t, tokenAuth(s.ro))
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				args := map[string]any{"namespace_key": tc.ns}
				if tc.key != "" {
					args["translation_key"] = tc.key
				}
				if tc.wantErr != "" {
					mcpErr(t, r, "get_translation", args, tc.wantErr)
					return
				}
				k := mcpOK[mcpKeyView](t, r, "get_translation", args)
				if k.NamespaceKey != tc.ns || k.TranslationKey != tc.key || k.SourceLanguage != "en" {
					t.Errorf("names %q %q source %q", k.NamespaceKey, k.TranslationKey, k.SourceLanguage)
				}
				for lang, w := range tc.want {
					row, ok := k.in(lang)
					if w.mustNotContain {
						if ok {
							t.Errorf("%s: a row %+v, want none", lang, row)
						}
						continue
					}
					if !ok {
						t.Errorf("%s: no row in %+v", lang, k.Translations)
						continue
					}
					if !w.noRow && (row.Value != w.value || row.Status != w.status) {
						t.Errorf("%s: %q %s, want %q %s", lang, row.Value, row.Status, w.value, w.status)
					}
					if row.DoNotTranslate != w.dnt || row.LanguageLocked != w.locked {
						t.Errorf("%s: do_not_translate %v language_locked %v, want %v %v", lang, row.DoNotTranslate, row.LanguageLocked, w.dnt, w.locked)
					}
					if w.updatedByUser && row.UpdatedBy != user {
						t.Errorf("%s: updated_by %q, want %q", lang, row.UpdatedBy, user)
					}
					var bodies []string
					for _, c := range row.Comments {
						bodies = append(bodies, c.Body)
						if c.Author != user || c.Language != lang {
							t.Errorf("%s: comment %+v, want author %s", lang, c, user)
						}
					}
					if !slices.Equal(bodies, w.comments) {
						t.Errorf("%s: comments %q, want %q (in order)", lang, bodies, w.comments)
					}
				}
			})
		}
	})
}

// TestMCPSearchTranslations filters rows and pages through them: every page at most 50
// rows, next_offset (a cursor) continues with no gap or repeat, null on the last page.
func TestMCPSearchTranslations(t *testing.T) {
	t.Parallel()
	type row struct{ ns, key, lang, value, status string }
	var model []row
	en, nb, sv := map[string]string{}, map[string]string{}, map[string]string{}
	for i := range 50 {
		k := fmt.Sprintf("item.%02d", i)
		en[k], nb[k] = fmt.Sprintf("Value %02d", i), fmt.Sprintf("Verdi %02d", i)
		model = append(model, row{"page", k, "en", en[k], "approved"}, row{"page", k, "nb", nb[k], "approved"})
		if i < 30 {
			sv[k] = fmt.Sprintf("Värde %02d", i)
			status := "approved"
			if i < 3 {
				sv[k], status = fmt.Sprintf("Värde %02d (utkast)", i), "needs_review" // drafts, written below
			}
			model = append(model, row{"page", k, "sv", sv[k], status})
		}
	}
	model = append(model, row{"other", "door", "en", "Open", "approved"}, row{"other", "door", "nb", "ÅPENT", "approved"})

	cases := []struct {
		name    string
		args    map[string]any
		keep    func(r row) bool
		wantErr string
	}{
		{name: "no filter pages through every row", keep: func(row) bool { return true }},
		{name: "language", args: map[string]any{"language": "sv"}, keep: func(r row) bool { return r.lang == "sv" }},
		{name: "key_contains", args: map[string]any{"key_contains": "item.1"}, keep: func(r row) bool { return strings.Contains(r.key, "item.1") }},
		{name: "key_contains is case-insensitive", args: map[string]any{"key_contains": "ITEM.4"}, keep: func(r row) bool { return strings.Contains(r.key, "item.4") }},
		{name: "value_contains, exactly one full page", args: map[string]any{"value_contains": "verdi"}, keep: func(r row) bool { return strings.HasPrefix(r.value, "Verdi") }},
		{name: "value_contains, non-ASCII case-insensitive", args: map[string]any{"value_contains": "åpent"}, keep: func(r row) bool { return r.value == "ÅPENT" }},
		{name: "value_contains with a LIKE wildcard is literal", args: map[string]any{"value_contains": "%"}, keep: func(row) bool { return false }},
		{name: "status needs_review", args: map[string]any{"status": "needs_review"}, keep: func(r row) bool { return r.status == "needs_review" }},
		{name: "status approved and language", args: map[string]any{"status": "approved", "language": "sv"}, keep: func(r row) bool { return r.status == "approved" && r.lang == "sv" }},
		{name: "every filter at once", args: map[string]any{"key_contains": "item.0", "value_contains": "utkast", "language": "sv", "status": "needs_review"},
			keep: func(r row) bool { return r.lang == "sv" && r.status == "needs_review" }},
		{name: "nothing matches", args: map[string]any{"key_contains": "zzz"}, keep: func(row) bool { return false }},
		{name: "unknown status", args: map[string]any{"status": "done"}, wantErr: "invalid"},
		{name: "negative offset", args: map[string]any{"offset": -1}, wantErr: "invalid"},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		s.mcpSeed(t, "page", en, map[string]map[string]string{"nb": nb, "sv": sv})
		s.mcpSeed(t, "other", map[string]string{"door": "Open"}, map[string]map[string]string{"nb": {"door": "ÅPENT"}})
		w := s.mcpProject(t, tokenAuth(s.rw))
		for i := range 3 {
			k := fmt.Sprintf("item.%02d", i)
			mcpOK[mcpRow](t, w, "update_translation", map[string]any{"namespace_key": "page", "translation_key": k, "language": "sv", "value": sv[k]})
		}
		if len(model) <= 120 {
			t.Fatalf("the model has %d rows, want more than 120", len(model))
		}
		m := s.mcpProject(t, tokenAuth(s.ro))
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				if tc.wantErr != "" {
					mcpErr(t, m, "search_translations", tc.args, tc.wantErr)
					return
				}
				var want []string
				for _, r := range model {
					if tc.keep(r) {
						want = append(want, fmt.Sprintf("%s/%s/%s=%s (%s)", r.ns, r.key, r.lang, r.value, r.status))
					}
				}
				var got []string
				seen := map[string]bool{}
				var offset any = 0 // the first call may say 0, as before cursors
				for page := 0; ; page++ {
					if page > len(model)/50+2 {
						t.Fatalf("more pages than rows allow; next_offset does not end")
					}
					args := map[string]any{"offset": offset}
					maps.Copy(args, tc.args)
					out := mcpOK[mcpSearch](t, m, "search_translations", args)
					if len(out.Rows) > 50 {
						t.Fatalf("page %d has %d rows, want at most 50", page, len(out.Rows))
					}
					for _, r := range out.Rows {
						id := fmt.Sprintf("%s/%s/%s=%s (%s)", r.NamespaceKey, r.TranslationKey, r.Language, r.Value, r.Status)
						if seen[id] {
							t.Errorf("page %d repeats %s", page, id)
						}
						seen[id] = true
						got = append(got, id)
					}
					if out.NextOffset == nil {
						if len(out.Rows) == 50 && len(got) < len(want) {
							t.Errorf("next_offset null on a full page before the end")
						}
						break
					}
					if len(out.Rows) != 50 {
						t.Errorf("page %d has %d rows and a next_offset %q", page, len(out.Rows), *out.NextOffset)
					}
					if *out.NextOffset == "" || *out.NextOffset == offset {
						t.Errorf("next_offset %q after offset %v", *out.NextOffset, offset)
					}
					offset = *out.NextOffset
				}
				if !sameKeys(got, want) {
					t.Errorf("rows found (%d):\n%v\nwant (%d):\n%v", len(got), mcpDiff(got, want), len(want), mcpDiff(want, got))
				}
			})
		}
		t.Run("an offset past the end", func(t *testing.T) {
			out := mcpOK[mcpSearch](t, m, "search_translations", map[string]any{"offset": 10000})
			if len(out.Rows) != 0 || out.NextOffset != nil {
				t.Errorf("rows %d next_offset %v, want none and null", len(out.Rows), out.NextOffset)
			}
		})
		t.Run("hidden keys are not found", func(t *testing.T) {
			s.sync(t, "en", "other", map[string]string{}) // hides door
			out := mcpOK[mcpSearch](t, m, "search_translations", map[string]any{"key_contains": "door"})
			if len(out.Rows) != 0 {
				t.Errorf("hidden key found: %+v", out.Rows)
			}
		})
	})
}

// mcpDiff lists the items of a that b lacks.
func mcpDiff(a, b []string) []string {
	in := map[string]bool{}
	for _, s := range b {
		in[s] = true
	}
	var out []string
	for _, s := range a {
		if !in[s] {
			out = append(out, s)
		}
	}
	return out
}

// TestMCPListTerminology: glossary pairs for a locale always include those for all.
func TestMCPListTerminology(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args map[string]any
		want []string // source→target@locale
	}{
		{name: "every locale", want: []string{"lokal→lokal@all", "Sign in→Logg inn@nb", "Sign in→Logga in@sv", "Cart→Handlekurv@all"}},
		{name: "nb includes all", args: map[string]any{"locale": "nb"}, want: []string{"lokal→lokal@all", "Sign in→Logg inn@nb", "Cart→Handlekurv@all"}},
		{name: "sv includes all", args: map[string]any{"locale": "sv"}, want: []string{"lokal→lokal@all", "Sign in→Logga in@sv", "Cart→Handlekurv@all"}},
		{name: "a locale with no own terms still has all", args: map[string]any{"locale": "de"}, want: []string{"lokal→lokal@all", "Cart→Handlekurv@all"}},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		w := s.mcpProject(t, bearerAuth(s.pat))
		for _, g := range []map[string]any{
			{"source_term": "lokal", "target_term": "lokal"},
			{"source_term": "Sign in", "target_term": "Logg inn", "locale": "nb"},
			{"source_term": "Sign in", "target_term": "Logga in", "locale": "sv"},
			{"source_term": "Cart", "target_term": "Handlekurv", "locale": "all"},
		} {
			mcpOK[mcpGlossary](t, w, "add_glossary_term", g)
		}
		// A second translation of the same term (case aside) for the same locale is refused,
		// naming the pair there is; the lists below are unchanged by it.
		e := mcpErr(t, w, "add_glossary_term", map[string]any{"source_term": "sign in", "target_term": "Logg på", "locale": "nb"}, "conflict")
		if want := `the glossary already translates "Sign in" as "Logg inn" for Norwegian Bokmål`; !strings.Contains(e.Message, want) {
			t.Errorf("a conflicting pair: %q, want %q", e.Message, want)
		}
		m := s.mcpProject(t, tokenAuth(s.ro))
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				out := mcpOK[mcpTerminology](t, m, "list_terminology", tc.args)
				var got []string
				for _, g := range out.Glossary {
					got = append(got, g.SourceTerm+"→"+g.TargetTerm+"@"+g.Locale)
				}
				wantKeys(t, "glossary", got, tc.want)
				raw := mcpOK[map[string]json.RawMessage](t, m, "list_terminology", tc.args)
				for _, f := range []string{"glossary", "do_not_translate", "substitutions"} {
					if v := strings.TrimSpace(string(raw[f])); !strings.HasPrefix(v, "[") {
						t.Errorf("%s is %s, want an array", f, v)
					}
				}
			})
		}
		t.Run("another project's terms are not listed", func(t *testing.T) {
			ws := s.mcpWorkspace(t)
			out := mcpOK[mcpTerminology](t, ws, "list_terminology", map[string]any{"project_id": s.sibling.ID})
			if len(out.Glossary) != 0 {
				t.Errorf("the sibling lists %+v", out.Glossary)
			}
		})
	})
}

// TestMCPGetCheckupReport: not_found before the first report; then the newest report with
// the findings seeded; report_id selects an older one.
func TestMCPGetCheckupReport(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		m := s.mcpProject(t, tokenAuth(s.ro))
		mcpErr(t, m, "get_checkup_report", nil, "not_found")

		s.mcpSeed(t, "qa", map[string]string{
			"missing.one": "Only in English",
			"greet":       "Hello %{name}, welcome back",
			"cart":        "{count} items in your cart",
			"bold":        "<strong>Bold</strong> statement here",
			"same":        "Welcome to the dashboard",
			"fine":        "Save your changes",
			"login":       "Sign in to continue",
			"moved":       "The old wording of this line",
		}, map[string]map[string]string{"nb": {
			"login": "Meld deg på for å fortsette",
			"moved": "Den gamle ordlyden i denne linjen",
			"greet": "Hei, velkommen tilbake",
			"cart":  "varer i handlekurven",
			"bold":  "Fet uttalelse her",
			"same":  "Welcome to the dashboard",
			"fine":  "Lagre endringene dine",
		}})
		w := s.mcpProject(t, tokenAuth(s.rw))
		mcpOK[mcpGlossary](t, w, "add_glossary_term", map[string]any{"source_term": "Sign in", "target_term": "Logg inn", "locale": "nb"})
		mcpOK[mcpRow](t, w, "update_translation", map[string]any{"namespace_key": "qa", "translation_key": "moved", "language": "en", "value": "The new wording of this line", "status": "approved"})
		first, err := s.cat.RunCheckup(sys(t), s.proj.ID, "test")
		if err != nil {
			t.Fatalf("RunCheckup: %v", err)
		}
		type f struct{ kind, key, lang string }
		wantFirst := []f{
			{"missing_translation", "missing.one", "nb"},
			{"missing_translation", "missing.one", "sv"},
			{"missing_translation", "fine", "sv"},
			{"placeholder_mismatch", "greet", "nb"},
			{"placeholder_mismatch", "cart", "nb"},
			{"markup_mismatch", "bold", "nb"},
			{"identical_to_source", "same", "nb"},
			{"glossary_violation", "login", "nb"},
			{"stale_translation", "moved", "nb"},
		}
		notFirst := []f{{"", "fine", "nb"}}
		var wantSecond []f // the placeholders get fixed below
		for _, x := range wantFirst {
			if x.kind != "placeholder_mismatch" {
				wantSecond = append(wantSecond, x)
			}
		}

		// Fix the placeholders, then a second report.
		mcpOK[mcpRow](t, w, "update_translation", map[string]any{"namespace_key": "qa", "translation_key": "greet", "language": "nb", "value": "Hei %{name}, velkommen tilbake"})
		mcpOK[mcpRow](t, w, "update_translation", map[string]any{"namespace_key": "qa", "translation_key": "cart", "language": "nb", "value": "{count} varer i handlekurven"})
		second, err := s.cat.RunCheckup(sys(t), s.proj.ID, "test")
		if err != nil {
			t.Fatalf("RunCheckup: %v", err)
		}
		siblings, err := s.cat.RunCheckup(sys(t), s.sibling.ID, "test")
		if err != nil {
			t.Fatalf("RunCheckup: %v", err)
		}
		if first.ID == "" || second.ID == "" || first.ID == second.ID {
			t.Fatalf("report ids %q and %q, want two distinct ids", first.ID, second.ID)
		}

		cases := []struct {
			name    string
			args    map[string]any
			wantID  string
			want    []f
			notWant []f
			wantErr string
		}{
			{name: "newest by default", wantID: second.ID, want: wantSecond, notWant: append([]f{{"placeholder_mismatch", "greet", "nb"}, {"placeholder_mismatch", "cart", "nb"}}, notFirst...)},
			{name: "report_id selects the older report", args: map[string]any{"report_id": first.ID}, wantID: first.ID, want: wantFirst, notWant: notFirst},
			{name: "report_id of the newest", args: map[string]any{"report_id": second.ID}, wantID: second.ID, want: wantSecond},
			{name: "unknown report_id", args: map[string]any{"report_id": uuid.NewString()}, wantErr: "not_found"},
			{name: "another project's report_id", args: map[string]any{"report_id": siblings.ID}, wantErr: "not_found"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				if tc.wantErr != "" {
					mcpErr(t, m, "get_checkup_report", tc.args, tc.wantErr)
					return
				}
				r := mcpOK[mcpReport](t, m, "get_checkup_report", tc.args)
				if r.ID != tc.wantID || r.ProjectID != s.proj.ID || r.Status != "completed" || r.CompletedAt == nil {
					t.Errorf("report %s project %s status %s completed_at %v; want %s, completed", r.ID, r.ProjectID, r.Status, r.CompletedAt, tc.wantID)
				}
				has := func(x f) bool {
					for _, g := range r.Findings {
						if (x.kind == "" || g.Kind == x.kind) && g.Key == x.key && g.Language == x.lang && g.Namespace == "qa" {
							return true
						}
					}
					return false
				}
				for _, x := range tc.want {
					if !has(x) {
						t.Errorf("no %s finding for %s in %s; findings %+v", x.kind, x.key, x.lang, r.Findings)
					}
				}
				for _, x := range tc.notWant {
					if has(x) {
						t.Errorf("unexpected %q finding for %s in %s", x.kind, x.key, x.lang)
					}
				}
				byKind := map[string]int{}
				for _, g := range r.Findings {
					byKind[g.Kind]++
				}
				if r.Summary.Total != len(r.Findings) {
					t.Errorf("summary total %d, findings %d", r.Summary.Total, len(r.Findings))
				}
				for k, n := range byKind {
					if r.Summary.ByKind[k] != n {
						t.Errorf("summary by_kind[%s] %d, counted %d", k, r.Summary.ByKind[k], n)
					}
				}
			})
		}
		t.Run("the workspace endpoint reads the same report", func(t *testing.T) {
			r := mcpOK[mcpReport](t, s.mcpWorkspace(t), "get_checkup_report", map[string]any{"project_id": s.proj.ID})
			if r.ID != second.ID {
				t.Errorf("report %s, want %s", r.ID, second.ID)
			}
			r = mcpOK[mcpReport](t, s.mcpWorkspace(t), "get_checkup_report", map[string]any{"project_id": s.sibling.ID})
			if r.ID != siblings.ID || r.ProjectID != s.sibling.ID {
				t.Errorf("sibling's report %s of %s, want %s", r.ID, r.ProjectID, siblings.ID)
			}
		})
	})
}

// TestMCPGetTranslationsHidden: hidden keys are not in the files.
func TestMCPGetTranslationsHidden(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		s.sync(t, "en", "legacy", map[string]string{"old": "Old", "kept": "Kept"})
		s.overwrite(t, "nb", "legacy", map[string]string{"old": "Gammel", "kept": "Beholdt"})
		s.sync(t, "en", "legacy", map[string]string{"kept": "Kept"}) // hides old
		m := s.mcpProject(t, tokenAuth(s.ro))
		for _, tc := range []struct {
			name, lang, format string
			want               map[string]string
		}{
			{name: "source json", lang: "en", format: "json", want: map[string]string{"kept": "Kept"}},
			{name: "target json", lang: "nb", format: "json", want: map[string]string{"kept": "Beholdt"}},
			{name: "target po", lang: "nb", format: "po", want: map[string]string{"kept": "Beholdt"}},
			{name: "target yml", lang: "nb", format: "yml", want: map[string]string{"kept": "Beholdt"}},
			{name: "target strings", lang: "nb", format: "strings", want: map[string]string{"kept": "Beholdt"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				f := mcpOK[mcpFile](t, m, "get_translations", map[string]any{"language": tc.lang, "format": tc.format, "namespace_key": "legacy"})
				got, _ := mcpReadFile(t, tc.format, tc.lang, f.Content)
				if !jsonEqual(t, got, tc.want) || f.Count != len(tc.want) {
					t.Errorf("file %v (count %d), want %v", got, f.Count, tc.want)
				}
			})
		}
	})
}

// TestMCPGetTranslationsPOStale: a po file flags "#, fuzzy" exactly the translations made
// against an older source text, and lists an untranslated key with an empty msgstr.
func TestMCPGetTranslationsPOStale(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		s.sync(t, "en", "site", map[string]string{"title": "Welcome", "cta": "Buy", "help": "Help"})
		s.overwrite(t, "nb", "site", map[string]string{"title": "Velkommen", "cta": "Kjøp"})
		s.sync(t, "en", "site", map[string]any{"translations": map[string]string{"title": "Welcome back", "cta": "Buy", "help": "Help"},
			"preserve_source_values": false})
		if got := s.stale(t, "site", "lang=nb"); !slices.Equal(got, []string{"title"}) {
			t.Fatalf("stale keys %v, want [title]", got)
		}
		m := s.mcpProject(t, tokenAuth(s.ro))
		f := mcpOK[mcpFile](t, m, "get_translations", map[string]any{"language": "nb", "format": "po", "namespace_key": "site"})
		got, ids := mcpReadFile(t, "po", "nb", f.Content)
		if want := map[string]string{"title": "Velkommen", "cta": "Kjøp", "help": ""}; !maps.Equal(got, want) || f.Count != len(want) {
			t.Errorf("file %v (count %d), want %v:\n%s", got, f.Count, want, f.Content)
		}
		if want := map[string]string{"title": "Welcome back", "cta": "Buy", "help": "Help"}; !maps.Equal(ids, want) {
			t.Errorf("msgids %v, want %v", ids, want)
		}
		if fuzzy := poFuzzy(t, f.Content); !slices.Equal(fuzzy, []string{"title"}) {
			t.Errorf("fuzzy entries %v, want [title]:\n%s", fuzzy, f.Content)
		}
		// Confirming the translation makes it current, and the flag goes.
		s.overwrite(t, "nb", "site", map[string]string{"title": "Velkommen tilbake"})
		f = mcpOK[mcpFile](t, m, "get_translations", map[string]any{"language": "nb", "format": "po", "namespace_key": "site"})
		if fuzzy := poFuzzy(t, f.Content); len(fuzzy) != 0 {
			t.Errorf("fuzzy entries %v after the overwrite, want none:\n%s", fuzzy, f.Content)
		}
		// The source language is never stale.
		f = mcpOK[mcpFile](t, m, "get_translations", map[string]any{"language": "en", "format": "po", "namespace_key": "site"})
		if fuzzy := poFuzzy(t, f.Content); len(fuzzy) != 0 {
			t.Errorf("fuzzy entries %v in the source language, want none", fuzzy)
		}
	})
}

// poFuzzy lists the msgctxt of the entries flagged "#, fuzzy" (gotext reads past flags).
func poFuzzy(t *testing.T, content string) []string {
	t.Helper()
	var out []string
	flagged := false
	for line := range strings.Lines(content) {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "#, fuzzy" || strings.HasPrefix(line, "#, fuzzy, "):
			flagged = true
		case strings.HasPrefix(line, "msgctxt ") && flagged:
			ctx, err := strconv.Unquote(strings.TrimPrefix(line, "msgctxt "))
			if err != nil {
				t.Fatalf("msgctxt line %q: %v", line, err)
			}
			out = append(out, ctx)
			flagged = false
		case strings.HasPrefix(line, "msgid "):
			flagged = false
		}
	}
	slices.Sort(out)
	return out
}
