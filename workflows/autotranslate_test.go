package workflows_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/workflows"
)

// autoEnv is a project (en source, nb and sv enabled) with a model double, a catalogue and
// a worker on one fake clock.
type autoEnv struct {
	cat    *tools.Catalog
	worker *workflows.Worker
	clk    *clock
	model  *aitest.Server
	f      storagetest.Fixture
	dsn    string
	ctx    context.Context
}

func newAutoEnv(t *testing.T, dialect string, r aitest.Responder, wopts *workflows.Options) *autoEnv {
	t.Helper()
	dsn, f := storagetest.FixtureDSN(t, dialect)
	db := storagetest.MustOpen(t, dsn, nil)
	e := &autoEnv{f: f, dsn: dsn, clk: &clock{t: time.Now()}, ctx: model.WithPrincipal(t.Context(), tools.System)}
	// No test here is about the write budget: an hour keeps a loaded -race run from tripping it.
	opts := &tools.Options{Now: e.clk.now, WriteTimeout: time.Hour}
	if r != nil {
		e.model = aitest.New(t, r)
		opts.AIDefault = tools.AIProvider{BaseURL: e.model.URL, Model: "test-model"}
	}
	e.cat = storagetest.Catalog(db, opts)
	wo := workflows.Options{Now: e.clk.now, Lease: time.Minute}
	if wopts != nil {
		wo = *wopts
		wo.Now = e.clk.now
	}
	e.worker = workflows.New(e.cat, &wo)
	return e
}

// drain moves the clock past the batching delay and runs every due job; it returns how
// many ran.
func (e *autoEnv) drain(t *testing.T) int {
	t.Helper()
	e.clk.t = e.clk.t.Add(tools.AutoTranslateDelay + time.Second)
	for n := 0; ; n++ {
		ran, err := e.worker.RunOnce(e.ctx)
		if err != nil {
			t.Fatalf("running a job: %v", err)
		}
		if !ran {
			return n
		}
		if n > 1000 {
			t.Fatal("jobs keep coming")
		}
	}
}

func (e *autoEnv) register(t *testing.T, ns string, strs map[string]string) {
	t.Helper()
	if _, err := e.cat.RegisterSourceStrings(e.ctx, tools.RegisterIn{ProjectArg: tools.ProjectArg{ProjectID: e.f.Project.ID},
		NamespaceKey: ns, Strings: strs}); err != nil {
		t.Fatalf("register_source_strings: %v", err)
	}
}

func (e *autoEnv) status(t *testing.T) tools.ProjectStatusOut {
	t.Helper()
	st, err := e.cat.GetProjectStatus(e.ctx, tools.ProjectStatusIn{ProjectArg: tools.ProjectArg{ProjectID: e.f.Project.ID}})
	if err != nil {
		t.Fatalf("get_project_status: %v", err)
	}
	return st
}

func langStats(t *testing.T, st tools.ProjectStatusOut, lang string) tools.LanguageStats {
	t.Helper()
	for _, l := range st.Languages {
		if l.Language == lang {
			return l
		}
	}
	t.Fatalf("no %s in the status %+v", lang, st.Languages)
	return tools.LanguageStats{}
}

// row returns the key's row in lang (zero when none).
func (e *autoEnv) row(t *testing.T, ns, key, lang string) tools.TranslationView {
	t.Helper()
	out, err := e.cat.GetTranslation(e.ctx, tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: e.f.Project.ID}, NamespaceKey: ns, TranslationKey: key})
	if err != nil {
		t.Fatalf("get_translation %s/%s: %v", ns, key, err)
	}
	for _, r := range out.Translations {
		if r.Language == lang {
			return r
		}
	}
	return tools.TranslationView{}
}

// rateLimitedForAnHour is a 429 whose Retry-After is longer than the provider waits: the
// call fails at once, as rate limited.
var rateLimitedForAnHour = aitest.Reply{Status: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"3600"}}}

// byLang answers each string with "<LANG> <masked source>".
var byLang = func(c aitest.Call) aitest.Reply {
	out := map[string]string{}
	for id, s := range c.Strings {
		out[id] = strings.ToUpper(c.TargetLanguage) + " " + s
	}
	return aitest.Reply{Content: aitest.Content(out), PromptTokens: 100, CompletionTokens: 10 * len(c.Strings)}
}

