package tools_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestCountersEqualARecount runs a random sequence of every kind of write (syncs that hide,
// unhide and change sources, partial syncs, overwrites, single edits, flags, statuses, AI
// drafts, missing keys, languages turned on) and after each checks that the counters
// get_project_status reads equal a count of the rows: 200 writes (by then every kind has
// succeeded and a translation has drifted; at 150 no status has), the same sequence to 300
// in TestCountersEqualARecountLong.
func TestCountersEqualARecount(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: writes one at a time, each recounted (a minute under -race); the plain run keeps it; the counters hook runs inside the writes that the concurrent tests race")
	}
	countersWalk(t, 200)
}

// TestCountersEqualARecountLong is TestCountersEqualARecount's sequence to 300 writes, a
// minute on PostgreSQL on a busy machine: make test-long runs it.
func TestCountersEqualARecountLong(t *testing.T) {
	t.Parallel()
	storagetest.Long(t)
	countersWalk(t, 300)
}

// countersWalk is the first steps writes of the sequence, each checked.
func countersWalk(t *testing.T, steps int) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		llm := aitest.New(t, aitest.Echo(func(_, masked string) string { return "ai " + masked }))
		cat := storagetest.Catalog(db, &tools.Options{AIDefault: tools.AIProvider{BaseURL: llm.URL, Model: "counters"}})
		// Writes of more than four new keys stage them in chunks first (SQLite), whose keys
		// the counters hook adds without reading them back.
		tools.SetBulkChunks(cat, 4, 3, nil)
		ctx := model.WithPrincipal(t.Context(), tools.System)
		pid := f.Project.ID
		rng := rand.New(rand.NewPCG(19, 4))
		langs := []string{"nb", "sv"}
		nss := []string{"app", "extra"}
		commented := map[string]bool{} // namespace/key/language
		key := func() string { return fmt.Sprintf("k%02d", rng.IntN(30)) }
		text := func() string {
			if rng.IntN(8) == 0 {
				return "" // an empty value counts as missing
			}
			return fmt.Sprintf("v%d", rng.IntN(4))
		}
		values := func(n int) map[string]string {
			m := map[string]string{}
			for range n {
				m[key()] = text()
			}
			return m
		}
		ops := []struct {
			name string
			run  func(ns, lang string) error
		}{
			{"sync", func(ns, _ string) error {
				_, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: pid, Language: "en", Namespace: ns},
					Translations: values(rng.IntN(25))})
				return err
			}},
			{"partial sync", func(ns, _ string) error {
				_, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: pid, Language: "en", Namespace: ns},
					Translations: values(rng.IntN(6)), Partial: true})
				return err
			}},
			{"overwrite", func(ns, lang string) error {
				_, err := cat.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: tools.NamespaceRef{ProjectID: pid, Language: lang, Namespace: ns},
					Translations: values(rng.IntN(10))})
				return err
			}},
			{"missing", func(ns, _ string) error {
				_, err := cat.ReportMissing(ctx, tools.ReportMissingIn{NamespaceRef: tools.NamespaceRef{ProjectID: pid, Language: "en", Namespace: ns},
					Translations: values(3)})
				return err
			}},
			{"register", func(ns, _ string) error {
				_, err := cat.RegisterSourceStrings(ctx, tools.RegisterIn{ProjectArg: tools.ProjectArg{ProjectID: pid}, NamespaceKey: ns, Strings: values(3)})
				return err
			}},
			{"add key", func(ns, _ string) error {
				_, err := cat.AddKey(ctx, tools.AddKeyIn{KeyRef: keyRef(pid, ns, key()), SourceValue: text()})
				return err
			}},
			{"update", func(ns, lang string) error {
				if rng.IntN(4) == 0 {
					lang = "en"
				}
				_, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: tools.RowRef{KeyRef: keyRef(pid, ns, key()), Language: lang},
					Value: text()})
				return err
			}},
			{"status", func(ns, lang string) error {
				_, err := cat.SetTranslationStatus(ctx, tools.SetStatusIn{RowRef: tools.RowRef{KeyRef: keyRef(pid, ns, key()), Language: lang},
					Status: model.StatusApproved})
				return err
			}},
			{"flag", func(ns, lang string) error {
				_, err := cat.FlagTranslation(ctx, tools.FlagIn{RowRef: tools.RowRef{KeyRef: keyRef(pid, ns, key()), Language: lang},
					Flag: model.FlagDoNotTranslate, Value: rng.IntN(2) == 0})
				return err
			}},
			{"ai", func(ns, lang string) error {
				_, err := cat.AITranslateKeys(ctx, tools.AITranslateIn{ProjectArg: tools.ProjectArg{ProjectID: pid}, NamespaceKey: ns,
					TranslationKeys: []string{key(), key()}, TargetLang: lang})
				return err
			}},
			{"comment", func(ns, lang string) error {
				k := key()
				_, err := cat.AddComment(ctx, tools.AddCommentIn{RowRef: tools.RowRef{KeyRef: keyRef(pid, ns, k), Language: lang}, Body: "look"})
				if err == nil {
					commented[ns+"/"+k+"/"+lang] = true
				}
				return err
			}},
			{"enable language", func(_, _ string) error {
				l := []string{"de", "fr", "nb"}[rng.IntN(3)]
				if !slices.Contains(langs, l) {
					langs = append(langs, l)
				}
				_, err := cat.EnableLanguage(ctx, tools.EnableLanguageIn{ProjectArg: tools.ProjectArg{ProjectID: pid}, Language: l})
				return err
			}},
		}
		done := map[string]int{}
		drifted, drafts, toReview := 0, 0, 0

		for step := range steps {
			op := ops[rng.IntN(len(ops))]
			ns, lang := nss[rng.IntN(len(nss))], langs[rng.IntN(len(langs))]
			if err := op.run(ns, lang); err == nil {
				done[op.name]++
			} else if e, ok := err.(*model.Error); !ok || e.Code == model.CodeInternal {
				t.Fatalf("step %d %s: %v", step, op.name, err)
			}
			if diff := namespaceCounts(t, ctx, db, pid, nss); diff != "" {
				t.Fatalf("after step %d (%s in %s/%s) the namespace counters differ from a count of the rows: %s", step, op.name, ns, lang, diff)
			}
			if want, got := recountAndCounters(t, ctx, db, pid); !slices.Equal(want, got) {
				t.Fatalf("after step %d (%s in %s/%s) the counters say\n%+v\na recount says\n%+v", step, op.name, ns, lang, got, want)
			} else {
				for _, n := range got {
					drifted = max(drifted, n.Behind)
					drafts, toReview = max(drafts, n.AIDrafts), max(toReview, n.ToReview)
				}
			}
			includeNull := rng.IntN(2) == 0
			want := staleByRule(t, ctx, db, pid, ns, lang, includeNull)
			got, err := cat.ListStale(ctx, tools.StaleIn{ProjectID: pid, Namespace: ns, Language: lang, IncludeNull: includeNull})
			if err != nil && !isNotFound(err) {
				t.Fatal(err)
			}
			if !slices.Equal(want, got.StaleKeys) {
				t.Fatalf("after step %d (%s) the stale list of %s/%s is %q, the rule says %q", step, op.name, ns, lang, got.StaleKeys, want)
			}
			if step%25 == 24 {
				checkQueue(t, ctx, cat, db, pid, langs, nss, commented)
			}
		}
		if drifted == 0 {
			t.Error("no translation was ever behind its source: the sequence does not test drift")
		}
		if drafts == 0 || toReview == 0 {
			t.Errorf("AI drafts %d and rows to review %d at most: the sequence does not test the progress split", drafts, toReview)
		}
		// Keys a write creates with a source value are tallied, not read back: in the
		// write's own transaction (PostgreSQL, small writes on SQLite) or in chunks.
		if tools.TalliedKeys(cat) == 0 {
			t.Error("the counters hook tallied no created key: the sequence does not test the tallied path")
		}
		for _, op := range ops {
			if done[op.name] == 0 {
				t.Errorf("no %s succeeded: the sequence does not test it", op.name)
			}
		}
	})
}

