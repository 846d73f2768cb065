package message

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

// Every value the AI eval cases expect to be stored (a correct answer,
// written by hand) passes Check against its source, with the case's
// languages, glossary and do-not-translate terms; except the expectations
// written before the contract that plural forms are exactly the target's
// categories, which Check refuses with the code given here.
var outdatedEvalExpectations = map[string]string{}

func TestCheckAcceptsEvalExpectations(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../evals/testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no eval cases: %v", err)
	}
	checked := 0
	for _, name := range files {
		a, err := txtar.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var rules struct {
			Source   string   `json:"source_language"`
			Target   string   `json:"target_language"`
			DNT      []string `json:"do_not_translate"`
			Glossary []struct {
				Source, Target, Locale string
			} `json:"glossary"`
		}
		var source map[string]string
		var want map[string]struct {
			Value  *string `json:"value"`
			Failed bool    `json:"failed"`
		}
		for _, f := range a.Files {
			switch f.Name {
			case "rules.json":
				err = json.Unmarshal(f.Data, &rules)
			case "source.json":
				err = json.Unmarshal(f.Data, &source)
			case "want.json":
				err = json.Unmarshal(f.Data, &want)
			}
			if err != nil {
				t.Fatalf("%s: %s: %v", name, f.Name, err)
			}
		}
		var values []string
		for _, v := range source {
			values = append(values, v)
		}
		r := Rules{SourceLang: rules.Source, TargetLang: rules.Target, Syntax: DetectSyntax(values), DoNotTranslate: rules.DNT}
		for _, g := range rules.Glossary {
			r.Glossary = append(r.Glossary, Term{g.Source, g.Target, g.Locale})
		}
		for k, w := range want {
			src, ok := source[k]
			if !ok || w.Value == nil || w.Failed {
				continue
			}
			checked++
			got := Check(src, *w.Value, r)
			if code, ok := outdatedEvalExpectations[filepath.Base(name)+" "+k]; ok {
				if len(got) != 1 || got[0].Code != code {
					t.Errorf("%s %s: Check(%q, %q) = %v, want one %s problem", filepath.Base(name), k, src, *w.Value, got, code)
				}
				continue
			}
			if len(got) > 0 {
				t.Errorf("%s %s: Check(%q, %q) = %v", filepath.Base(name), k, src, *w.Value, got)
			}
		}
	}
	if checked < 50 {
		t.Errorf("only %d expected values checked", checked)
	}
}
