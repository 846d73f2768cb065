package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
	"github.com/lokal-dev/lokal/tools/secrets"
)

// recorder is a write hook registered after the server's: it sees every write's event as
// the other hooks did.
type recorder struct {
	mu  sync.Mutex
	evs []model.WriteEvent
}

func (r *recorder) hook(_ context.Context, _ model.Tx, ev model.WriteEvent) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.evs = append(r.evs, ev)
	return nil
}

func (r *recorder) take() []model.WriteEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	evs := r.evs
	r.evs = nil
	return evs
}

// scenario is the fixture's project "Web app" (en; nb and sv, both translated
// automatically) with namespace app holding greeting "Hello" (nb draft "Hei") and bye
// "Bye", a webhook taking every event, and a model double that prefixes the language.
type scenario struct {
	cat     *tools.Catalog
	store   model.Store
	f       storagetest.Fixture
	ctx     context.Context
	rec     *recorder
	webhook string
}

func (s *scenario) row(key, lang string) tools.RowRef {
	return tools.RowRef{KeyRef: s.key(key), Language: lang}
}

func (s *scenario) key(key string) tools.KeyRef {
	return tools.KeyRef{ProjectArg: s.project(), NamespaceKey: "app", TranslationKey: key}
}

func (s *scenario) project() tools.ProjectArg { return tools.ProjectArg{ProjectID: s.f.Project.ID} }

func (s *scenario) ns(lang string) tools.NamespaceRef {
	return tools.NamespaceRef{ProjectID: s.f.Project.ID, Language: lang, Namespace: "app"}
}

func newScenario(t *testing.T, dialect string) *scenario {
	t.Helper()
	db, f := storagetest.MustOpenFixture(t, dialect)
	box, err := secrets.New(make([]byte, secrets.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	llm := aitest.New(t, aitest.Echo(func(_, masked string) string { return "ai " + masked }))
	s := &scenario{store: db, f: f, ctx: model.WithPrincipal(t.Context(), tools.System), rec: &recorder{}}
	s.cat = storagetest.Catalog(db, &tools.Options{Secrets: box, Hooks: []tools.WriteHook{s.rec.hook},
		Outbound:  outbound.NewGuard([]netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}),
		AIDefault: tools.AIProvider{BaseURL: llm.URL, Model: "scenario"}})
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.cat.Sync(s.ctx, tools.SyncIn{NamespaceRef: s.ns("en"), Translations: map[string]string{"greeting": "Hello", "bye": "Bye"}}))
	must(s.cat.UpdateTranslation(s.ctx, tools.UpdateTranslationIn{RowRef: s.row("greeting", "nb"), Value: "Hei"}))
	h, err := s.cat.AddWebhook(s.ctx, f.Project.ID, "http://127.0.0.1:9/hook", nil)
	must(h, err)
	s.webhook = h.ID
	// The scenario starts from here: no queued work, an empty outbox.
	s.settle(t)
	s.rec.take()
	return s
}