func keys(prefix string, n int) map[string]string {
	m := map[string]string{}
	for i := range n {
		m[fmt.Sprintf("%s.%02d", prefix, i)] = fmt.Sprintf("Text number %d for %%{name}", i)
	}
	return m
}

func callSizes(s *aitest.Server, lang string) []int {
	var out []int
	for _, c := range s.Calls() {
		if c.TargetLanguage == lang {
			out = append(out, len(c.Strings))
		}
	}
	slices.Sort(out)
	return out
}

func TestAutoTranslateAssistantStringsIntoEveryLanguage(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newAutoEnv(t, dialect, byLang, nil)
		// Builds translate into nb only; an assistant's strings go everywhere.
		nb := []string{"nb"}
		if _, err := e.cat.SetProject(e.ctx, e.f.Project.ID, tools.SetProjectIn{AutoTranslate: &nb}); err != nil {
			t.Fatal(err)
		}
		e.register(t, "app", keys("app", 25))
		st := e.status(t)
		if q := langStats(t, st, "sv").Queued; q != 25 || st.AutoTranslation.Queued != 50 || !st.AutoTranslation.Configured {
			t.Fatalf("before the worker ran: sv queued %d, all %d, configured %v; want 25, 50, true", q, st.AutoTranslation.Queued, st.AutoTranslation.Configured)
		}
		e.drain(t)
		for _, lang := range []string{"nb", "sv"} {
			if got := callSizes(e.model, lang); !slices.Equal(got, []int{5, 10, 10}) {
				t.Errorf("%s: model calls of %v strings, want batches of at most 10: [5 10 10]", lang, got)
			}
			l := langStats(t, e.status(t), lang)
			if l.Missing != 0 || l.Translated != 25 || l.Queued != 0 || l.AIFailed != 0 {
				t.Errorf("%s after the jobs: %+v, want 25 translated, nothing missing or queued", lang, l)
			}
		}
		r := e.row(t, "app", "app.07", "sv")
		if r.Value != "SV Text number 7 for %{name}" || r.Status != model.StatusNeedsReview || r.UpdatedBy != "ai:test-model" || r.Stale {
			t.Errorf("sv row %+v, want a needs_review draft by ai:test-model with the placeholder intact", r)
		}

		// A sync's new keys go into the auto-translate languages only.
		before := len(e.model.Calls())
		ref := tools.NamespaceRef{ProjectID: e.f.Project.ID, Language: "en", Namespace: "web"}
		if _, err := e.cat.Sync(e.ctx, tools.SyncIn{NamespaceRef: ref, Translations: map[string]string{"a": "Home", "b": "Cart"}}); err != nil {
			t.Fatal(err)
		}
		e.drain(t)
		calls := e.model.Calls()[before:]
		if len(calls) != 1 || calls[0].TargetLanguage != "nb" || len(calls[0].Strings) != 2 {
			t.Fatalf("after a sync the model got %d calls (%+v), want one of 2 strings into nb", len(calls), calls)
		}
		if v := e.row(t, "web", "a", "sv").Value; v != "" {
			t.Errorf("sv is not an auto-translate language but got %q", v)
		}
		st = e.status(t)
		if sv := langStats(t, st, "sv"); sv.Missing != 2 || sv.Queued != 0 {
			t.Errorf("sv after the sync: %+v, want 2 missing and none queued", sv)
		}
		u := st.Usage
		if u.Calls != 7 || u.PromptTokens != 700 || u.CompletionTokens != 520 || u.StringsTranslated != 52 || u.StringsFailed != 0 {
			t.Errorf("usage %+v, want 7 calls, 700+520 tokens, 52 strings translated", u)
		}
	})
}

func TestAutoTranslateCoalescesKeysAddedOneByOne(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newAutoEnv(t, dialect, byLang, nil)
		for i := range 12 {
			in := tools.AddKeyIn{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: e.f.Project.ID}, NamespaceKey: "app",
				TranslationKey: fmt.Sprintf("k%d", i)}, SourceValue: fmt.Sprintf("Button %d", i)}
			if _, err := e.cat.AddKey(e.ctx, in); err != nil {
				t.Fatal(err)
			}
		}
		if n := e.drain(t); n < 4 {
			t.Fatalf("%d jobs ran, want at least the 4 batches", n)
		}
		for _, lang := range []string{"nb", "sv"} {
			if got := callSizes(e.model, lang); !slices.Equal(got, []int{2, 10}) {
				t.Errorf("%s: calls of %v strings, want 12 single adds gathered into [2 10]", lang, got)
			}
		}
	})
}