// TestRecountRepairs spoils the counters behind the catalogue's back; lokal project recount's
// operation puts them back.
func TestRecountRepairs(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		db := storagetest.MustOpen(t, dsn, nil)
		cat := storagetest.Catalog(db, nil)
		ctx := model.WithPrincipal(t.Context(), tools.System)
		pid := f.Project.ID
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: pid, Language: "en", Namespace: "app"},
			Translations: map[string]string{"a": "A", "b": "B"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := storagetest.SQL(t, dsn).ExecContext(ctx,
			`UPDATE status_counts SET key_count = key_count + 7, current_rows = 0, ai_rows = 3, review_rows = 2 WHERE project_id = '`+pid+`'`); err != nil {
			t.Fatal(err)
		}
		if _, err := storagetest.SQL(t, dsn).ExecContext(ctx,
			`UPDATE namespace_counts SET key_count = key_count + 5, current_rows = current_rows + 1`); err != nil {
			t.Fatal(err)
		}
		if diff := namespaceCounts(t, ctx, db, pid, []string{"app"}); diff == "" {
			t.Fatal("spoiling the namespace counters changed nothing")
		}
		if want, got := recountAndCounters(t, ctx, db, pid); slices.Equal(want, got) {
			t.Fatalf("spoiling the counters changed nothing: %+v", got)
		}
		out, err := cat.RecountProject(ctx, pid)
		if err != nil {
			t.Fatal(err)
		}
		want, got := recountAndCounters(t, ctx, db, pid)
		if !slices.Equal(want, got) {
			t.Fatalf("after the recount the counters say %+v, a recount %+v", got, want)
		}
		if diff := namespaceCounts(t, ctx, db, pid, []string{"app"}); diff != "" {
			t.Fatalf("after the recount the namespace counters differ from a count of the rows: %s", diff)
		}
		if len(out.Languages) != len(want) || out.Languages[0].Total != want[0].Total {
			t.Errorf("recount answered %+v, want the counts %+v", out.Languages, want)
		}
		if _, err := cat.RecountProject(model.WithPrincipal(t.Context(), model.Principal{Kind: model.KindAPIKey, ProjectID: pid}), pid); err == nil {
			t.Error("a project key recounted: the repair is the operator's")
		}
	})
}

