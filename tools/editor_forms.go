package tools

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/message/plural"
	"github.com/lokal-dev/lokal/tools/model"
)

// The editor's plural and select rows: a row whose source has plural, selectordinal or
// select blocks, alone or inside a sentence, nested or not, is edited as one field per
// piece of text: the sentence's text around the blocks, and each form of each block (a
// form holding a nested block is a group of fields around it). The fields are built from
// the message tree (message.Split) and joined back into one value (message.JoinPieces) on
// save and while typing, each field's text written as text by message.FieldText, so the
// QA that judges it is the one every value gets.

// FormsEditor is a row's value as fields.
type FormsEditor struct {
	Type   string      // the first block's type: plural, selectordinal or select
	Items  []FormsItem // groups and fields in the order shown
	Fields []FormField // the fields, by N
	// Shape is how the fields join into one value, posted back with them (FormsIn).
	Shape string
}

// FormsItem is one step of the editor as shown: a group opens (a block, or a form holding
// a nested block), a group closes, or a field.
type FormsItem struct {
	Open  *FormsGroup
	Close bool
	Field int // the field's N when Open is nil and Close false
}

// FormsGroup is a block or a form that holds blocks.
type FormsGroup struct {
	Block    bool   // a block; else a form
	Legend   string // "count, plural" for a block, the selector for a form
	Examples string
	Foreign  bool
}

// FormField is one field: a form's text (Selector set: a CLDR category of the target
// language with example numbers, an explicit number =0, a select key, or a form the value
// has that the language lacks, Foreign: shown so that it is removed on purpose, never
// dropped silently), or text around blocks (Label says where).
type FormField struct {
	N        int
	Key      string // where the field is in the message, as FormTexts names it
	Selector string
	Examples string // "2, 3, 4, 22, 23, 24, …" for a category
	Foreign  bool
	Label    string
	Text     string
	Source   string // the source's text for this field, for copy-source
}

// FormsIn are the fields of a FormsEditor as a form posts them.
type FormsIn struct {
	Shape string
	Texts []string
}

// formsShape is FormsEditor.Shape: the pieces of the value, with the syntax the fields
// are written in.
type formsShape struct {
	Syntax message.Syntax `json:"syn"`
	Pieces []shapePiece   `json:"x"`
}

// shapePiece is text (F, the field's N) or a block.
type shapePiece struct {
	F     *int        `json:"f,omitempty"`
	Head  string      `json:"h,omitempty"`
	Type  string      `json:"y,omitempty"`
	Tail  string      `json:"e,omitempty"`
	Forms []shapeForm `json:"fs,omitempty"`
}

type shapeForm struct {
	Prefix string       `json:"p"`
	Pieces []shapePiece `json:"x"`
}

// Join writes the fields as one value: each field's text as text (message.FieldText),
// forms left empty left out, and nothing at all when every field is empty.
func (f *FormsIn) Join() (string, error) {
	var sh formsShape
	if err := json.Unmarshal([]byte(f.Shape), &sh); err != nil || len(sh.Pieces) == 0 {
		return "", model.Errorf(model.CodeInvalid, "forms_shape is not the shape the editor sent; reload the page")
	}
	texts := make([]string, len(f.Texts))
	empty := true
	for i, t := range f.Texts {
		texts[i] = strings.ReplaceAll(t, "\r\n", "\n")
		empty = empty && texts[i] == ""
	}
	if empty {
		return "", nil
	}
	var bad bool
	var pieces func(in []shapePiece, plural, top bool, depth int) []message.Piece
	pieces = func(in []shapePiece, plural, top bool, depth int) []message.Piece {
		var out []message.Piece
		if depth > 32 {
			bad = true
			return nil
		}
		for i, p := range in {
			if p.F != nil {
				if *p.F < 0 || *p.F >= len(texts) {
					bad = true
					continue
				}
				text := message.FormFieldText(texts[*p.F], sh.Syntax, plural)
				if top {
					text = message.FieldText(texts[*p.F], sh.Syntax, plural, i == len(in)-1)
				}
				out = append(out, message.Piece{Text: text})
				continue
			}
			fr := &message.Frame{Head: p.Head, Type: p.Type, Tail: p.Tail}
			for _, form := range p.Forms {
				fr.Forms = append(fr.Forms, message.FrameForm{Prefix: form.Prefix, Pieces: pieces(form.Pieces, p.Type != "select", false, depth+1)})
			}
			out = append(out, message.Piece{Block: fr})
		}
		return out
	}
	out := message.JoinPieces(pieces(sh.Pieces, false, true, 0))
	if bad {
		return "", model.Errorf(model.CodeInvalid, "forms_shape is not the shape the editor sent; reload the page")
	}
	return out, nil
}

// fieldKey names a field: the path of its form and which text of that form it is
// ("count:one@0"; "@1" is the sentence's text after its first block).
func fieldKey(path message.Path, slot int) string {
	return path.String() + "@" + strconv.Itoa(slot)
}

