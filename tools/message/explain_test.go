package message_test

import (
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/message"
)

// TestExplainEveryCode: each kind of syntax error is explained in a sentence that quotes
// the text around it and names no offset and no code.
func TestExplainEveryCode(t *testing.T) {
	t.Parallel()
	cases := []struct {
		value string
		code  message.ProblemCode
		want  string
	}{
		{"{count, plural, one {# plik} few {# pliki}} many {# plików}}", message.UnclosedBrace, `the } after "pliki" closes the plural early`},
		{"Hello {name", message.UnclosedBrace, `the { before "name" is never closed`},
		{"Hello {", message.UnclosedBrace, `the { at the end is never closed`},
		{"Hello } world", message.UnmatchedBrace, `the } after "Hello" closes nothing`},
		{"{n, plural, one {x} other {y}", message.UnclosedSelect, `the plural on n is never closed`},
		{"{n, plural, one {x} junk other {y}}", message.BadSelector, `the text "junk" stands between two forms`},
		{"{n, plural, one {x} few {y}}", message.MissingOther, `the plural on n has no "other" form`},
		{"{g, select, male {he} female {she}}", message.MissingOther, `the select on g has no "other" form`},
		{"{n, plural, one {x} one {z} other {y}}", message.DuplicateSelector, `the form "one" is written twice`},
		{"It'{s broken", message.UnclosedQuote, `the ' before "{s broken" starts quoted text that never ends`},
		{strings.Repeat("{n, plural, other {", 40) + strings.Repeat("}}", 40), message.TooDeep, "nested too deeply"},
	}
	seen := map[message.ProblemCode]bool{}
	for _, c := range cases {
		var got []string
		for _, p := range message.Parse(c.value, message.ICU).Problems {
			if p.Code == c.code {
				got = append(got, message.Explain(c.value, p))
			}
		}
		if len(got) == 0 {
			t.Errorf("%q: no %s to explain", c.value, c.code)
			continue
		}
		seen[c.code] = true
		if !strings.Contains(got[0], c.want) {
			t.Errorf("%q: %q, want %q", c.value, got[0], c.want)
		}
		for _, bad := range []string{"byte", "character", string(c.code), "offset"} {
			if strings.Contains(got[0], bad) {
				t.Errorf("%q: %q names %q", c.value, got[0], bad)
			}
		}
	}
	for _, code := range []message.ProblemCode{message.UnclosedBrace, message.UnmatchedBrace, message.UnclosedSelect, message.BadSelector,
		message.MissingOther, message.DuplicateSelector, message.UnclosedQuote, message.TooDeep} {
		if !seen[code] {
			t.Errorf("no case explains %s", code)
		}
	}
}

// TestAddedErrors: a source's own syntax error may stay in its translation; a new one is
// reported.
func TestAddedErrors(t *testing.T) {
	t.Parallel()
	if got := message.AddedErrors("Use { here", "Nutze { hier", message.ICU); len(got) != 0 {
		t.Errorf("the source's own unclosed brace: %v", got)
	}
	got := message.AddedErrors("Hello {name}", "Hallo {name", message.ICU)
	if len(got) != 1 || got[0].Code != message.UnclosedBrace {
		t.Errorf("a new unclosed brace: %v", got)
	}
}

// TestBreaks: what would show raw syntax or make a formatter throw breaks; what still
// renders (a missing few, a dropped or reordered placeholder) does not.
func TestBreaks(t *testing.T) {
	t.Parallel()
	cases := []struct {
		source, value string
		syn           message.Syntax
		want          string // "" for no break
	}{
		{"{{count}} items", "{{cnt}} varer", message.I18next, "uses {{cnt}}, which the source does not have"},
		{"{{count}} items", "{{count}} varer", message.I18next, ""},
		{"{{count}} items in {{cart}}", "{{count}} varer", message.I18next, ""}, // dropped: renders
		{"Hi {name}", "Hei {navn}", message.ICU, "uses {navn}"},
		{"{n, plural, one {# file} other {# files}}", "{n, plural, one {# plik} few {# pliki}}", message.ICU, `the plural on n has no "other" form`},
		{"{n, plural, one {# file} other {# files}}", "{n, plural, one {# plik} other {# pliki}}", message.ICU, ""},
		{"{n, plural, one {# file} other {# files}}", "{n, plural, one {# fichier} other {# fichiers}}", message.ICU, ""}, // fr without many
		{"{g, select, male {he} other {they}}", "{g, select, male {er}}", message.ICU, `the select on g has no "other" form`},
		{"{n, plural, one {# file} other {# files}}", "{n} {n, plural, one {plik} other {pliki}}", message.ICU, ""}, // the plural's number
		{"%s of %s", "%2$s de %1$s", message.Printf, ""},
		{"%s of %s", "%s de %s %s", message.Printf, "3 placeholders"},
		{"%1$s of %2$s", "%3$s", message.Printf, "uses %3$s"},
		{"50% off", "10%igen", message.Printf, ""},
		{"Hello %{name}", "Hallo %{nom}", message.Rails, "uses %{nom}"},
		{"{0} files", "{1} Dateien", message.Braces, "uses {1}"},
	}
	for _, c := range cases {
		reason, broken := message.Breaks(c.source, c.value, c.syn)
		switch {
		case c.want == "" && broken:
			t.Errorf("%q for %q: breaks (%s), want not", c.value, c.source, reason)
		case c.want != "" && (!broken || !strings.Contains(reason, c.want)):
			t.Errorf("%q for %q: %v %q, want %q", c.value, c.source, broken, reason, c.want)
		}
	}
}
