package message

import (
	"slices"
	"strings"
	"testing"
)

func TestDetectSyntax(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		sources []string
		want    Syntax
	}{
		{"plain", []string{"Save", "Use { and } to group", "50% off"}, 0},
		{"i18next keeps braces as text", []string{"Hello {{name}}", "Use { and } to group", "{n} selected"}, I18next},
		{"i18next with a bare brace", []string{"Hello {{name}}", "Press { to open", "{n} selected"}, I18next},
		{"mixed project keeps tight braces", []string{"Hello {{name}}", "{n} selected"}, ICU | I18next},
		{"icu by simple args", []string{"Hello {name}", "Save"}, ICU},
		// lokal stores an i18next plural family as one block: i18next reads it whole.
		{"plural block alone keeps i18next", []string{"{{count}} files", "{count, plural, one {{{count}} file} other {{{count}} files}}"}, I18next},
		{"plural block and quote in form keep i18next", []string{"{count, plural, other {'{'{{count}}'}'}}"}, I18next},
		{"icu by plural without i18next", []string{"{n, plural, other {# x}}"}, ICU},
		{"icu by plural with # despite i18next", []string{"{{count}} files", "{n, plural, other {# x}}"}, ICU | I18next},
		{"icu by formatted arg beside i18next", []string{"{{count}} files", "{p, number, ::percent}"}, ICU | I18next},
		{"icu by formatted arg", []string{"{p, number, ::percent}"}, ICU},
		{"icu spaced is not evidence", []string{"Use { and } to group"}, 0},
		{"braces", []string{"{0:C} total", "{name}"}, Braces},
		{"printf and html", []string{"%d files", "<b>New</b>", "Tom &amp; Jerry"}, Printf | HTML},
		{"printf percent only after number is text", []string{"10%igen"}, 0},
		{"rails", []string{"Hi %{name}"}, Rails},
		{"react indexed", []string{"<0>Hello</0> {{name}}"}, React | I18next},
		{"react named in i18next", []string{"<bold>{{name}}</bold>"}, React | I18next},
		{"xml names without i18next are html", []string{"<x:bold>Important</x:bold>", "<note>x</note>"}, HTML},
		{"key names are no evidence", []string{"Press <Enter>"}, 0},
		{"markdown", []string{"See [the docs](/docs)"}, Markdown},
		{"template and qt", []string{"${n} left", "%1 of %2"}, Template | Qt},
	} {
		if got := DetectSyntax(c.sources); got != c.want {
			t.Errorf("%s: DetectSyntax(%q) = %s, want %s", c.name, c.sources, got, c.want)
		}
	}
}

func TestSyntaxNames(t *testing.T) {
	t.Parallel()
	for _, s := range []Syntax{0, ICU, ICU | HTML, All, React | Markdown | Qt} {
		got, err := ParseSyntax(s.String())
		if err != nil || got != s {
			t.Errorf("ParseSyntax(%q) = %v, %v; want %v", s.String(), got, err, s)
		}
	}
	if got := (ICU | HTML).String(); got != "icu,html" {
		t.Errorf("String() = %q", got)
	}
	if got, err := ParseSyntax(" ICU , i18next,"); err != nil || got != ICU|I18next {
		t.Errorf("ParseSyntax with spaces = %v, %v", got, err)
	}
	if got, _ := ParseSyntax("all"); got != All {
		t.Errorf("all = %v", got)
	}
	if _, err := ParseSyntax("icu,yaml"); err == nil || !strings.Contains(err.Error(), `"yaml"`) {
		t.Errorf("unknown syntax error = %v", err)
	}
}

// formArgs maps each form path to the signatures of its arguments.
func formArgs(m *Message) map[string]string {
	out := map[string]string{}
	for _, f := range Forms(m) {
		var sigs []string
		for _, a := range f.Args {
			sigs = append(sigs, Signature(a))
		}
		out[f.Path.String()] = strings.Join(sigs, " ")
	}
	return out
}