func TestAutoTranslateReusesTranslationMemory(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newAutoEnv(t, dialect, byLang, nil)
		e.register(t, "app", map[string]string{"old.save": "Save", "old.open": "Open"})
		e.drain(t)
		p := tools.ProjectArg{ProjectID: e.f.Project.ID}
		if _, err := e.cat.UpdateTranslation(e.ctx, tools.UpdateTranslationIn{RowRef: tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: p,
			NamespaceKey: "app", TranslationKey: "old.save"}, Language: "nb"}, Value: "Lagre", Status: model.StatusApproved}); err != nil {
			t.Fatal(err)
		}
		before := len(e.model.Calls())
		// "Save" has an approved nb translation; "Open" only a draft; sv has no approval.
		e.register(t, "dialog", map[string]string{"save": "Save", "open": "Open"})
		e.drain(t)
		for _, c := range e.model.Calls()[before:] {
			if c.TargetLanguage == "nb" && len(c.Strings) != 1 {
				t.Errorf("nb call with %v: want only Open sent, Save comes from memory", c.Strings)
			}
		}
		if r := e.row(t, "dialog", "save", "nb"); r.Value != "Lagre" || r.UpdatedBy != "memory" || r.Status != model.StatusNeedsReview {
			t.Errorf("dialog/save nb %+v, want the approved Lagre reused as a needs_review draft by memory", r)
		}
		if r := e.row(t, "dialog", "open", "nb"); r.Value != "NB Open" || r.UpdatedBy != "ai:test-model" {
			t.Errorf("dialog/open nb %+v, want a model draft", r)
		}
		if v := e.row(t, "dialog", "save", "sv").Value; v != "SV Save" {
			t.Errorf("dialog/save sv %q, want the model's (no approved sv translation to reuse)", v)
		}
		if u := e.status(t).Usage; u.StringsFromMemory != 1 {
			t.Errorf("usage %+v, want 1 string from memory", u)
		}
	})
}

func TestAutoTranslateNeverStoresOverNewerWork(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		var (
			e    *autoEnv
			once sync.Once
		)
		ref := tools.NamespaceRef{ProjectID: "", Language: "en", Namespace: "app"}
		preserve := false
		// While the model works on the first nb batch, the build changes the source text.
		e = newAutoEnv(t, dialect, func(c aitest.Call) aitest.Reply {
			if c.TargetLanguage == "nb" {
				once.Do(func() {
					if _, err := e.cat.Sync(e.ctx, tools.SyncIn{NamespaceRef: ref, PreserveSourceValues: &preserve,
						Translations: map[string]string{"title": "Welcome back", "manual": "Manual"}}); err != nil {
						t.Errorf("sync during the call: %v", err)
					}
				})
			}
			return byLang(c)
		}, nil)
		ref.ProjectID = e.f.Project.ID
		if _, err := e.cat.Sync(e.ctx, tools.SyncIn{NamespaceRef: ref, Translations: map[string]string{"title": "Welcome", "manual": "Manual"}}); err != nil {
			t.Fatal(err)
		}
		// A translator fills sv of one key before the worker gets to it.
		p := tools.ProjectArg{ProjectID: e.f.Project.ID}
		if _, err := e.cat.UpdateTranslation(e.ctx, tools.UpdateTranslationIn{RowRef: tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: p,
			NamespaceKey: "app", TranslationKey: "manual"}, Language: "sv"}, Value: "Handbok"}); err != nil {
			t.Fatal(err)
		}
		e.drain(t)
		if r := e.row(t, "app", "title", "nb"); r.Value != "NB Welcome back" || r.Stale {
			t.Errorf("nb title %+v: the answer for the old source must not be stored; the new source must be translated", r)
		}
		if r := e.row(t, "app", "manual", "sv"); r.Value != "Handbok" || r.UpdatedBy == "ai:test-model" {
			t.Errorf("sv manual %+v: the translator's value must stay", r)
		}
		if l := langStats(t, e.status(t), "nb"); l.Missing != 0 || l.Queued != 0 || l.AIFailed != 0 {
			t.Errorf("nb %+v, want done", l)
		}
	})
}

