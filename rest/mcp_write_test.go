package rest_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// mcpWriteSeed gives the main project namespace common: greeting and farewell in English,
// greeting in Norwegian (approved).
func mcpWriteSeed(t *testing.T, s *server) {
	t.Helper()
	s.mcpSeed(t, "common", map[string]string{"greeting": "Hello", "farewell": "Goodbye"},
		map[string]map[string]string{"nb": {"greeting": "Hei"}})
}

type mcpEnabled struct {
	Language         string   `json:"language"`
	AlreadyEnabled   bool     `json:"already_enabled"`
	EnabledLanguages []string `json:"enabled_languages"`
}

// TestMCPEnableLanguage: any BCP 47 tag, stored in canonical case, never the source;
// enabling twice is fine; what is no tag is refused with a message that says so.
func TestMCPEnableLanguage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		workspace   bool
		args        map[string]any
		wantErr     string
		wantAlready bool
		wantOn      string // language on afterwards, on the project named
		wantMsg     string // in the refusal's message
	}{
		{name: "a supported language", args: map[string]any{"language": "de"}, wantOn: "de"},
		{name: "again: idempotent", args: map[string]any{"language": "de"}, wantAlready: true, wantOn: "de"},
		{name: "a language on since creation", args: map[string]any{"language": "nb"}, wantAlready: true, wantOn: "nb"},
		{name: "a regional tag", args: map[string]any{"language": "pt-BR"}, wantOn: "pt-BR"},
		{name: "the same as gettext spells it", args: map[string]any{"language": "pt_br"}, wantAlready: true, wantOn: "pt-BR"},
		{name: "br", args: map[string]any{"language": "br"}, wantOn: "br"},
		{name: "tok", args: map[string]any{"language": "tok"}, wantOn: "tok"},
		{name: "es-CL", args: map[string]any{"language": "es-CL"}, wantOn: "es-CL"},
		{name: "nb-NO beside nb", args: map[string]any{"language": "nb-NO"}, wantOn: "nb-NO"},
		{name: "pa-PK", args: map[string]any{"language": "pa-PK"}, wantOn: "pa-PK"},
		{name: "sr-Latn", args: map[string]any{"language": "SR-latn"}, wantOn: "sr-Latn"},
		{name: "zh-Hant-HK", args: map[string]any{"language": "zh_Hant_HK"}, wantOn: "zh-Hant-HK"},
		{name: "the source language", args: map[string]any{"language": "en"}, wantErr: "invalid"},
		{name: "an unregistered code", args: map[string]any{"language": "xx"}, wantErr: "invalid", wantMsg: `language "xx" is not a BCP 47 language tag`},
		{name: "not a tag at all", args: map[string]any{"language": "xx-!!"}, wantErr: "invalid", wantMsg: `language "xx-!!" is not a BCP 47 language tag`},
		{name: "not a code at all", args: map[string]any{"language": "Klingon!"}, wantErr: "invalid"},
		{name: "und", args: map[string]any{"language": "und"}, wantErr: "invalid", wantMsg: `language "und" names no language`},
		{name: "a tag with an extension", args: map[string]any{"language": "de-u-co-phonebk"}, wantErr: "invalid", wantMsg: "such as de"},
		{name: "language is required", args: map[string]any{}, wantErr: "invalid"},
		{name: "workspace endpoint, the sibling project", workspace: true, args: map[string]any{"project_id": "{sibling}", "language": "fr"}, wantOn: "fr"},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		mcpWriteSeed(t, s)
		proj := s.mcpProject(t, bearerAuth(s.pat))
		ws := s.mcpWorkspace(t)
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				m, target := proj, s.proj.ID
				args := map[string]any{}
				for k, v := range tc.args {
					args[k] = s.expand(v.(string))
				}
				if tc.workspace {
					m, target = ws, args["project_id"].(string)
				}
				before := mcpOK[mcpStatus](t, ws, "get_project_status", map[string]any{"project_id": target})
				if tc.wantErr != "" {
					if e := mcpErr(t, m, "enable_language", args, tc.wantErr); !strings.Contains(e.Message, tc.wantMsg) {
						t.Errorf("message %q, want it to say %q", e.Message, tc.wantMsg)
					}
					after := mcpOK[mcpStatus](t, ws, "get_project_status", map[string]any{"project_id": target})
					if !slices.Equal(after.EnabledLanguages, before.EnabledLanguages) {
						t.Errorf("enabled languages moved from %v to %v", before.EnabledLanguages, after.EnabledLanguages)
					}
					return
				}
				out := mcpOK[mcpEnabled](t, m, "enable_language", args)
				if out.Language != tc.wantOn || out.AlreadyEnabled != tc.wantAlready || !slices.Contains(out.EnabledLanguages, tc.wantOn) {
					t.Errorf("answer %+v, want %s on (already %v)", out, tc.wantOn, tc.wantAlready)
				}
				after := mcpOK[mcpStatus](t, ws, "get_project_status", map[string]any{"project_id": target})
				if !slices.Contains(after.EnabledLanguages, tc.wantOn) {
					t.Errorf("get_project_status enabled languages %v lack %s", after.EnabledLanguages, tc.wantOn)
				}
				if n := len(after.EnabledLanguages); tc.wantAlready && n != len(before.EnabledLanguages) {
					t.Errorf("enabled languages moved from %v to %v", before.EnabledLanguages, after.EnabledLanguages)
				}
				if target == s.proj.ID {
					// The language is usable on endpoint 1 at once.
					s.call(t, "GET", s.readPath(tc.wantOn, "common"), tokenAuth(s.rw), nil).wantStatus(t, http.StatusOK)
				}
			})
		}
		t.Run("the other project is untouched", func(t *testing.T) {
			st := mcpOK[mcpStatus](t, ws, "get_project_status", map[string]any{"project_id": s.sibling.ID})
			if slices.Contains(st.EnabledLanguages, "pt-BR") {
				t.Errorf("sibling got pt-BR: %v", st.EnabledLanguages)
			}
		})
	})
}