func TestForms(t *testing.T) {
	t.Parallel()
	m := Parse(`{g, select, female {{n, plural, one {<b>{name}</b> has # cat} other {{name} has # cats <i title="{x}">!</i>}}} other {{name} and {n, plural, other {# others}} {n, plural, other {again}}}} by {author}`, ICU|HTML)
	fs := Forms(m)
	var paths []string
	for _, f := range fs {
		paths = append(paths, f.Path.String())
	}
	wantPaths := []string{"", "g:female", "g:female/n:one", "g:female/n:other", "g:other", "g:other/n:other", "g:other/n#1:other"}
	if !slices.Equal(paths, wantPaths) {
		t.Fatalf("paths = %q, want %q", paths, wantPaths)
	}
	args := formArgs(m)
	for path, want := range map[string]string{
		"":                 "{author}",
		"g:female":         "",
		"g:other":          "{name}",
		"g:female/n:one":   "{name}",
		"g:female/n:other": "{name} {x}",
		"g:other/n:other":  "",
	} {
		if args[path] != want {
			t.Errorf("args of %q = %q, want %q", path, args[path], want)
		}
	}
	byPath := map[string]*FormContent{}
	for _, f := range fs {
		byPath[f.Path.String()] = f
	}
	if f := byPath["g:female/n:one"]; f.Pounds != 1 || f.Markup != "<b></b>" || len(f.Tags) != 1 || f.Form.Selector != "one" || f.Select.Arg != "n" {
		t.Errorf("female/one = %+v", f)
	}
	if f := byPath["g:female/n:other"]; f.Markup != `<i title=""></i>` {
		t.Errorf("female/other markup = %q", f.Markup)
	}
	if f := byPath["g:other"]; len(f.Selects) != 2 || f.Pounds != 0 {
		t.Errorf("g:other = %+v", f)
	}
	if f := byPath[""]; len(f.Selects) != 1 || f.Select != nil {
		t.Errorf("top = %+v", f)
	}
}

// An argument moved from one form to another shows in the per-form lists
// although the message as a whole has the same arguments.
func TestFormsSeeMovedArgument(t *testing.T) {
	t.Parallel()
	src := formArgs(Parse("{n, plural, one {{name} has # file} other {# files}}", ICU))
	moved := formArgs(Parse("{n, plural, one {# fichier} other {{name} a # fichiers}}", ICU))
	if src["n:one"] != "{name}" || moved["n:one"] != "" || moved["n:other"] != "{name}" {
		t.Errorf("src %v moved %v", src, moved)
	}
}

func TestMarkupShape(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ a, b string }{
		{`<a href="/x" class=c>Open <b>it</b></a>`, `<A class="c" href='/x'>Ouvrir <b>le</b></A>`},
		{`x<br>y<img src=a alt="A">`, `x<br/>y<img alt="B" src="a"/>`},
		{`[Read <b>this</b>](/r)`, `[Lisez <b>ceci</b>](/r)`},
	} {
		sa := MarkupShape(Parse(c.a, HTML|Markdown).Nodes)
		sb := MarkupShape(Parse(c.b, HTML|Markdown).Nodes)
		if sa != sb {
			t.Errorf("shape %q = %q, %q = %q", c.a, sa, c.b, sb)
		}
	}
	for _, c := range []struct{ a, b string }{
		{`<b><i>x</i></b>`, `<b><i>x</b></i>`},
		{`<a href="/x">x</a>`, `<a href="/y">x</a>`},
		{`<b>x</b> <i>y</i>`, `<i>x</i> <b>y</b>`},
		{`[x](/a(b))`, `[x](/a)`},
	} {
		sa := MarkupShape(Parse(c.a, HTML|Markdown).Nodes)
		sb := MarkupShape(Parse(c.b, HTML|Markdown).Nodes)
		if sa == sb {
			t.Errorf("shape %q and %q both %q", c.a, c.b, sa)
		}
	}
}

func TestPrintfOrder(t *testing.T) {
	t.Parallel()
	order := func(v string) string {
		var out []string
		for _, a := range PrintfOrder(Parse(v, Printf)) {
			out = append(out, a.Raw)
		}
		return strings.Join(out, " ")
	}
	for v, want := range map[string]string{
		"%s has %d files":            "%s %d",
		"%d Dateien hat %s":          "%d %s",
		"%1$s moved %2$d, %s %% %@":  "%s %@",
		"%(name)s: %.2f of %ld":      "%.2f %ld",
		"no arguments, 10%igen here": "",
	} {
		if got := order(v); got != want {
			t.Errorf("PrintfOrder(%q) = %q, want %q", v, got, want)
		}
	}
}

