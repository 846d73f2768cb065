package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// The rules of the write operations, tested on the catalogue itself on both databases.
// The transports (REST, MCP, the editor) keep a thin table each that proves they map
// their input, answer and status onto these operations.

// rules is one catalogue on a fresh copy of the fixture, written to as the system.
type rules struct {
	cat *tools.Catalog
	ctx context.Context
	p   string // the fixture's project: source en, targets nb and sv
}

func newRules(t *testing.T, dialect string) *rules {
	t.Helper()
	db, f := storagetest.MustOpenFixture(t, dialect)
	return &rules{cat: storagetest.Catalog(db, nil), ctx: model.WithPrincipal(t.Context(), tools.System), p: f.Project.ID}
}

func (r *rules) ns(lang, ns string) tools.NamespaceRef {
	return tools.NamespaceRef{ProjectID: r.p, Language: lang, Namespace: ns}
}

func (r *rules) row(ns, key, lang string) tools.RowRef {
	return tools.RowRef{KeyRef: r.key(ns, key), Language: lang}
}

func (r *rules) key(ns, key string) tools.KeyRef {
	return tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: r.p}, NamespaceKey: ns, TranslationKey: key}
}

func (r *rules) sync(t *testing.T, in tools.SyncIn) tools.SyncOut {
	t.Helper()
	out, err := r.cat.Sync(r.ctx, in)
	if err != nil {
		t.Fatalf("sync %s/%s: %v", in.Language, in.Namespace, err)
	}
	return out
}

func (r *rules) overwrite(t *testing.T, lang, ns string, values map[string]string) {
	t.Helper()
	if _, err := r.cat.Overwrite(r.ctx, tools.OverwriteIn{NamespaceRef: r.ns(lang, ns), Translations: values}); err != nil {
		t.Fatalf("overwrite %s/%s: %v", lang, ns, err)
	}
}

func (r *rules) lock(t *testing.T, ns, key, lang string) {
	t.Helper()
	if _, err := r.cat.FlagTranslation(r.ctx, tools.FlagIn{RowRef: r.row(ns, key, lang), Flag: model.FlagLanguageLocked, Value: true}); err != nil {
		t.Fatalf("locking %s in %s: %v", key, lang, err)
	}
}

// flat is what endpoint 1 serves of a namespace; nil when the namespace does not exist.
func (r *rules) flat(t *testing.T, lang, ns string) map[string]string {
	t.Helper()
	f, err := r.cat.ReadNamespace(r.ctx, r.ns(lang, ns))
	if model.ErrorCode(err) == model.CodeNotFound {
		return nil
	}
	if err != nil {
		t.Fatalf("reading %s/%s: %v", lang, ns, err)
	}
	m := map[string]string{}
	if err := json.Unmarshal(f.Body, &m); err != nil {
		t.Fatalf("decoding %s/%s: %v", lang, ns, err)
	}
	return m
}

func (r *rules) wantFlat(t *testing.T, lang, ns string, want map[string]string) {
	t.Helper()
	if got := r.flat(t, lang, ns); (got == nil) != (want == nil) || !maps.Equal(got, want) {
		t.Errorf("%s/%s serves %v, want %v", lang, ns, got, want)
	}
}

func (r *rules) stale(t *testing.T, ns, lang string) []string {
	t.Helper()
	out, err := r.cat.ListStale(r.ctx, tools.StaleIn{ProjectID: r.p, Namespace: ns, Language: lang})
	if err != nil {
		t.Fatalf("listing stale %s keys of %s: %v", lang, ns, err)
	}
	return sorted(out.StaleKeys)
}