// TestMCPRegisterSourceStrings creates missing keys only, and the namespace if new.
func TestMCPRegisterSourceStrings(t *testing.T) {
	t.Parallel()
	type out struct {
		Created []string `json:"created"`
		Skipped []string `json:"skipped"`
	}
	cases := []struct {
		name        string
		ns          string
		strings     map[string]string
		wantCreated []string
		wantSkipped []string
		wantErr     string
		wantEN      map[string]string // endpoint 1 in en afterwards (nil: the namespace must not exist)
		wantNB      map[string]string
	}{
		{name: "a new namespace", ns: "onboarding", strings: map[string]string{"step.one": "Welcome", "step.two": "Set up %{name}"},
			wantCreated: []string{"step.one", "step.two"}, wantSkipped: []string{},
			wantEN: map[string]string{"step.one": "Welcome", "step.two": "Set up %{name}"}},
		{name: "existing keys are skipped, their values untouched", ns: "common", strings: map[string]string{"greeting": "Howdy", "new.key": "New"},
			wantCreated: []string{"new.key"}, wantSkipped: []string{"greeting"},
			wantEN: map[string]string{"greeting": "Hello", "farewell": "Goodbye", "new.key": "New"}, wantNB: map[string]string{"greeting": "Hei"}},
		{name: "all existing: nothing created", ns: "common", strings: map[string]string{"greeting": "Hi", "farewell": "Bye"},
			wantCreated: []string{}, wantSkipped: []string{"farewell", "greeting"},
			wantEN: map[string]string{"greeting": "Hello", "farewell": "Goodbye", "new.key": "New"}},
		{name: "an executable value stores nothing", ns: "evil", strings: map[string]string{"ok": "Fine", "bad": `<img src=x onerror=alert(1)>`},
			wantErr: "invalid_translation"},
		{name: "strings must not be empty", ns: "empty", strings: map[string]string{}, wantErr: "invalid"},
		{name: "an invalid namespace key", ns: "bad ns/../x", strings: map[string]string{"a": "A"}, wantErr: "*"},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		mcpWriteSeed(t, s)
		m := s.mcpProject(t, tokenAuth(s.rw))
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				args := map[string]any{"namespace_key": tc.ns, "strings": tc.strings}
				if tc.wantErr != "" {
					code := tc.wantErr
					if code == "*" {
						code = ""
					}
					mcpErr(t, m, "register_source_strings", args, code)
					if r := s.call(t, "GET", s.readPath("en", tc.ns), tokenAuth(s.rw), nil); r.status != http.StatusNotFound {
						t.Errorf("namespace %q exists after a refused call: %d %s", tc.ns, r.status, truncated(r.body))
					}
					if st := m.status(t); slices.Contains(st.Namespaces, tc.ns) {
						t.Errorf("namespace %q listed after a refused call", tc.ns)
					}
					return
				}
				got := mcpOK[out](t, m, "register_source_strings", args)
				wantKeys(t, "created", got.Created, tc.wantCreated)
				wantKeys(t, "skipped", got.Skipped, tc.wantSkipped)
				s.wantFlat(t, "en", tc.ns, tc.wantEN)
				if tc.wantNB != nil {
					s.wantFlat(t, "nb", tc.ns, tc.wantNB)
				}
				if st := m.status(t); !slices.Contains(st.Namespaces, tc.ns) {
					t.Errorf("namespaces %v lack %s", st.Namespaces, tc.ns)
				}
			})
		}
	})
}

