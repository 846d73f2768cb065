package checkup

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// kindCase is one row of a per-kind table test: a single key checked in
// "nb" (source "en") unless the input is adjusted.
type kindCase struct {
	name       string
	source     string
	tr         *Translation // nil: no row for nb
	lang       string       // target language; "nb" if empty
	glossary   []GlossaryPair
	dnt        []string
	wantN      int
	wantMsg    string            // checked on the first finding when set
	wantDetail map[string]string // checked on the first finding when set
}

func tr(v string) *Translation { return &Translation{Value: v} }

func runKindCases(t *testing.T, kind string, cases []kindCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lang := cmpOr(c.lang, "nb")
			k := Key{Namespace: "app", Key: "k", Source: c.source, Translations: map[string]Translation{}}
			if c.tr != nil {
				k.Translations[lang] = *c.tr
			}
			fs, _ := Analyze(Input{
				SourceLanguage: "en",
				Languages:      []string{lang},
				Keys:           []Key{k},
				Glossary:       c.glossary,
				DoNotTranslate: c.dnt,
			})
			var got []Finding
			for _, f := range fs {
				if f.Kind == kind {
					got = append(got, f)
				}
			}
			if len(got) != c.wantN {
				t.Fatalf("got %d %s findings, want %d: %+v", len(got), kind, c.wantN, fs)
			}
			if len(got) == 0 {
				return
			}
			f := got[0]
			if f.Namespace != "app" || f.Key != "k" || f.Language != lang {
				t.Errorf("finding names %s/%s/%s", f.Namespace, f.Key, f.Language)
			}
			if f.Message == "" {
				t.Error("empty message")
			}
			if c.wantMsg != "" && f.Message != c.wantMsg {
				t.Errorf("message = %q, want %q", f.Message, c.wantMsg)
			}
			if c.wantDetail != nil && !maps.Equal(f.Detail, c.wantDetail) {
				t.Errorf("detail = %q, want %q", f.Detail, c.wantDetail)
			}
		})
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func TestMissingTranslation(t *testing.T) {
	runKindCases(t, KindMissing, []kindCase{
		{name: "no row", source: "Save", tr: nil, wantN: 1, wantMsg: "translation is missing"},
		{name: "empty value", source: "Save", tr: tr(""), wantN: 1},
		{name: "whitespace value", source: "Save", tr: tr("  \n"), wantN: 1},
		{name: "translated", source: "Save", tr: tr("Lagre"), wantN: 0},
		{name: "no source text", source: "", tr: nil, wantN: 0},
		{name: "whitespace source", source: "   ", tr: nil, wantN: 0},
	})
}

func TestMissingReportsNothingElse(t *testing.T) {
	fs, _ := Analyze(Input{
		SourceLanguage: "en", Languages: []string{"nb"},
		DoNotTranslate: []string{"Lokal"},
		Keys: []Key{{Namespace: "a", Key: "k", Source: "Open <b>Lokal</b> for %{name}",
			Translations: map[string]Translation{"nb": {Value: "", Stale: true}}}},
	})
	if len(fs) != 1 || fs[0].Kind != KindMissing {
		t.Fatalf("got %+v, want one missing_translation", fs)
	}
}

