package message

import (
	"slices"
	"testing"
)

type parseCase struct {
	name     string
	syntax   Syntax
	value    string
	want     string // dump of the tree
	problems []ProblemCode
}

// parseCases is the table of every syntax: what is recognised and what
// must stay text.
var parseCases = []parseCase{
	// ICU
	{"icu simple", ICU, "Hello {name}", `"Hello " A(icu:name)`, nil},
	{"icu spaced", ICU, "Hi { name }!", `"Hi " A(icu:name) "!"`, nil},
	{"icu numbered", ICU, "{0} and {1}", `A(icu:0#0) " and " A(icu:1#1)`, nil},
	{"icu number skeleton", ICU, "{price, number, ::currency/EUR}", `A(icu-formatted:price,number,::currency/EUR)`, nil},
	{"icu date style", ICU, "on {day, date, short}", `"on " A(icu-formatted:day,date,short)`, nil},
	{"icu type only", ICU, "{d, date}", `A(icu-formatted:d,date)`, nil},
	{"icu quoted style", ICU, "{n, number, '{'#'}'}", `A(icu-formatted:n,number,'{'#'}')`, nil},
	{"icu plural", ICU, "{n, plural, offset:1 =0 {none} one {# file} other {# files}}",
		`S(n plural offset:1 [=0: "none"] [one: # " file"] [other: # " files"])`, nil},
	{"icu plural type case", ICU, "{n, Plural, other {x}}", `S(n plural [other: "x"])`, nil},
	{"icu selectordinal", ICU, "{pos, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} place",
		`S(pos selectordinal [one: # "st"] [two: # "nd"] [few: # "rd"] [other: # "th"]) " place"`, nil},
	{"icu nested", ICU, "{g, select, female {{n, plural, one {She has # cat} other {She has # cats}}} other {They}}",
		`S(g select [female: S(n plural [one: "She has " # " cat"] [other: "She has " # " cats"])] [other: "They"])`, nil},
	{"icu pound only in plural", ICU, "# {g, select, other {#}}", `"# " S(g select [other: "#"])`, nil},
	{"icu quoted literal", ICU, "'{name}' is {name}", `Q('{name}'={name}) " is " A(icu:name)`, nil},
	{"icu doubled apostrophe", ICU, "it''s {n}", `"it" Q(''=') "s " A(icu:n)`, nil},
	{"icu lone apostrophe", ICU, "I'm {name}", `"I'm " A(icu:name)`, nil},
	{"icu quoted pound", ICU, "{n, plural, other {'#' #}}", `S(n plural [other: Q('#'=#) " " #])`, nil},
	{"icu quote with apostrophe", ICU, "'{it''s}'", `Q('{it''s}'={it's})`, nil},
	{"icu spaced braces are an argument", ICU, "Use { and } to group", `"Use " A(icu:and) " to group"`, nil},
	{"icu unclosed brace", ICU, "Hello {name", `"Hello {name"`, []ProblemCode{UnclosedBrace}},
	{"icu bare brace", ICU, "a { b", `"a { b"`, []ProblemCode{UnclosedBrace}},
	{"icu unmatched brace", ICU, "a } b", `"a } b"`, []ProblemCode{UnmatchedBrace}},
	{"icu missing other", ICU, "{n, plural, one {x}}", `S(n plural [one: "x"])`, []ProblemCode{MissingOther}},
	{"icu duplicate selector", ICU, "{n, plural, one {x} one {y} other {z}}",
		`S(n plural [one: "x"] [one: "y"] [other: "z"])`, []ProblemCode{DuplicateSelector}},
	{"icu unclosed block", ICU, "{n, plural, one {# file} other {# files}",
		`S(n plural [one: # " file"] [other: # " files"])`, []ProblemCode{UnclosedSelect}},
	{"icu unclosed form", ICU, "{n, plural, other {# files",
		`S(n plural [other: # " files"])`, []ProblemCode{UnclosedSelect}},
	{"icu junk between forms", ICU, "{n, plural, one {x} junk other {y}}",
		`S(n plural [one: "x"] [other: "y"])`, []ProblemCode{BadSelector}},
	{"icu unclosed quote", ICU, "'{name} rest", `Q('{name} rest={name} rest)`, []ProblemCode{UnclosedQuote}},
	{"icu off", 0, "Hello {name} <b>x</b> %s", `"Hello {name} <b>x</b> %s"`, nil},

	// i18next
	{"i18next", I18next, "Hello {{name}}", `"Hello " A(i18next:name)`, nil},
	{"i18next spaced", I18next, "{{ name }}", `A(i18next:name)`, nil},
	{"i18next unescaped", I18next, "About {{- author}}", `"About " A(i18next:author,-)`, nil},
	{"i18next format", I18next, "Total: {{amount, currency}}", `"Total: " A(i18next:amount,currency)`, nil},
	{"i18next nesting", I18next, "See $t(common.details) for more", `"See " A(i18next-nesting:common.details) " for more"`, nil},
	{"i18next nesting options", I18next, `You have $t(items, {"count": 3})`, `"You have " A(i18next-nesting:items,{"count": 3})`, nil},
	{"i18next braces are text", I18next, "Use { and } to group", `"Use { and } to group"`, nil},
	{"i18next empty", I18next, "{{}} {{ }} {{-}} {{a\nb}}", `"{{}} {{ }} {{-}} {{a\nb}}"`, nil},
	{"i18next expression", I18next, "{{ user.name | upper }}", `A(i18next:user.name | upper)`, nil},
	{"i18next wins over icu", I18next | ICU, "{{count}} of {total}", `A(i18next:count) " of " A(icu:total)`, nil},

	// react-i18next
	{"react indexed", React, "<0>Hello</0> <1/> world", `<0>["Hello"] " " <1/> " world"`, nil},
	{"react named", React | I18next, "<bold>{{name}}</bold> joined", `<bold>[A(i18next:name)] " joined"`, nil},
	{"react nested", React, "<0>a <1>b</1></0>", `<0>["a " <1>["b"]]`, nil},
	{"react unclosed index", React, "<0>open", `U<0> "open"`, nil},
	{"index without react", HTML, "<0>x</0>", `"<0>x</0>"`, nil},

	// Rails
	{"rails", Rails, "Hi %{name}", `"Hi " A(rails:name)`, nil},
	{"rails formatted", Rails, "Price: %<amount>.2f EUR", `"Price: " A(rails-formatted:amount,f,.2) " EUR"`, nil},
	{"rails after a number", Rails | Printf, "5%{unit} 5%<n>d 5%d", `"5" A(rails:unit) " 5" A(rails-formatted:n,d) " 5%d"`, nil},
	{"rails off", Printf, "%{name}", `"%{name}"`, nil},

	// printf
	{"printf verbs", Printf, "%s %d %.2f %ld %@ %lld %5.1f %-3s %x",
		`A(printf:,s) " " A(printf:,d) " " A(printf:,f,.2) " " A(printf:,d,l) " " A(printf:,@) " " A(printf:,d,ll) " " A(printf:,f,5.1) " " A(printf:,s,-3) " " A(printf:,x)`, nil},
	{"printf positional", Printf, "%1$s moved %2$d files", `A(printf:#1@,s) " moved " A(printf:#2@,d) " files"`, nil},
	{"printf percent", Printf, "Save %d%% today", `"Save " A(printf:,d) A(printf-percent:) " today"`, nil},
	{"printf python named", Printf, "%(name)s left", `A(printf-named:name,s) " left"`, nil},
	{"printf german suffix", Printf, "ein 10%iger Rabatt", `"ein 10%iger Rabatt"`, nil},
	{"printf igen", Printf, "10%igen", `"10%igen"`, nil},
	{"printf hungarian suffix", Printf, "10%-os kedvezmény", `"10%-os kedvezmény"`, nil},
	{"printf escaped after number", Printf, "100%%", `"100" A(printf-percent:)`, nil},
	{"printf prose", Printf, "50% off, 100% sure, a % b, %", `"50% off, 100% sure, a % b, %"`, nil},

	// .NET / Python braces
	{"braces index", Braces, "{0} of {1}", `A(brace:0#0@) " of " A(brace:1#1@)`, nil},
	{"braces dotnet format", Braces, "{0:C} {0,-10:N2}", `A(brace:0#0@,C) " " A(brace:0#0@,,-10:N2)`, nil},
	{"braces python", Braces, "{size:.1f} MB {name!r} {} {items[0]}", `A(brace:size,.1f) " MB " A(brace:name,!r) " " A(brace:) " " A(brace:items[0])`, nil},
	{"braces escapes", Braces, "{{literal}}", `Q({{={) "literal" Q(}}=})`, nil},
	{"braces auto numbered", Braces, "{:.2f}", `A(brace:,.2f)`, nil},
	{"braces not args", Braces, "{a b} { } {0,x} {0:}", `"{a b} { } {0,x} {0:}"`, nil},
	{"icu then braces", ICU | Braces, "{name} {size:.1f}", `A(icu:name) " " A(brace:size,.1f)`, nil},

	// template literals
	{"template", Template, "Hi ${user.name}, ${ count } left", `"Hi " A(template:user.name) ", " A(template:count) " left"`, nil},
	{"template not", Template, "$5 ${} $name", `"$5 ${} $name"`, nil},

	// Qt
	{"qt", Qt, "%1 of %2, %L3, %n file(s)", `A(qt:#1@) " of " A(qt:#2@) ", " A(qt:#3@,L) ", " A(qt:n) " file(s)"`, nil},
	{"qt adjacent", Qt, "%1%2 %1%", `A(qt:#1@) A(qt:#2@) " " A(qt:#1@) "%"`, nil},
	{"qt not", Qt, "%0 %name 10%1", `"%0 %name 10%1"`, nil},
	{"printf before qt", Printf | Qt, "%1$s %1", `A(printf:#1@,s) " " A(qt:#1@)`, nil},

	// HTML
	{"html elements", HTML, "Click <b>Save</b> to keep <i>your changes</i>",
		`"Click " <b>["Save"] " to keep " <i>["your changes"]`, nil},
	{"html void", HTML, "Line one<br/>Line two<br>Line three", `"Line one" <br/> "Line two" <br/> "Line three"`, nil},
	{"html translatable attrs", HTML, `<img src="a.png" alt="A cat"> <input placeholder='Search' disabled>`,
		`<img src=a.png alt={"A cat"}/> " " <input placeholder={"Search"} disabled=/>`, nil},
	{"html link", HTML, `<p>Read <a href="/t" title="Our terms">the <b>terms</b></a></p>`,
		`<p>["Read " <a href=/t title={"Our terms"}>["the " <b>["terms"]]]`, nil},
	{"html comparison is text", HTML, "x<y and y>z", `"x<y and y>z"`, nil},
	{"html bare data attribute", HTML, "<span data-x hidden>x</span>", `<span data-x= hidden=>["x"]`, nil},
	{"html less than", HTML, "a < b, <3, a<=b", `"a < b, <3, a<=b"`, nil},
	{"html key name atom", HTML, "Press <Enter> to <b>save</b>", `"Press " U<Enter> " to " <b>["save"]`, nil},
	{"html lone p", HTML, "<p>Intro", `U<p> "Intro"`, nil},
	{"html stray close", HTML, "text</b> more", `"text" U</b> " more"`, nil},
	{"html crossed", HTML, "<b><i>x</b></i>", `<b>[U<i> "x"] U</i>`, nil},
	{"html case", HTML, "<B>x</b>", `<B>["x"]`, nil},
	{"html xml and comment", HTML, "<x:bold>Important</x:bold><!-- keep -->", `<x:bold>["Important"] C(<!-- keep -->)`, nil},
	{"html entities", HTML, "Tom &amp; Jerry&hellip; &#8212;&#x27; &bogus; AT&T",
		`"Tom " E(&amp;="&") " Jerry" E(&hellip;="…") " " E(&#8212;="—") E(&#x27;="'") " " E(&bogus;="") " AT&T"`, nil},
	{"html attr with placeholder", HTML | I18next, `<a href="{{url}}" target="_blank">Open {{name}}</a>`,
		`<a href={{url}} target=_blank>["Open " A(i18next:name)]`, nil},
	{"html attr with icu", HTML | ICU, `<abbr title="{n} items">x</abbr>`, `<abbr title={A(icu:n) " items"}>["x"]`, nil},
	{"html pound in tag", HTML | ICU, "{n, plural, one {<b>#</b> day} other {<b>#</b> days}}",
		`S(n plural [one: <b>[#] " day"] [other: <b>[#] " days"])`, nil},
	{"html tags do not cross forms", HTML | ICU, "{n, plural, one {<b>x} other {y</b>}}",
		`S(n plural [one: U<b> "x"] [other: "y" U</b>])`, nil},
	{"html bad attribute", HTML, `<a href="x>y`, `"<a href=\"x>y"`, nil},
	{"html autolink is text", HTML, "<https://example.com>", `"<https://example.com>"`, nil},

	// markdown
	{"markdown link", Markdown, "See [the docs](https://example.com/docs)", `"See " L["the docs"](https://example.com/docs)`, nil},
	{"markdown parens in target", Markdown, "[Foo](https://en.wikipedia.org/wiki/Foo_(bar)) end",
		`L["Foo"](https://en.wikipedia.org/wiki/Foo_(bar)) " end"`, nil},
	{"markdown image", Markdown, `![logo](/logo.png "Logo")`, `I["logo"](/logo.png "Logo")`, nil},
	{"markdown two links", Markdown, "[Terms](/terms) and [Privacy](/privacy)", `L["Terms"](/terms) " and " L["Privacy"](/privacy)`, nil},
	{"markdown brackets in text", Markdown, "[a [b] c](d)", `L["a [b] c"](d)`, nil},
	{"markdown not links", Markdown, "[note] (x) [a](b ! [c]", `"[note] (x) [a](b ! [c]"`, nil},
	{"markdown with args", Markdown | ICU | HTML, "[<b>{name}</b>](/u/{id})", `L[<b>[A(icu:name)]](/u/{id})`, nil},
	{"markdown in plural", Markdown | ICU, "{n, plural, one {[# file](/f)} other {[# files](/f)}}",
		`S(n plural [one: L[# " file"](/f)] [other: L[# " files"](/f)])`, nil},
	{"markdown does not cross forms", Markdown | ICU, "{n, select, a {[x} other {y](z)}}",
		`S(n select [a: "[x"] [other: "y](z)"])`, nil},
}