// TestMCPUpdateTranslation: the tool's arguments reach the operation, what it writes is
// attributed to the connection's owner and visible at once on endpoint 1, and its refusals
// come back as tool errors with nothing changed. The rules themselves (status, locks, the
// value gate, staleness) are tools' TestUpdateTranslationRules.
func TestMCPUpdateTranslation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		conn       string // pat, rw, ws (workspace endpoint), ws-project (workspace token, project endpoint)
		setup      func(t *testing.T, s *server, m *mcpSession)
		args       map[string]any
		wantStatus string
		wantActor  string // "user" or "key"
		wantErr    string // "*" = any code
	}{
		{name: "personal token: lands as needs_review", conn: "pat",
			args: map[string]any{"translation_key": "farewell", "language": "nb", "value": "Ha det"}, wantStatus: "needs_review", wantActor: "user"},
		{name: "approved when asked for", conn: "pat",
			args: map[string]any{"translation_key": "greeting", "language": "sv", "value": "Hej", "status": "approved"}, wantStatus: "approved", wantActor: "user"},
		{name: "needs_review when asked for", conn: "rw",
			args: map[string]any{"translation_key": "farewell", "language": "sv", "value": "Hej då", "status": "needs_review"}, wantStatus: "needs_review", wantActor: "key"},
		{name: "read/write key: attributed to the key", conn: "rw",
			args: map[string]any{"translation_key": "greeting", "language": "nb", "value": "Heisann"}, wantStatus: "needs_review", wantActor: "key"},
		{name: "workspace endpoint: attributed to the user", conn: "ws",
			args: map[string]any{"translation_key": "greeting", "language": "nb", "value": "Hei du", "status": "approved"}, wantStatus: "approved", wantActor: "user"},
		{name: "workspace token on the project endpoint", conn: "ws-project",
			args: map[string]any{"translation_key": "farewell", "language": "nb", "value": "Ha det bra"}, wantStatus: "needs_review", wantActor: "user"},
		{name: "a language_locked row is refused", conn: "pat",
			setup: func(t *testing.T, s *server, m *mcpSession) {
				mcpOK[mcpRow](t, m, "flag_translation", map[string]any{"namespace_key": "common", "translation_key": "greeting", "language": "nb", "flag": "language_locked", "value": true})
			},
			args: map[string]any{"translation_key": "greeting", "language": "nb", "value": "Overwritten", "status": "approved"}, wantErr: "*"},
		{name: "a locked row is refused to the workspace token too", conn: "ws",
			args: map[string]any{"translation_key": "greeting", "language": "nb", "value": "Overwritten"}, wantErr: "*"},
		{name: "an inline event handler is refused", conn: "pat",
			args: map[string]any{"translation_key": "farewell", "language": "nb", "value": `<img src=x onerror=alert(1)>`}, wantErr: "invalid_translation"},
		{name: "an unknown status", conn: "pat",
			args: map[string]any{"translation_key": "farewell", "language": "nb", "value": "Ha det", "status": "done"}, wantErr: "invalid"},
		{name: "an unknown key", conn: "pat",
			args: map[string]any{"translation_key": "nope", "language": "nb", "value": "X"}, wantErr: "not_found"},
		{name: "value is required", conn: "pat",
			args: map[string]any{"translation_key": "farewell", "language": "nb"}, wantErr: "invalid"},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		mcpWriteSeed(t, s)
		conns := map[string]*mcpSession{
			"pat":        s.mcpProject(t, bearerAuth(s.pat)),
			"rw":         s.mcpProject(t, tokenAuth(s.rw)),
			"ws":         s.mcpWorkspace(t),
			"ws-project": s.mcpProject(t, bearerAuth(s.wsToken)),
		}
		actors := map[string]string{"user": s.mcpActorOfUser(), "key": s.mcpActorOfKey(t, s.rw)}
		reader := s.mcpProject(t, tokenAuth(s.ro))
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				m := conns[tc.conn]
				if tc.setup != nil {
					tc.setup(t, s, m)
				}
				args := map[string]any{"namespace_key": "common"}
				for k, v := range tc.args {
					args[k] = v
				}
				if tc.conn == "ws" {
					args["project_id"] = s.proj.ID
				}
				key, lang := args["translation_key"].(string), args["language"].(string)
				flatBefore := s.flat(t, lang, "common")
				var rowBefore mcpRowView
				var hadRow bool
				if key != "nope" && lang != "de" {
					rowBefore, hadRow = reader.getKey(t, "common", key).in(lang)
				}
				if tc.wantErr != "" {
					code := tc.wantErr
					if code == "*" {
						code = ""
					}
					mcpErr(t, m, "update_translation", args, code)
					if got := s.flat(t, lang, "common"); !jsonEqual(t, got, flatBefore) {
						t.Errorf("endpoint 1 moved from %v to %v", flatBefore, got)
					}
					if key != "nope" && lang != "de" {
						if row, ok := reader.getKey(t, "common", key).in(lang); ok != hadRow || !jsonEqual(t, row, rowBefore) {
							t.Errorf("row moved from %+v to %+v", rowBefore, row)
						}
					}
					return
				}
				out := mcpOK[mcpRow](t, m, "update_translation", args)
				value := args["value"].(string)
				want := mcpRow{NamespaceKey: "common", TranslationKey: key, Language: lang, Value: value, Status: tc.wantStatus, UpdatedBy: actors[tc.wantActor]}
				if out != want {
					t.Errorf("answer %+v, want %+v", out, want)
				}
				row, ok := reader.getKey(t, "common", key).in(lang)
				if !ok || row.Value != value || row.Status != tc.wantStatus || row.UpdatedBy != actors[tc.wantActor] {
					t.Errorf("get_translation %s row %+v, want %q %s by %s", lang, row, value, tc.wantStatus, actors[tc.wantActor])
				}
				// Recorded: endpoint 1 serves it at once, drafts included.
				if got := s.flat(t, lang, "common"); got[key] != value {
					t.Errorf("endpoint 1 in %s has %s=%q, want %q", lang, key, got[key], value)
				}
			})
		}
		t.Run("a changed source makes translations stale", func(t *testing.T) {
			m := conns["pat"]
			mcpOK[mcpRow](t, m, "update_translation", map[string]any{"namespace_key": "common", "translation_key": "farewell", "language": "en", "value": "Goodbye for now", "status": "approved"})
			k := reader.getKey(t, "common", "farewell")
			if en, _ := k.in("en"); en.Value != "Goodbye for now" || en.Stale {
				t.Errorf("en row %+v", en)
			}
			if nb, _ := k.in("nb"); !nb.Stale {
				t.Errorf("nb row %+v is not stale after the source changed", nb)
			}
			if got := s.stale(t, "common", "lang=nb"); !slices.Contains(got, "farewell") {
				t.Errorf("endpoint 5 lists %v, want farewell", got)
			}
			mcpOK[mcpRow](t, m, "update_translation", map[string]any{"namespace_key": "common", "translation_key": "farewell", "language": "nb", "value": "Ha det så lenge"})
			if nb, _ := reader.getKey(t, "common", "farewell").in("nb"); nb.Stale {
				t.Errorf("nb row %+v is still stale after a new value", nb)
			}
		})
	})
}