// Messages are message.Check's details; one finding per problem and form.
func TestPlaceholderMismatch(t *testing.T) {
	missing := map[string]string{"check": "missing_arg"}
	runKindCases(t, KindPlaceholder, []kindCase{
		{name: "missing", source: "Hello %{name}", tr: tr("Hei"), wantN: 1,
			wantMsg: "the message lacks %{name}", wantDetail: missing},
		{name: "unexpected", source: "Hello %{name}", tr: tr("Hei %{name} %{x}"), wantN: 1,
			wantDetail: map[string]string{"check": "extra_arg"}},
		{name: "both", source: "%{a} and %{b}", tr: tr("%{a} og %{c}"), wantN: 2},
		{name: "several missing", source: "%s %d {x}", tr: tr("ingen"), wantN: 3},
		{name: "duplicate dropped", source: "{a} or {a}", tr: tr("{a}"), wantN: 1, wantDetail: missing},
		{name: "renamed", source: "Hi {name}", tr: tr("Hei {navn}"), wantN: 2},
		{name: "reordered", source: "%{a} then %{b}", tr: tr("%{b} så %{a}"), wantN: 0},
		{name: "i18next spacing", source: "Hi {{ name }}", tr: tr("Hei {{name}}"), wantN: 0},
		{name: "printf", source: "%1$s has %2$d", tr: tr("%2$d har %1$s"), wantN: 0},
		{name: "non-positional printf reordered", source: "%s has %d files", tr: tr("%d filer har %s"), wantN: 1,
			wantDetail: map[string]string{"check": "printf_order"}},
		{name: "escaped percent kept", source: "100%% sure", tr: tr("100 %% sikker"), wantN: 0},
		// A lone % in a printf string starts a conversion ("% s" is one): the escape must stay.
		{name: "escaped percent lost", source: "100%% sure", tr: tr("100 % sikker"), wantN: 1},
		{name: "icu plural branch count differs", source: "{count, plural, one {# file} other {# files}}",
			tr: tr("{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}"), lang: "pl", wantN: 0},
		{name: "icu argument renamed", source: "{count, plural, other {# files}}",
			tr: tr("{n, plural, other {# filer}}"), wantN: 2},
		{name: "icu inner placeholder dropped", source: "{count, plural, other {{name} has # files}}",
			tr: tr("{count, plural, other {har # filer}}"), wantN: 1,
			wantDetail: map[string]string{"check": "missing_arg", "form": "count:other"}},
		{name: "argument moved between forms", source: "{n, plural, one {{name} has a file} other {# files}}",
			tr: tr("{n, plural, one {har en fil} other {{name} har # filer}}"), wantN: 2},
		{name: "missing row is not a mismatch", source: "Hello %{name}", tr: nil, wantN: 0},
	})
}

func TestMarkupMismatch(t *testing.T) {
	markup := map[string]string{"check": "markup"}
	runKindCases(t, KindMarkup, []kindCase{
		{name: "closing tag missing", source: "Be <strong>bold</strong>", tr: tr("Vær <strong>modig"), wantN: 1, wantDetail: markup},
		{name: "tag replaced", source: "<b>x</b>", tr: tr("<i>x</i>"), wantN: 1, wantDetail: markup},
		{name: "unexpected tag", source: "Hello <b>you</b>", tr: tr("Hei<br> <b>du</b>"), wantN: 1, wantDetail: markup},
		// Non-translatable attributes must stay (issue 17): a changed href is a mismatch.
		{name: "href changed", source: `<a href="/en">x</a>`, tr: tr(`<a href="/nb">x</a>`), wantN: 1},
		{name: "title translated", source: `<a href="/en" title="Home">x</a>`, tr: tr(`<a href="/en" title="Hjem">x</a>`), wantN: 0},
		{name: "case and self-closing", source: "a<BR/>b", tr: tr("a<br>b"), wantN: 0},
		{name: "moved", source: "<b>Save</b> now", tr: tr("Lagre <b>nå</b>"), wantN: 0},
		{name: "text with less-than", source: "a < b", tr: tr("a < b"), wantN: 0},
		{name: "entity written as its character", source: "Tom &amp; Jerry <b>now</b>", tr: tr("Tom & Jerry <b>nå</b>"), wantN: 0},
	})
}

