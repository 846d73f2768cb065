package ai

import (
	"slices"
	"strings"
	"testing"
)

func raws(t Table) []string {
	out := make([]string, len(t))
	for i, tok := range t {
		out[i] = tok.Raw
	}
	return out
}

func TestMask(t *testing.T) {
	t.Parallel()
	dnt := []string{"Lokal", "Lokal Cloud"}
	tests := []struct {
		name, text, want string
		raws             []string
	}{
		{"plain", "Save changes", "Save changes", nil},
		{"i18next", "Hi {{name}}, {{count, number}} {{- html}}", "Hi ⟦0⟧, ⟦1⟧ ⟦2⟧", []string{"{{name}}", "{{count, number}}", "{{- html}}"}},
		{"i18next nesting", `See $t(common.more) and $t(items, {"count": 2})`, "See ⟦0⟧ and ⟦1⟧", []string{"$t(common.more)", `$t(items, {"count": 2})`}},
		{"ruby", "Hello %{user_name}, you owe %<amount>.2f", "Hello ⟦0⟧, you owe ⟦1⟧", []string{"%{user_name}", "%<amount>.2f"}},
		{"printf", "%s has %d items (%i) at %.2f, %1$s %@ %ld %lld 100%%", "⟦0⟧ has ⟦1⟧ items (⟦2⟧) at ⟦3⟧, ⟦4⟧ ⟦5⟧ ⟦6⟧ ⟦7⟧ 100⟦8⟧",
			[]string{"%s", "%d", "%i", "%.2f", "%1$s", "%@", "%ld", "%lld", "%%"}},
		{"percent prose", "50% off, 100 % sure", "50% off, 100 % sure", nil},
		{"python", "%(name)s left", "⟦0⟧ left", []string{"%(name)s"}},
		{"icu args", "{name} paid {amount, number} on {day, date, short}", "⟦0⟧ paid ⟦1⟧ on ⟦2⟧", []string{"{name}", "{amount, number}", "{day, date, short}"}},
		{"icu number skeleton", "Total {n, number, ::currency/EUR}", "Total ⟦0⟧", []string{"{n, number, ::currency/EUR}"}},
		{"icu plural", "{count, plural, =0 {No files} one {# file} other {# files}}",
			"⟦0⟧No files⟦1⟧⟦2⟧ file⟦3⟧⟦4⟧ files⟦5⟧", []string{"{count, plural, =0 {", "} one {", "#", "} other {", "#", "}}"}},
		{"icu plural offset", "{n, plural, offset:1 one {you} other {you and # others}}",
			"⟦0⟧you⟦1⟧you and ⟦2⟧ others⟦3⟧", []string{"{n, plural, offset:1 one {", "} other {", "#", "}}"}},
		{"icu select nested plural", "{g, select, female {She has {n, plural, one {# cat} other {# cats}}} other {They have {n}}}",
			"⟦0⟧She has ⟦1⟧⟦2⟧ cat⟦3⟧⟦4⟧ cats⟦5⟧⟦6⟧They have ⟦7⟧⟦8⟧",
			[]string{"{g, select, female {", "{n, plural, one {", "#", "} other {", "#", "}}", "} other {", "{n}", "}}"}},
		{"hash outside plural", "Issue #42 {g, select, other {#1}}", "Issue #42 ⟦0⟧#1⟦1⟧", []string{"{g, select, other {", "}}"}},
		{"selectordinal", "{n, selectordinal, one {#st} other {#th}}", "⟦0⟧⟦1⟧st⟦2⟧⟦3⟧th⟦4⟧", []string{"{n, selectordinal, one {", "#", "} other {", "#", "}}"}},
		{"tags", `<p>Read <a href="/terms?a=1&b=2" title='x > y'>the <strong>terms</strong></a><br/><img src="a.png"></p>`,
			"⟦0⟧Read ⟦1⟧x > y⟦2⟧the ⟦3⟧terms⟦4⟧⟦5⟧⟦6⟧⟦7⟧⟦8⟧",
			[]string{"<p>", `<a href="/terms?a=1&b=2" title='`, "'>", "<strong>", "</strong>", "</a>", "<br/>", `<img src="a.png">`, "</p>"}},
		{"translatable attribute", `<img src="/logo.png" alt="Company logo">`, "⟦0⟧Company logo⟦1⟧", []string{`<img src="/logo.png" alt="`, `">`}},
		{"icu quoted literal", "Type '{name}' or it''s {x}", "Type ⟦0⟧ or it''s ⟦1⟧", []string{"'{name}'", "{x}"}},
		{"template and qt", "Hello ${user.name}, %1 of %2", "Hello ⟦0⟧, ⟦1⟧ of ⟦2⟧", []string{"${user.name}", "%1", "%2"}},
		{"not tags", "a < b and b > c, <3 and 1<2", "a < b and b > c, <3 and 1<2", nil},
		{"xml and comment", "<x:b>bold</x:b><!-- note -->", "⟦0⟧bold⟦1⟧⟦2⟧", []string{"<x:b>", "</x:b>", "<!-- note -->"}},
		{"entities", "Tom &amp; Jerry&nbsp;&#39;s &#x2014; & more", "Tom ⟦0⟧ Jerry⟦1⟧⟦2⟧s ⟦3⟧ & more", []string{"&amp;", "&nbsp;", "&#39;", "&#x2014;"}},
		{"markdown link", "Read [our terms](https://example.com/terms) or [help](/help \"Help\")",
			"Read ⟦0⟧our terms⟦1⟧ or ⟦2⟧help⟦3⟧", []string{"[", "](https://example.com/terms)", "[", "](/help \"Help\")"}},
		{"brackets without link", "[beta] feature (new)", "[beta] feature (new)", nil},
		{"dnt whole words", "Lokal Cloud runs Lokal, not Lokals or myLokal", "⟦0⟧ runs ⟦1⟧, not Lokals or myLokal", []string{"Lokal Cloud", "Lokal"}},
		{"dnt case-sensitive", "lokal is not Lokal", "lokal is not ⟦0⟧", []string{"Lokal"}},
		{"dnt inside cjk", "Lokalを使う", "⟦0⟧を使う", []string{"Lokal"}},
		{"unbalanced braces stay text", "{ not a placeholder } {x", "{ not a placeholder } {x", nil},
		{"mixed", "<b>{{count}}</b> new messages for %{name}", "⟦0⟧⟦1⟧⟦2⟧ new messages for ⟦3⟧", []string{"<b>", "{{count}}", "</b>", "%{name}"}},
		{"rtl", "مرحبا {name}، لديك <b>{count}</b> رسائل", "مرحبا ⟦0⟧، لديك ⟦1⟧⟦2⟧⟦3⟧ رسائل", []string{"{name}", "<b>", "{count}", "</b>"}},
		{"token lookalike stays text", "⟦0⟧ is text", "⟦0⟧ is text", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := Mask(tc.text, MaskOptions{DoNotTranslate: dnt})
			if m.Text != tc.want {
				t.Errorf("Mask(%q).Text = %q, want %q", tc.text, m.Text, tc.want)
			}
			if got := raws(m.Table); !slices.Equal(got, tc.raws) && len(got)+len(tc.raws) > 0 {
				t.Errorf("Mask(%q) raws = %q, want %q", tc.text, got, tc.raws)
			}
			if got := Unmask(m.Text, m.Table); got != tc.text && tc.name != "token lookalike stays text" {
				t.Errorf("Unmask(Mask(%q)) = %q", tc.text, got)
			}
		})
	}
}