// TestMCPSetTranslationStatus moves a row between needs_review and approved through the
// tool, its text staying; tools' TestStatusRules has the rest of the rules.
func TestMCPSetTranslationStatus(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		key, lang  string
		status     string
		wantValue  string
		wantStatus string
		wantErr    string
	}{
		{name: "approve a draft", key: "farewell", lang: "nb", status: "approved", wantValue: "Ha det", wantStatus: "approved"},
		{name: "back to needs_review", key: "greeting", lang: "nb", status: "needs_review", wantValue: "Hei", wantStatus: "needs_review"},
		{name: "an unknown status", key: "greeting", lang: "nb", status: "done", wantErr: "invalid"},
		{name: "an unknown key", key: "nope", lang: "nb", status: "approved", wantErr: "not_found"},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		mcpWriteSeed(t, s)
		m := s.mcpProject(t, bearerAuth(s.pat))
		mcpOK[mcpRow](t, m, "update_translation", map[string]any{"namespace_key": "common", "translation_key": "farewell", "language": "nb", "value": "Ha det"})
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				args := map[string]any{"namespace_key": "common", "translation_key": tc.key, "language": tc.lang, "status": tc.status}
				if tc.wantErr != "" {
					mcpErr(t, m, "set_translation_status", args, tc.wantErr)
					return
				}
				out := mcpOK[mcpRow](t, m, "set_translation_status", args)
				if out.Value != tc.wantValue || out.Status != tc.wantStatus {
					t.Errorf("answer %+v, want %q %s", out, tc.wantValue, tc.wantStatus)
				}
				row, _ := m.getKey(t, "common", tc.key).in(tc.lang)
				if row.Value != tc.wantValue || row.Status != tc.wantStatus {
					t.Errorf("row %+v, want %q %s", row, tc.wantValue, tc.wantStatus)
				}
				if got := s.flat(t, tc.lang, "common"); got[tc.key] != tc.wantValue {
					t.Errorf("endpoint 1: %s=%q, want %q", tc.key, got[tc.key], tc.wantValue)
				}
			})
		}
	})
}