func TestSyntaxAndPluralCategories(t *testing.T) {
	cases := []struct {
		name, source, tr, lang, kind string
		wantN                        int
	}{
		{"polish plural with only one and other", "{n, plural, one {# file} other {# files}}",
			"{n, plural, one {# plik} other {# pliki}}", "pl", KindPluralForms, 1},
		{"polish plural complete", "{n, plural, one {# file} other {# files}}",
			"{n, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}", "pl", KindPluralForms, 0},
		{"unclosed brace", "Hello {name}", "Hei {name", "nb", KindSyntax, 1},
		{"closed brace", "Hello {name}", "Hei {name}", "nb", KindSyntax, 0},
		{"entity and its character", "Tom &amp; Jerry", "Tom & Jerry", "nb", KindMarkup, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs, sum := Analyze(Input{SourceLanguage: "en", Languages: []string{c.lang},
				Keys: []Key{{Namespace: "app", Key: "k", Source: c.source, Translations: map[string]Translation{c.lang: {Value: c.tr}}}}})
			var got []Finding
			for _, f := range fs {
				if f.Kind == c.kind {
					got = append(got, f)
				}
			}
			if len(got) != c.wantN || sum.ByKind[c.kind] != c.wantN {
				t.Fatalf("got %d %s findings (summary %d), want %d: %+v", len(got), c.kind, sum.ByKind[c.kind], c.wantN, fs)
			}
			for _, f := range got {
				if f.Message == "" || f.Detail["check"] == "" {
					t.Errorf("finding without Check's detail: %+v", f)
				}
			}
		})
	}
}

func TestStaleTranslation(t *testing.T) {
	runKindCases(t, KindStale, []kindCase{
		{name: "stale", source: "Save", tr: &Translation{Value: "Lagre", Stale: true}, wantN: 1,
			wantMsg: "translation was made against an older source value"},
		{name: "current", source: "Save", tr: &Translation{Value: "Lagre"}, wantN: 0},
		{name: "stale without source text", source: "", tr: &Translation{Value: "Lagre", Stale: true}, wantN: 1},
		{name: "stale but empty is missing instead", source: "Save", tr: &Translation{Value: "", Stale: true}, wantN: 0},
	})
}

func TestGlossaryViolation(t *testing.T) {
	dash := []GlossaryPair{{SourceTerm: "Dashboard", TargetTerm: "Oversikt", Locale: "all"}}
	runKindCases(t, KindGlossary, []kindCase{
		{name: "target missing", source: "Open the dashboard", tr: tr("Åpne kontrollpanelet"), glossary: dash, wantN: 1,
			wantMsg:    `glossary term "Dashboard" should be translated as "Oversikt"`,
			wantDetail: map[string]string{"source_term": "Dashboard", "target_term": "Oversikt"}},
		{name: "target present, other case, inflected", source: "Open the dashboard", tr: tr("Åpne oversikten"), glossary: dash, wantN: 0},
		{name: "source term not a whole word", source: "Open the dashboards", tr: tr("Åpne panelene"), glossary: dash, wantN: 0},
		{name: "source term upper case", source: "DASHBOARD", tr: tr("PANEL"), glossary: dash, wantN: 1},
		{name: "pair for other locale", source: "Open the dashboard", tr: tr("Åpne panelet"),
			glossary: []GlossaryPair{{SourceTerm: "Dashboard", TargetTerm: "Översikt", Locale: "sv"}}, wantN: 0},
		{name: "pair for this locale", source: "Open the dashboard", tr: tr("Åpne panelet"),
			glossary: []GlossaryPair{{SourceTerm: "Dashboard", TargetTerm: "Oversikt", Locale: "nb"}}, wantN: 1},
		{name: "locale overrides all (satisfied)", source: "Open the dashboard", tr: tr("Åpne oversikten"),
			glossary: append([]GlossaryPair{{SourceTerm: "dashboard", TargetTerm: "Dashboard", Locale: "all"}},
				GlossaryPair{SourceTerm: "Dashboard", TargetTerm: "Oversikt", Locale: "nb"}), wantN: 0},
		{name: "locale overrides all (violated)", source: "Open the dashboard", tr: tr("Åpne Dashboard"),
			glossary: append([]GlossaryPair{{SourceTerm: "dashboard", TargetTerm: "Dashboard", Locale: "all"}},
				GlossaryPair{SourceTerm: "Dashboard", TargetTerm: "Oversikt", Locale: "nb"}), wantN: 1,
			wantDetail: map[string]string{"source_term": "Dashboard", "target_term": "Oversikt"}},
		{name: "pair for the base language (message.TermsFor)", source: "Open the dashboard", tr: tr("Abrir o painel"), lang: "pt-BR",
			glossary: []GlossaryPair{{SourceTerm: "Dashboard", TargetTerm: "Visão geral", Locale: "pt"}}, wantN: 1},
		{name: "alternatives", source: "Open the dashboard", tr: tr("Åpne kontrollpanelet"),
			glossary: []GlossaryPair{{SourceTerm: "Dashboard", TargetTerm: "Oversikt", Locale: "nb"},
				{SourceTerm: "Dashboard", TargetTerm: "Kontrollpanel", Locale: "nb"}}, wantN: 0},
		// The same word-boundary reading as the AI's check (message.GlossaryTargetFound).
		{name: "target only inside another word", source: "Open the app", tr: tr("Öffne die Applikation"), lang: "de",
			glossary: []GlossaryPair{{SourceTerm: "app", TargetTerm: "App", Locale: "de"}}, wantN: 1},
		{name: "target inflected", source: "Delete the files", tr: tr("Die Dateien löschen"), lang: "de",
			glossary: []GlossaryPair{{SourceTerm: "files", TargetTerm: "Datei", Locale: "de"}}, wantN: 0},
		{name: "do-not-translate row exempt", source: "Dashboard", tr: &Translation{Value: "Dashboard", DoNotTranslate: true},
			glossary: dash, wantN: 0},
		{name: "empty terms ignored", source: "Open the dashboard", tr: tr("Åpne panelet"),
			glossary: []GlossaryPair{{SourceTerm: "", TargetTerm: "x", Locale: "all"}, {SourceTerm: "dashboard", TargetTerm: " ", Locale: "all"}}, wantN: 0},
	})
}