// view is a key's row in lang, as get_translation shows it.
func (r *rules) view(t *testing.T, ns, key, lang string) (tools.TranslationView, bool) {
	t.Helper()
	out, err := r.cat.GetTranslation(r.ctx, r.key(ns, key))
	if err != nil {
		t.Fatalf("get_translation %s: %v", key, err)
	}
	for _, v := range out.Translations {
		if v.Language == lang {
			return v, true
		}
	}
	return tools.TranslationView{}, false
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// keysEqual compares key lists in any order; nil and empty are the same.
func keysEqual(got, want []string) bool {
	return slices.Equal(sorted(got), sorted(want))
}

// syncWant is what a sync reports; lists compare in any order.
type syncWant struct {
	total                                      int
	created, unhidden, hidden, changed, filled []string
	unchanged                                  int
}

func (w syncWant) check(t *testing.T, got tools.SyncOut) {
	t.Helper()
	for _, c := range []struct {
		name      string
		got, want []string
		count     int
	}{
		{"created", got.Created, w.created, got.Summary.Created},
		{"unhidden", got.Unhidden, w.unhidden, got.Summary.Unhidden},
		{"hidden", got.Hidden, w.hidden, got.Summary.Hidden},
		{"source_value_changed", got.SourceValueChanged, w.changed, got.Summary.SourceValueChanged},
		{"filled", got.Filled, w.filled, got.Summary.Filled},
	} {
		if !keysEqual(c.got, c.want) {
			t.Errorf("%s %v, want %v", c.name, c.got, c.want)
		}
		if c.got == nil {
			t.Errorf("%s is nil: the answer must carry an array", c.name)
		}
		if c.count != len(c.got) {
			t.Errorf("summary.%s is %d but the list has %d keys", c.name, c.count, len(c.got))
		}
	}
	if got.Summary.TotalIncoming != w.total || got.Summary.Unchanged != w.unchanged {
		t.Errorf("summary %+v, want total_incoming %d and unchanged %d", got.Summary, w.total, w.unchanged)
	}
	// Each incoming key is counted once: created, unchanged, or touched.
	touched := map[string]bool{}
	for _, k := range slices.Concat(got.Unhidden, got.SourceValueChanged, got.Filled) {
		touched[k] = true
	}
	if n := got.Summary.Created + got.Summary.Unchanged + len(touched); n != got.Summary.TotalIncoming {
		t.Errorf("created + unchanged + touched = %d, want total_incoming %d", n, got.Summary.TotalIncoming)
	}
}

// TestSyncStates is the States table of a sync (spec endpoint 3): what each kind of key
// becomes and how the answer reports it, in the source language and in a target one, with
// each option, and the refusals that store nothing.
func TestSyncStates(t *testing.T) {
	t.Parallel()
	abcEN := map[string]string{"a": "A", "b": "B", "c": "C"}
	// abc: namespace ui with a, b and c in English and a Norwegian value for a.
	abc := func(t *testing.T, r *rules) {
		r.sync(t, tools.SyncIn{NamespaceRef: r.ns("en", "ui"), Translations: abcEN})
		r.overwrite(t, "nb", "ui", map[string]string{"a": "A-nb"})
	}
	abcHiddenC := func(t *testing.T, r *rules) {
		abc(t, r)
		r.sync(t, tools.SyncIn{NamespaceRef: r.ns("en", "ui"), Translations: map[string]string{"a": "A", "b": "B"}})
	}
	no, yes := new(bool), new(bool)
	*yes = true
	cases := []struct {
		name  string
		setup func(t *testing.T, r *rules)
		lang  string // "en" unless set
		ns    string // "ui" unless set
		in    tools.SyncIn
		want  syncWant
		code  string                       // a refusal's error code
		flat  map[string]map[string]string // language → what endpoint 1 serves after (nil: no namespace)
		stale []string                     // ui's stale keys in nb after
	}{
		{name: "a first push creates the namespace", ns: "fresh",
			in:   tools.SyncIn{Translations: map[string]string{"a": "A", "b.c": "BC"}},
			want: syncWant{total: 2, created: []string{"a", "b.c"}},
			flat: map[string]map[string]string{"en": {"a": "A", "b.c": "BC"}, "nb": {}}},
		{name: "an empty key set in a new namespace", ns: "fresh",
			in: tools.SyncIn{Translations: map[string]string{}}, flat: map[string]map[string]string{"en": {}}},
		{name: "keys not sent are hidden in the source language", setup: abc,
			in:   tools.SyncIn{Translations: map[string]string{"a": "A", "b": "B", "d": "D"}},
			want: syncWant{total: 3, created: []string{"d"}, hidden: []string{"c"}, unchanged: 2},
			flat: map[string]map[string]string{"en": {"a": "A", "b": "B", "d": "D"}, "nb": {"a": "A-nb"}}},
		{name: "a hidden key is not reported hidden again", setup: abcHiddenC,
			in:   tools.SyncIn{Translations: map[string]string{"a": "A", "b": "B"}},
			want: syncWant{total: 2, unchanged: 2}, flat: map[string]map[string]string{"en": {"a": "A", "b": "B"}}},
		{name: "a hidden key sent again is unhidden with its old value", setup: abcHiddenC,
			in:   tools.SyncIn{Translations: map[string]string{"a": "A", "b": "B", "c": "C-new"}},
			want: syncWant{total: 3, unhidden: []string{"c"}, unchanged: 2}, flat: map[string]map[string]string{"en": abcEN}},
		{name: "a hidden key sent with a new value and preserve false", setup: abcHiddenC,
			in:   tools.SyncIn{Translations: map[string]string{"a": "A", "b": "B", "c": "C2"}, PreserveSourceValues: no},
			want: syncWant{total: 3, unhidden: []string{"c"}, changed: []string{"c"}, unchanged: 2},
			flat: map[string]map[string]string{"en": {"a": "A", "b": "B", "c": "C2"}}},
		{name: "partial hides nothing", setup: abc,
			in:   tools.SyncIn{Translations: map[string]string{"d": "D"}, Partial: true},
			want: syncWant{total: 1, created: []string{"d"}},
			flat: map[string]map[string]string{"en": {"a": "A", "b": "B", "c": "C", "d": "D"}}},
		{name: "partial unhides a key it sends", setup: abcHiddenC,
			in:   tools.SyncIn{Translations: map[string]string{"c": "C"}, Partial: true},
			want: syncWant{total: 1, unhidden: []string{"c"}}, flat: map[string]map[string]string{"en": abcEN}},
		{name: "dynamic key prefixes protect keys from hiding", setup: func(t *testing.T, r *rules) {
			r.sync(t, tools.SyncIn{NamespaceRef: r.ns("en", "ui"), Translations: map[string]string{"a": "A", "b": "B", "dyn.x": "X", "dyn.y": "Y", "plural_one": "One"}})
		},
			in:   tools.SyncIn{Translations: map[string]string{"a": "A"}, DynamicKeyPrefixes: []string{"dyn.", "plural_"}},
			want: syncWant{total: 1, hidden: []string{"b"}, unchanged: 1},
			flat: map[string]map[string]string{"en": {"a": "A", "dyn.x": "X", "dyn.y": "Y", "plural_one": "One"}}},
		{name: "source values are preserved by default", setup: abc,
			in:   tools.SyncIn{Translations: map[string]string{"a": "A2", "b": "B", "c": "C"}},
			want: syncWant{total: 3, unchanged: 3}, flat: map[string]map[string]string{"en": abcEN}, stale: []string{}},
		{name: "preserve true keeps source values", setup: abc,
			in:   tools.SyncIn{Translations: map[string]string{"a": "A2", "b": "B2", "c": "C"}, PreserveSourceValues: yes},
			want: syncWant{total: 3, unchanged: 3}, flat: map[string]map[string]string{"en": abcEN}},
		{name: "new keys take the sent values with preserve true", setup: abc,
			in:   tools.SyncIn{Translations: map[string]string{"a": "A2", "b": "B", "c": "C", "d": "D"}, PreserveSourceValues: yes},
			want: syncWant{total: 4, created: []string{"d"}, unchanged: 3},
			flat: map[string]map[string]string{"en": {"a": "A", "b": "B", "c": "C", "d": "D"}}},
		{name: "preserve false overwrites changed values and makes their translations stale", setup: abc,
			in:   tools.SyncIn{Translations: map[string]string{"a": "A2", "b": "B", "c": "C3"}, PreserveSourceValues: no},
			want: syncWant{total: 3, changed: []string{"a", "c"}, unchanged: 1},
			flat: map[string]map[string]string{"en": {"a": "A2", "b": "B", "c": "C3"}, "nb": {"a": "A-nb"}}, stale: []string{"a"}},
		{name: "a target-language sync fills empty rows and keeps existing ones", setup: abc, lang: "nb",
			in:   tools.SyncIn{Translations: map[string]string{"a": "A-nb-new", "b": "B-nb"}},
			want: syncWant{total: 2, filled: []string{"b"}, unchanged: 1},
			flat: map[string]map[string]string{"nb": {"a": "A-nb", "b": "B-nb"}}},
		{name: "a target-language sync creates keys with its values and hides nothing", setup: abc, lang: "nb",
			in:   tools.SyncIn{Translations: map[string]string{"a": "A-nb-new", "d": "D-nb"}},
			want: syncWant{total: 2, created: []string{"d"}, unchanged: 1},
			flat: map[string]map[string]string{"en": abcEN, "nb": {"a": "A-nb", "d": "D-nb"}, "sv": {}}},
		{name: "a target-language sync with preserve false leaves the source alone", setup: abc, lang: "nb",
			in:   tools.SyncIn{Translations: map[string]string{"a": "A-nb"}, PreserveSourceValues: no},
			want: syncWant{total: 1, unchanged: 1}, flat: map[string]map[string]string{"en": abcEN}, stale: []string{}},
		{name: "a target-language sync unhides a key it sends", setup: abcHiddenC, lang: "nb",
			in:   tools.SyncIn{Translations: map[string]string{"c": "C-nb"}},
			want: syncWant{total: 1, unhidden: []string{"c"}, filled: []string{"c"}}, flat: map[string]map[string]string{"en": abcEN}},
		{name: "a first push in a target language creates the namespace", lang: "nb", ns: "fresh",
			in:   tools.SyncIn{Translations: map[string]string{"x": "X-nb"}},
			want: syncWant{total: 1, created: []string{"x"}},
			flat: map[string]map[string]string{"nb": {"x": "X-nb"}, "en": {}}},

		{name: "a refused value stores nothing of the batch", setup: abc,
			in:   tools.SyncIn{Translations: map[string]string{"new": "New", "bad": `<img src=x onerror=alert(1)>`}},
			code: model.CodeInvalidTranslation, flat: map[string]map[string]string{"en": abcEN, "nb": {"a": "A-nb"}}},
		{name: "a refused value in a new namespace creates nothing", ns: "fresh",
			in:   tools.SyncIn{Translations: map[string]string{"ok": "OK", "bad": `<a href="javascript:alert(1)">x</a>`}},
			code: model.CodeInvalidTranslation, flat: map[string]map[string]string{"en": nil}},
		{name: "a refused value with preserve false changes nothing", setup: abc,
			in:   tools.SyncIn{Translations: map[string]string{"a": "A2", "b": "B", "c": `<img src=x onerror=alert(1)>`}, PreserveSourceValues: no},
			code: model.CodeInvalidTranslation, flat: map[string]map[string]string{"en": abcEN}, stale: []string{}},
		{name: "a language that is not on", ns: "fresh", lang: "de",
			in: tools.SyncIn{Translations: map[string]string{"a": "A"}}, code: model.CodeNotFound, flat: map[string]map[string]string{"en": nil}},
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				r := newRules(t, dialect)
				if tc.setup != nil {
					tc.setup(t, r)
				}
				in := tc.in
				in.NamespaceRef = r.ns(orDefault(tc.lang, "en"), orDefault(tc.ns, "ui"))
				out, err := r.cat.Sync(r.ctx, in)
				if tc.code != "" {
					if model.ErrorCode(err) != tc.code {
						t.Errorf("sync: %v, want %s", err, tc.code)
					}
				} else if err != nil {
					t.Fatalf("sync: %v", err)
				} else {
					tc.want.check(t, out)
				}
				for lang, want := range tc.flat {
					r.wantFlat(t, lang, in.Namespace, want)
				}
				if tc.stale != nil {
					if got := r.stale(t, "ui", "nb"); !keysEqual(got, tc.stale) {
						t.Errorf("stale in nb: %v, want %v", got, tc.stale)
					}
				}
			})
		}
	})
}

