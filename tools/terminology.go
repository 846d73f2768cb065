package tools

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
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
func (c *Catalog) AddGlossaryTerm(ctx context.Context, in GlossaryIn) (model.GlossaryPair, error) {
	var out, g model.GlossaryPair
	err := c.write(ctx, write{op: model.OpAddGlossaryTerm, project: in.ProjectID,
		validate: func() (err error) {
			g, err = checkGlossaryPair(in)
			return err
		},
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) (ch []model.Change, err error) {
			out, ch, err = addGlossaryPair(ctx, tx, proj.ID, g)
			return ch, err
		}})
	return out, err
}

// AddGlossaryPair is AddGlossaryTerm for the operator (lokal term add): the same rules,
// through an admin write that spends no budget.
func (c *Catalog) AddGlossaryPair(ctx context.Context, in GlossaryIn) (model.GlossaryPair, error) {
	var out, g model.GlossaryPair
	err := c.write(ctx, write{op: model.OpAddGlossaryTerm, admin: true, project: in.ProjectID,
		validate: func() (err error) {
			g, err = checkGlossaryPair(in)
			return err
		},
		apply: func(ctx context.Context, tx model.Tx, _ model.Project) (ch []model.Change, err error) {
			proj, err := c.loadProject(ctx, tx, in.ProjectID)
			if err != nil {
				return nil, err
			}
			out, ch, err = addGlossaryPair(ctx, tx, proj.ID, g)
			return ch, err
		}})
	return out, err
}

// checkGlossaryPair is the one rule of a glossary pair, whoever adds it.
func checkGlossaryPair(in GlossaryIn) (model.GlossaryPair, error) {
	var g model.GlossaryPair
	var err error
	if g.Locale, err = checkLocale(in.Locale); err != nil {
		return g, err
	}
	if g.SourceTerm, err = checkText("source_term", in.SourceTerm, MaxTermBytes); err != nil {
		return g, err
	}
	if g.TargetTerm, err = checkText("target_term", in.TargetTerm, MaxTermBytes); err != nil {
		return g, err
	}
	return g, model.GateValue(g.SourceTerm, g.TargetTerm)
}

// addGlossaryPair stores g unless the project has a pair for the same source term (as
// message.TermKey compares them: case aside) and locale: one term has one fixed
// translation per locale, or the AI and the checkup would follow one of them silently.
// Changing a translation is removing the pair and adding the new one.
func addGlossaryPair(ctx context.Context, tx model.Tx, projectID string, g model.GlossaryPair) (model.GlossaryPair, []model.Change, error) {
	existing, err := tx.Glossary(ctx, projectID)
	if err != nil {
		return g, nil, err
	}
	for _, e := range existing {
		if e.Locale != g.Locale || message.TermKey(e.SourceTerm) != message.TermKey(g.SourceTerm) {
			continue
		}
		where := "for all languages"
		if e.Locale != "all" {
			name, _ := LanguageName(e.Locale)
			where = "for " + name
		}
		if e.SourceTerm == g.SourceTerm && e.TargetTerm == g.TargetTerm {
			return g, nil, model.Errorf(model.CodeConflict, "the glossary already has %q → %q %s", e.SourceTerm, e.TargetTerm, where)
		}
		return g, nil, model.Errorf(model.CodeConflict, "the glossary already translates %q as %q %s: remove that pair first to change it", e.SourceTerm, e.TargetTerm, where)
	}
	if g, err = tx.AddGlossary(ctx, projectID, g); err != nil {
		return g, nil, err
	}
	return g, []model.Change{{Kind: model.ChangeGlossaryAdded, Language: g.Locale}}, nil
}

// AddDoNotTranslate adds a term that translations keep as it is, in every locale. For the
// operator and the project's managers (add_do_not_translate).
func (c *Catalog) AddDoNotTranslate(ctx context.Context, projectID, term string) (string, error) {
	var t string
	if err := c.admit(ctx, model.OpAddDoNotTranslate, on{project: projectID, entry: true}); err != nil {
		return t, err
	}
	err := c.write(ctx, write{op: model.OpAddDoNotTranslate, project: projectID,
		validate: func() (err error) {
			t, err = checkText("term", term, MaxTermBytes)
			return err
		},
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			existing, err := tx.DoNotTranslateTerms(ctx, proj.ID)
			if err != nil {
				return nil, err
			}
			for _, e := range existing {
				if e == t {
					return nil, model.Errorf(model.CodeConflict, "%q is already a do-not-translate term", t)
				}
			}
			if err := tx.AddDoNotTranslate(ctx, proj.ID, t); err != nil {
				return nil, err
			}
			return []model.Change{{Kind: model.ChangeTermAdded}}, nil
		}})
	return t, err
}