func TestDoNotTranslateViolation(t *testing.T) {
	lokal := []string{"Lokal"}
	runKindCases(t, KindDoNotTranslate, []kindCase{
		{name: "term dropped", source: "Welcome to Lokal", tr: tr("Velkommen"), dnt: lokal, wantN: 1,
			wantMsg:    `do-not-translate term "Lokal" is missing from the translation`,
			wantDetail: map[string]string{"term": "Lokal"}},
		{name: "term kept", source: "Welcome to Lokal", tr: tr("Velkommen til Lokal"), dnt: lokal, wantN: 0},
		{name: "term inflected", source: "Welcome to Lokal", tr: tr("Tervetuloa Lokaliin"), dnt: lokal, lang: "fi", wantN: 0},
		{name: "term case changed", source: "Welcome to Lokal", tr: tr("Velkommen til lokal"), dnt: lokal, wantN: 1},
		{name: "source has other case", source: "a lokal shop", tr: tr("en butikk"), dnt: lokal, wantN: 0},
		{name: "source has it inside a word", source: "Lokalize it", tr: tr("Lokaliser"), dnt: lokal, wantN: 0},
		{name: "flagged row changed", source: "Lokal Pro", tr: &Translation{Value: "Lokal Proff", DoNotTranslate: true}, wantN: 1,
			wantMsg:    "row is marked do-not-translate but its value differs from the source",
			wantDetail: map[string]string{"flag": "do_not_translate"}},
		{name: "flagged row equal", source: "Lokal Pro", tr: &Translation{Value: " Lokal Pro ", DoNotTranslate: true}, wantN: 0},
		{name: "blank terms ignored", source: "Welcome", tr: tr("Velkommen"), dnt: []string{"", "  "}, wantN: 0},
	})
}