func orDefault(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

// TestSyncLifecycle walks one namespace through the States table in order: create, chunked
// partial pushes closed by a full sync that hides, a changed source that unhides, makes the
// translations stale and clears their language locks, and the same sync again, which
// changes nothing.
func TestSyncLifecycle(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		r := newRules(t, dialect)
		flow := func(values map[string]string, partial bool, preserve *bool) tools.SyncOut {
			return r.sync(t, tools.SyncIn{NamespaceRef: r.ns("en", "flow"), Translations: values, Partial: partial, PreserveSourceValues: preserve})
		}
		syncWant{total: 3, created: []string{"a", "b", "c"}}.check(t, flow(map[string]string{"a": "A", "b": "B", "c": "C"}, false, nil))
		r.overwrite(t, "nb", "flow", map[string]string{"a": "A-nb", "b": "B-nb", "c": "C-nb"})
		r.overwrite(t, "sv", "flow", map[string]string{"a": "A-sv"})

		syncWant{total: 1, created: []string{"d"}}.check(t, flow(map[string]string{"d": "D"}, true, nil))
		syncWant{total: 1, created: []string{"e"}}.check(t, flow(map[string]string{"e": "E"}, true, nil))
		r.wantFlat(t, "en", "flow", map[string]string{"a": "A", "b": "B", "c": "C", "d": "D", "e": "E"})
		syncWant{total: 4, hidden: []string{"b"}, unchanged: 4}.check(t, flow(map[string]string{"a": "A", "c": "C", "d": "D", "e": "E"}, false, nil))
		r.wantFlat(t, "nb", "flow", map[string]string{"a": "A-nb", "c": "C-nb"})

		r.lock(t, "flow", "a", "nb")
		r.lock(t, "flow", "a", "sv")
		r.lock(t, "flow", "c", "nb")
		no := new(bool)
		all := map[string]string{"a": "A2", "b": "B", "c": "C", "d": "D", "e": "E"}
		syncWant{total: 5, unhidden: []string{"b"}, changed: []string{"a"}, unchanged: 3}.check(t, flow(all, false, no))
		r.wantFlat(t, "en", "flow", all)
		for _, lang := range []string{"nb", "sv"} {
			if got := r.stale(t, "flow", lang); !keysEqual(got, []string{"a"}) {
				t.Errorf("stale in %s after the source change: %v, want [a]", lang, got)
			}
		}
		for _, c := range []struct {
			key, lang, value string
			locked           bool
		}{{"a", "nb", "A-nb", false}, {"a", "sv", "A-sv", false}, {"c", "nb", "C-nb", true}} {
			v, ok := r.view(t, "flow", c.key, c.lang)
			if !ok || v.LanguageLocked != c.locked || v.Value != c.value {
				t.Errorf("%s in %s: %+v, want %q with language_locked %v", c.key, c.lang, v, c.value, c.locked)
			}
		}
		r.wantFlat(t, "nb", "flow", map[string]string{"a": "A-nb", "b": "B-nb", "c": "C-nb"})

		syncWant{total: 5, unchanged: 5}.check(t, flow(all, false, no))
		if got := r.stale(t, "flow", "nb"); !keysEqual(got, []string{"a"}) {
			t.Errorf("stale in nb after the same sync again: %v, want [a]", got)
		}
	})
}

