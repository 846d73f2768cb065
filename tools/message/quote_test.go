package message

import "testing"

// TestFieldTextQuotes: a brace, an apostrophe that would open a quote, or a block typed
// into a field is written as text, so the field's place in the message reads back as the
// typed text with the same structure; arguments, '#', tags and closed quotes stay syntax.
func TestFieldTextQuotes(t *testing.T) {
	t.Parallel()
	syn := ICU | I18next | HTML
	cases := []struct {
		in     string
		plural bool
		want   string
	}{
		{"# pliki", true, "# pliki"},
		{"# pliki}", true, "# pliki'}'"},
		{"a {b", false, "a '{'b"},
		{"{}", true, "'{}'"},
		{"l'homme", false, "l'homme"},
		{"l'{name}", false, "l''{name}"},
		{"'{' and }", false, "'{' and '}'"},
		{"'{'}", false, "'{}'"},
		{"}'x", false, "'}'''x"},
		{"x}'", false, "x'}'''"},
		{"{{count}} files }", true, "{{count}} files '}'"},
		{"<b>{name}</b> }", false, "<b>{name}</b> '}'"},
		{"{n, plural, other {x}}", false, "'{'n, plural, other '{'x'}}'"},
		{"it''s }", false, "it's '}'"},
		{"# #}", true, "# #'}'"},
		{"a}#", true, "a'}'#"}, {"x'", true, "x''"},
	}
	for _, c := range cases {
		got := FieldText(c.in, syn, c.plural, false)
		if got != c.want {
			t.Errorf("FieldText(%q, plural=%v) = %q, want %q", c.in, c.plural, got, c.want)
		}
	}
}

// TestFieldTextReadsAsTyped: whatever is typed into a form, the form reads back (through
// Parse) as one closed form whose literal text is the typed text's, and the block keeps
// its forms.
func TestFieldTextReadsAsTyped(t *testing.T) {
	t.Parallel()
	for _, typed := range []string{"}", "{", "'", "''", "#", "'#'", "}}}", "{'}", "a'}'b", "x' }", "'|", "{count}", "# {x} }' {", "''{", "'{'{'}'"} {
		for _, plural := range []bool{true, false} {
			typ := "select"
			if plural {
				typ = "plural"
			}
			v := "{n, " + typ + ", one {" + FieldText(typed, ICU, plural, false) + "} other {x}}"
			m := Parse(v, ICU)
			if len(m.Problems) > 0 || len(m.Nodes) != 1 {
				t.Errorf("%q typed (%s) gives %q: %v", typed, typ, v, m.Problems)
				continue
			}
			s := m.Nodes[0].(*Select)
			if len(s.Forms) != 2 {
				t.Errorf("%q typed (%s) gives %d forms: %q", typed, typ, len(s.Forms), v)
			}
		}
	}
	// Literal text reads back as typed.
	for _, typed := range []string{"}", "{", "x' }", "{'}", "}'", "x'"} {
		v := FieldText(typed, ICU, false, false)
		if got := Parse(v, ICU).PlainText(); got != typed {
			t.Errorf("%q written %q reads %q", typed, v, got)
		}
	}
}

// TestSplitJoinRoundTrip: a message cut into pieces and joined again is byte-identical,
// blocks inside a sentence, nested, inside an element and with odd spacing included.
func TestSplitJoinRoundTrip(t *testing.T) {
	t.Parallel()
	syn := ICU | I18next | HTML
	for _, v := range []string{
		"Deleted {count, plural, one {# file} other {# files}} from <strong>{{folder}}</strong>",
		"{count, plural,\n  =0 {none}\n  one {# file}\n  other {# files}\n}",
		"{g, select, female {{n, plural, one {she has # cat} other {she has # cats}}} other {they have {n, plural, one {# cat} other {# cats}}}}",
		"<b>{n, plural, offset:1 one {x} other {y}}</b> and {n, plural, other {z}}",
		"no block '{' at all",
	} {
		pieces, ok := Split(v, syn)
		if !ok {
			t.Fatalf("Split(%q) refused", v)
		}
		if got := JoinPieces(pieces); got != v {
			t.Errorf("JoinPieces(Split(%q)) = %q", v, got)
		}
		for _, p := range pieces {
			if p.Block == nil && FieldText(IsolateSyntax(p.Text, syn, false), syn, false, true) != p.Text {
				t.Errorf("the text %q does not come back from its field", p.Text)
			}
		}
	}
	if s := FieldText("Open the users'", ICU, false, true); s != "Open the users'" {
		t.Errorf("the message's last text changed: %q", s)
	}
	if _, ok := Split("a {n, plural, one {x}", ICU); ok {
		t.Error("an unclosed block was split")
	}
	if p, _ := Split("Deleted {count, plural, one {# file} other {# files}} from x", ICU); len(p) != 3 || p[1].Block.Form("other").Pieces[0].Text != "# files" {
		t.Errorf("split: %+v", p)
	}
}

