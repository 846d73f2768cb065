package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lokal-dev/lokal/tools"
)

// The terminology commands: glossary pairs, do-not-translate terms and substitution rules
// that AI translation follows. The JSON of the CLI names a substitution's sides from and to
// (MCP's list_terminology keeps pattern and replacement), and carries no row ids.

// cliGlossary is a glossary pair as the CLI prints it.
type cliGlossary struct {
	SourceTerm string `json:"source_term"`
	TargetTerm string `json:"target_term"`
	Locale     string `json:"locale"`
}

// cliSubstitution is a substitution rule as the CLI prints it.
type cliSubstitution struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Locale string `json:"locale"`
}

// cliTerminology is what lokal term list prints.
type cliTerminology struct {
	Glossary       []cliGlossary     `json:"glossary"`
	DoNotTranslate []string          `json:"do_not_translate"`
	Substitutions  []cliSubstitution `json:"substitutions"`
}

func termAddCommand() *command {
	return &command{name: "term add", args: "--project P (--source TERM --target TERM [--locale L|all] | --dnt TERM)",
		synopsis: "add a glossary pair or a do-not-translate term",
		about: "With --source and --target, adds a fixed translation of a term for one language or all\n" +
			"(the default); a term (case aside) has one per language, so a second is refused. With --dnt, adds a term that translations keep as it is in every language.\n" +
			"AI translation is told both and its answers are checked against them.",
		flags: []flagDef{req("project", "P", "project id or title"), opt("source", "TERM", "the term in the source language"),
			opt("target", "TERM", "its fixed translation"), opt("locale", "L|all", "language code of the glossary pair, or all (default all)"),
			opt("dnt", "TERM", "a term never to translate")},
		database: true, json: true,
		run: func(ctx context.Context, c *call) (any, string, error) {
			in := c.in
			pair := in.has("source") || in.has("target")
			switch {
			case pair && in.has("dnt"):
				return nil, "", errors.New("give either --source and --target or --dnt, not both")
			case in.has("dnt"):
				if in.has("locale") {
					return nil, "", errors.New("--locale is for glossary pairs; a do-not-translate term holds in every language")
				}
				t, err := c.cat.AddDoNotTranslate(ctx, in.str("project"), in.str("dnt"))
				return map[string]string{"term": t}, fmt.Sprintf("do not translate: %s", t), err
			case !in.has("source"):
				if !pair {
					return nil, "", errors.New("give --source and --target (a glossary pair) or --dnt (see lokal help term add)")
				}
				return nil, "", errors.New("--source is required with --target")
			case !in.has("target"):
				return nil, "", errors.New("--target is required with --source")
			}
			g, err := c.cat.AddGlossaryPair(ctx, tools.GlossaryIn{ProjectArg: tools.ProjectArg{ProjectID: in.str("project")},
				SourceTerm: in.str("source"), TargetTerm: in.str("target"), Locale: in.str("locale")})
			out := cliGlossary{SourceTerm: g.SourceTerm, TargetTerm: g.TargetTerm, Locale: g.Locale}
			return out, fmt.Sprintf("glossary: %s → %s (%s)", g.SourceTerm, g.TargetTerm, g.Locale), err
		}}
}

func substitutionAddCommand() *command {
	return &command{name: "substitution add", args: "--project P --from TEXT --to TEXT [--locale L|all]",
		synopsis: "add a rule that replaces text in AI translations",
		about: "After a model answers, FROM is replaced with TO in its translations into one language or\n" +
			"all (the default). Both are taken exactly, spaces too; --to= deletes FROM. A language has\n" +
			"one rule per FROM.",
		flags: []flagDef{req("project", "P", "project id or title"), req("from", "TEXT", "the text to replace"),
			opt("to", "TEXT", "what replaces it (required; may be empty)"),
			opt("locale", "L|all", "language code, or all (default all)")},
		database: true, json: true,
		run: func(ctx context.Context, c *call) (any, string, error) {
			in := c.in
			if !in.has("to") {
				return nil, "", errors.New("--to is required (--to= deletes the text) (see lokal help substitution add)")
			}
			r, err := c.cat.AddSubstitution(ctx, in.str("project"), in.str("from"), in.str("to"), in.str("locale"))
			out := cliSubstitution{From: r.Pattern, To: r.Replacement, Locale: r.Locale}
			return out, fmt.Sprintf("substitution: %q → %q (%s)", r.Pattern, r.Replacement, r.Locale), err
		}}
}

func termListCommand() *command {
	return &command{name: "term list", args: "--project P [--locale L]",
		synopsis: "list glossary pairs, do-not-translate terms and substitution rules",
		about: "With --locale, lists what holds for that language: its own pairs and rules and those for\n" +
			"all (--locale all: only those). Do-not-translate terms hold in every language.",
		flags: []flagDef{req("project", "P", "project id or title"),
			opt("locale", "L", "only what holds for this language (rules for all are always listed)")},
		database: true, json: true,
		run: func(ctx context.Context, c *call) (any, string, error) {
			in := c.in
			locale := in.str("locale")
			if in.has("locale") && locale != "all" {
				l, err := tools.ParseLanguage(locale)
				if err != nil {
					return nil, "", fmt.Errorf("--locale %q is neither all nor a BCP 47 language tag, such as en, pt-BR, zh-Hant or sr-Latn", locale)
				}
				locale = l.Code
			}
			t, err := c.cat.ListTerminology(ctx, tools.TerminologyIn{ProjectArg: tools.ProjectArg{ProjectID: in.str("project")}, Locale: locale})
			if err != nil {
				return nil, "", err
			}
			out := cliTerminology{Glossary: []cliGlossary{}, DoNotTranslate: t.DoNotTranslate, Substitutions: []cliSubstitution{}}
			var lines []string
			for _, g := range t.Glossary {
				out.Glossary = append(out.Glossary, cliGlossary{SourceTerm: g.SourceTerm, TargetTerm: g.TargetTerm, Locale: g.Locale})
				lines = append(lines, fmt.Sprintf("glossary          %s → %s (%s)", g.SourceTerm, g.TargetTerm, g.Locale))
			}
			for _, d := range t.DoNotTranslate {
				lines = append(lines, "do not translate  "+d)
			}
			for _, s := range t.Substitutions {
				out.Substitutions = append(out.Substitutions, cliSubstitution{From: s.Pattern, To: s.Replacement, Locale: s.Locale})
				lines = append(lines, fmt.Sprintf("substitution      %q → %q (%s)", s.Pattern, s.Replacement, s.Locale))
			}
			if len(lines) == 0 {
				lines = []string{"no terminology in project " + in.str("project")}
			}
			return out, strings.Join(lines, "\n"), nil
		}}
}