// TestUpdateTranslationRules: a written value is a draft unless approval is asked for, an
// approved value written again goes back to review, a locked row and an executable value
// are refused with nothing changed, and a changed source value makes the translations
// stale until they are written again.
func TestUpdateTranslationRules(t *testing.T) {
	t.Parallel()
	seed := func(t *testing.T, r *rules) {
		r.sync(t, tools.SyncIn{NamespaceRef: r.ns("en", "common"), Translations: map[string]string{"greeting": "Hello", "farewell": "Goodbye"}})
		if _, err := r.cat.UpdateTranslation(r.ctx, tools.UpdateTranslationIn{RowRef: r.row("common", "greeting", "nb"), Value: "Hei", Status: model.StatusApproved}); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name       string
		setup      func(t *testing.T, r *rules)
		key, lang  string
		value      string
		status     string
		wantStatus string
		code       string
	}{
		{name: "a draft by default", key: "farewell", lang: "nb", value: "Ha det", wantStatus: model.StatusNeedsReview},
		{name: "an approved value written again goes back to review", key: "greeting", lang: "nb", value: "Hallo", wantStatus: model.StatusNeedsReview},
		{name: "approved when asked for", key: "greeting", lang: "sv", value: "Hej", status: model.StatusApproved, wantStatus: model.StatusApproved},
		{name: "needs_review when asked for", key: "farewell", lang: "sv", value: "Hej då", status: model.StatusNeedsReview, wantStatus: model.StatusNeedsReview},
		{name: "markup and placeholders are fine", key: "greeting", lang: "sv", value: `<strong>Hej</strong> %{name}, <a href="https://x.test/?a=1&b=2">här</a>`, wantStatus: model.StatusNeedsReview},
		{name: "a language_locked row is refused", setup: func(t *testing.T, r *rules) { r.lock(t, "common", "greeting", "nb") },
			key: "greeting", lang: "nb", value: "Overwritten", status: model.StatusApproved, code: model.CodeConflict},
		{name: "an inline event handler is refused", key: "farewell", lang: "nb", value: `<img src=x onerror=alert(1)>`, code: model.CodeInvalidTranslation},
		{name: "a script URL is refused", key: "farewell", lang: "nb", value: `javascript:alert(1)`, code: model.CodeInvalidTranslation},
		{name: "a link to a script URL is refused", key: "farewell", lang: "nb", value: `<a href="javascript:alert(1)">x</a>`, code: model.CodeInvalidTranslation},
		{name: "an executable source value is refused", key: "farewell", lang: "en", value: `<svg onload=alert(1)>`, code: model.CodeInvalidTranslation},
		{name: "an unknown status", key: "farewell", lang: "nb", value: "Ha det", status: "done", code: model.CodeInvalid},
		{name: "an unknown key", key: "nope", lang: "nb", value: "X", code: model.CodeNotFound},
		{name: "a language that is not on", key: "farewell", lang: "de", value: "Tschüss", code: model.CodeNotFound},
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				r := newRules(t, dialect)
				seed(t, r)
				if tc.setup != nil {
					tc.setup(t, r)
				}
				flatBefore := r.flat(t, tc.lang, "common")
				out, err := r.cat.UpdateTranslation(r.ctx, tools.UpdateTranslationIn{RowRef: r.row("common", tc.key, tc.lang), Value: tc.value, Status: tc.status})
				if tc.code != "" {
					if model.ErrorCode(err) != tc.code {
						t.Errorf("update_translation: %v, want %s", err, tc.code)
					}
					if got := r.flat(t, tc.lang, "common"); !maps.Equal(got, flatBefore) {
						t.Errorf("a refused write moved %s from %v to %v", tc.lang, flatBefore, got)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if out.Value != tc.value || out.Status != tc.wantStatus || out.Language != tc.lang {
					t.Errorf("answer %+v, want %q %s", out, tc.value, tc.wantStatus)
				}
				if v, ok := r.view(t, "common", tc.key, tc.lang); !ok || v.Value != tc.value || v.Status != tc.wantStatus {
					t.Errorf("row %+v, want %q %s", v, tc.value, tc.wantStatus)
				}
				if got := r.flat(t, tc.lang, "common"); got[tc.key] != tc.value {
					t.Errorf("endpoint 1 in %s has %s=%q, want %q", tc.lang, tc.key, got[tc.key], tc.value)
				}
			})
		}
		t.Run("a changed source makes translations stale until written again", func(t *testing.T) {
			t.Parallel()
			r := newRules(t, dialect)
			seed(t, r)
			write := func(lang, value string) {
				t.Helper()
				if _, err := r.cat.UpdateTranslation(r.ctx, tools.UpdateTranslationIn{RowRef: r.row("common", "greeting", lang), Value: value}); err != nil {
					t.Fatal(err)
				}
			}
			write("en", "Hello there")
			if en, _ := r.view(t, "common", "greeting", "en"); en.Value != "Hello there" || en.Stale {
				t.Errorf("en row %+v", en)
			}
			if nb, _ := r.view(t, "common", "greeting", "nb"); !nb.Stale {
				t.Errorf("nb row %+v is not stale after the source changed", nb)
			}
			if got := r.stale(t, "common", "nb"); !keysEqual(got, []string{"greeting"}) {
				t.Errorf("stale in nb: %v, want [greeting]", got)
			}
			write("nb", "Hei der")
			if nb, _ := r.view(t, "common", "greeting", "nb"); nb.Stale {
				t.Errorf("nb row %+v is still stale after a new value", nb)
			}
			if got := r.stale(t, "common", "nb"); len(got) != 0 {
				t.Errorf("stale in nb after the new value: %v, want none", got)
			}
		})
	})
}

