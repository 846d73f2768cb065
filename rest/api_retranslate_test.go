package rest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

type retranslateOut struct {
	Lang                 string            `json:"lang"`
	Retranslated         map[string]string `json:"retranslated"`
	SkippedMissingSource []string          `json:"skipped_missing_source"`
	SkippedLocked        []string          `json:"skipped_locked"`
	Failed               []string          `json:"failed"`
}

// aiServer is a server whose operator default AI provider is an OpenAI-compatible double
// answering with r.
func aiServer(t *testing.T, dialect string, r aitest.Responder, budgets map[string]int) (*server, *aitest.Server) {
	t.Helper()
	llm := aitest.New(t, r)
	s := newServer(t, dialect, &tools.Options{Budgets: budgets, AIDefault: tools.AIProvider{BaseURL: llm.URL, Model: "test-model"}})
	s.sync(t, "en", "ui", map[string]string{"hello": "Hello, %{name}!", "bold": "<b>Bye</b> now", "plain": "Cart"})
	return s, llm
}

func (s *server) retranslatePath(lang, ns string) string {
	return "/api/retranslate/" + s.proj.ID + "/latest/" + lang + "/" + ns
}

// nbEcho translates by putting "NB " before the text, keeping every token.
var nbEcho = aitest.Echo(func(_, masked string) string { return "NB " + masked })

// TestRetranslate is endpoint 6 against a model double: drafts stored with the source's
// placeholders and markup, attributed to ai:<model>, current (not stale); keys without a
// source skipped; locked rows kept.
func TestRetranslate(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		s, llm := aiServer(t, dialect, nbEcho, nil)
		s.overwrite(t, "nb", "ui", map[string]string{"plain": "Handlekurv"})
		s.call(t, "PUT", s.syncPath("en", "ui"), tokenAuth(s.rw), map[string]any{"translations": map[string]string{
			"hello": "Hello, %{name}!", "bold": "<b>Bye</b> now", "plain": "Cart!"}, "preserve_source_values": false}).wantStatus(t, http.StatusOK)
		wantKeys(t, "stale before", s.stale(t, "ui", "lang=nb"), []string{"plain"})

		r := s.call(t, "POST", s.retranslatePath("nb", "ui"), tokenAuth(s.rw), []string{"hello", "bold", "plain", "nope"})
		r.wantStatus(t, http.StatusOK)
		var out retranslateOut
		if err := json.Unmarshal(r.body, &out); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"hello": "NB Hello, %{name}!", "bold": "NB <b>Bye</b> now", "plain": "NB Cart!"}
		if !jsonEqual(t, out.Retranslated, want) || out.Lang != "nb" {
			t.Errorf("retranslated %v, want %v", out.Retranslated, want)
		}
		wantKeys(t, "skipped_missing_source", out.SkippedMissingSource, []string{"nope"})
		wantKeys(t, "failed", out.Failed, nil)
		s.wantFlat(t, "nb", "ui", want)
		wantKeys(t, "stale after", s.stale(t, "ui", "lang=nb"), nil)
		if calls := llm.Calls(); len(calls) != 1 || calls[0].TargetLanguage != "nb" || calls[0].Model != "test-model" {
			t.Errorf("model calls %+v, want one batch into nb", calls)
		}
		for id, masked := range llm.Calls()[0].Strings {
			if strings.Contains(masked, "%{name}") || strings.Contains(masked, "<b>") {
				t.Errorf("the model saw a raw placeholder or tag: %q", masked)
			}
			if id == "hello" || id == "bold" || id == "plain" {
				t.Errorf("the model saw a key name as an id: %q", id)
			}
		}
		m := s.mcpProject(t, tokenAuth(s.rw))
		row := mcpOK[struct {
			Translations []struct {
				Language  string `json:"language"`
				Status    string `json:"status"`
				UpdatedBy string `json:"updated_by"`
			} `json:"translations"`
		}](t, m, "get_translation", map[string]any{"namespace_key": "ui", "translation_key": "hello"})
		for _, tr := range row.Translations {
			if tr.Language == "nb" && (tr.Status != "needs_review" || tr.UpdatedBy != "ai:test-model") {
				t.Errorf("nb row %+v, want a needs_review draft by ai:test-model", tr)
			}
		}

		// A locked row is never overwritten.
		mcpOK[map[string]any](t, m, "flag_translation", map[string]any{"namespace_key": "ui", "translation_key": "plain", "language": "nb",
			"flag": "language_locked", "value": true})
		r = s.call(t, "POST", s.retranslatePath("nb", "ui"), tokenAuth(s.rw), []string{"plain"})
		r.wantStatus(t, http.StatusOK)
		out = retranslateOut{}
		json.Unmarshal(r.body, &out)
		wantKeys(t, "skipped_locked", out.SkippedLocked, []string{"plain"})
		if len(llm.Calls()) != 1 {
			t.Errorf("a locked key was sent to the model")
		}
	})
}