// TestMCPAddKey creates one key with its source value and fails on an existing one.
func TestMCPAddKey(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		ns, key string
		value   string
		wantErr string
		wantEN  map[string]string
	}{
		{name: "a new key", ns: "common", key: "nav.home", value: "Home",
			wantEN: map[string]string{"greeting": "Hello", "farewell": "Goodbye", "nav.home": "Home"}},
		{name: "an existing key is a conflict", ns: "common", key: "greeting", value: "Howdy", wantErr: "conflict",
			wantEN: map[string]string{"greeting": "Hello", "farewell": "Goodbye", "nav.home": "Home"}},
		{name: "a key added a moment ago is a conflict", ns: "common", key: "nav.home", value: "Start", wantErr: "conflict",
			wantEN: map[string]string{"greeting": "Hello", "farewell": "Goodbye", "nav.home": "Home"}},
		{name: "a hidden key exists too", ns: "legacy", key: "old", value: "New old", wantErr: "conflict",
			wantEN: map[string]string{"kept": "Kept"}},
		{name: "a new namespace", ns: "fresh", key: "title", value: "Fresh", wantEN: map[string]string{"title": "Fresh"}},
		{name: "an executable source value", ns: "common", key: "evil", value: `<img src=x onerror=alert(1)>`, wantErr: "invalid_translation",
			wantEN: map[string]string{"greeting": "Hello", "farewell": "Goodbye", "nav.home": "Home"}},
		{name: "an empty key", ns: "common", key: "", value: "X", wantErr: "*",
			wantEN: map[string]string{"greeting": "Hello", "farewell": "Goodbye", "nav.home": "Home"}},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		mcpWriteSeed(t, s)
		s.sync(t, "en", "legacy", map[string]string{"old": "Old", "kept": "Kept"})
		s.sync(t, "en", "legacy", map[string]string{"kept": "Kept"}) // hides old
		m := s.mcpProject(t, tokenAuth(s.rw))
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				args := map[string]any{"namespace_key": tc.ns, "translation_key": tc.key, "source_value": tc.value}
				if tc.wantErr != "" {
					code := tc.wantErr
					if code == "*" {
						code = ""
					}
					mcpErr(t, m, "add_key", args, code)
				} else {
					out := mcpOK[map[string]string](t, m, "add_key", args)
					if out["namespace_key"] != tc.ns || out["translation_key"] != tc.key {
						t.Errorf("answer %v", out)
					}
					k := m.getKey(t, tc.ns, tc.key)
					if en, ok := k.in("en"); !ok || en.Value != tc.value {
						t.Errorf("source row %+v, want %q", en, tc.value)
					}
				}
				s.wantFlat(t, "en", tc.ns, tc.wantEN)
			})
		}
	})
}