// TestFlagRules: flags set and clear independently, a lock refuses writes until cleared,
// do_not_translate on a language with no value stores the source text, and the refusals.
// The steps run in order on one database: each starts from the flags the one before left.
func TestFlagRules(t *testing.T) {
	t.Parallel()
	steps := []struct {
		name         string
		key, lang    string
		flag         string
		value        bool
		locked, dnt  bool
		wantValue    string
		writeRefused *bool // after the step: is a write to the row refused?
		code         string
	}{
		{name: "set language_locked", key: "greeting", lang: "nb", flag: model.FlagLanguageLocked, value: true, locked: true, wantValue: "Hei", writeRefused: ptr(true)},
		{name: "set language_locked again", key: "greeting", lang: "nb", flag: model.FlagLanguageLocked, value: true, locked: true, wantValue: "Hei"},
		{name: "set do_not_translate beside it", key: "greeting", lang: "nb", flag: model.FlagDoNotTranslate, value: true, locked: true, dnt: true, wantValue: "Hei"},
		{name: "clear language_locked", key: "greeting", lang: "nb", flag: model.FlagLanguageLocked, value: false, dnt: true, wantValue: "Hei", writeRefused: ptr(false)},
		{name: "clear do_not_translate", key: "greeting", lang: "nb", flag: model.FlagDoNotTranslate, value: false, wantValue: "Hei"},
		{name: "do_not_translate on a language with no value keeps the source", key: "farewell", lang: "sv", flag: model.FlagDoNotTranslate, value: true, dnt: true, wantValue: "Goodbye"},
		{name: "an unknown flag", key: "greeting", lang: "nb", flag: "hidden", value: true, code: model.CodeInvalid},
		{name: "a language that is not on", key: "greeting", lang: "de", flag: model.FlagLanguageLocked, value: true, code: model.CodeNotFound},
		{name: "an unknown key", key: "nope", lang: "nb", flag: model.FlagLanguageLocked, value: true, code: model.CodeNotFound},
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		r := newRules(t, dialect)
		r.sync(t, tools.SyncIn{NamespaceRef: r.ns("en", "common"), Translations: map[string]string{"greeting": "Hello", "farewell": "Goodbye"}})
		r.overwrite(t, "nb", "common", map[string]string{"greeting": "Hei"})
		for _, s := range steps {
			t.Run(s.name, func(t *testing.T) {
				out, err := r.cat.FlagTranslation(r.ctx, tools.FlagIn{RowRef: r.row("common", s.key, s.lang), Flag: s.flag, Value: s.value})
				if s.code != "" {
					if model.ErrorCode(err) != s.code {
						t.Errorf("flag_translation: %v, want %s", err, s.code)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if out.LanguageLocked != s.locked || out.DoNotTranslate != s.dnt {
					t.Errorf("answer %+v, want locked %v do_not_translate %v", out, s.locked, s.dnt)
				}
				if v, ok := r.view(t, "common", s.key, s.lang); !ok || v.LanguageLocked != s.locked || v.DoNotTranslate != s.dnt || v.Value != s.wantValue {
					t.Errorf("row %+v, want %q locked %v do_not_translate %v", v, s.wantValue, s.locked, s.dnt)
				}
				if s.writeRefused != nil {
					_, err := r.cat.UpdateTranslation(r.ctx, tools.UpdateTranslationIn{RowRef: r.row("common", s.key, s.lang), Value: s.wantValue})
					if refused := model.ErrorCode(err) == model.CodeConflict; refused != *s.writeRefused || (!refused && err != nil) {
						t.Errorf("a write after the step: %v, want refused %v", err, *s.writeRefused)
					}
				}
			})
		}
	})
}

func ptr[T any](v T) *T { return &v }

// TestTextFieldRules: short text fields (a comment's body, glossary terms) are trimmed and
// must be 1 to their maximum bytes of valid UTF-8 without control characters other than
// newlines and tabs; keys, values and namespace names of a sync have rules of their own,
// and one bad entry stores nothing of the batch.
func TestTextFieldRules(t *testing.T) {
	t.Parallel()
	fields := []struct {
		name, in string
		max      int
		want     string // the stored text; "" for a refusal (invalid)
	}{
		{"trimmed", "  Looks good \n", 0, "Looks good"},
		{"newlines and tabs inside", "Line one\n\tline two", 0, "Line one\n\tline two"},
		{"empty", "", 0, ""},
		{"only spaces", " \n\t ", 0, ""},
		{"a control character", "bell\a", 0, ""},
		{"DEL", "del\x7f", 0, ""},
		{"a NUL", "nul\x00", 0, ""},
		{"not UTF-8", "\xff\xfe", 0, ""},
		{"exactly the maximum", "", 1, "x"},
		{"one byte past the maximum", "", 2, ""},
	}
	// fill is the field's text when the case is about its maximum: max 1 means exactly
	// max bytes, 2 means one more.
	fill := func(in string, sizeCase, max int) string {
		if sizeCase == 0 {
			return in
		}
		return strings.Repeat("x", max+sizeCase-1)
	}
	keys := []struct {
		name   string
		values map[string]string
		code   string
	}{
		{"an empty key", map[string]string{"": "A"}, model.CodeUnprocessable},
		{"a key past its maximum", map[string]string{strings.Repeat("k", model.MaxKeyBytes+1): "A"}, model.CodeUnprocessable},
		{"a key that is not UTF-8", map[string]string{"k\xff": "A"}, model.CodeUnprocessable},
		{"a key with a NUL", map[string]string{"k\x00": "A"}, model.CodeUnprocessable},
		{"a value past its maximum", map[string]string{"k": strings.Repeat("v", model.MaxValueBytes+1)}, model.CodeUnprocessable},
		{"a value that is not UTF-8", map[string]string{"k": "v\xff"}, model.CodeUnprocessable},
		{"a value with a NUL", map[string]string{"k": "v\x00"}, model.CodeUnprocessable},
		{"an executable value", map[string]string{"k": `<img src=x onerror=alert(1)>`}, model.CodeInvalidTranslation},
		{"a key of the maximum and a value of the maximum", map[string]string{strings.Repeat("k", model.MaxKeyBytes): strings.Repeat("v", model.MaxValueBytes)}, ""},
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		r := newRules(t, dialect)
		r.sync(t, tools.SyncIn{NamespaceRef: r.ns("en", "common"), Translations: map[string]string{"greeting": "Hello"}})
		for _, f := range fields {
			t.Run("comment/"+f.name, func(t *testing.T) {
				in := fill(f.in, f.max, tools.MaxCommentBytes)
				want := f.want
				if f.max != 0 && want != "" {
					want = in
				}
				c, err := r.cat.AddComment(r.ctx, tools.AddCommentIn{RowRef: r.row("common", "greeting", "nb"), Body: in})
				if want == "" {
					if model.ErrorCode(err) != model.CodeInvalid {
						t.Errorf("add_comment %q: %v, want invalid", truncated(in), err)
					}
				} else if err != nil || c.Body != want {
					t.Errorf("add_comment %q: %q (%v), want %q", truncated(in), c.Body, err, truncated(want))
				}
			})
			t.Run("glossary/"+f.name, func(t *testing.T) {
				in := fill(f.in, f.max, tools.MaxTermBytes)
				want := f.want
				if f.max != 0 && want != "" {
					want = in
				}
				for _, g := range []tools.GlossaryIn{{SourceTerm: in, TargetTerm: "Term"}, {SourceTerm: "Term " + f.name, TargetTerm: in}} {
					g.ProjectID = r.p
					got, err := r.cat.AddGlossaryTerm(r.ctx, g)
					stored := got.SourceTerm
					if g.TargetTerm == in {
						stored = got.TargetTerm
					}
					if want == "" {
						if model.ErrorCode(err) != model.CodeInvalid {
							t.Errorf("add_glossary_term %+v: %v, want invalid", g, err)
						}
					} else if err != nil || stored != want {
						t.Errorf("add_glossary_term: stored %q (%v), want %q", truncated(stored), err, truncated(want))
					}
				}
			})
		}
		for _, k := range keys {
			t.Run("sync/"+k.name, func(t *testing.T) {
				values := maps.Clone(k.values)
				values["ok"] = "OK"
				_, err := r.cat.Sync(r.ctx, tools.SyncIn{NamespaceRef: r.ns("en", "batch"), Translations: values, Partial: true})
				if k.code == "" && err != nil || k.code != "" && model.ErrorCode(err) != k.code {
					t.Fatalf("sync: %v, want %q", err, k.code)
				}
				if k.code != "" {
					if got := r.flat(t, "en", "batch"); got["ok"] != "" {
						t.Errorf("a refused batch stored its good entry: %v", truncated(fmt.Sprint(got)))
					}
				}
			})
		}
		for _, ns := range []string{"", "bad name!", strings.Repeat("n", 129), "-lead"} {
			t.Run("namespace/"+truncated(ns), func(t *testing.T) {
				_, err := r.cat.Sync(r.ctx, tools.SyncIn{NamespaceRef: r.ns("en", ns), Translations: map[string]string{"a": "A"}})
				if model.ErrorCode(err) != model.CodeUnprocessable {
					t.Errorf("sync into %q: %v, want unprocessable", ns, err)
				}
			})
		}
	})
}

