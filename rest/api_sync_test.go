package rest_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// syncWant is what a sync should report; arrays compare in any order.
type syncWant struct {
	total     int
	created   []string
	unhidden  []string
	hidden    []string
	changed   []string
	filled    []string
	unchanged int
}

// check verifies a sync answer against w, and that the summary agrees with the arrays.
func (w syncWant) check(t *testing.T, got syncOut) {
	t.Helper()
	wantKeys(t, "created", got.Created, w.created)
	wantKeys(t, "unhidden", got.Unhidden, w.unhidden)
	wantKeys(t, "hidden", got.Hidden, w.hidden)
	wantKeys(t, "source_value_changed", got.SourceValueChanged, w.changed)
	wantKeys(t, "filled", got.Filled, w.filled)
	sum := got.Summary
	if sum.TotalIncoming != w.total {
		t.Errorf("summary.total_incoming %d, want %d", sum.TotalIncoming, w.total)
	}
	if sum.Unchanged != w.unchanged {
		t.Errorf("summary.unchanged %d, want %d", sum.Unchanged, w.unchanged)
	}
	checkSyncSummary(t, got)
}

// checkSyncSummary checks the summary integers against the arrays: every count is its
// array's length, and each incoming key is counted once as created, unchanged, or touched
// (unhidden, source value changed and/or filled).
func checkSyncSummary(t *testing.T, got syncOut) {
	t.Helper()
	sum := got.Summary
	for _, c := range []struct {
		name  string
		count int
		list  []string
	}{
		{"created", sum.Created, got.Created}, {"hidden", sum.Hidden, got.Hidden},
		{"unhidden", sum.Unhidden, got.Unhidden}, {"source_value_changed", sum.SourceValueChanged, got.SourceValueChanged},
		{"filled", sum.Filled, got.Filled},
	} {
		if c.list == nil {
			t.Errorf("%s is not an array", c.name)
		}
		if c.count != len(c.list) {
			t.Errorf("summary.%s is %d but the array has %d keys", c.name, c.count, len(c.list))
		}
	}
	touched := map[string]bool{}
	for _, k := range got.Unhidden {
		touched[k] = true
	}
	for _, k := range got.SourceValueChanged {
		touched[k] = true
	}
	for _, k := range got.Filled {
		touched[k] = true
	}
	if n := sum.Created + sum.Unchanged + len(touched); n != sum.TotalIncoming {
		t.Errorf("created %d + unchanged %d + unhidden or changed %d = %d, want total_incoming %d",
			sum.Created, sum.Unchanged, len(touched), n, sum.TotalIncoming)
	}
}

// syncReport is a scenario check: the answer is a sync report matching w.
func syncReport(w syncWant) func(t *testing.T, s *server, r *response) {
	return func(t *testing.T, s *server, r *response) {
		t.Helper()
		if r.status != http.StatusOK {
			return
		}
		var out syncOut
		r.decode(t, &out)
		w.check(t, out)
	}
}

// clientError is a scenario check of a 4xx answer, whichever.
func clientError(t *testing.T, _ *server, r *response) {
	t.Helper()
	if r.status < 400 || r.status > 499 {
		t.Errorf("status %d, want a 4xx; body: %s", r.status, truncated(r.body))
	}
}

// then chains scenario checks.
func then(checks ...func(t *testing.T, s *server, r *response)) func(t *testing.T, s *server, r *response) {
	return func(t *testing.T, s *server, r *response) {
		t.Helper()
		for _, c := range checks {
			c(t, s, r)
		}
	}
}

// flatIs is a scenario check of a namespace after the request (nil: it must not exist).
func flatIs(lang, ns string, want map[string]string) func(t *testing.T, s *server, r *response) {
	return func(t *testing.T, s *server, _ *response) {
		t.Helper()
		s.wantFlat(t, lang, ns, want)
	}
}

// staleIs is a scenario check of endpoint 5 after the request.
func staleIs(ns, query string, want ...string) func(t *testing.T, s *server, r *response) {
	return func(t *testing.T, s *server, _ *response) {
		t.Helper()
		wantKeys(t, "stale_keys", s.stale(t, ns, query), want)
	}
}