// stepOf is the path step of the k-th block of a sequence of pieces, counted as
// message.Path counts a second block on the same argument.
func stepOf(pieces []message.Piece, k int) message.Step {
	b := pieces[k].Block
	nth := 0
	for _, p := range pieces[:k] {
		if p.Block != nil && p.Block.Arg == b.Arg && p.Block.Type == b.Type {
			nth++
		}
	}
	return message.Step{Arg: b.Arg, Type: b.Type, Nth: nth}
}

// FormTexts returns the text of every field value would fill in language's editor, by
// field key: how a suggestion (memory, AI) is put into the fields of a row, each form its
// form's text. Nil when value has no blocks to split at.
func FormTexts(value, language string, syn message.Syntax) map[string]string {
	pieces, ok := message.Split(value, syn)
	if !ok || !message.Blocks(pieces) {
		return nil
	}
	b := &formsBuilder{syn: syn, rtl: message.Direction(language) == "rtl"}
	out := map[string]string{}
	var walk func(ps []message.Piece, path message.Path, plural bool)
	walk = func(ps []message.Piece, path message.Path, plural bool) {
		for i, p := range ps {
			if p.Block == nil {
				out[fieldKey(path, i/2)] = b.show(p.Text, plural, len(path) > 0)
				continue
			}
			step := stepOf(ps, i)
			for _, f := range p.Block.Forms {
				step.Selector = f.Selector
				walk(f.Pieces, append(slices.Clip(path), step), p.Block.Type != "select")
			}
		}
	}
	walk(pieces, nil, false)
	return out
}

// HasText reports whether the editor has fields for text around blocks.
func (f *FormsEditor) HasText() bool {
	for _, x := range f.Fields {
		if x.Selector == "" {
			return true
		}
	}
	return false
}

// formsEditor builds the fields of a row, or nil when the row is edited as text: its
// source has no block, or its value has blocks other than the source's (or one left
// open, which QA reports). In i18next without ICU the blocks are plural families'.
func formsEditor(source, value, language string, syn message.Syntax) *FormsEditor {
	if syn == 0 {
		syn = message.DetectSyntax([]string{source})
	}
	if syn&(message.ICU|message.I18next) == 0 {
		return nil
	}
	src, ok := message.Split(source, syn)
	if !ok || !message.Blocks(src) {
		return nil
	}
	var val []message.Piece
	if value != "" {
		if val, ok = message.Split(value, syn); !ok {
			return nil
		}
	}
	b := &formsBuilder{ed: &FormsEditor{}, language: language, syn: syn, rtl: message.Direction(language) == "rtl"}
	pieces, ok := b.level(src, val, nil, false, nil)
	if !ok {
		return nil
	}
	shape, err := json.Marshal(formsShape{Syntax: syn, Pieces: pieces})
	if err != nil {
		return nil
	}
	b.ed.Shape = string(shape)
	return b.ed
}

type formsBuilder struct {
	ed       *FormsEditor
	language string
	syn      message.Syntax
	rtl      bool
}

// formInfo is the form a level of pieces is the text of; nil for the sentence.
type formInfo struct {
	selector, examples string
	foreign            bool
}

// show is the text a field shows for text of the value: inBlock for a field inside a
// block (message.FormFieldShow), in a right-to-left language with its syntax isolated.
func (b *formsBuilder) show(text string, plural, inBlock bool) string {
	if inBlock {
		text = message.FormFieldShow(text, b.syn, plural)
	}
	if b.rtl {
		return message.IsolateSyntax(text, b.syn, plural)
	}
	return text
}

// sameBlocks reports whether two sequences of pieces have the same blocks in order.
func sameBlocks(a, c []message.Piece) bool {
	if len(a) != len(c) {
		return false
	}
	for i := range a {
		x, y := a[i].Block, c[i].Block
		if (x == nil) != (y == nil) || x != nil && (x.Arg != y.Arg || x.Type != y.Type) {
			return false
		}
	}
	return true
}

// level adds the fields of one sequence of pieces: src is the source's (for a form the
// language adds, the source's other form), val the value's or nil.
func (b *formsBuilder) level(src, val []message.Piece, path message.Path, plural bool, form *formInfo) ([]shapePiece, bool) {
	if val != nil && !sameBlocks(src, val) {
		return nil, false
	}
	blocks := message.Blocks(src)
	// The text around blocks is shown when there is some; a form's only text always.
	show := !blocks
	for i, p := range src {
		if p.Block == nil && (p.Text != "" || val != nil && val[i].Text != "") {
			show = true
		}
	}
	if form != nil && blocks {
		b.ed.Items = append(b.ed.Items, FormsItem{Open: &FormsGroup{Legend: form.selector, Examples: form.examples, Foreign: form.foreign}})
		defer func() { b.ed.Items = append(b.ed.Items, FormsItem{Close: true}) }()
	}
	var out []shapePiece
	for i, p := range src {
		if p.Block == nil {
			if !show {
				continue
			}
			f := FormField{N: len(b.ed.Fields), Key: fieldKey(path, i/2), Source: b.show(p.Text, plural, form != nil), Label: b.where(src, i, form)}
			if val != nil {
				f.Text = b.show(val[i].Text, plural, form != nil)
			}
			if form != nil && !blocks {
				f.Selector, f.Examples, f.Foreign, f.Label = form.selector, form.examples, form.foreign, ""
			}
			b.ed.Fields = append(b.ed.Fields, f)
			b.ed.Items = append(b.ed.Items, FormsItem{Field: f.N})
			n := f.N
			out = append(out, shapePiece{F: &n})
			continue
		}
		var vb *message.Frame
		if val != nil {
			vb = val[i].Block
		}
		sp, ok := b.block(p.Block, vb, append(slices.Clip(path), stepOf(src, i)))
		if !ok {
			return nil, false
		}
		out = append(out, sp)
	}
	return out, true
}