func TestIdenticalToSource(t *testing.T) {
	runKindCases(t, KindIdentical, []kindCase{
		{name: "identical prose", source: "Save changes", tr: tr("Save changes"), wantN: 1,
			wantMsg: "translation is identical to the source text"},
		{name: "identical after trimming", source: "Save changes", tr: tr(" Save changes\n"), wantN: 1},
		{name: "translated", source: "Save changes", tr: tr("Lagre endringer"), wantN: 0},
		{name: "short word", source: "OK", tr: tr("OK"), wantN: 0},
		{name: "three letters", source: "FAQ", tr: tr("FAQ"), wantN: 0},
		{name: "only placeholders", source: "%{count} / {total}", tr: tr("%{count} / {total}"), wantN: 0},
		{name: "only markup and placeholders", source: "<b>{name}</b><br/>", tr: tr("<b>{name}</b><br/>"), wantN: 0},
		{name: "number", source: "1,234.56", tr: tr("1,234.56"), wantN: 0},
		{name: "url", source: "https://lokal.dev/docs/getting-started", tr: tr("https://lokal.dev/docs/getting-started"), wantN: 0},
		{name: "email", source: "support@lokal.dev", tr: tr("support@lokal.dev"), wantN: 0},
		{name: "do-not-translate term", source: "Lokal", tr: tr("Lokal"), dnt: []string{"Lokal"}, wantN: 0},
		{name: "made of do-not-translate terms", source: "Lokal Cloud", tr: tr("Lokal Cloud"), dnt: []string{"Lokal", "Cloud"}, wantN: 0},
		{name: "overlapping do-not-translate terms", source: "Lokal Cloud", tr: tr("Lokal Cloud"), dnt: []string{"Lokal", "Lokal Cloud"}, wantN: 0},
		{name: "do-not-translate term plus prose", source: "Lokal for teams", tr: tr("Lokal for teams"), dnt: []string{"Lokal"}, wantN: 1},
		{name: "glossary term fixed to itself", source: "Dashboard", tr: tr("Dashboard"),
			glossary: []GlossaryPair{{SourceTerm: "dashboard", TargetTerm: "Dashboard", Locale: "nb"}}, wantN: 0},
		{name: "flagged row", source: "Save changes", tr: &Translation{Value: "Save changes", DoNotTranslate: true}, wantN: 0},
		{name: "regional variant of source", source: "Save changes", tr: tr("Save changes"), lang: "en-GB", wantN: 0},
		{name: "icu branch prose counts", source: "{n, plural, one {# file} other {# files}}",
			tr: tr("{n, plural, one {# file} other {# files}}"), wantN: 1},
	})
}

func TestSourceLanguageNotChecked(t *testing.T) {
	fs, sum := Analyze(Input{
		SourceLanguage: "en",
		Languages:      []string{"en", "nb", "EN", ""},
		Keys: []Key{{Namespace: "a", Key: "k", Source: "Save changes",
			Translations: map[string]Translation{"en": {Value: "Save changes"}, "nb": {Value: "Lagre endringer"}}}},
	})
	if len(fs) != 0 {
		t.Fatalf("got findings %+v", fs)
	}
	if _, ok := sum.ByLanguage["en"]; ok {
		t.Errorf("source language in summary: %v", sum.ByLanguage)
	}
}

func orderingInput() Input {
	return Input{
		SourceLanguage: "en",
		Languages:      []string{"sv", "nb", "de"},
		Glossary: []GlossaryPair{
			{SourceTerm: "Dashboard", TargetTerm: "Oversikt", Locale: "nb"},
			{SourceTerm: "Dashboard", TargetTerm: "Översikt", Locale: "sv"},
		},
		DoNotTranslate: []string{"Lokal", "Pro"},
		Keys: []Key{
			{Namespace: "web", Key: "b", Source: "Open the dashboard of Lokal",
				Translations: map[string]Translation{
					"nb": {Value: "Åpne panelet", Stale: true},
					"sv": {Value: "Open the dashboard of Lokal"},
				}},
			{Namespace: "app", Key: "z", Source: "Hello %{name}, <b>welcome</b>",
				Translations: map[string]Translation{
					"de": {Value: "Hallo, <b>willkommen"},
					"nb": {Value: "Hei %{name}, <b>velkommen</b>"},
				}},
			{Namespace: "app", Key: "a", Source: "Lokal Pro",
				Translations: map[string]Translation{
					"de": {Value: "Lokal Profi", DoNotTranslate: true},
					"nb": {Value: "Lokal Pro"},
					"sv": {Value: "Lokal"},
				}},
			{Namespace: "app", Key: "empty", Source: ""},
		},
	}
}