// TestMCPAddComment attaches comments to a language's row, attributed to the token's owner.
func TestMCPAddComment(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		conn      string
		key, lang string
		body      string
		wantBody  string
		wantActor string
		wantErr   string
	}{
		{name: "personal token", conn: "pat", key: "greeting", lang: "nb", body: "Too formal?", wantBody: "Too formal?", wantActor: "user"},
		{name: "read/write key", conn: "rw", key: "greeting", lang: "nb", body: "Checked <b>twice</b>", wantBody: "Checked <b>twice</b>", wantActor: "key"},
		{name: "a language with no value yet", conn: "pat", key: "farewell", lang: "sv", body: "Context: logout", wantBody: "Context: logout", wantActor: "user"},
		{name: "surrounding space is trimmed", conn: "pat", key: "farewell", lang: "nb", body: "  padded \n", wantBody: "padded", wantActor: "user"},
		{name: "an empty body", conn: "pat", key: "greeting", lang: "nb", body: "", wantErr: "invalid"},
		{name: "a blank body", conn: "pat", key: "greeting", lang: "nb", body: " \n\t", wantErr: "invalid"},
		{name: "a language that is not on", conn: "pat", key: "greeting", lang: "de", body: "x", wantErr: "not_found"},
		{name: "an unknown key", conn: "pat", key: "nope", lang: "nb", body: "x", wantErr: "not_found"},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		mcpWriteSeed(t, s)
		conns := map[string]*mcpSession{"pat": s.mcpProject(t, bearerAuth(s.pat)), "rw": s.mcpProject(t, tokenAuth(s.rw))}
		actors := map[string]string{"user": s.mcpActorOfUser(), "key": s.mcpActorOfKey(t, s.rw)}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				m := conns[tc.conn]
				args := map[string]any{"namespace_key": "common", "translation_key": tc.key, "language": tc.lang, "body": tc.body}
				var before int
				if tc.key != "nope" {
					row, _ := m.getKey(t, "common", tc.key).in(tc.lang)
					before = len(row.Comments)
				}
				if tc.wantErr != "" {
					mcpErr(t, m, "add_comment", args, tc.wantErr)
					if tc.key != "nope" {
						if row, _ := m.getKey(t, "common", tc.key).in(tc.lang); len(row.Comments) != before {
							t.Errorf("comments moved from %d to %d", before, len(row.Comments))
						}
					}
					return
				}
				c := mcpOK[mcpComment](t, m, "add_comment", args)
				if c.Body != tc.wantBody || c.Language != tc.lang || c.Author != actors[tc.wantActor] || c.ID == 0 {
					t.Errorf("comment %+v, want %q in %s by %s", c, tc.wantBody, tc.lang, actors[tc.wantActor])
				}
				row, _ := m.getKey(t, "common", tc.key).in(tc.lang)
				if len(row.Comments) != before+1 || row.Comments[len(row.Comments)-1].Body != tc.wantBody {
					t.Errorf("comments %+v, want %q added last", row.Comments, tc.wantBody)
				}
			})
		}
	})
}

