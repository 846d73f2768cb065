package tools_test

import (
	"testing"

	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestAutoTranslateDropsARefusedValue: a batch of automatic translation in which one value
// does not pass the value rule (here a remembered approved translation stored before the
// rule, with a brace left open, which no model check sees) stores the rest and reports
// that key failed with why; it is not the whole batch's error.
func TestAutoTranslateDropsARefusedValue(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		llm := aitest.New(t, aitest.Echo(func(_, masked string) string { return "ai " + masked }))
		x := newCheckupFixture(t, dialect, func(o *tools.Options) {
			o.AIDefault = tools.AIProvider{BaseURL: llm.URL, Model: "held"}
		})
		x.sync(t, "en", "app", map[string]string{"a": "Hello {name}", "b": "Hello {name}", "c": "Cart"}, false)
		ref := func(k string) tools.RowRef {
			return tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: x.proj}, NamespaceKey: "app", TranslationKey: k}, Language: "nb"}
		}
		if _, err := x.cat.UpdateTranslation(x.ctx, tools.UpdateTranslationIn{RowRef: ref("a"), Value: "Hei {name}", Status: model.StatusApproved}); err != nil {
			t.Fatal(err)
		}
		if _, err := storagetest.SQL(t, x.dsn).Exec(`UPDATE translations SET value = 'Hei {name' WHERE language = 'nb' AND value = 'Hei {name}'`); err != nil {
			t.Fatal(err)
		}
		err := x.cat.RunTranslateJob(x.ctx, model.Job{Kind: tools.JobTranslate, ProjectID: x.proj,
			Payload: `{"language":"nb","namespace":"app"}`, Items: []string{"b", "c"}})
		if err != nil {
			t.Fatalf("the batch failed: %v", err)
		}
		got := map[string]string{}
		for _, k := range []string{"b", "c"} {
			v, err := x.cat.GetTranslation(x.ctx, ref(k).KeyRef)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range v.Translations {
				if r.Language == "nb" {
					got[k] = r.Value
				}
			}
		}
		if got["c"] != "ai Cart" || got["b"] != "" {
			t.Errorf("stored %v, want c translated and b left empty", got)
		}
		st, err := x.cat.GetProjectStatus(x.ctx, tools.ProjectStatusIn{ProjectArg: tools.ProjectArg{ProjectID: x.proj}})
		if err != nil {
			t.Fatal(err)
		}
		if st.AutoTranslation.Failed != 1 {
			t.Errorf("automatic translation reports %d failed, want 1 (b)", st.AutoTranslation.Failed)
		}
	})
}
