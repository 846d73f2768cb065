package rest_test

import (
	"encoding/json"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestMCPSeesOperatorTerminology: what the operator adds (lokal term add, substitution add,
// through the admin operations) is what list_terminology answers, in MCP's own shape; the
// admin operations refuse any principal but the system; a new do-not-translate term schedules
// a checkup.
func TestMCPSeesOperatorTerminology(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		ctx := sys(t)
		// Checkups read do-not-translate terms, so a new one schedules the project's checkup.
		before, err := s.db.PendingJobs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.cat.AddDoNotTranslate(ctx, s.proj.ID, "lokal"); err != nil {
			t.Fatalf("adding a do-not-translate term: %v", err)
		}
		if after, err := s.db.PendingJobs(ctx); err != nil || after != before+1 {
			t.Errorf("pending jobs %d (%v) after a do-not-translate term, want %d: a checkup", after, err, before+1)
		}
		if _, err := s.cat.AddGlossaryPair(ctx, tools.GlossaryIn{ProjectArg: tools.ProjectArg{ProjectID: s.proj.ID},
			SourceTerm: "Sign in", TargetTerm: "Logg inn", Locale: "nb"}); err != nil {
			t.Fatalf("adding a glossary pair: %v", err)
		}
		if _, err := s.cat.AddSubstitution(ctx, s.proj.ID, "...", "…", ""); err != nil {
			t.Fatalf("adding a substitution: %v", err)
		}
		if _, err := s.cat.AddSubstitution(ctx, s.proj.ID, "®", "", "sv"); err != nil {
			t.Fatalf("adding a substitution for sv: %v", err)
		}

		m := s.mcpProject(t, tokenAuth(s.ro))
		out := mcpOK[mcpTerminology](t, m, "list_terminology", map[string]any{"locale": "nb"})
		if len(out.Glossary) != 1 || out.Glossary[0] != (mcpGlossary{SourceTerm: "Sign in", TargetTerm: "Logg inn", Locale: "nb"}) {
			t.Errorf("glossary %+v", out.Glossary)
		}
		if len(out.DoNotTranslate) != 1 || out.DoNotTranslate[0] != "lokal" {
			t.Errorf("do_not_translate %v", out.DoNotTranslate)
		}
		type rule struct {
			Locale      string `json:"locale"`
			Pattern     string `json:"pattern"`
			Replacement string `json:"replacement"`
		}
		var rules []rule
		for _, raw := range out.Substitutions {
			var r rule
			if err := json.Unmarshal(raw, &r); err != nil {
				t.Fatalf("substitution %s: %v", raw, err)
			}
			rules = append(rules, r)
		}
		if len(rules) != 1 || rules[0].Pattern != "..." || rules[0].Replacement != "…" || rules[0].Locale != "all" {
			t.Errorf("substitutions for nb %+v, want only the rule for all", rules)
		}

		pat := model.WithPrincipal(t.Context(), model.Principal{Kind: model.KindWorkspace, WorkspaceID: s.ws.ID, UserID: s.user.ID})
		if _, err := s.cat.AddDoNotTranslate(pat, s.proj.ID, "Acme"); model.ErrorCode(err) != model.CodeUnauthorized {
			t.Errorf("a workspace token adding a do-not-translate term: %v, want unauthorized", err)
		}
		if _, err := s.cat.AddSubstitution(pat, s.proj.ID, "a", "b", ""); model.ErrorCode(err) != model.CodeUnauthorized {
			t.Errorf("a workspace token adding a substitution: %v, want unauthorized", err)
		}
		if _, err := s.cat.AddGlossaryPair(pat, tools.GlossaryIn{ProjectArg: tools.ProjectArg{ProjectID: s.proj.ID},
			SourceTerm: "a", TargetTerm: "b"}); model.ErrorCode(err) != model.CodeUnauthorized {
			t.Errorf("a workspace token adding a glossary pair the admin way: %v, want unauthorized", err)
		}
	})
}