// settle ends every queued job and empties the webhook outbox, returning what they held.
func (s *scenario) settle(t *testing.T) (translate []string, checkup bool, events []string) {
	t.Helper()
	err := s.store.Update(s.ctx, "", func(tx model.Tx) error {
		for {
			j, err := tx.ClaimJob(s.ctx, time.Now().Add(time.Hour), time.Minute)
			if model.IsNotFound(err) {
				break
			}
			if err != nil {
				return err
			}
			switch j.Kind {
			case tools.JobCheckup:
				checkup = true
			case tools.JobTranslate:
				var b struct{ Language string }
				if err := json.Unmarshal([]byte(j.Payload), &b); err != nil {
					return err
				}
				for _, k := range j.Items {
					translate = append(translate, b.Language+":"+k)
				}
			}
			if err := tx.FinishJob(s.ctx, j.ID, nil, time.Time{}); err != nil {
				return err
			}
		}
		bs, err := tx.TakeWebhookBatches(s.ctx, 1000)
		for _, b := range bs {
			for _, e := range b.Events {
				events = append(events, e.Kind+" "+e.Key+" "+e.Locale)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(translate)
	slices.Sort(events)
	return translate, checkup, events
}

// TestWriteScenarios runs each write operation once from the same state and checks what
// it handed the hooks and what they did with it: the change kinds, the webhook events in
// the outbox, the keys queued for automatic translation, whether a checkup was scheduled
// and whether AI usage was recorded.
func TestWriteScenarios(t *testing.T) {
	t.Parallel()
	for _, tc := range []writeScenario{
		{op: model.OpEnableLanguage, run: func(s *scenario) error {
			_, err := s.cat.EnableLanguage(s.ctx, tools.EnableLanguageIn{ProjectArg: s.project(), Language: "de"})
			return err
		}, kinds: kinds("language_enabled"), checkup: true},
		{op: model.OpRegisterSourceStrings, run: func(s *scenario) error {
			_, err := s.cat.RegisterSourceStrings(s.ctx, tools.RegisterIn{ProjectArg: s.project(), NamespaceKey: "app",
				Strings: map[string]string{"greeting": "Hello again", "thanks": "Thanks"}})
			return err
		}, kinds: kinds("key_created", "value_created"), events: []string{"translation.created thanks en"},
			translate: []string{"nb:thanks", "sv:thanks"}, checkup: true},
		{op: model.OpAddKey, run: func(s *scenario) error {
			_, err := s.cat.AddKey(s.ctx, tools.AddKeyIn{KeyRef: s.key("thanks"), SourceValue: "Thanks"})
			return err
		}, kinds: kinds("key_created", "value_created"), events: []string{"translation.created thanks en"},
			translate: []string{"nb:thanks", "sv:thanks"}, checkup: true},
		{op: model.OpUpdateTranslation, name: "draft", run: func(s *scenario) error {
			_, err := s.cat.UpdateTranslation(s.ctx, tools.UpdateTranslationIn{RowRef: s.row("greeting", "nb"), Value: "Hallo"})
			return err
		}, kinds: kinds("value_updated"), events: []string{"translation.updated greeting nb"}, checkup: true},
		{op: model.OpUpdateTranslation, name: "approved", run: func(s *scenario) error {
			_, err := s.cat.UpdateTranslation(s.ctx, tools.UpdateTranslationIn{RowRef: s.row("bye", "nb"), Value: "Ha det", Status: model.StatusApproved})
			return err
		}, kinds: kinds("value_created"), events: []string{"translation.approved bye nb", "translation.created bye nb"}, checkup: true},
		{op: model.OpSetTranslationStatus, run: func(s *scenario) error {
			_, err := s.cat.SetTranslationStatus(s.ctx, tools.SetStatusIn{RowRef: s.row("greeting", "nb"), Status: model.StatusApproved})
			return err
		}, kinds: kinds("status_changed"), events: []string{"translation.approved greeting nb"}},
		{op: model.OpAddComment, run: func(s *scenario) error {
			_, err := s.cat.AddComment(s.ctx, tools.AddCommentIn{RowRef: s.row("greeting", "nb"), Body: "Too formal?"})
			return err
		}, kinds: kinds("comment_added")},
		{op: model.OpFlagTranslation, run: func(s *scenario) error {
			_, err := s.cat.FlagTranslation(s.ctx, tools.FlagIn{RowRef: s.row("greeting", "nb"), Flag: model.FlagLanguageLocked, Value: true})
			return err
		}, kinds: kinds("flag_changed"), checkup: true},
		{op: model.OpAddGlossaryTerm, run: func(s *scenario) error {
			_, err := s.cat.AddGlossaryTerm(s.ctx, tools.GlossaryIn{ProjectArg: s.project(), SourceTerm: "Hello", TargetTerm: "Hei", Locale: "nb"})
			return err
		}, kinds: kinds("glossary_added"), checkup: true},
		{op: model.OpAddDoNotTranslate, run: func(s *scenario) error {
			_, err := s.cat.AddDoNotTranslate(s.ctx, s.f.Project.ID, "Acme")
			return err
		}, kinds: kinds("dnt_term_added"), checkup: true},
		{op: model.OpAddSubstitution, run: func(s *scenario) error {
			_, err := s.cat.AddSubstitution(s.ctx, s.f.Project.ID, "e-mail", "email", "all")
			return err
		}, kinds: kinds("substitution_added")},
		{op: model.OpSync, run: func(s *scenario) error {
			_, err := s.cat.Sync(s.ctx, tools.SyncIn{NamespaceRef: s.ns("en"), Translations: map[string]string{"greeting": "Hello!", "bye": "Bye", "thanks": "Thanks"},
				PreserveSourceValues: new(bool)})
			return err
		}, kinds: kinds("key_created", "value_created", "value_updated"),
			events:    []string{"translation.created thanks en", "translation.updated greeting en"},
			translate: []string{"nb:thanks", "sv:thanks"}, checkup: true},
		{op: model.OpMissing, run: func(s *scenario) error {
			_, err := s.cat.ReportMissing(s.ctx, tools.ReportMissingIn{NamespaceRef: s.ns("en"), Translations: map[string]string{"bye": "Farewell", "thanks": "Thanks"}})
			return err
		}, kinds: kinds("key_created", "value_created"), events: []string{"translation.created thanks en"},
			translate: []string{"nb:thanks", "sv:thanks"}, checkup: true},
		{op: model.OpOverwrite, run: func(s *scenario) error {
			_, err := s.cat.Overwrite(s.ctx, tools.OverwriteIn{NamespaceRef: s.ns("nb"), Translations: map[string]string{"greeting": "Hei!", "bye": "Ha det"}})
			return err
		}, kinds: kinds("value_created", "value_updated"), events: []string{"translation.approved bye nb", "translation.approved greeting nb", "translation.created bye nb", "translation.updated greeting nb"},
			checkup: true},
		{op: model.OpSyncPageStrings, run: func(s *scenario) error {
			_, err := s.cat.RegisterPageStrings(s.ctx, tools.PageStringsIn{ProjectID: s.f.Project.ID, Namespace: "page", SourceStrings: []string{"Buy now"}})
			return err
		}, kinds: kinds("key_created", "value_created"), events: []string{"translation.created Buy now en"},
			translate: []string{"nb:Buy now", "sv:Buy now"}, checkup: true},
		{op: model.OpAITranslateKeys, run: func(s *scenario) error {
			_, err := s.cat.AITranslateKeys(s.ctx, tools.AITranslateIn{ProjectArg: s.project(), NamespaceKey: "app", TranslationKeys: []string{"bye"}, TargetLang: "sv"})
			return err
		}, kinds: kinds("value_created"), events: []string{"translation.created bye sv"}, checkup: true, usage: true},
		{op: model.OpRetranslate, run: func(s *scenario) error {
			_, err := s.cat.Retranslate(s.ctx, tools.RetranslateIn{NamespaceRef: s.ns("nb"), Keys: []string{"greeting"}})
			return err
		}, kinds: kinds("value_updated"), events: []string{"translation.updated greeting nb"}, checkup: true, usage: true},
		{op: model.OpAutoTranslate, run: func(s *scenario) error {
			return s.cat.RunTranslateJob(s.ctx, model.Job{Kind: tools.JobTranslate, ProjectID: s.f.Project.ID,
				Payload: `{"language":"sv","namespace":"app"}`, Items: []string{"greeting", "bye"}})
		}, kinds: kinds("value_created", "value_created"), events: []string{"translation.created bye sv", "translation.created greeting sv"},
			checkup: true, usage: true},
		{op: model.OpWebhookAdd, run: func(s *scenario) error {
			_, err := s.cat.AddWebhook(s.ctx, s.f.Project.ID, "http://127.0.0.1:9/other", []string{tools.EventApproved})
			return err
		}, kinds: kinds("project_settings"), checkup: true},
		{op: model.OpWebhookURL, run: func(s *scenario) error {
			_, err := s.cat.SetWebhookURL(s.ctx, s.webhook, "http://127.0.0.1:9/moved")
			return err
		}, kinds: kinds("project_settings"), checkup: true},
		{op: model.OpWebhookState, run: func(s *scenario) error {
			_, err := s.cat.SetWebhookEnabled(s.ctx, s.webhook, false)
			return err
		}, kinds: kinds("project_settings"), checkup: true},
		{op: model.OpRedeploySet, run: func(s *scenario) error {
			_, err := s.cat.SetRedeploy(s.ctx, tools.RedeployIn{ProjectID: s.f.Project.ID, Provider: tools.DeployHook, URL: "http://127.0.0.1:9/deploy"})
			return err
		}, kinds: kinds("project_settings"), checkup: true},
		{op: model.OpRedeploy, run: func(s *scenario) error {
			// Nothing is configured: the caches are refreshed all the same, and no call is made.
			_, err := s.cat.Redeploy(s.ctx, s.f.Project.ID, func(context.Context, tools.DeployCall) (int, error) {
				return 0, errors.New("dispatched with nothing configured")
			})
			if model.ErrorCode(err) == model.CodeNotConfigured {
				return nil
			}
			return fmt.Errorf("redeploy with nothing configured: %v, want not_configured", err)
		}, kinds: kinds("cache_refreshed")},
		{op: model.OpSetWorkspaceEmbed, run: func(s *scenario) error {
			off := false
			_, err := s.cat.SetWorkspace(s.ctx, s.f.Workspace.ID, tools.SetWorkspaceIn{Embed: &off})
			return err
		}, kinds: kinds("embed_switched", "embed_switched")},
	} {
		name := string(tc.op)
		if tc.name != "" {
			name += "/" + tc.name
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, dialect := range storagetest.Dialects {
				t.Run(dialect, func(t *testing.T) {
					t.Parallel()
					tc.check(t, newScenario(t, dialect))
				})
			}
		})
	}
}

// writeScenario is one row: a write and what its hooks must have seen and done.
type writeScenario struct {
	op        model.Operation
	name      string // when one operation has several rows
	run       func(s *scenario) error
	kinds     []model.ChangeKind // of every event of the write, sorted
	events    []string           // "kind key locale", sorted
	translate []string           // "language:key" queued, sorted
	checkup   bool
	usage     bool
}

func (tc writeScenario) check(t *testing.T, s *scenario) {
	before := s.revision(t)
	if err := tc.run(s); err != nil {
		t.Fatal(err)
	}
	if after := s.revision(t); after == before {
		t.Errorf("the project's revision stayed %d: its caches keep the old state", after)
	}
	var gotKinds []model.ChangeKind
	usage := false
	for _, ev := range s.rec.take() {
		if ev.Op != tc.op {
			t.Errorf("event of operation %q, want %q", ev.Op, tc.op)
		}
		for ch := range ev.All() {
			gotKinds = append(gotKinds, ch.Kind)
		}
		usage = usage || len(ev.Usage) > 0
	}
	slices.Sort(gotKinds)
	if !slices.Equal(gotKinds, tc.kinds) {
		t.Errorf("changes %v, want %v", gotKinds, tc.kinds)
	}
	if usage != tc.usage {
		t.Errorf("AI usage recorded: %v, want %v", usage, tc.usage)
	}
	translate, checkup, events := s.settle(t)
	if !slices.Equal(events, tc.events) {
		t.Errorf("webhook events %q, want %q", events, tc.events)
	}
	if !slices.Equal(translate, tc.translate) {
		t.Errorf("queued for translation %q, want %q", translate, tc.translate)
	}
	if checkup != tc.checkup {
		t.Errorf("checkup scheduled: %v, want %v", checkup, tc.checkup)
	}
}

// revision is the project's cache revision, which the cache hook moves.
func (s *scenario) revision(t *testing.T) int64 {
	t.Helper()
	var rev int64
	err := s.store.View(s.ctx, func(tx model.Tx) error {
		stx, ok := tx.(model.StagingTx)
		if !ok {
			return fmt.Errorf("%T cannot tell a project's revision", tx)
		}
		var err error
		rev, err = stx.ProjectRevision(s.ctx, s.f.Project.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return rev
}

// kinds sorts the change kinds a row expects.
func kinds(ks ...string) []model.ChangeKind {
	out := make([]model.ChangeKind, len(ks))
	for i, k := range ks {
		out[i] = model.ChangeKind(k)
	}
	slices.Sort(out)
	return out
}