func TestSignature(t *testing.T) {
	t.Parallel()
	same := []struct {
		s    Syntax
		a, b string
	}{
		{ICU, "Hi {name}", "Hi { name }"},
		{ICU, "{p, number,  ::currency/EUR }", "{p,number,::currency/EUR}"},
		{ICU, "{n,plural,one{# x}other{# y}}", "{n, plural, one {# x} other {# y}}"},
		{ICU, "it''s", "it's"},
		{HTML, "Tom &amp; Jerry", "Tom & Jerry"},
		{HTML, "a&nbsp;b&hellip;", "a\u00a0b…"},
		{HTML, "x<br>y", "x<br/>y"},
		{HTML, `<a title="T" href="/x">x</a>`, `<A href='/x' title="T">x</A>`},
		{I18next, "{{ name }} {{-  raw}}", "{{name}} {{- raw}}"},
		{I18next, `$t(items, { "count" : 3 })`, `$t(items, {"count":3})`},
		{Template, "${ n }", "${n}"},
		{Braces, "{0:C}", "{0:C}"},
	}
	for _, c := range same {
		sa, sb := Parse(c.a, c.s).Signature(), Parse(c.b, c.s).Signature()
		if sa != sb {
			t.Errorf("signature %q = %q, %q = %q", c.a, sa, c.b, sb)
		}
	}
	differ := []struct {
		s    Syntax
		a, b string
	}{
		{ICU, "'{name}'", "{name}"},
		{ICU, "{name}", "{nam}"},
		{Printf, "%s %d", "%d %s"},
		{Printf, "%d%%", "%d%"},
		{HTML, "&amp;", "&amp"},
		{HTML, "<b>x</b>", "<b>x"},
		{I18next, "{{- x}}", "{{x}}"},
		{ICU, "{n, plural, one {#} other {#}}", "{n, select, one {#} other {#}}"},
		{Markdown, "[a](b)", "[a](c)"},
	}
	for _, c := range differ {
		if sa, sb := Parse(c.a, c.s).Signature(), Parse(c.b, c.s).Signature(); sa == sb {
			t.Errorf("signature of %q and %q both %q", c.a, c.b, sa)
		}
	}
	// The signature of an argument node alone.
	var a *Arg
	Walk(Parse("{ count }", ICU), func(n Node, _ Path) bool {
		a, _ = n.(*Arg)
		return true
	})
	if a == nil || Signature(a) != "{count}" {
		t.Errorf("Signature(arg) = %v", a)
	}
}

func TestPlainText(t *testing.T) {
	t.Parallel()
	m := Parse(`Tom &amp; <b title="Hi">Jerry</b> '{x}' {n, plural, one {# cat} other {# cats}}`, ICU|HTML)
	got := strings.Join(strings.Fields(m.PlainText()), " ")
	want := "Tom & Hi Jerry {x} cat cats"
	if got != want {
		t.Errorf("PlainText = %q, want %q", got, want)
	}
}

func TestWalkSkipsChildren(t *testing.T) {
	t.Parallel()
	m := Parse("<b>{x}</b> {y} [{z}](/t)", ICU|HTML|Markdown)
	var seen []string
	Walk(m, func(n Node, _ Path) bool {
		if a, ok := n.(*Arg); ok {
			seen = append(seen, a.Name)
		}
		_, isTag := n.(*Tag)
		return !isTag
	})
	if !slices.Equal(seen, []string{"y", "z"}) {
		t.Errorf("args seen = %q", seen)
	}
}

func TestSplitPluralKey(t *testing.T) {
	t.Parallel()
	for key, want := range map[string][4]string{
		"files_one":         {"files", "one", "", "ok"},
		"files_other":       {"files", "other", "", "ok"},
		"place_ordinal_two": {"place", "two", "ordinal", "ok"},
		"files":             {"files", "", "", ""},
		"_one":              {"_one", "", "", ""},
		"some_key":          {"some_key", "", "", ""},
	} {
		base, cat, ord, ok := SplitPluralKey(key)
		got := [4]string{base, cat, map[bool]string{true: "ordinal"}[ord], map[bool]string{true: "ok"}[ok]}
		if got != want {
			t.Errorf("SplitPluralKey(%q) = %q, want %q", key, got, want)
		}
	}
}

func TestSelectForm(t *testing.T) {
	t.Parallel()
	sel, ok := Parse("{n, plural, =0 {none} other {# x}}", ICU).Nodes[0].(*Select)
	if !ok {
		t.Fatal("not a select")
	}
	if f := sel.Form("=0"); f == nil || f.Message.String() != "none" {
		t.Errorf("Form(=0) = %v", f)
	}
	if f := sel.Form("one"); f != nil {
		t.Errorf("Form(one) = %v", f)
	}
}