func TestOrderingAndSummary(t *testing.T) {
	fs, sum := Analyze(orderingInput())

	type row struct{ ns, key, lang, kind string }
	var got []row
	for _, f := range fs {
		got = append(got, row{f.Namespace, f.Key, f.Language, f.Kind})
	}
	want := []row{
		{"app", "a", "de", KindDoNotTranslate}, // flagged row changed; "Profi" still contains "Pro"
		{"app", "a", "sv", KindDoNotTranslate}, // "Pro" dropped; nb is made of terms, so not identical
		{"app", "z", "de", KindMarkup},
		{"app", "z", "de", KindPlaceholder},
		{"app", "z", "sv", KindMissing},
		{"web", "b", "de", KindMissing},
		{"web", "b", "nb", KindDoNotTranslate},
		{"web", "b", "nb", KindGlossary},
		{"web", "b", "nb", KindStale},
		{"web", "b", "sv", KindGlossary},
		{"web", "b", "sv", KindIdentical},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("findings:\n got %v\nwant %v", got, want)
	}
	if !slices.IsSortedFunc(fs, compareFindings) {
		t.Error("findings not sorted")
	}

	wantSum := Summary{
		Total: len(want),
		ByKind: map[string]int{
			KindMissing: 2, KindPlaceholder: 1, KindMarkup: 1, KindStale: 1,
			KindGlossary: 2, KindDoNotTranslate: 3, KindIdentical: 1, KindSyntax: 0, KindPluralForms: 0,
		},
		ByLanguage: map[string]int{"de": 4, "nb": 3, "sv": 4},
	}
	if !reflect.DeepEqual(sum, wantSum) {
		t.Errorf("summary = %+v, want %+v", sum, wantSum)
	}
}

func TestDeterministic(t *testing.T) {
	base := orderingInput()
	want, wantSum := Analyze(base)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20 {
		in := base
		in.Keys = slices.Clone(base.Keys)
		in.Languages = slices.Clone(base.Languages)
		in.Glossary = slices.Clone(base.Glossary)
		in.DoNotTranslate = slices.Clone(base.DoNotTranslate)
		rng.Shuffle(len(in.Keys), func(i, j int) { in.Keys[i], in.Keys[j] = in.Keys[j], in.Keys[i] })
		rng.Shuffle(len(in.Languages), func(i, j int) { in.Languages[i], in.Languages[j] = in.Languages[j], in.Languages[i] })
		rng.Shuffle(len(in.Glossary), func(i, j int) { in.Glossary[i], in.Glossary[j] = in.Glossary[j], in.Glossary[i] })
		rng.Shuffle(len(in.DoNotTranslate), func(i, j int) {
			in.DoNotTranslate[i], in.DoNotTranslate[j] = in.DoNotTranslate[j], in.DoNotTranslate[i]
		})
		got, gotSum := Analyze(in)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotSum, wantSum) {
			t.Fatalf("run %d differs:\n got %+v\nwant %+v", i, got, want)
		}
	}
}

