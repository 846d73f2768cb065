package rest_test

import (
	"net/http"
	"testing"
)

// overwriteWant is what an overwrite should report; arrays compare in any order.
type overwriteWant struct {
	updated, refreshed, unchanged, notFound []string
}

// overwriteReport is a scenario check: the answer is an overwrite report matching w, with
// a summary that agrees with the arrays.
func overwriteReport(w overwriteWant) func(t *testing.T, s *server, r *response) {
	return func(t *testing.T, s *server, r *response) {
		t.Helper()
		if r.status != http.StatusOK {
			return
		}
		var got overwriteOut
		r.decode(t, &got)
		wantKeys(t, "updated", got.Updated, w.updated)
		wantKeys(t, "refreshed", got.Refreshed, w.refreshed)
		wantKeys(t, "unchanged", got.Unchanged, w.unchanged)
		wantKeys(t, "not_found", got.NotFound, w.notFound)
		sum := got.Summary
		for _, c := range []struct {
			name  string
			count int
			list  []string
		}{
			{"updated", sum.Updated, got.Updated}, {"refreshed", sum.Refreshed, got.Refreshed},
			{"unchanged", sum.Unchanged, got.Unchanged}, {"not_found", sum.NotFound, got.NotFound},
		} {
			if c.list == nil {
				t.Errorf("%s is not an array", c.name)
			}
			if c.count != len(c.list) {
				t.Errorf("summary.%s is %d but the array has %d keys", c.name, c.count, len(c.list))
			}
		}
		total := len(w.updated) + len(w.refreshed) + len(w.unchanged) + len(w.notFound)
		if sum.TotalIncoming != total {
			t.Errorf("summary.total_incoming %d, want %d", sum.TotalIncoming, total)
		}
	}
}

// abcStale is abc with English a changed after its Norwegian value was made.
func abcStale(t *testing.T, s *server) {
	t.Helper()
	abc(t, s)
	s.sync(t, "en", "ui", map[string]any{"translations": map[string]string{"a": "A2", "b": "B", "c": "C"}, "preserve_source_values": false})
}