func keyRef(project, ns, key string) tools.KeyRef {
	return tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: project}, NamespaceKey: ns, TranslationKey: key}
}

// recountAndCounters reads a count of the project's rows and its counters.
func recountAndCounters(t *testing.T, ctx context.Context, store model.Store, projectID string) (want, got []model.LanguageCounts) {
	t.Helper()
	err := store.View(ctx, func(tx model.Tx) error {
		proj, err := tx.Project(ctx, projectID)
		if err != nil {
			return err
		}
		if want, err = tx.LanguageCounts(ctx, proj); err != nil {
			return err
		}
		got, err = tx.StatusCounts(ctx, proj)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return want, got
}

// namespaceCounts compares the project's namespace counters with a count of every key
// (storagetest.CheckNamespaceCounts) and describes the first difference.
func namespaceCounts(t *testing.T, ctx context.Context, store model.Store, projectID string, nss []string) string {
	t.Helper()
	var diff string
	if err := store.View(ctx, func(tx model.Tx) (err error) {
		diff, err = storagetest.CheckNamespaceCounts(ctx, tx, projectID, nss)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return diff
}

// staleByRule applies the stale list's rule to every key of the namespace.
func staleByRule(t *testing.T, ctx context.Context, store model.Store, projectID, ns, lang string, includeNull bool) []string {
	t.Helper()
	out := []string{}
	err := store.View(ctx, func(tx model.Tx) error {
		n, err := tx.Namespace(ctx, projectID, ns)
		if isNotFound(err) {
			return nil
		} else if err != nil {
			return err
		}
		keys, err := tx.Keys(ctx, n, "en", lang)
		for _, k := range keys {
			if k.Hidden || k.Value == nil {
				continue
			}
			if v := k.Value.SourceVersion; v == nil && includeNull && k.SourceVersion > 0 || v != nil && *v < k.SourceVersion {
				out = append(out, k.Key)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func isNotFound(err error) bool {
	e, ok := err.(*model.Error)
	return ok && e.Code == model.CodeNotFound
}

// checkQueue pages through every filter of the editor's queue, three rows a page, in
// every language and namespace, and compares the keys with the filters' rules applied to
// every key.
func checkQueue(t *testing.T, ctx context.Context, cat *tools.Catalog, store model.Store, pid string, langs, nss []string, commented map[string]bool) {
	t.Helper()
	rules := map[string]func(ns string, k model.KeyState, lang string) bool{
		tools.FilterAll: func(string, model.KeyState, string) bool { return true },
		tools.FilterAIDrafts: func(_ string, k model.KeyState, _ string) bool {
			return k.Value != nil && strings.HasPrefix(k.Value.UpdatedBy, "ai:") && k.Value.Status == model.StatusNeedsReview
		},
		tools.FilterNeedsReview: func(_ string, k model.KeyState, _ string) bool {
			return k.Value != nil && k.Value.Status == model.StatusNeedsReview
		},
		tools.FilterApproved: func(_ string, k model.KeyState, _ string) bool {
			return k.Value != nil && k.Value.Status == model.StatusApproved
		},
		tools.FilterHeld: func(_ string, k model.KeyState, _ string) bool { return k.Value != nil && k.Value.Held != "" },
		tools.FilterStale: func(_ string, k model.KeyState, _ string) bool {
			v := k.Value
			return v != nil && v.Value != "" && (v.SourceVersion == nil || *v.SourceVersion < k.SourceVersion)
		},
		tools.FilterMissing: func(_ string, k model.KeyState, _ string) bool { return k.Value == nil || k.Value.Value == "" },
		tools.FilterComments: func(ns string, k model.KeyState, lang string) bool {
			return commented[ns+"/"+k.Key+"/"+lang]
		},
	}
	for _, lang := range langs {
		type entry struct {
			id  int64
			key string
			ns  string
		}
		var all []entry
		states := map[int64]model.KeyState{}
		err := store.View(ctx, func(tx model.Tx) error {
			for _, ns := range nss {
				n, err := tx.Namespace(ctx, pid, ns)
				if isNotFound(err) {
					continue
				} else if err != nil {
					return err
				}
				keys, err := tx.Keys(ctx, n, "en", lang)
				if err != nil {
					return err
				}
				for _, k := range keys {
					if !k.Hidden && k.Source != nil && k.Source.Value != "" {
						all = append(all, entry{k.ID, k.Key, ns})
						states[k.ID] = k
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// The queue's order: namespace name, then key, bytewise.
		slices.SortFunc(all, func(a, b entry) int { return cmp.Or(strings.Compare(a.ns, b.ns), strings.Compare(a.key, b.key)) })
		for filter, rule := range rules {
			for _, ns := range append([]string{""}, nss...) {
				var want []string
				for _, e := range all {
					if (ns == "" || e.ns == ns) && rule(e.ns, states[e.id], lang) {
						want = append(want, e.ns+"/"+e.key)
					}
				}
				var got []string
				for after := ""; ; {
					page, err := cat.ReviewQueue(ctx, tools.ReviewIn{ProjectID: pid, Language: lang, Namespace: ns, Filter: filter, After: after, Limit: 3})
					if err != nil {
						t.Fatalf("filter %q in %s/%s: %v", filter, ns, lang, err)
					}
					for _, r := range page.Rows {
						got = append(got, r.Namespace+"/"+r.Key)
					}
					if after = page.Next; after == "" {
						break
					}
				}
				if !slices.Equal(want, got) {
					t.Fatalf("filter %q in %q/%s pages\n%q\nthe rule says\n%q", filter, ns, lang, got, want)
				}
			}
		}
	}
}