// abc seeds namespace "ui" with a, b and c in English and a Norwegian value for a.
func abc(t *testing.T, s *server) {
	t.Helper()
	abcIn(t, s, "ui")
}

// abcIn is abc in namespace ns.
func abcIn(t *testing.T, s *server, ns string) {
	t.Helper()
	s.sync(t, "en", ns, map[string]string{"a": "A", "b": "B", "c": "C"})
	s.overwrite(t, "nb", ns, map[string]string{"a": "A-nb"})
}

// abcHiddenC is abc with c hidden.
func abcHiddenC(t *testing.T, s *server) {
	t.Helper()
	abc(t, s)
	s.sync(t, "en", "ui", map[string]string{"a": "A", "b": "B"})
}

const refusedValue = `<img src=x onerror=alert(1)>`

// bigBody is a sync body of a little over 5 MB.
func bigBody() []byte {
	var b bytes.Buffer
	b.WriteString(`{"translations":{`)
	for i := 0; b.Len() <= 5<<20; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"key.%07d":"%s"`, i, strings.Repeat("v", 200))
	}
	b.WriteString(`}}`)
	return b.Bytes()
}

// TestAPISync is endpoint 3's transport table: each option and body form reaches the
// catalogue's sync, the answer carries every field, and each refusal has its status and
// stores nothing. The States table itself (every kind of key, in the source language and a
// target one) is tools' TestSyncStates, and the walk through it tools' TestSyncLifecycle.
func TestAPISync(t *testing.T) {
	t.Parallel()
	const en, nb = "/api/sync/{project}/latest/en/", "/api/sync/{project}/latest/nb/"
	abcEN := map[string]string{"a": "A", "b": "B", "c": "C"}
	scenarios := []scenario{
		{name: "first push creates the namespace", method: "PUT", path: en + "fresh", auth: "{rw}",
			body:       map[string]any{"translations": map[string]string{"a": "A", "b.c": "BC"}},
			wantStatus: 200, check: then(
				syncReport(syncWant{total: 2, created: []string{"a", "b.c"}}),
				flatIs("en", "fresh", map[string]string{"a": "A", "b.c": "BC"}),
				flatIs("nb", "fresh", map[string]string{}))},
		{name: "the answer is JSON with every field", method: "PUT", path: en + "fresh", auth: "{rw}",
			body:       map[string]any{"translations": map[string]string{"a": "A"}},
			wantStatus: 200,
			wantJSON: `{"summary":{"total_incoming":1,"created":1,"hidden":0,"unhidden":0,"source_value_changed":0,"unchanged":0,"filled":0},
				"created":["a"],"unhidden":[],"hidden":[],"source_value_changed":[],"filled":[]}`},
		{name: "flat body form", method: "PUT", path: en + "fresh", auth: "{rw}",
			body:       map[string]string{"a": "A", "b": "B"},
			wantStatus: 200, check: then(syncReport(syncWant{total: 2, created: []string{"a", "b"}}),
				flatIs("en", "fresh", map[string]string{"a": "A", "b": "B"}))},
		{name: "flat body whose keys are named like the options", method: "PUT", path: en + "fresh", auth: "{rw}",
			body:       map[string]string{"translations": "Translations", "partial": "Partial"},
			wantStatus: 200, check: then(syncReport(syncWant{total: 2, created: []string{"translations", "partial"}}),
				flatIs("en", "fresh", map[string]string{"translations": "Translations", "partial": "Partial"}))},
		{name: "empty key set in a new namespace", method: "PUT", path: en + "fresh", auth: "{rw}",
			body: map[string]any{"translations": map[string]string{}}, wantStatus: 200,
			check: then(syncReport(syncWant{}), flatIs("en", "fresh", map[string]string{}))},
		{name: "keys not sent are hidden in the source language", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}",
			body:       map[string]any{"translations": map[string]string{"a": "A", "b": "B", "d": "D"}},
			wantStatus: 200, check: then(
				syncReport(syncWant{total: 3, created: []string{"d"}, hidden: []string{"c"}, unchanged: 2}),
				flatIs("en", "ui", map[string]string{"a": "A", "b": "B", "d": "D"}))},
		{name: "partial hides nothing", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}",
			body:       map[string]any{"translations": map[string]string{"d": "D"}, "partial": true},
			wantStatus: 200, check: then(syncReport(syncWant{total: 1, created: []string{"d"}}),
				flatIs("en", "ui", map[string]string{"a": "A", "b": "B", "c": "C", "d": "D"}))},
		{name: "partial false is a full sync", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}",
			body:       map[string]any{"translations": map[string]string{"a": "A"}, "partial": false},
			wantStatus: 200, check: then(syncReport(syncWant{total: 1, hidden: []string{"b", "c"}, unchanged: 1}),
				flatIs("en", "ui", map[string]string{"a": "A"}))},
		{name: "a target-language sync reports the empty rows it fills", setup: abc, method: "PUT", path: nb + "ui", auth: "{rw}",
			body:       map[string]string{"a": "A-nb-new", "b": "B-nb"},
			wantStatus: 200, check: then(syncReport(syncWant{total: 2, filled: []string{"b"}, unchanged: 1}),
				flatIs("nb", "ui", map[string]string{"a": "A-nb", "b": "B-nb"}))},
		{name: "dynamic key prefixes protect keys from hiding", setup: func(t *testing.T, s *server) {
			s.sync(t, "en", "ui", map[string]string{"a": "A", "b": "B", "dyn.x": "X", "dyn.y": "Y", "plural_one": "One"})
		}, method: "PUT", path: en + "ui", auth: "{rw}",
			body:       map[string]any{"translations": map[string]string{"a": "A"}, "dynamic_key_prefixes": []string{"dyn.", "plural_"}},
			wantStatus: 200, check: then(syncReport(syncWant{total: 1, hidden: []string{"b"}, unchanged: 1}),
				flatIs("en", "ui", map[string]string{"a": "A", "dyn.x": "X", "dyn.y": "Y", "plural_one": "One"}))},
		{name: "dynamic key prefixes null", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}",
			body:       map[string]any{"translations": abcEN, "dynamic_key_prefixes": nil},
			wantStatus: 200, check: syncReport(syncWant{total: 3, unchanged: 3})},
		{name: "preserve_source_values defaults to true", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}",
			body:       map[string]any{"translations": map[string]string{"a": "A2", "b": "B", "c": "C"}},
			wantStatus: 200, check: then(syncReport(syncWant{total: 3, unchanged: 3}), flatIs("en", "ui", abcEN), staleIs("ui", "lang=nb"))},
		{name: "preserve_source_values true keeps source values", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}",
			body:       map[string]any{"translations": map[string]string{"a": "A2", "b": "B2", "c": "C"}, "preserve_source_values": true},
			wantStatus: 200, check: then(syncReport(syncWant{total: 3, unchanged: 3}), flatIs("en", "ui", abcEN))},
		{name: "preserve_source_values false overwrites changed values", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}",
			body:       map[string]any{"translations": map[string]string{"a": "A2", "b": "B", "c": "C3"}, "preserve_source_values": false},
			wantStatus: 200, check: then(
				syncReport(syncWant{total: 3, changed: []string{"a", "c"}, unchanged: 1}),
				flatIs("en", "ui", map[string]string{"a": "A2", "b": "B", "c": "C3"}),
				flatIs("nb", "ui", map[string]string{"a": "A-nb"}),
				staleIs("ui", "lang=nb", "a"))},

		// Refusals store nothing.
		{name: "a refused value stores nothing of the batch", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}",
			body:       map[string]any{"translations": map[string]string{"new": "New", "bad": refusedValue}},
			wantStatus: 422, wantError: "invalid_translation", check: then(flatIs("en", "ui", abcEN), flatIs("nb", "ui", map[string]string{"a": "A-nb"}))},
		{name: "body over 5 MB", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}", body: bigBody(),
			wantStatus: 413, wantError: "", check: flatIs("en", "ui", abcEN)},
		{name: "body over 5 MB in a new namespace", method: "PUT", path: en + "fresh", auth: "{rw}", body: bigBody(),
			wantStatus: 413, check: flatIs("en", "fresh", nil)},
		{name: "not JSON", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}", body: "a=b",
			wantStatus: 400, wantError: "", check: flatIs("en", "ui", abcEN)},
		{name: "an array", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}", body: `["a","b"]`,
			wantStatus: 400, check: flatIs("en", "ui", abcEN)},
		{name: "translations is an array", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}", body: `{"translations":["a"]}`,
			wantStatus: 400, check: flatIs("en", "ui", abcEN)},
		{name: "a number as a value", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}", body: `{"translations":{"a":"A","n":1}}`,
			wantStatus: 400, check: flatIs("en", "ui", abcEN)},
		{name: "a number as a flat value", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}", body: `{"a":"A","n":1}`,
			wantStatus: 400, check: flatIs("en", "ui", abcEN)},
		{name: "null as a value", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}", body: `{"a":"A","n":null}`,
			wantStatus: 400, check: flatIs("en", "ui", abcEN)},
		{name: "partial is not a boolean", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}", body: `{"translations":{"a":"A"},"partial":"yes"}`,
			wantStatus: 400, check: flatIs("en", "ui", abcEN)},
		{name: "preserve_source_values is not a boolean", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}",
			body: `{"translations":{"a":"A2","b":"B","c":"C"},"preserve_source_values":"false"}`, wantStatus: 400, check: flatIs("en", "ui", abcEN)},
		{name: "dynamic_key_prefixes is not an array of strings", setup: abc, method: "PUT", path: en + "ui", auth: "{rw}",
			body: `{"translations":{"a":"A"},"dynamic_key_prefixes":"dyn."}`, wantStatus: 400, check: flatIs("en", "ui", abcEN)},
		{name: "a namespace key with spaces and symbols", method: "PUT", path: en + "bad%20name%21", auth: "{rw}",
			body: map[string]string{"a": "A"}, check: then(clientError, errorShape, flatIs("en", "bad name!", nil))},
		{name: "a namespace key of 200 characters", method: "PUT", path: en + strings.Repeat("n", 200), auth: "{rw}",
			body: map[string]string{"a": "A"}, check: then(clientError, errorShape)},
		{name: "language not on for the project", method: "PUT", path: "/api/sync/{project}/latest/de/fresh", auth: "{rw}",
			body: map[string]string{"a": "A"}, wantStatus: 404, wantError: "not_found", check: flatIs("en", "fresh", nil)},
		{name: "unknown project with a workspace token", method: "PUT", path: "/api/sync/00000000-0000-4000-8000-000000000000/latest/en/fresh",
			auth: "Bearer {ws}", body: map[string]string{"a": "A"}, wantStatus: 404, wantError: "not_found"},
	}
	runScenarios(t, scenarios)
}

// TestAPISyncLarge syncs 10,000 new keys in one request, then the same set again. One
// request at a time, and CPU-bound: skipped by the race run (-short).
func TestAPISyncLarge(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("10,000 keys, one request at a time; run without -short")
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		const n = 10000
		values := make(map[string]string, n)
		for i := 0; i < n; i++ {
			values[fmt.Sprintf("screen_%03d.element_%02d.label", i/100, i%100)] = fmt.Sprintf("Label number %d, with <strong>markup</strong> and %%{count}", i)
		}
		got := s.sync(t, "en", "large", map[string]any{"translations": values})
		if got.Summary.Created != n || len(got.Created) != n || got.Summary.TotalIncoming != n {
			t.Fatalf("summary %+v with %d created keys, want %d created", got.Summary, len(got.Created), n)
		}
		checkSyncSummary(t, got)
		if served := s.flat(t, "en", "large"); len(served) != n {
			t.Fatalf("endpoint 1 serves %d keys, want %d", len(served), n)
		} else {
			for k, v := range values {
				if served[k] != v {
					t.Fatalf("key %s is %q, want %q", k, served[k], v)
				}
			}
		}
		again := s.sync(t, "en", "large", map[string]any{"translations": values})
		syncWant{total: n, unchanged: n}.check(t, again)
	})
}