func truncated(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// TestStaleRules follows the stale translations of a namespace (spec endpoint 5) until none
// are left: a source change makes its translations stale, a row older than any source value
// counts only with IncludeNull, a new value closes one, the unchanged value sent again
// closes another (refreshed), and a later source change opens it again. The source
// language and a language without translations have none.
func TestStaleRules(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		r := newRules(t, dialect)
		r.sync(t, tools.SyncIn{NamespaceRef: r.ns("en", "ui"), Translations: map[string]string{"a": "A", "b": "B", "c": "C"}})
		r.overwrite(t, "nb", "ui", map[string]string{"a": "A-nb"})
		// k comes from a Norwegian sync, so its Norwegian row predates any source value.
		r.sync(t, tools.SyncIn{NamespaceRef: r.ns("nb", "ui"), Translations: map[string]string{"k": "K-nb"}})
		r.sync(t, tools.SyncIn{NamespaceRef: r.ns("en", "ui"), Translations: map[string]string{"a": "A", "b": "B", "c": "C", "k": "K"}})
		if v, ok := r.view(t, "ui", "k", "nb"); !ok || v.SourceVersion != nil {
			t.Fatalf("k's Norwegian row should exist with no source version: %+v", v)
		}
		r.overwrite(t, "nb", "ui", map[string]string{"b": "B-nb"})
		r.overwrite(t, "en", "ui", map[string]string{"b": "B2"})

		stale := func(lang string, includeNull bool, want ...string) {
			t.Helper()
			out, err := r.cat.ListStale(r.ctx, tools.StaleIn{ProjectID: r.p, Namespace: "ui", Language: lang, IncludeNull: includeNull})
			if err != nil {
				t.Fatal(err)
			}
			if out.Lang != lang || out.StaleKeys == nil || !keysEqual(out.StaleKeys, want) {
				t.Errorf("stale in %s (include_null %v): %+v, want %v", lang, includeNull, out, want)
			}
		}
		overwrite := func(values map[string]string) tools.OverwriteOut {
			t.Helper()
			out, err := r.cat.Overwrite(r.ctx, tools.OverwriteIn{NamespaceRef: r.ns("nb", "ui"), Translations: values})
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		stale("nb", true, "b", "k")
		stale("nb", false, "b")
		stale("sv", true)
		stale("en", true)
		if out := overwrite(map[string]string{"b": "B2-nb"}); !keysEqual(out.Updated, []string{"b"}) || len(out.Refreshed) != 0 {
			t.Errorf("a new value: %+v, want b updated", out)
		}
		stale("nb", true, "k")
		stale("nb", false)
		if out := overwrite(map[string]string{"k": "K-nb"}); !keysEqual(out.Refreshed, []string{"k"}) || len(out.Updated) != 0 {
			t.Errorf("the same value again: %+v, want k refreshed", out)
		}
		stale("nb", true)
		no := false
		r.sync(t, tools.SyncIn{NamespaceRef: r.ns("en", "ui"), Translations: map[string]string{"a": "A", "c": "C", "k": "K2"}, PreserveSourceValues: &no})
		stale("nb", true, "k")

		for _, c := range []struct{ name, ns, lang, code string }{
			{"a language that is not on", "ui", "de", model.CodeNotFound},
			{"an unknown namespace", "nope", "nb", model.CodeNotFound},
		} {
			_, err := r.cat.ListStale(r.ctx, tools.StaleIn{ProjectID: r.p, Namespace: c.ns, Language: c.lang})
			if model.ErrorCode(err) != c.code {
				t.Errorf("%s: %v, want %s", c.name, err, c.code)
			}
		}
	})
}