// TestIsolateSyntax: in a right-to-left box every placeholder is a left-to-right isolate,
// and FieldText takes exactly those isolates out again.
func TestIsolateSyntax(t *testing.T) {
	t.Parallel()
	syn := ICU | I18next
	got := IsolateSyntax("حذف # ملفات من {{folder}}", syn, true)
	if want := "حذف \u2066#\u2069 ملفات من \u2066{{folder}}\u2069"; got != want {
		t.Fatalf("IsolateSyntax = %q, want %q", got, want)
	}
	if back := FieldText(got, syn, true, false); back != "حذف # ملفات من {{folder}}" {
		t.Errorf("FieldText = %q", back)
	}
	// An isolate the translator typed around text is theirs.
	if s := FieldText("\u2066abc\u2069", syn, true, false); s != "\u2066abc\u2069" {
		t.Errorf("a typed isolate was removed: %q", s)
	}
}

// TestFormFieldTextFamily: in i18next without ICU a block's forms are a plural family's,
// which i18next reads as plain text: whatever is typed ('}', '{', '#', apostrophes) is
// quoted so that the family keeps its shape and ICUToNative, as endpoint 1 serves the
// form, gives the typed text back; the field shows the form as typed, and an unedited
// form is written back byte for byte.
func TestFormFieldTextFamily(t *testing.T) {
	t.Parallel()
	syn := I18next | HTML
	for _, typed := range []string{"{{count}} pliki}", "# {{count}} #", "{", "'", "''", "'#'", "it's {x}", "x'", "{count, plural, other {y}}", "<b>{{count}}</b> }", "a}'b"} {
		form := FormFieldText(typed, syn, true)
		v := "{count, plural, few {" + form + "} other {x}}"
		m := Parse(v, syn)
		if len(m.Problems) > 0 || len(m.Nodes) != 1 {
			t.Errorf("%q gives %q: %v", typed, v, m.Problems)
			continue
		}
		if s, ok := m.Nodes[0].(*Select); !ok || len(s.Forms) != 2 || !familyShape(s) {
			t.Errorf("%q gives %q, not a family's shape", typed, v)
		}
		if back := ICUToNative(form, "{{count}}"); back != typed {
			t.Errorf("%q is served as %q (stored %q)", typed, back, form)
		}
		if shown := FormFieldShow(form, syn, true); shown != typed {
			t.Errorf("%q is shown as %q", typed, shown)
		}
		if again := FormFieldText(FormFieldShow(form, syn, true), syn, true); again != form {
			t.Errorf("%q unedited is written %q, was %q", typed, again, form)
		}
	}
	// In ICU a form is FieldText in the block's syntax: '#' stays the number.
	if got := FormFieldText("# pliki}", ICU|I18next, true); got != "# pliki'}'" {
		t.Errorf("ICU form: %q", got)
	}
	if got := FormFieldShow("# pliki'}'", ICU|I18next, true); got != "# pliki'}'" {
		t.Errorf("ICU form shown: %q", got)
	}
	// Right to left: the isolates IsolateSyntax adds are taken out again.
	if got := FormFieldText(IsolateSyntax("{{count}} ملفات}", syn, true), syn, true); got != "{{count}} ملفات'}'" {
		t.Errorf("isolated family form: %q", got)
	}
}