func TestParse(t *testing.T) {
	t.Parallel()
	for _, c := range parseCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			m := Parse(c.value, c.syntax)
			if got := dump(m.Nodes); got != c.want {
				t.Errorf("Parse(%q, %s)\n got %s\nwant %s", c.value, c.syntax, got, c.want)
			}
			var codes []ProblemCode
			for _, p := range m.Problems {
				codes = append(codes, p.Code)
			}
			if !slices.Equal(codes, c.problems) {
				t.Errorf("Parse(%q) problems = %v, want %v", c.value, m.Problems, c.problems)
			}
			if got := m.String(); got != c.value {
				t.Errorf("String() = %q, want %q", got, c.value)
			}
		})
	}
}

// Every table value prints back under every syntax set, not only its own.
func TestRoundTripAllSyntaxes(t *testing.T) {
	t.Parallel()
	sets := []Syntax{0, All}
	for _, n := range syntaxNames {
		sets = append(sets, n.s, All&^n.s)
	}
	for _, c := range parseCases {
		for _, s := range sets {
			if got := Parse(c.value, s).String(); got != c.value {
				t.Errorf("Parse(%q, %s).String() = %q", c.value, s, got)
			}
		}
	}
}

func TestProblemOffsets(t *testing.T) {
	t.Parallel()
	m := Parse("ok {n, plural, one {x}} and }", ICU)
	want := []SyntaxError{{3, MissingOther}, {28, UnmatchedBrace}}
	if !slices.Equal(m.Problems, want) {
		t.Errorf("problems = %v, want %v", m.Problems, want)
	}
}