// AddSubstitution adds a rule that replaces from with to in translations into locale ("all"
// when empty) after a model answered. to may be empty, so that a rule can delete text
// (a stray character a model keeps adding); from may not. Both are kept exactly, spaces
// too: typography rules are often about spaces (a no-break space before "!" in French).
// A locale has at most one rule per from, since two would depend on the order they ran in.
// For the operator and the project's managers (add_substitution).
func (c *Catalog) AddSubstitution(ctx context.Context, projectID, from, to, locale string) (model.SubstitutionRule, error) {
	var r model.SubstitutionRule
	if err := c.admit(ctx, model.OpAddSubstitution, on{project: projectID, entry: true}); err != nil {
		return r, err
	}
	err := c.write(ctx, write{op: model.OpAddSubstitution, project: projectID,
		validate: func() (err error) {
			if r.Locale, err = checkLocale(locale); err != nil {
				return err
			}
			if r.Pattern, err = checkRuleText("from", from, false); err != nil {
				return err
			}
			if r.Replacement, err = checkRuleText("to", to, true); err != nil {
				return err
			}
			return model.GateValue(r.Pattern, r.Replacement)
		},
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			existing, err := tx.Substitutions(ctx, proj.ID)
			if err != nil {
				return nil, err
			}
			for _, e := range existing {
				if e.Pattern == r.Pattern && e.Locale == r.Locale {
					if e.Replacement == r.Replacement {
						return nil, model.Errorf(model.CodeConflict, "the rule %q → %q for %s exists already", r.Pattern, r.Replacement, r.Locale)
					}
					return nil, model.Errorf(model.CodeConflict, "%q is already replaced with %q for %s", r.Pattern, e.Replacement, r.Locale)
				}
			}
			if r, err = tx.AddSubstitution(ctx, proj.ID, r); err != nil {
				return nil, err
			}
			return []model.Change{{Kind: model.ChangeSubstitution, Language: r.Locale}}, nil
		}})
	return r, err
}

// checkRuleText is checkText without trimming; empty is allowed when mayBeEmpty.
func checkRuleText(field, s string, mayBeEmpty bool) (string, error) {
	bad := (s == "" && !mayBeEmpty) || len(s) > MaxTermBytes || !utf8.ValidString(s)
	for _, r := range s {
		if bad || (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f {
			bad = true
			break
		}
	}
	if bad {
		least := 1
		if mayBeEmpty {
			least = 0
		}
		return "", lengthRule(field, least, MaxTermBytes)
	}
	return s, nil
}

// checkLocale accepts a language tag or "all" (the default when empty).
func checkLocale(locale string) (string, error) {
	if locale == "" || locale == "all" {
		return "all", nil
	}
	l, err := ParseLanguage(locale)
	if err != nil {
		return "", model.Errorf(model.CodeInvalid, "locale %q is neither all nor a BCP 47 language tag (%s)", model.Truncate(locale, 40), languageExamples)
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
	Glossary       []model.GlossaryPair     `json:"glossary"`
	DoNotTranslate []string                 `json:"do_not_translate"`
	Substitutions  []model.SubstitutionRule `json:"substitutions"`
}

// ListTerminology lists glossary pairs, do-not-translate terms and substitution rules.
func (c *Catalog) ListTerminology(ctx context.Context, in TerminologyIn) (TerminologyOut, error) {
	out := TerminologyOut{Glossary: []model.GlossaryPair{}, DoNotTranslate: []string{}, Substitutions: []model.SubstitutionRule{}}
	if err := c.gate(ctx, model.OpListTerminology, on{project: in.ProjectID}); err != nil {
		return out, err
	}
	keep := func(locale string) bool {
		return in.Locale == "" || locale == "all" || strings.EqualFold(locale, in.Locale)
	}
	err := c.read(ctx, in.ProjectID, func(tx model.Tx, proj model.Project) error {
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

// RemoveGlossaryTerm takes the glossary pair id (model.GlossaryPair.ID) off the project.
// Terminology is a project's rules, not its content: a removed pair is gone, and the
// translations it guided stay as they are. For the operator and the project's managers.
func (c *Catalog) RemoveGlossaryTerm(ctx context.Context, projectID string, id int64) error {
	if err := c.admit(ctx, model.OpRemoveGlossaryTerm, on{project: projectID, entry: true}); err != nil {
		return err
	}
	return c.write(ctx, write{op: model.OpRemoveGlossaryTerm, project: projectID,
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			return []model.Change{{Kind: model.ChangeGlossaryRemoved}}, tx.RemoveGlossary(ctx, proj.ID, id)
		}})
}

// RemoveDoNotTranslate takes a do-not-translate term off the project, as
// RemoveGlossaryTerm does a pair.
func (c *Catalog) RemoveDoNotTranslate(ctx context.Context, projectID, term string) error {
	if err := c.admit(ctx, model.OpRemoveDoNotTranslate, on{project: projectID, entry: true}); err != nil {
		return err
	}
	return c.write(ctx, write{op: model.OpRemoveDoNotTranslate, project: projectID,
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			return []model.Change{{Kind: model.ChangeTermRemoved}}, tx.RemoveDoNotTranslate(ctx, proj.ID, term)
		}})
}

// RemoveSubstitution takes the substitution rule id off the project, as RemoveGlossaryTerm
// does a pair.
func (c *Catalog) RemoveSubstitution(ctx context.Context, projectID string, id int64) error {
	if err := c.admit(ctx, model.OpRemoveSubstitution, on{project: projectID, entry: true}); err != nil {
		return err
	}
	return c.write(ctx, write{op: model.OpRemoveSubstitution, project: projectID,
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			return []model.Change{{Kind: model.ChangeSubstitutionRemoved}}, tx.RemoveSubstitution(ctx, proj.ID, id)
		}})
}