// TestStatusRules: the status each write leaves on a row (a value from the team's own
// files, by sync or overwrite, is approved; one written through update_translation is a
// draft) and set_translation_status, which moves a row between the two and keeps its text.
// The steps run in order on one database.
func TestStatusRules(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		r := newRules(t, dialect)
		r.sync(t, tools.SyncIn{NamespaceRef: r.ns("en", "common"), Translations: map[string]string{"greeting": "Hello", "farewell": "Goodbye", "thanks": "Thanks"}})
		want := func(key, lang, value, status string) {
			t.Helper()
			if v, ok := r.view(t, "common", key, lang); !ok || v.Value != value || v.Status != status {
				t.Errorf("%s in %s: %+v, want %q %s", key, lang, v, value, status)
			}
		}
		r.overwrite(t, "nb", "common", map[string]string{"greeting": "Hei"})
		want("greeting", "nb", "Hei", model.StatusApproved)
		r.sync(t, tools.SyncIn{NamespaceRef: r.ns("nb", "common"), Translations: map[string]string{"thanks": "Takk"}})
		want("thanks", "nb", "Takk", model.StatusApproved)
		if _, err := r.cat.UpdateTranslation(r.ctx, tools.UpdateTranslationIn{RowRef: r.row("common", "farewell", "nb"), Value: "Ha det"}); err != nil {
			t.Fatal(err)
		}
		want("farewell", "nb", "Ha det", model.StatusNeedsReview)

		for _, s := range []struct {
			name, key, lang, status string
			value, code             string
		}{
			{name: "approve a draft", key: "farewell", lang: "nb", status: model.StatusApproved, value: "Ha det"},
			{name: "approve again", key: "farewell", lang: "nb", status: model.StatusApproved, value: "Ha det"},
			{name: "back to needs_review", key: "greeting", lang: "nb", status: model.StatusNeedsReview, value: "Hei"},
			{name: "the source row", key: "greeting", lang: "en", status: model.StatusNeedsReview, value: "Hello"},
			{name: "an unknown status", key: "greeting", lang: "nb", status: "done", code: model.CodeInvalid},
			{name: "no status", key: "greeting", lang: "nb", code: model.CodeInvalid},
			{name: "no row in that language", key: "greeting", lang: "sv", status: model.StatusApproved, code: model.CodeNotFound},
			{name: "an unknown key", key: "nope", lang: "nb", status: model.StatusApproved, code: model.CodeNotFound},
			{name: "a language that is not on", key: "greeting", lang: "de", status: model.StatusApproved, code: model.CodeNotFound},
		} {
			t.Run(s.name, func(t *testing.T) {
				out, err := r.cat.SetTranslationStatus(r.ctx, tools.SetStatusIn{RowRef: r.row("common", s.key, s.lang), Status: s.status})
				if s.code != "" {
					if model.ErrorCode(err) != s.code {
						t.Errorf("set_translation_status: %v, want %s", err, s.code)
					}
					return
				}
				if err != nil || out.Value != s.value || out.Status != s.status {
					t.Errorf("set_translation_status: %+v (%v), want %q %s", out, err, s.value, s.status)
				}
				want(s.key, s.lang, s.value, s.status)
			})
		}
	})
}

