package tools

import (
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/message/plural"
)

// The editor's plural and select rows: a row whose source is one ICU plural, selectordinal
// or select block is edited as one field per form, built from the value with the message
// model (message.SingleBlock) and joined back into one ICU value (message.Block) on save
// and while typing, so the QA that judges it is the one every value gets (message.Check
// through the checkup): a missing or foreign category, an unclosed brace.

// FormsEditor is a row's value as one field per form.
type FormsEditor struct {
	Head   string // the block's opening, kept as written ("{count, plural,")
	Type   string // plural, selectordinal or select
	Fields []FormField
}

// FormField is one form: a CLDR category of the target language with example numbers, an
// explicit number (=0), a select key, or a form the value has that the language lacks
// (Foreign: shown so that it is removed on purpose, never dropped silently).
type FormField struct {
	Selector string
	Text     string
	Examples string // "2, 3, 4, 22, 23, 24, …" for a category
	Foreign  bool
}

// FormsIn are the fields of a FormsEditor as a form posts them.
type FormsIn struct {
	Head      string
	Selectors []string
	Texts     []string
}

// Join writes the fields as one ICU value; empty fields are left out (message.Block).
func (f *FormsIn) Join() string {
	b := &message.Block{Head: strings.TrimSpace(f.Head)}
	for i, sel := range f.Selectors {
		if i < len(f.Texts) {
			b.Forms = append(b.Forms, message.BlockForm{Selector: strings.TrimSpace(sel), Text: strings.ReplaceAll(f.Texts[i], "\r\n", "\n")})
		}
	}
	return b.String()
}

// formsEditor builds the fields of a row, or nil when the row is edited as text: its
// source is not one block, or its value is text that is not one block (which QA reports).
func formsEditor(source, value, language string, syn message.Syntax) *FormsEditor {
	if syn == 0 {
		syn = message.DetectSyntax([]string{source})
	}
	src, ok := message.SingleBlock(source, syn)
	if !ok {
		return nil
	}
	var val *message.Block
	if value != "" {
		if val, ok = message.SingleBlock(value, syn); !ok || val.Type != src.Type || val.Arg != src.Arg {
			return nil
		}
	}
	ed := &FormsEditor{Head: src.Head, Type: src.Type}
	if val != nil {
		ed.Head = val.Head
	}
	text := func(sel string) string {
		if val != nil {
			for _, f := range val.Forms {
				if f.Selector == sel {
					return f.Text
				}
			}
		}
		return ""
	}
	var seen []string
	add := func(f FormField) {
		if !slices.Contains(seen, f.Selector) {
			seen = append(seen, f.Selector)
			f.Text = text(f.Selector)
			ed.Fields = append(ed.Fields, f)
		}
	}
	var valForms []message.BlockForm
	if val != nil {
		valForms = val.Forms
	}
	if src.Type == "select" {
		for _, f := range src.Forms {
			add(FormField{Selector: f.Selector})
		}
		for _, f := range valForms {
			add(FormField{Selector: f.Selector, Foreign: true})
		}
		return ed
	}
	kind := plural.KindCardinal
	if src.Type == "selectordinal" {
		kind = plural.KindOrdinal
	}
	for _, forms := range [][]message.BlockForm{src.Forms, valForms} {
		for _, f := range forms {
			if strings.HasPrefix(f.Selector, "=") {
				add(FormField{Selector: f.Selector, Examples: strings.TrimPrefix(f.Selector, "=")})
			}
		}
	}
	for _, c := range plural.Categories(language, kind) {
		ex := plural.Samples(language, kind, c)
		label := strings.Join(ex, ", ")
		if c == plural.Other || len(ex) >= 6 {
			label += ", …"
		}
		add(FormField{Selector: c.String(), Examples: label})
	}
	for _, f := range valForms {
		add(FormField{Selector: f.Selector, Foreign: true})
	}
	return ed
}
