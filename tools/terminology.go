package tools

import (
	"context"
	"strings"
)

// GlossaryIn is add_glossary_term's input.
type GlossaryIn struct {
	ProjectArg
	SourceTerm string `json:"source_term" jsonschema:"the term in the source language"`
	TargetTerm string `json:"target_term" jsonschema:"its fixed translation"`
	Locale     string `json:"locale,omitempty" jsonschema:"language code, or all (default)"`
}

// MaxTermBytes bounds a glossary or do-not-translate term.
const MaxTermBytes = 500

// AddGlossaryTerm adds a fixed translation of a term for one locale or all.
func (c *Catalog) AddGlossaryTerm(ctx context.Context, in GlossaryIn) (GlossaryPair, error) {
	var out GlossaryPair
	var g GlossaryPair
	err := c.write(ctx, write{op: "add_glossary_term", project: in.ProjectID,
		validate: func() error {
			var err error
			if g.Locale, err = checkLocale(in.Locale); err != nil {
				return err
			}
			if g.SourceTerm, err = checkText("source_term", in.SourceTerm, MaxTermBytes); err != nil {
				return err
			}
			if g.TargetTerm, err = checkText("target_term", in.TargetTerm, MaxTermBytes); err != nil {
				return err
			}
			return checkValue(g.SourceTerm, g.TargetTerm)
		},
		apply: func(ctx context.Context, tx Tx, proj Project) ([]Change, error) {
			existing, err := tx.Glossary(ctx, proj.ID)
			if err != nil {
				return nil, err
			}
			for _, e := range existing {
				if e.SourceTerm == g.SourceTerm && e.TargetTerm == g.TargetTerm && e.Locale == g.Locale {
					return nil, Errorf(CodeConflict, "the glossary already has %q → %q for %s", g.SourceTerm, g.TargetTerm, g.Locale)
				}
			}
			if out, err = tx.AddGlossary(ctx, proj.ID, g); err != nil {
				return nil, err
			}
			return []Change{{Kind: ChangeGlossaryAdded, Language: g.Locale}}, nil
		}})
	return out, err
}

// checkLocale accepts a supported language code or "all" (the default when empty).
func checkLocale(locale string) (string, error) {
	if locale == "" || locale == "all" {
		return "all", nil
	}
	l, ok := LookupLanguage(locale)
	if !ok {
		return "", Errorf(CodeInvalid, "locale must be a supported language code or all")
	}
	return l.Code, nil
}

// TerminologyIn optionally narrows terminology to one locale.
type TerminologyIn struct {
	ProjectArg
	Locale string `json:"locale,omitempty" jsonschema:"language code; rules marked all are always included"`
}

// TerminologyOut lists the project's fixed terms and rules.
type TerminologyOut struct {
	Glossary       []GlossaryPair     `json:"glossary"`
	DoNotTranslate []string           `json:"do_not_translate"`
	Substitutions  []SubstitutionRule `json:"substitutions"`
}

// ListTerminology lists glossary pairs, do-not-translate terms and substitution rules.
func (c *Catalog) ListTerminology(ctx context.Context, in TerminologyIn) (TerminologyOut, error) {
	out := TerminologyOut{Glossary: []GlossaryPair{}, DoNotTranslate: []string{}, Substitutions: []SubstitutionRule{}}
	if err := c.begin(ctx, in.ProjectID, false); err != nil {
		return out, err
	}
	keep := func(locale string) bool {
		return in.Locale == "" || locale == "all" || strings.EqualFold(locale, in.Locale)
	}
	err := c.read(ctx, in.ProjectID, func(tx Tx, proj Project) error {
		gl, err := tx.Glossary(ctx, proj.ID)
		if err != nil {
			return err
		}
		for _, g := range gl {
			if keep(g.Locale) {
				out.Glossary = append(out.Glossary, g)
			}
		}
		terms, err := tx.DoNotTranslateTerms(ctx, proj.ID)
		if err != nil {
			return err
		}
		out.DoNotTranslate = append(out.DoNotTranslate, terms...)
		subs, err := tx.Substitutions(ctx, proj.ID)
		if err != nil {
			return err
		}
		for _, s := range subs {
			if keep(s.Locale) {
				out.Substitutions = append(out.Substitutions, s)
			}
		}
		return nil
	})
	return out, err
}