// TestSyncWholeNamespace is a full sync that names most of a namespace of more keys than a
// store looks up by name (10,000), so that PostgreSQL reads the whole namespace and picks
// the keys to hide from it: the answer is the same as for a sync of a few keys.
func TestSyncWholeNamespace(t *testing.T) {
	t.Parallel()
	const n = 10050
	key := func(i int) string { return fmt.Sprintf("k%05d", i) }
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		r := newRules(t, dialect)
		big := func(values map[string]string, preserve *bool) tools.SyncOut {
			return r.sync(t, tools.SyncIn{NamespaceRef: r.ns("en", "big"), Translations: values, PreserveSourceValues: preserve,
				DynamicKeyPrefixes: []string{"dyn."}})
		}
		values := map[string]string{"dyn.a": "Dynamic"}
		for i := range n {
			values[key(i)] = fmt.Sprintf("Value %d", i)
		}
		if out := big(values, nil); out.Summary.Created != n+1 {
			t.Fatalf("seeding created %d keys, want %d", out.Summary.Created, n+1)
		}
		r.overwrite(t, "nb", "big", map[string]string{key(1): "Verdi 1", key(2): "Verdi 2"})

		var hidden []string
		for i := n - 10; i < n; i++ {
			hidden = append(hidden, key(i))
			delete(values, key(i))
		}
		delete(values, "dyn.a") // a dynamic key is not hidden
		syncWant{total: n - 10, hidden: hidden, unchanged: n - 10}.check(t, big(values, nil))

		delete(values, key(5))
		values[key(n-10)] = fmt.Sprintf("Value %d", n-10)
		values[key(1)] = "Value 1, revised"
		values["new.key"] = "New"
		no := new(bool)
		syncWant{total: n - 9, created: []string{"new.key"}, unhidden: []string{key(n - 10)}, hidden: []string{key(5)},
			changed: []string{key(1)}, unchanged: n - 12}.check(t, big(values, no))
		values["dyn.a"] = "Dynamic"
		r.wantFlat(t, "en", "big", values)
		if got := r.stale(t, "big", "nb"); !keysEqual(got, []string{key(1)}) {
			t.Errorf("stale in nb: %v, want [%s]", got, key(1))
		}
	})
}
