package message

import (
	"strings"
	"testing"
)

func spanDump(v string, s Syntax) string {
	var parts []string
	for _, sp := range Spans(Parse(v, s)) {
		parts = append(parts, sp.Part.String()+":"+v[sp.Start:sp.End])
	}
	return strings.Join(parts, " | ")
}

func TestSpans(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s     Syntax
		value string
		want  string
	}{
		{ICU, "Hi {name}, {n, plural, one {# file} other {# files}}!",
			"whole:{name} | open:{n, plural, one { | whole:# | inner:} other { | whole:# | close:}}"},
		{ICU | HTML, `<a href="/x" title="T {n}">Go</a><br>&amp;`,
			`open:<a href="/x" title=" | whole:{n} | inner:"> | close:</a> | whole:<br> | whole:&amp;`},
		{HTML, `<img alt="A cat" src=x> <b>x`, `open:<img alt=" | close:" src=x> | whole:<b>`},
		{Markdown | Printf, "[%s](/u) ![x](y)", "open:[ | whole:%s | close:](/u) | open:![ | close:](y)"},
		{ICU, "{n, plural, other {x}", "open:{n, plural, other { | close:}"},
		{ICU, "{n, plural, other {x", "open:{n, plural, other {"},
		{ICU, "'{x}' {n, plural,}", "whole:'{x}' | whole:{n, plural,}"},
	} {
		if got := spanDump(c.value, c.s); got != c.want {
			t.Errorf("Spans(%q)\n got %s\nwant %s", c.value, got, c.want)
		}
	}
}

// checkSpans asserts that the spans of v are ordered, non-empty, within v,
// and that the bytes they leave are exactly the text nodes.
func checkSpans(t *testing.T, v string, s Syntax) {
	m := Parse(v, s)
	var text, gaps strings.Builder
	Walk(m, func(n Node, _ Path) bool {
		if x, ok := n.(*Text); ok {
			text.WriteString(x.Value)
		}
		return true
	})
	pos := 0
	for _, sp := range Spans(m) {
		if sp.Start < pos || sp.End <= sp.Start || sp.End > len(v) {
			t.Fatalf("span %d-%d after %d in %q", sp.Start, sp.End, pos, v)
		}
		gaps.WriteString(v[pos:sp.Start])
		pos = sp.End
	}
	gaps.WriteString(v[pos:])
	if gaps.String() != text.String() {
		t.Fatalf("Spans of %q leave %q, text is %q", v, gaps.String(), text.String())
	}
}

func TestSpansCoverAllButText(t *testing.T) {
	t.Parallel()
	for _, v := range seedValues(t) {
		checkSpans(t, v, All)
	}
}

func FuzzSpans(f *testing.F) {
	for _, v := range seedValues(f) {
		f.Add(v, uint16(All))
	}
	f.Fuzz(func(t *testing.T, v string, syn uint16) {
		checkSpans(t, v, Syntax(syn)&All)
	})
}