func TestAutoTranslateCountsFailures(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		// The model drops the placeholder token of every string, on the retry too.
		e := newAutoEnv(t, dialect, aitest.Echo(func(_, masked string) string { return "no tokens here" }), nil)
		e.register(t, "app", map[string]string{"greet": "Hello %{name}"})
		e.drain(t)
		st := e.status(t)
		nb := langStats(t, st, "nb")
		if nb.Missing != 1 || nb.AIFailed != 1 || nb.Queued != 0 || st.AutoTranslation.Failed != 2 {
			t.Fatalf("nb %+v, auto %+v: want 1 missing, 1 failed, nothing queued (2 failed over nb and sv)", nb, st.AutoTranslation)
		}
		if v := e.row(t, "app", "greet", "nb").Value; v != "" {
			t.Fatalf("a broken answer was stored: %q", v)
		}
		if st.Usage.StringsFailed != 2 || st.Usage.Calls != 4 {
			t.Errorf("usage %+v, want 2 strings failed over 4 calls (a retry each)", st.Usage)
		}
		// A translator fixes it: it no longer counts as failed.
		p := tools.ProjectArg{ProjectID: e.f.Project.ID}
		if _, err := e.cat.UpdateTranslation(e.ctx, tools.UpdateTranslationIn{RowRef: tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: p,
			NamespaceKey: "app", TranslationKey: "greet"}, Language: "nb"}, Value: "Hei %{name}"}); err != nil {
			t.Fatal(err)
		}
		if nb := langStats(t, e.status(t), "nb"); nb.AIFailed != 0 || nb.Missing != 0 {
			t.Errorf("nb after the fix %+v, want 0 failed, 0 missing", nb)
		}
	})
}

func TestAutoTranslateWaitsOutAProviderThatIsDown(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		var (
			mu   sync.Mutex
			down = true
		)
		// A Retry-After longer than the provider waits: the call fails at once, as rate limited.
		e := newAutoEnv(t, dialect, func(c aitest.Call) aitest.Reply {
			mu.Lock()
			defer mu.Unlock()
			if down {
				return rateLimitedForAnHour
			}
			return byLang(c)
		}, &workflows.Options{Lease: time.Minute, MaxAttempts: 3})
		e.register(t, "app", map[string]string{"a": "Alpha", "b": "Beta"})
		e.drain(t)
		st := e.status(t)
		if nb := langStats(t, st, "nb"); nb.Queued != 2 || nb.AIFailed != 0 {
			t.Fatalf("nb while the provider is down %+v: want 2 still queued, none failed", nb)
		}
		mu.Lock()
		down = false
		mu.Unlock()
		e.clk.t = e.clk.t.Add(time.Minute) // past the first retry's backoff
		e.drain(t)
		if nb := langStats(t, e.status(t), "nb"); nb.Missing != 0 || nb.Queued != 0 {
			t.Fatalf("nb once the provider is back %+v: want all translated", nb)
		}
	})
}

func TestAutoTranslateGivesUpAndCounts(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newAutoEnv(t, dialect, aitest.Fixed(rateLimitedForAnHour),
			&workflows.Options{Lease: time.Minute, MaxAttempts: 2})
		e.register(t, "app", map[string]string{"a": "Alpha"})
		for range 3 {
			e.drain(t)
			e.clk.t = e.clk.t.Add(time.Hour)
		}
		if nb := langStats(t, e.status(t), "nb"); nb.Queued != 0 || nb.AIFailed != 1 || nb.Missing != 1 {
			t.Fatalf("nb after the worker gave up %+v: want 0 queued, 1 failed, 1 missing", nb)
		}
	})
}

func TestAutoTranslateNeedsAProvider(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newAutoEnv(t, dialect, nil, nil)
		e.register(t, "app", map[string]string{"a": "Alpha"})
		st := e.status(t)
		if st.AutoTranslation.Configured || st.AutoTranslation.Queued != 0 {
			t.Fatalf("without a provider: %+v, want not configured and nothing queued", st.AutoTranslation)
		}
	})
}

func TestAutoTranslateJobOfADeadWorker(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newAutoEnv(t, dialect, byLang, nil)
		e.register(t, "app", map[string]string{"a": "Alpha"})
		e.clk.t = e.clk.t.Add(tools.AutoTranslateDelay + time.Second)
		claimOnly(t, e.cat, e.clk.now()) // one batch (nb or sv) is held by a worker that died
		e.drain(t)
		if n := len(e.model.Calls()); n != 1 {
			t.Fatalf("%d calls while the dead worker's lease runs, want the other language's 1", n)
		}
		e.clk.t = e.clk.t.Add(2 * time.Minute)
		e.drain(t)
		calls := e.model.Calls()
		if len(calls) != 2 || calls[0].TargetLanguage == calls[1].TargetLanguage {
			t.Fatalf("calls %+v, want one per language: the dead worker's batch run once", calls)
		}
	})
}