// where says where a text of a level is, for its label: "Text before {count}".
func (b *formsBuilder) where(src []message.Piece, i int, form *formInfo) string {
	name := func(k int) string { return "{" + src[k].Block.Arg + "}" }
	lead := "Sentence: text"
	if form != nil {
		lead = form.selector + ": text"
	}
	switch {
	case len(src) == 1:
		return lead
	case i == 0:
		return lead + " before " + name(1)
	case i == len(src)-1:
		return lead + " after " + name(i-1)
	}
	return lead + " between " + name(i-1) + " and " + name(i+1)
}

// block adds the fields of one block: for a plural its explicit =N forms, then the target
// language's CLDR categories with example numbers; for a select the source's keys; then
// the forms the value has that are neither.
func (b *formsBuilder) block(sb, vb *message.Frame, path message.Path) (shapePiece, bool) {
	step := path[len(path)-1]
	path = path[:len(path)-1]
	if len(sb.Forms) == 0 || vb != nil && (vb.Arg != sb.Arg || vb.Type != sb.Type) {
		return shapePiece{}, false
	}
	b.ed.Items = append(b.ed.Items, FormsItem{Open: &FormsGroup{Block: true, Legend: sb.Arg + ", " + sb.Type}})
	if b.ed.Type == "" {
		b.ed.Type = sb.Type
	}
	var shown []formInfo
	seen := map[string]bool{}
	add := func(f formInfo) {
		if !seen[f.selector] {
			seen[f.selector] = true
			shown = append(shown, f)
		}
	}
	var valForms []message.FrameForm
	if vb != nil {
		valForms = vb.Forms
	}
	if sb.Type == "select" {
		for _, f := range sb.Forms {
			add(formInfo{selector: f.Selector})
		}
	} else {
		kind := plural.KindCardinal
		if sb.Type == "selectordinal" {
			kind = plural.KindOrdinal
		}
		for _, forms := range [][]message.FrameForm{sb.Forms, valForms} {
			for _, f := range forms {
				if strings.HasPrefix(f.Selector, "=") {
					add(formInfo{selector: f.Selector, examples: strings.TrimPrefix(f.Selector, "=")})
				}
			}
		}
		for _, c := range plural.Categories(b.language, kind) {
			ex := plural.Samples(b.language, kind, c)
			label := strings.Join(ex, ", ")
			if c == plural.Other || len(ex) >= 6 {
				label += ", …"
			}
			add(formInfo{selector: c.String(), examples: label})
		}
	}
	for _, f := range valForms {
		add(formInfo{selector: f.Selector, foreign: true})
	}
	built := map[string]shapeForm{}
	for _, f := range shown {
		like := sb.Form(f.selector)
		if like == nil {
			if like = sb.Form("other"); like == nil {
				like = &sb.Forms[len(sb.Forms)-1]
			}
		}
		var vals []message.Piece
		if vb != nil {
			if vf := vb.Form(f.selector); vf != nil {
				vals = vf.Pieces
			}
		}
		st := step
		st.Selector = f.selector
		fi := f
		pieces, ok := b.level(like.Pieces, vals, append(slices.Clip(path), st), sb.Type != "select", &fi)
		if !ok {
			return shapePiece{}, false
		}
		built[f.selector] = shapeForm{Pieces: pieces}
	}
	b.ed.Items = append(b.ed.Items, FormsItem{Close: true})
	// The value's forms in its order, as written; a form it lacks goes before its other
	// (or at the end), spaced like its first form.
	sp := shapePiece{Head: sb.Head, Type: sb.Type, Tail: sb.Tail}
	space := " "
	if vb != nil {
		sp.Head, sp.Tail = vb.Head, vb.Tail
		if len(vb.Forms) > 0 {
			pre := vb.Forms[0].Prefix
			space = pre[:len(pre)-len(strings.TrimLeft(pre, " \t\r\n"))]
		}
	}
	var order []string
	for _, f := range valForms {
		order = append(order, f.Selector)
	}
	for _, f := range shown {
		if slices.Contains(order, f.selector) {
			continue
		}
		at := slices.Index(order, "other")
		if at < 0 {
			at = len(order)
		}
		order = slices.Insert(order, at, f.selector)
	}
	for _, sel := range order {
		form := built[sel]
		form.Prefix = space + sel + " {"
		if vb != nil {
			if vf := vb.Form(sel); vf != nil {
				form.Prefix = vf.Prefix
			}
		}
		sp.Forms = append(sp.Forms, form)
	}
	return sp, true
}