// TestRetranslateRefusals: too many keys, no provider, a read-only key, another project's
// key, an unknown language, and the per-minute cap.
func TestRetranslateRefusals(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		s, _ := aiServer(t, dialect, nbEcho, map[string]int{tools.RetranslateBudget.Name: 2})
		eleven := make([]string, 11)
		for i := range eleven {
			eleven[i] = "k" + string(rune('a'+i))
		}
		s.call(t, "POST", s.retranslatePath("nb", "ui"), tokenAuth(s.rw), eleven).wantStatus(t, http.StatusUnprocessableEntity).wantError(t, "unprocessable")
		s.call(t, "POST", s.retranslatePath("nb", "ui"), tokenAuth(s.ro), []string{"hello"}).wantStatus(t, http.StatusForbidden).wantError(t, "read_only_key")
		s.call(t, "POST", s.retranslatePath("nb", "ui"), tokenAuth(s.otherRW), []string{"hello"}).wantStatus(t, http.StatusUnauthorized)
		s.call(t, "POST", s.retranslatePath("de", "ui"), tokenAuth(s.rw), []string{"hello"}).wantStatus(t, http.StatusNotFound)
		s.call(t, "POST", s.retranslatePath("nb", "ui"), tokenAuth(s.rw), `{"hello": 1}`).wantStatus(t, http.StatusBadRequest)
		s.call(t, "POST", s.retranslatePath("nb", "ui"), tokenAuth(s.rw), []string{"hello"}).wantStatus(t, http.StatusOK)
		s.call(t, "POST", s.retranslatePath("nb", "ui"), tokenAuth(s.rw), []string{"bold"}).wantStatus(t, http.StatusOK)
		wantRateLimited(t, s.call(t, "POST", s.retranslatePath("nb", "ui"), tokenAuth(s.rw), []string{"plain"}))
		// ai_translate_keys spends the same budget of AI calls.
		mcpErr(t, s.mcpProject(t, tokenAuth(s.rw)), "ai_translate_keys", map[string]any{"namespace_key": "ui",
			"translation_keys": []string{"plain"}, "target_lang": "nb"}, "rate_limited")

		bare := newServer(t, dialect, nil)
		bare.sync(t, "en", "ui", map[string]string{"hello": "Hello"})
		r := bare.call(t, "POST", bare.retranslatePath("nb", "ui"), tokenAuth(bare.rw), []string{"hello"})
		// The spec's not_configured body: the error shape with ok false.
		r.wantStatus(t, http.StatusUnprocessableEntity)
		var body struct {
			OK    *bool  `json:"ok"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal(r.body, &body); err != nil || body.Error != "not_configured" || body.OK == nil || *body.OK {
			t.Errorf("body %s, want {ok: false, error: not_configured}", r.body)
		}
	})
}

// TestRetranslateNeverStoresABrokenPlaceholder: a model that drops or renames placeholders,
// even on its retry, gets its strings reported failed and nothing stored; a model that
// repairs on the retry gets them stored.
func TestRetranslateNeverStoresABrokenPlaceholder(t *testing.T) {
	t.Parallel()
	drop := aitest.Echo(func(_, masked string) string { return "NB text without its tokens" })
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		s, llm := aiServer(t, dialect, drop, nil)
		r := s.call(t, "POST", s.retranslatePath("nb", "ui"), tokenAuth(s.rw), []string{"hello", "bold"})
		r.wantStatus(t, http.StatusOK)
		var out retranslateOut
		json.Unmarshal(r.body, &out)
		wantKeys(t, "failed", out.Failed, []string{"bold", "hello"})
		if len(out.Retranslated) != 0 {
			t.Errorf("stored %v from a model that broke every placeholder", out.Retranslated)
		}
		s.wantFlat(t, "nb", "ui", map[string]string{})
		if n := len(llm.Calls()); n != 2 {
			t.Errorf("%d model calls, want the call and one targeted retry", n)
		}

		fixed, _ := aiServer(t, dialect, aitest.Sequence(drop, nbEcho), nil)
		r = fixed.call(t, "POST", fixed.retranslatePath("nb", "ui"), tokenAuth(fixed.rw), []string{"hello"})
		out = retranslateOut{}
		json.Unmarshal(r.body, &out)
		if out.Retranslated["hello"] != "NB Hello, %{name}!" {
			t.Errorf("after a repairing retry, retranslated %v", out.Retranslated)
		}
	})
}

// TestMCPAITranslateKeysWithAProvider: ai_translate_keys stores drafts and never overwrites
// an approved translation.
func TestMCPAITranslateKeysWithAProvider(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		s, _ := aiServer(t, dialect, nbEcho, nil)
		s.overwrite(t, "nb", "ui", map[string]string{"plain": "Handlekurv"}) // approved
		m := s.mcpProject(t, tokenAuth(s.rw))
		out := mcpOK[struct {
			Translated      map[string]string `json:"translated"`
			SkippedApproved []string          `json:"skipped_approved"`
		}](t, m, "ai_translate_keys", map[string]any{"namespace_key": "ui", "translation_keys": []string{"hello", "plain"},
			"target_lang": "nb"})
		if out.Translated["hello"] != "NB Hello, %{name}!" || len(out.Translated) != 1 {
			t.Errorf("translated %v", out.Translated)
		}
		wantKeys(t, "skipped_approved", out.SkippedApproved, []string{"plain"})
		s.wantFlat(t, "nb", "ui", map[string]string{"hello": "NB Hello, %{name}!", "plain": "Handlekurv"})
	})
}

// TestRetranslateWithAHungModel: a model that never answers costs the caller the AI call
// budget, not the HTTP server's write timeout: 200 with every key failed, nothing stored,
// and the time spent in the usage ledger.
func TestRetranslateWithAHungModel(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		llm := aitest.New(t, aitest.Fixed(aitest.Reply{Hang: true}))
		s := newServer(t, dialect, &tools.Options{AICallBudget: 300 * time.Millisecond,
			AIDefault: tools.AIProvider{BaseURL: llm.URL, Model: "test-model"}})
		s.sync(t, "en", "ui", map[string]string{"hello": "Hello, %{name}!", "plain": "Cart"})
		r := s.call(t, "POST", s.retranslatePath("nb", "ui"), tokenAuth(s.rw), []string{"hello", "plain"}).wantStatus(t, http.StatusOK)
		var out retranslateOut
		if err := json.Unmarshal(r.body, &out); err != nil {
			t.Fatal(err)
		}
		wantKeys(t, "failed", out.Failed, []string{"hello", "plain"})
		if len(out.Retranslated) != 0 {
			t.Errorf("retranslated %v from a model that never answered", out.Retranslated)
		}
		s.wantFlat(t, "nb", "ui", map[string]string{})
		u, err := s.cat.Usage(model.WithPrincipal(t.Context(), tools.System), tools.UsageIn{ProjectArg: tools.ProjectArg{ProjectID: s.proj.ID}})
		if err != nil || u.Calls != 1 || u.StringsFailed != 2 || u.ByModel[0].Calls != 1 {
			t.Errorf("usage %+v (err %v), want the one timed-out call and 2 failed strings", u, err)
		}
	})
}
