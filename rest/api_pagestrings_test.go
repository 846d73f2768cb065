package rest_test

import (
	"testing"
)

// TestAPIPageStrings covers endpoint 7: source rows with the key equal to the value, made
// for new strings only, in a namespace created on first use.
func TestAPIPageStrings(t *testing.T) {
	t.Parallel()
	const page = "/api/{project}/sync_page_strings/"
	// existing gives namespace "page" a string whose stored value differs from its key, a
	// hidden one, and a Norwegian value.
	existing := func(t *testing.T, s *server) {
		t.Helper()
		s.sync(t, "en", "page", map[string]string{"Hello": "Hello there", "Gone": "Gone"})
		s.sync(t, "en", "page", map[string]string{"Hello": "Hello there"})
		s.overwrite(t, "nb", "page", map[string]string{"Hello": "Hei"})
	}
	scenarios := []scenario{
		{name: "creates the namespace with key equal to value", method: "POST", path: page + "page", auth: "{rw}",
			body:       map[string]any{"source_strings": []string{"Sign in", "Read the <strong>terms</strong>.", "Total: %{amount}"}},
			wantStatus: 200, wantJSON: `{"created":3,"skipped":0,"source_language":"en"}`,
			check: then(flatIs("en", "page", map[string]string{"Sign in": "Sign in", "Read the <strong>terms</strong>.": "Read the <strong>terms</strong>.",
				"Total: %{amount}": "Total: %{amount}"}), flatIs("nb", "page", map[string]string{}))},
		{name: "a string twice in one call is created once", method: "POST", path: page + "page", auth: "{rw}",
			body:       map[string]any{"source_strings": []string{"Sign in", "Sign in", "Sign out"}},
			wantStatus: 200, wantJSON: `{"created":2,"skipped":1,"source_language":"en"}`,
			check: flatIs("en", "page", map[string]string{"Sign in": "Sign in", "Sign out": "Sign out"})},
		{name: "never touches an existing row", setup: existing, method: "POST", path: page + "page", auth: "{rw}",
			body:       map[string]any{"source_strings": []string{"Hello", "Gone", "New"}},
			wantStatus: 200, wantJSON: `{"created":1,"skipped":2,"source_language":"en"}`,
			check: then(flatIs("en", "page", map[string]string{"Hello": "Hello there", "New": "New"}),
				flatIs("nb", "page", map[string]string{"Hello": "Hei"}), staleIs("page", "lang=nb"))},
		{name: "no strings", method: "POST", path: page + "page", auth: "{rw}",
			body: map[string]any{"source_strings": []string{}}, wantStatus: 200, wantJSON: `{"created":0,"skipped":0,"source_language":"en"}`},
		{name: "a refused string stores nothing", method: "POST", path: page + "page", auth: "{rw}",
			body:       map[string]any{"source_strings": []string{"Fine", refusedValue}},
			wantStatus: 422, wantError: "invalid_translation", check: flatIs("en", "page", nil)},
		{name: "a refused string in an existing namespace stores nothing", setup: existing, method: "POST", path: page + "page", auth: "{rw}",
			body:       map[string]any{"source_strings": []string{"Fine", `<a href="javascript:alert(1)">x</a>`}},
			wantStatus: 422, wantError: "invalid_translation", check: flatIs("en", "page", map[string]string{"Hello": "Hello there"})},
		{name: "source_strings missing", method: "POST", path: page + "page", auth: "{rw}", body: `{}`,
			wantStatus: 400, check: then(errorShape, flatIs("en", "page", nil))},
		{name: "source_strings not an array", method: "POST", path: page + "page", auth: "{rw}", body: `{"source_strings":"Hello"}`,
			wantStatus: 400, check: then(errorShape, flatIs("en", "page", nil))},
		{name: "a number among the strings", method: "POST", path: page + "page", auth: "{rw}", body: `{"source_strings":["Hello",1]}`,
			wantStatus: 400, check: then(errorShape, flatIs("en", "page", nil))},
		{name: "not JSON", method: "POST", path: page + "page", auth: "{rw}", body: `source_strings=Hello`,
			wantStatus: 400, check: then(errorShape, flatIs("en", "page", nil))},
		{name: "unknown project with a workspace token", method: "POST", path: "/api/00000000-0000-4000-8000-000000000000/sync_page_strings/page",
			auth: "Bearer {ws}", body: map[string]any{"source_strings": []string{"Hello"}}, wantStatus: 404, wantError: "not_found"},
	}
	runScenarios(t, scenarios)
}

// TestAPIPageStringsAgain registers strings twice: the second call creates only the new one.
func TestAPIPageStringsAgain(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		for _, c := range []struct {
			strings []string
			want    string
		}{
			{[]string{"Hello", "World"}, `{"created":2,"skipped":0,"source_language":"en"}`},
			{[]string{"Hello", "World", "Again"}, `{"created":1,"skipped":2,"source_language":"en"}`},
		} {
			r := s.call(t, "POST", s.pageStringsPath("page"), tokenAuth(s.rw), map[string]any{"source_strings": c.strings}).wantStatus(t, 200)
			if !jsonEqual(t, r.body, []byte(c.want)) {
				t.Errorf("registering %q: %s, want %s", c.strings, r.body, c.want)
			}
		}
		s.wantFlat(t, "en", "page", map[string]string{"Hello": "Hello", "World": "World", "Again": "Again"})
	})
}