func TestRenewedLeaseKeepsAJob(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newAutoEnv(t, dialect, byLang, nil)
		e.register(t, "app", map[string]string{"a": "Alpha"})
		at := e.clk.now().Add(tools.AutoTranslateDelay + time.Second)
		var held model.Job
		store := e.cat.Store()
		if err := store.Update(e.ctx, "", func(tx model.Tx) (err error) {
			held, err = tx.ClaimJob(e.ctx, at, time.Minute)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if err := store.Update(e.ctx, "", func(tx model.Tx) error {
			return tx.RenewJobs(e.ctx, []int64{held.ID}, at.Add(5*time.Minute))
		}); err != nil {
			t.Fatal(err)
		}
		var next model.Job
		err := store.Update(e.ctx, "", func(tx model.Tx) (err error) {
			next, err = tx.ClaimJob(e.ctx, at.Add(2*time.Minute), time.Minute)
			return err
		})
		if err != nil || next.ID == held.ID {
			t.Fatalf("after renewal, claim at +2m got job %d (err %v); the renewed job %d must stay held", next.ID, err, held.ID)
		}
	})
}

func TestEndedJobsArePruned(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newAutoEnv(t, dialect, byLang, nil)
		e.register(t, "app", map[string]string{"a": "Alpha"})
		e.register(t, "app", map[string]string{"b": "Beta"}) // queued after the first ran
		e.clk.t = e.clk.t.Add(tools.AutoTranslateDelay + time.Second)
		claimOnly(t, e.cat, e.clk.now()) // stays running: never pruned
		e.drain(t)
		if n, err := e.worker.Prune(e.ctx); err != nil || n != 0 {
			t.Fatalf("pruned %d (err %v) right after the jobs ended, want 0", n, err)
		}
		e.clk.t = e.clk.t.Add(8 * 24 * time.Hour)
		n, err := e.worker.Prune(e.ctx)
		if err != nil || n < 1 {
			t.Fatalf("pruned %d (err %v) a week later, want the ended jobs", n, err)
		}
		var left int
		err = e.cat.Store().View(e.ctx, func(tx model.Tx) error {
			jobs, err := tx.QueuedJobs(e.ctx, e.f.Project.ID, tools.JobTranslate)
			left = len(jobs)
			return err
		})
		if err != nil || left != 1 {
			t.Errorf("%d queued or running translate jobs left (err %v), want the one still leased", left, err)
		}
	})
}

// TestWorkerRunsBatchesConcurrently runs the worker as serve does (several loops and the
// lease renewal) until every batch is translated; under -race it checks the worker's own
// concurrency.
func TestWorkerRunsBatchesConcurrently(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newAutoEnv(t, dialect, byLang, &workflows.Options{Poll: 10 * time.Millisecond, Lease: 300 * time.Millisecond, Concurrency: 4})
		e.register(t, "app", keys("app", 40))
		e.clk.t = e.clk.t.Add(tools.AutoTranslateDelay + time.Second) // due; the clock stands still from here
		ctx, stop := context.WithCancel(e.ctx)
		var wg sync.WaitGroup
		wg.Go(func() { e.worker.Run(ctx) })
		deadline := time.Now().Add(30 * time.Second) // a guard, not a measurement
		for {
			st := e.status(t)
			if st.AutoTranslation.Queued == 0 && langStats(t, st, "nb").Missing == 0 && langStats(t, st, "sv").Missing == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("not done: %+v", st.Languages)
			}
			time.Sleep(20 * time.Millisecond)
		}
		stop()
		wg.Wait()
		if n := len(e.model.Calls()); n != 8 {
			t.Errorf("%d model calls, want 8 batches of 10", n)
		}
	})
}