// TestMCPFlagTranslation sets and clears both flags through the tool; tools' TestFlagRules
// has the rest of the rules.
func TestMCPFlagTranslation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		key, lang  string
		flag       string
		value      bool
		wantLocked bool
		wantDNT    bool
		wantValue  string
		wantErr    string
		after      func(t *testing.T, s *server, m *mcpSession)
	}{
		{name: "set language_locked", key: "greeting", lang: "nb", flag: "language_locked", value: true, wantLocked: true, wantValue: "Hei",
			after: func(t *testing.T, s *server, m *mcpSession) {
				mcpErr(t, m, "update_translation", map[string]any{"namespace_key": "common", "translation_key": "greeting", "language": "nb", "value": "X"}, "")
			}},
		{name: "set do_not_translate beside it", key: "greeting", lang: "nb", flag: "do_not_translate", value: true, wantLocked: true, wantDNT: true, wantValue: "Hei"},
		{name: "clear language_locked", key: "greeting", lang: "nb", flag: "language_locked", value: false, wantDNT: true, wantValue: "Hei",
			after: func(t *testing.T, s *server, m *mcpSession) {
				mcpOK[mcpRow](t, m, "update_translation", map[string]any{"namespace_key": "common", "translation_key": "greeting", "language": "nb", "value": "Hei"})
			}},
		{name: "an unknown flag", key: "greeting", lang: "nb", flag: "hidden", value: true, wantErr: "invalid"},
		{name: "an unknown key", key: "nope", lang: "nb", flag: "language_locked", value: true, wantErr: "not_found"},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		mcpWriteSeed(t, s)
		m := s.mcpProject(t, bearerAuth(s.pat))
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				args := map[string]any{"namespace_key": "common", "translation_key": tc.key, "language": tc.lang, "flag": tc.flag, "value": tc.value}
				if tc.wantErr != "" {
					mcpErr(t, m, "flag_translation", args, tc.wantErr)
					return
				}
				out := mcpOK[mcpRow](t, m, "flag_translation", args)
				if out.LanguageLocked != tc.wantLocked || out.DoNotTranslate != tc.wantDNT {
					t.Errorf("answer %+v, want locked %v do_not_translate %v", out, tc.wantLocked, tc.wantDNT)
				}
				row, ok := m.getKey(t, "common", tc.key).in(tc.lang)
				if !ok || row.LanguageLocked != tc.wantLocked || row.DoNotTranslate != tc.wantDNT || row.Value != tc.wantValue {
					t.Errorf("row %+v, want %q locked %v do_not_translate %v", row, tc.wantValue, tc.wantLocked, tc.wantDNT)
				}
				if tc.after != nil {
					tc.after(t, s, m)
				}
			})
		}
		t.Run("value is required", func(t *testing.T) {
			mcpErr(t, m, "flag_translation", map[string]any{"namespace_key": "common", "translation_key": "greeting", "language": "nb", "flag": "language_locked"}, "invalid")
		})
	})
}