func TestEmptyInput(t *testing.T) {
	fs, sum := Analyze(Input{SourceLanguage: "en", Languages: []string{"nb"}})
	b, err := json.Marshal(struct {
		Findings []Finding `json:"findings"`
		Summary  Summary   `json:"summary"`
	}{fs, sum})
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"findings":[],"summary":{"total":0,"by_kind":{"do_not_translate_violation":0,"glossary_violation":0,"icu_syntax":0,"identical_to_source":0,"markup_mismatch":0,"missing_translation":0,"placeholder_mismatch":0,"plural_categories":0,"stale_translation":0},"by_language":{"nb":0}}}`
	if string(b) != want {
		t.Errorf("json = %s\nwant   %s", b, want)
	}
}

func TestAnalyzeRobust(t *testing.T) {
	huge := strings.Repeat("{a, plural, one {<b>%{x}", 20_000) + "\xff\xfe"
	in := Input{
		SourceLanguage: "en",
		Languages:      []string{"nb"},
		Glossary:       []GlossaryPair{{SourceTerm: "a", TargetTerm: "b", Locale: "all"}, {SourceTerm: "aaaa", TargetTerm: "c", Locale: "nb"}},
		DoNotTranslate: []string{"a", "\xff", "aaa"},
		Keys: []Key{
			{Namespace: "n", Key: "huge", Source: huge, Translations: map[string]Translation{"nb": {Value: huge}}},
			{Namespace: "n", Key: "words", Source: strings.Repeat("aaaa ", 50_000), Translations: map[string]Translation{"nb": {Value: strings.Repeat("aaaa ", 50_000)}}},
			{Namespace: "n", Key: "run", Source: strings.Repeat("a", 200_000), Translations: map[string]Translation{"nb": {Value: "x"}}},
			{Namespace: "n", Key: "bad", Source: "\xff\xfe{", Translations: map[string]Translation{"nb": {Value: "}\xff"}}},
			{Namespace: "n", Key: "nil map", Source: "x"},
		},
	}
	fs, sum := Analyze(in)
	if sum.Total != len(fs) {
		t.Errorf("total %d, findings %d", sum.Total, len(fs))
	}
}

func TestContainsWord(t *testing.T) {
	tests := []struct {
		name, text, term string
		want             bool
	}{
		{"whole word", "open the dashboard now", "dashboard", true},
		{"start", "dashboard", "dashboard", true},
		{"inside a word", "dashboards", "dashboard", false},
		{"later whole word", "dashboards and dashboard", "dashboard", true},
		{"punctuation around", "(dashboard).", "dashboard", true},
		{"symbol term", "Written in C++ today", "C++", true},
		{"symbol term glued", "C++17", "C++", true},
		{"leading dot", "Use .NET", ".NET", true},
		{"han needs no spaces", "打开仪表板吧", "仪表板", true},
		{"empty term", "x", "", false},
		{"underscore is a word char", "my_term", "term", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := containsWord(tt.text, tt.term); got != tt.want {
				t.Errorf("containsWord(%q, %q) = %v, want %v", tt.text, tt.term, got, tt.want)
			}
		})
	}
}

func FuzzAnalyze(f *testing.F) {
	f.Add("Hello %{name}, <b>Lokal</b> dashboard", "Hei <b>Lokal", "Lokal", "dashboard")
	f.Add("{n, plural, one {# x} other {# y}}", "{n, plural, other {#}}", "", "")
	f.Add("\xff{", "}\xfe", "\xff", "{")
	f.Fuzz(func(t *testing.T, src, val, term, gloss string) {
		in := Input{
			SourceLanguage: "en",
			Languages:      []string{"nb", "en-GB"},
			Glossary:       []GlossaryPair{{SourceTerm: gloss, TargetTerm: term, Locale: "all"}},
			DoNotTranslate: []string{term},
			Keys: []Key{{Namespace: "n", Key: "k", Source: src, Translations: map[string]Translation{
				"nb":    {Value: val},
				"en-GB": {Value: val, DoNotTranslate: true, Stale: true},
			}}},
		}
		fs, sum := Analyze(in)
		if sum.Total != len(fs) || !slices.IsSortedFunc(fs, compareFindings) {
			t.Fatalf("inconsistent result %+v %+v", fs, sum)
		}
		for _, f := range fs {
			if f.Message == "" || f.Language == "en" {
				t.Fatalf("bad finding %+v", f)
			}
		}
	})
}