// TestAutoTranslateRefusesWhatTheGateRefuses: an automatic batch whose model answers a
// NUL or a value past the size cap for some strings stores the rest, counts those failed
// (in the language's ai_failed and the usage ledger) and stores nothing of them.
func TestAutoTranslateRefusesWhatTheGateRefuses(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newAutoEnv(t, dialect, func(c aitest.Call) aitest.Reply {
			out := map[string]string{}
			for id, s := range c.Strings {
				switch s {
				case "Hello":
					out[id] = "Hei\x00"
				case "Cart":
					out[id] = strings.Repeat("x", 144014)
				default:
					out[id] = strings.ToUpper(c.TargetLanguage) + " " + s
				}
			}
			return aitest.Reply{Content: aitest.Content(out)}
		}, nil)
		e.register(t, "app", map[string]string{"hello": "Hello", "cart": "Cart", "open": "Open"})
		e.drain(t)
		for _, lang := range []string{"nb", "sv"} {
			for _, k := range []string{"hello", "cart"} {
				if r := e.row(t, "app", k, lang); r.Value != "" {
					t.Errorf("%s %s stored %.40q", k, lang, r.Value)
				}
			}
			if r := e.row(t, "app", "open", lang); r.Value != strings.ToUpper(lang)+" Open" {
				t.Errorf("open %s = %q, want the model's answer", lang, r.Value)
			}
			if l := langStats(t, e.status(t), lang); l.AIFailed != 2 || l.Missing != 2 {
				t.Errorf("%s %+v, want 2 failed and missing", lang, l)
			}
		}
		if u := e.status(t).Usage; u.StringsFailed != 4 {
			t.Errorf("usage %+v, want 4 strings failed", u)
		}
	})
}

// TestAutoTranslateSkipsAMemoryTheGateRefuses: an approved translation stored before a
// rule of the value gate existed (written here behind the catalogue's back) is not reused
// by translation memory; the string goes to the model instead, and the batch still stores.
func TestAutoTranslateSkipsAMemoryTheGateRefuses(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newAutoEnv(t, dialect, byLang, nil)
		e.register(t, "app", map[string]string{"old.save": "Save"})
		e.drain(t)
		p := tools.ProjectArg{ProjectID: e.f.Project.ID}
		if _, err := e.cat.UpdateTranslation(e.ctx, tools.UpdateTranslationIn{RowRef: tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: p,
			NamespaceKey: "app", TranslationKey: "old.save"}, Language: "nb"}, Value: "Lagre", Status: model.StatusApproved}); err != nil {
			t.Fatal(err)
		}
		if _, err := storagetest.SQL(t, e.dsn).ExecContext(t.Context(),
			`UPDATE translations SET value = 'javascript:alert(1)' WHERE value = 'Lagre'`); err != nil {
			t.Fatal(err)
		}
		e.register(t, "dialog", map[string]string{"save": "Save"})
		e.drain(t)
		if r := e.row(t, "dialog", "save", "nb"); r.Value != "NB Save" || r.UpdatedBy != "ai:test-model" {
			t.Errorf("dialog/save nb %+v, want the model's draft, not the refused memory", r)
		}
		if u := e.status(t).Usage; u.StringsFromMemory != 0 {
			t.Errorf("usage %+v, want nothing from memory", u)
		}
	})
}

// queueRows counts the project's pending and running translate jobs (rows) and the keys
// they hold.
func (e *autoEnv) queueRows(t *testing.T, projectID string) (rows, items int) {
	t.Helper()
	err := e.cat.Store().View(e.ctx, func(tx model.Tx) error {
		jobs, err := tx.QueuedJobs(e.ctx, projectID, tools.JobTranslate)
		for _, j := range jobs {
			items += j.ItemCount
		}
		rows = len(jobs)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return rows, items
}

// TestAutoTranslateQueueGrowsWithRowsNotBatches checks that a large registration is a few
// job rows (a row holds up to 1,000 keys in batches), that a claim hands out one batch of
// at most 10 keys, and that the counts get_project_status shows stay exact meanwhile.
func TestAutoTranslateQueueGrowsWithRowsNotBatches(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newAutoEnv(t, dialect, byLang, nil)
		e.register(t, "app", keys("app", 2500))
		if rows, items := e.queueRows(t, e.f.Project.ID); rows != 6 || items != 5000 {
			t.Fatalf("2,500 keys into nb and sv: %d job rows holding %d keys, want 6 rows (3 per language) holding 5000", rows, items)
		}
		e.register(t, "app", keys("more", 5)) // joins the newest row of each language
		if rows, items := e.queueRows(t, e.f.Project.ID); rows != 6 || items != 5010 {
			t.Fatalf("after 5 more keys: %d rows holding %d keys, want 6 rows holding 5010", rows, items)
		}
		e.clk.t = e.clk.t.Add(tools.AutoTranslateDelay + time.Second)
		claimOnly(t, e.cat, e.clk.now())
		if rows, items := e.queueRows(t, e.f.Project.ID); rows != 7 || items != 5010 {
			t.Fatalf("after one claim: %d rows holding %d keys, want 7 (the claimed batch is a row of its own) holding 5010", rows, items)
		}
		if q := e.status(t).AutoTranslation.Queued; q != 5010 {
			t.Errorf("get_project_status queued %d, want 5010", q)
		}

		// Long keys fill a row by size first: a claim never rewrites a huge row.
		long := newAutoEnv(t, dialect, byLang, nil)
		strs := map[string]string{}
		for i := range 120 {
			strs[fmt.Sprintf("%04d.%s", i, strings.Repeat("k", 5000))] = "Text"
		}
		long.register(t, "long", strs)
		rows, items := long.queueRows(t, long.f.Project.ID)
		if items != 240 || rows < 6 || rows > 8 {
			t.Fatalf("120 keys of 5,000 bytes into nb and sv: %d rows holding %d keys, want 6 to 8 rows of about 256 KiB holding 240", rows, items)
		}
	})
}