// TestAPIOverwrite covers endpoint 4: updated, refreshed, unchanged and not_found, nothing
// created, staleness, and the refusals.
func TestAPIOverwrite(t *testing.T) {
	t.Parallel()
	const nb, en = "/api/overwrite/{project}/latest/nb/", "/api/overwrite/{project}/latest/en/"
	abcEN := map[string]string{"a": "A", "b": "B", "c": "C"}
	scenarios := []scenario{
		{name: "updated", setup: abc, method: "PUT", path: nb + "ui", auth: "{rw}", body: map[string]string{"a": "A-nb2"},
			wantStatus: 200, check: then(overwriteReport(overwriteWant{updated: []string{"a"}}),
				flatIs("nb", "ui", map[string]string{"a": "A-nb2"}), flatIs("en", "ui", abcEN), staleIs("ui", "lang=nb"))},
		{name: "the answer is JSON with every field", setup: abc, method: "PUT", path: nb + "ui", auth: "{rw}", body: map[string]string{"a": "A-nb2"},
			wantStatus: 200, wantJSON: `{"summary":{"total_incoming":1,"updated":1,"refreshed":0,"unchanged":0,"not_found":0},
				"updated":["a"],"refreshed":[],"unchanged":[],"not_found":[]}`},
		{name: "a first value for an existing key", setup: abc, method: "PUT", path: nb + "ui", auth: "{rw}", body: map[string]string{"b": "B-nb"},
			wantStatus: 200, check: then(overwriteReport(overwriteWant{updated: []string{"b"}}),
				flatIs("nb", "ui", map[string]string{"a": "A-nb", "b": "B-nb"}), staleIs("ui", "lang=nb"))},
		{name: "unchanged", setup: abc, method: "PUT", path: nb + "ui", auth: "{rw}", body: map[string]string{"a": "A-nb"},
			wantStatus: 200, check: then(overwriteReport(overwriteWant{unchanged: []string{"a"}}), flatIs("nb", "ui", map[string]string{"a": "A-nb"}))},
		{name: "not_found creates nothing", setup: abc, method: "PUT", path: nb + "ui", auth: "{rw}", body: map[string]string{"zzz": "Z"},
			wantStatus: 200, check: then(overwriteReport(overwriteWant{notFound: []string{"zzz"}}),
				flatIs("nb", "ui", map[string]string{"a": "A-nb"}), flatIs("en", "ui", abcEN),
				func(t *testing.T, s *server, _ *response) {
					if s.keyExists(t, "ui", "zzz") {
						t.Errorf("key zzz was created")
					}
				})},
		{name: "every kind at once", setup: abcStale, method: "PUT", path: nb + "ui", auth: "{rw}",
			body:       map[string]string{"a": "A-nb", "b": "B-nb", "x": "X", "y": "Y"},
			wantStatus: 200, check: then(overwriteReport(overwriteWant{refreshed: []string{"a"}, updated: []string{"b"}, notFound: []string{"x", "y"}}),
				flatIs("nb", "ui", map[string]string{"a": "A-nb", "b": "B-nb"}), staleIs("ui", "lang=nb"))},
		{name: "refreshed clears staleness", setup: abcStale, method: "PUT", path: nb + "ui", auth: "{rw}", body: map[string]string{"a": "A-nb"},
			wantStatus: 200, check: then(overwriteReport(overwriteWant{refreshed: []string{"a"}}),
				flatIs("nb", "ui", map[string]string{"a": "A-nb"}), staleIs("ui", "lang=nb"))},
		{name: "a new value for a stale translation makes it current", setup: abcStale, method: "PUT", path: nb + "ui", auth: "{rw}", body: map[string]string{"a": "A2-nb"},
			wantStatus: 200, check: then(overwriteReport(overwriteWant{updated: []string{"a"}}),
				flatIs("nb", "ui", map[string]string{"a": "A2-nb"}), staleIs("ui", "lang=nb"))},
		{name: "refreshing a row with no source version", setup: nullVersionRow, method: "PUT", path: nb + "ui", auth: "{rw}", body: map[string]string{"k": "K-nb"},
			wantStatus: 200, check: then(overwriteReport(overwriteWant{refreshed: []string{"k"}}), staleIs("ui", "lang=nb"))},
		{name: "source-language overwrite makes translations stale", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}", body: map[string]string{"a": "A-new"},
			wantStatus: 200, check: then(overwriteReport(overwriteWant{updated: []string{"a"}}),
				flatIs("en", "ui", map[string]string{"a": "A-new", "b": "B", "c": "C"}), flatIs("nb", "ui", map[string]string{"a": "A-nb"}),
				staleIs("ui", "lang=nb", "a"))},
		{name: "source-language overwrite with the same value", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}", body: map[string]string{"a": "A"},
			wantStatus: 200, check: then(overwriteReport(overwriteWant{unchanged: []string{"a"}}), staleIs("ui", "lang=nb"))},
		{name: "source-language overwrite of an unknown key", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}", body: map[string]string{"d": "D"},
			wantStatus: 200, check: then(overwriteReport(overwriteWant{notFound: []string{"d"}}), flatIs("en", "ui", abcEN))},
		{name: "a language_locked value is kept and reported unchanged", setup: func(t *testing.T, s *server) {
			abc(t, s)
			s.lock(t, "ui", "a", "nb")
		}, method: "PUT", path: nb + "ui", auth: "{rw}", body: map[string]string{"a": "A-nb2", "b": "B-nb"},
			wantStatus: 200, check: then(overwriteReport(overwriteWant{unchanged: []string{"a"}, updated: []string{"b"}}),
				flatIs("nb", "ui", map[string]string{"a": "A-nb", "b": "B-nb"}))},
		{name: "a refused value stores nothing of the batch", setup: abc, method: "PUT", path: nb + "ui", auth: "{rw}",
			body:       map[string]string{"a": "A-nb2", "b": refusedValue},
			wantStatus: 422, wantError: "invalid_translation", check: flatIs("nb", "ui", map[string]string{"a": "A-nb"})},
		{name: "a refused source value", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}",
			body:       map[string]string{"a": `<svg onload=alert(1)>`},
			wantStatus: 422, wantError: "invalid_translation", check: then(flatIs("en", "ui", abcEN), staleIs("ui", "lang=nb"))},
		{name: "unknown namespace", setup: abc, method: "PUT", path: nb + "nope", auth: "{rw}", body: map[string]string{"a": "A"},
			wantStatus: 404, wantError: "not_found", check: flatIs("nb", "nope", nil)},
		{name: "language not on for the project", setup: abc, method: "PUT", path: "/api/overwrite/{project}/latest/de/ui", auth: "{rw}",
			body: map[string]string{"a": "A-de"}, wantStatus: 404, wantError: "not_found"},
		{name: "not JSON", setup: abc, method: "PUT", path: nb + "ui", auth: "{rw}", body: "nope",
			wantStatus: 400, check: then(errorShape, flatIs("nb", "ui", map[string]string{"a": "A-nb"}))},
		{name: "a number as a value", setup: abc, method: "PUT", path: nb + "ui", auth: "{rw}", body: `{"a":1}`,
			wantStatus: 400, check: then(errorShape, flatIs("nb", "ui", map[string]string{"a": "A-nb"}))},
	}
	runScenarios(t, scenarios)
}
