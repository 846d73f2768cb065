package rest_test

import (
	"testing"
)

// nullVersionRow is abc plus a key k made by a Norwegian sync (so its Norwegian row
// predates any source value and has no source version) and then given an English source
// value by a source-language sync; and b made stale the ordinary way.
func nullVersionRow(t *testing.T, s *server) {
	t.Helper()
	abc(t, s)
	s.sync(t, "nb", "ui", map[string]string{"k": "K-nb"})
	s.wantFlat(t, "en", "ui", map[string]string{"a": "A", "b": "B", "c": "C"})
	s.sync(t, "en", "ui", map[string]string{"a": "A", "b": "B", "c": "C", "k": "K"})
	s.wantFlat(t, "en", "ui", map[string]string{"a": "A", "b": "B", "c": "C", "k": "K"})
	if v, ok := s.translation(t, "ui", "k", "nb"); !ok || v.SourceVersion != nil {
		t.Fatalf("k's Norwegian row should exist with no source version: %+v", v)
	}
}

// staleB adds to nullVersionRow a Norwegian b made against English "B", then changes it.
func staleB(t *testing.T, s *server) {
	t.Helper()
	nullVersionRow(t, s)
	s.overwrite(t, "nb", "ui", map[string]string{"b": "B-nb"})
	s.overwrite(t, "en", "ui", map[string]string{"b": "B2"})
}

// TestAPIStale is endpoint 5's transport table: lang and include_null (true when absent)
// reach the catalogue, and the 400 and 404 answers. What is stale and when it stops being
// so is tools' TestStaleRules.
func TestAPIStale(t *testing.T) {
	t.Parallel()
	const ui = "/api/stale/{project}/latest/ui"
	scenarios := []scenario{
		{name: "nothing stale", setup: abc, method: "GET", path: ui + "?lang=nb", auth: "{rw}",
			wantStatus: 200, wantJSON: `{"lang":"nb","stale_keys":[]}`},
		{name: "include_null defaults to true", setup: staleB, method: "GET", path: ui + "?lang=nb", auth: "{rw}",
			wantStatus: 200, check: staleKeys("nb", "b", "k")},
		{name: "include_null=true", setup: staleB, method: "GET", path: ui + "?lang=nb&include_null=true", auth: "{rw}",
			wantStatus: 200, check: staleKeys("nb", "b", "k")},
		{name: "include_null=false skips rows with no source version", setup: staleB, method: "GET", path: ui + "?lang=nb&include_null=false", auth: "{rw}",
			wantStatus: 200, check: staleKeys("nb", "b")},
		{name: "read-only key", setup: staleB, method: "GET", path: ui + "?lang=nb", auth: "Token token={ro}",
			wantStatus: 200, check: staleKeys("nb", "b", "k")},
		{name: "lang missing", setup: abc, method: "GET", path: ui, auth: "{rw}", wantStatus: 400, check: errorShape},
		{name: "lang empty", setup: abc, method: "GET", path: ui + "?lang=", auth: "{rw}", wantStatus: 400, check: errorShape},
		{name: "include_null unparsable", setup: abc, method: "GET", path: ui + "?lang=nb&include_null=maybe", auth: "{rw}", wantStatus: 400, check: errorShape},
		{name: "lang not on for the project", setup: abc, method: "GET", path: ui + "?lang=de", auth: "{rw}", wantStatus: 404, wantError: "not_found"},
		{name: "lang that does not exist", setup: abc, method: "GET", path: ui + "?lang=xx", auth: "{rw}", wantStatus: 404, wantError: "not_found"},
		{name: "unknown namespace", setup: abc, method: "GET", path: "/api/stale/{project}/latest/nope?lang=nb", auth: "{rw}", wantStatus: 404, wantError: "not_found"},
		{name: "unknown project with a workspace token", setup: abc, method: "GET", path: "/api/stale/00000000-0000-4000-8000-000000000000/latest/ui?lang=nb",
			auth: "Bearer {ws}", wantStatus: 404, wantError: "not_found"},
	}
	runScenarios(t, scenarios)
}

// staleKeys is a scenario check of an endpoint 5 answer, keys in any order.
func staleKeys(lang string, keys ...string) func(t *testing.T, s *server, r *response) {
	return func(t *testing.T, s *server, r *response) {
		t.Helper()
		var out struct {
			Lang      *string  `json:"lang"`
			StaleKeys []string `json:"stale_keys"`
		}
		r.decode(t, &out)
		if out.Lang == nil || *out.Lang != lang {
			t.Errorf("lang %v, want %q", out.Lang, lang)
		}
		if out.StaleKeys == nil {
			t.Errorf("stale_keys is not an array: %s", r.body)
		}
		wantKeys(t, "stale_keys", out.StaleKeys, keys)
	}
}