// TestAutoTranslateBatchOfADeadWorkerAfterASplit: a batch handed out of a larger row whose
// worker died runs again after its lease, once, and the rest of the row is not lost.
func TestAutoTranslateBatchOfADeadWorkerAfterASplit(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newAutoEnv(t, dialect, byLang, nil)
		e.register(t, "app", keys("app", 15))
		e.clk.t = e.clk.t.Add(tools.AutoTranslateDelay + time.Second)
		claimOnly(t, e.cat, e.clk.now()) // 10 keys of nb or sv, held by a worker that dies
		if n := e.drain(t); n != 3 {
			t.Fatalf("%d jobs ran while the dead worker's lease runs, want the 3 other batches", n)
		}
		e.clk.t = e.clk.t.Add(2 * time.Minute)
		e.drain(t)
		for _, lang := range []string{"nb", "sv"} {
			if got := callSizes(e.model, lang); !slices.Equal(got, []int{5, 10}) {
				t.Errorf("%s: calls of %v strings, want [5 10]: each batch once", lang, got)
			}
			if l := langStats(t, e.status(t), lang); l.Missing != 0 || l.Queued != 0 {
				t.Errorf("%s: %+v, want everything translated", lang, l)
			}
		}
	})
}

// TestAutoTranslateTakesTurnsBetweenProjects: project A has a backlog of 60 batches; project
// B queues one batch after A's first claims. B's batch is among the next two claims, not
// behind A's backlog.
func TestAutoTranslateTakesTurnsBetweenProjects(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newAutoEnv(t, dialect, byLang, nil)
		e.register(t, "app", keys("app", 300)) // 30 batches each into nb and sv
		e.clk.t = e.clk.t.Add(tools.AutoTranslateDelay + time.Second)
		runOne := func() {
			t.Helper()
			if ran, err := e.worker.RunOnce(e.ctx); err != nil || !ran {
				t.Fatalf("RunOnce: ran %v, err %v", ran, err)
			}
		}
		for range 3 {
			runOne()
		}
		b := e.f.Sibling.ID
		if _, err := e.cat.RegisterSourceStrings(e.ctx, tools.RegisterIn{ProjectArg: tools.ProjectArg{ProjectID: b},
			NamespaceKey: "docs", Strings: map[string]string{"intro": "Docs welcome"}}); err != nil {
			t.Fatal(err)
		}
		e.clk.t = e.clk.t.Add(tools.AutoTranslateDelay + time.Second)
		translated := func() bool {
			out, err := e.cat.GetTranslation(e.ctx, tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: b}, NamespaceKey: "docs", TranslationKey: "intro"})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range out.Translations {
				if r.Language == "de" && r.Value == "DE Docs welcome" {
					return true
				}
			}
			return false
		}
		claims := 0
		for !translated() {
			if claims == 2 {
				t.Fatalf("project B's batch not run within 2 claims after it fell due; A still has its backlog")
			}
			runOne()
			claims++
		}
		if _, items := e.queueRows(t, e.f.Project.ID); items < 500 {
			t.Errorf("project A has %d keys queued, want its backlog mostly waiting (B did not just come after it)", items)
		}
	})
}