func TestExpandPlurals(t *testing.T) {
	t.Parallel()
	src := "{count, plural, =0 {No files} one {# file} other {# files}}"
	tests := []struct{ lang, want string }{
		{"en", src},
		{"pl", "{count, plural, =0 {No files} one {# file} few {# files} many {# files} other {# files}}"},
		{"ru-RU", "{count, plural, =0 {No files} one {# file} few {# files} many {# files} other {# files}}"},
		{"ja", "{count, plural, =0 {No files} other {# files}}"},
		{"zh", "{count, plural, =0 {No files} other {# files}}"},
		{"ar", "{count, plural, =0 {No files} zero {# files} one {# file} two {# files} few {# files} many {# files} other {# files}}"},
		{"he", "{count, plural, =0 {No files} one {# file} two {# files} other {# files}}"},
		{"xx", src}, // unknown rules: untouched
	}
	for _, tc := range tests {
		t.Run(tc.lang, func(t *testing.T) {
			t.Parallel()
			if got := ExpandPlurals(src, tc.lang); got != tc.want {
				t.Errorf("ExpandPlurals(%q) = %q, want %q", tc.lang, got, tc.want)
			}
		})
	}
	t.Run("not icu", func(t *testing.T) {
		t.Parallel()
		s := "{{count}} plural {oops"
		if got := ExpandPlurals(s, "pl"); got != s {
			t.Errorf("ExpandPlurals(%q) = %q", s, got)
		}
	})
	t.Run("selectordinal gets ordinal categories", func(t *testing.T) {
		t.Parallel()
		s := "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} place"
		// German and Japanese have one ordinal category, other; Welsh six.
		for lang, want := range map[string]string{
			"de": "{n, selectordinal, other {#th}} place",
			"ja": "{n, selectordinal, other {#th}} place",
			"cy": "{n, selectordinal, zero {#th} one {#st} two {#nd} few {#rd} many {#th} other {#th}} place",
			"en": s,
		} {
			if got := ExpandPlurals(s, lang); got != want {
				t.Errorf("ExpandPlurals(%s) = %q, want %q", lang, got, want)
			}
		}
	})
}

func TestMaskLinear(t *testing.T) {
	t.Parallel()
	// Adversarial input must not make masking quadratic: each of these is
	// 200 KB of speculative starts that never complete.
	for _, unit := range []string{"{a, number,", "<a ", "{{x", "$t(", "[x](", "&#", "%1$", "{n, plural, one {"} {
		s := strings.Repeat(unit, 200_000/len(unit))
		m := Mask(s, MaskOptions{DoNotTranslate: []string{"x"}})
		if got := Unmask(m.Text, m.Table); got != s {
			t.Fatalf("round trip of %q run failed", unit)
		}
	}
}

// FuzzMask: masking (with plural expansion for any language) never
// panics, and unmasking its own text gives back what was masked.
func FuzzMask(f *testing.F) {
	for _, s := range []string{"Hello {name}", "{n, plural, one {# <b>file</b>} other {# files}}", "<a href=\"x\" title=\"t\">y</a>",
		"%1$s and %d%%", "It''s '{x}' {{y}} ${z} %1 [l](u)", "Lokal &amp; <Enter>", "{a, select, x {{b, plural, one {#} other {#}}} other {}}"} {
		f.Add(s, "pl")
	}
	f.Fuzz(func(t *testing.T, s, lang string) {
		m := Mask(s, MaskOptions{DoNotTranslate: []string{"Lokal"}, PluralLang: lang})
		if got := Unmask(m.Text, m.Table); got != m.Source && !strings.Contains(s, tokOpen) {
			t.Fatalf("Unmask(Mask(%q)) = %q, want %q", s, got, m.Source)
		}
	})
}