// TestMCPAddGlossaryTerm adds terms for all locales by default, or one.
func TestMCPAddGlossaryTerm(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		args       map[string]any
		wantLocale string
		wantErr    string
	}{
		{name: "locale defaults to all", args: map[string]any{"source_term": "lokal", "target_term": "lokal"}, wantLocale: "all"},
		{name: "one locale", args: map[string]any{"source_term": "Sign in", "target_term": "Logg inn", "locale": "nb"}, wantLocale: "nb"},
		{name: "all spelled out", args: map[string]any{"source_term": "Cart", "target_term": "Cart", "locale": "all"}, wantLocale: "all"},
		{name: "the same pair twice", args: map[string]any{"source_term": "lokal", "target_term": "lokal"}, wantErr: "conflict"},
		{name: "an unsupported locale", args: map[string]any{"source_term": "a", "target_term": "b", "locale": "xx"}, wantErr: "invalid"},
		{name: "an empty target", args: map[string]any{"source_term": "a", "target_term": " "}, wantErr: "invalid"},
		{name: "target_term is required", args: map[string]any{"source_term": "a"}, wantErr: "invalid"},
		{name: "an executable target", args: map[string]any{"source_term": "a", "target_term": `<img src=x onerror=alert(1)>`}, wantErr: "invalid_translation"},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		m := s.mcpProject(t, bearerAuth(s.pat))
		var want []string
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				if tc.wantErr != "" {
					mcpErr(t, m, "add_glossary_term", tc.args, tc.wantErr)
				} else {
					g := mcpOK[mcpGlossary](t, m, "add_glossary_term", tc.args)
					if g.SourceTerm != tc.args["source_term"] || g.TargetTerm != tc.args["target_term"] || g.Locale != tc.wantLocale {
						t.Errorf("answer %+v, want locale %s", g, tc.wantLocale)
					}
					want = append(want, fmt.Sprintf("%s→%s@%s", g.SourceTerm, g.TargetTerm, g.Locale))
				}
				var got []string
				for _, g := range mcpOK[mcpTerminology](t, m, "list_terminology", nil).Glossary {
					got = append(got, fmt.Sprintf("%s→%s@%s", g.SourceTerm, g.TargetTerm, g.Locale))
				}
				wantKeys(t, "glossary", got, want)
			})
		}
	})
}

// TestMCPAITranslateKeys: registered, but without an AI provider it answers not_configured
// and writes nothing; more than 10 keys is invalid.
func TestMCPAITranslateKeys(t *testing.T) {
	t.Parallel()
	eleven := make([]string, 11)
	for i := range eleven {
		eleven[i] = fmt.Sprintf("k%d", i)
	}
	cases := []struct {
		name    string
		args    map[string]any
		wantErr string
	}{
		{name: "AI not configured", args: map[string]any{"namespace_key": "common", "translation_keys": []string{"farewell"}, "target_lang": "nb"}, wantErr: "not_configured"},
		{name: "ten keys: still not configured", args: map[string]any{"namespace_key": "common", "translation_keys": eleven[:10], "target_lang": "sv"}, wantErr: "not_configured"},
		{name: "more than ten keys", args: map[string]any{"namespace_key": "common", "translation_keys": eleven, "target_lang": "nb"}, wantErr: "invalid"},
		{name: "no keys", args: map[string]any{"namespace_key": "common", "translation_keys": []string{}, "target_lang": "nb"}, wantErr: "invalid"},
		{name: "target_lang is required", args: map[string]any{"namespace_key": "common", "translation_keys": []string{"farewell"}}, wantErr: "invalid"},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		mcpWriteSeed(t, s)
		m := s.mcpProject(t, tokenAuth(s.rw))
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				mcpErr(t, m, "ai_translate_keys", tc.args, tc.wantErr)
				s.wantFlat(t, "nb", "common", map[string]string{"greeting": "Hei"})
				s.wantFlat(t, "sv", "common", map[string]string{})
			})
		}
	})
}
