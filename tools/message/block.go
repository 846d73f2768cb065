package message

import (
	"strings"

	"golang.org/x/text/language"
)

// Block is a value that is one plural, selectordinal or select block and nothing else, as
// an editor shows it: one field per form. String writes it back as one ICU value.
type Block struct {
	// Head is the block's opening as written up to its first form ("{count, plural,"
	// or "{n, plural, offset:1"), kept so that an offset survives editing.
	Head  string
	Arg   string
	Type  string // plural, selectordinal or select
	Forms []BlockForm
}

// BlockForm is one form of a Block: its selector ("few", "=0", "female") and its text as
// ICU writes it between the braces ('#' is the number).
type BlockForm struct {
	Selector string
	Text     string
}

// SingleBlock returns the block value consists of, read in syn, or false when value is
// anything else: text, text around a block, or a block or form left open.
func SingleBlock(value string, syn Syntax) (*Block, bool) {
	m := Parse(value, syn)
	if len(m.Nodes) != 1 {
		return nil, false
	}
	s, ok := m.Nodes[0].(*Select)
	if !ok || s.Tail == "" {
		return nil, false
	}
	b := &Block{Head: strings.TrimRight(s.Head, " \t\r\n"), Arg: s.Arg, Type: s.Type}
	for _, f := range s.Forms {
		if f.Close == "" {
			return nil, false
		}
		b.Forms = append(b.Forms, BlockForm{Selector: f.Selector, Text: f.Message.String()})
	}
	return b, true
}

// String writes b as one ICU value; forms with empty text are left out, so that a form
// nobody wrote is reported missing by Check rather than stored empty.
func (b *Block) String() string {
	var s strings.Builder
	head := b.Head
	if head == "" {
		head = "{" + b.Arg + ", " + b.Type + ","
	}
	s.WriteString(head)
	n := 0
	for _, f := range b.Forms {
		if f.Text == "" {
			continue
		}
		s.WriteString(" " + f.Selector + " {" + f.Text + "}")
		n++
	}
	if n == 0 {
		return ""
	}
	s.WriteString("}")
	return s.String()
}

// Direction is the writing direction of the BCP 47 tag lang, "rtl" or "ltr", as HTML's
// dir attribute takes it: that of its script, the one written (pa-Arab, sd-Deva) or else
// the one CLDR's likely subtags give the language and region (ur is Arab, pa-PK is Arab,
// pa is Guru). A tag x/text cannot read, or whose script it does not know, is ltr.
func Direction(lang string) string {
	t, err := language.Parse(lang)
	if err != nil {
		return "ltr"
	}
	if s, c := t.Script(); c != language.No && rtlScripts[s.String()] {
		return "rtl"
	}
	return "ltr"
}

// rtlScripts are the ISO 15924 scripts written right to left that languages are written
// in today (x/text knows scripts but not their direction).
var rtlScripts = map[string]bool{"Arab": true, "Aran": true, "Hebr": true, "Thaa": true, "Syrc": true, "Nkoo": true,
	"Adlm": true, "Rohg": true, "Mand": true, "Samr": true, "Mend": true, "Yezi": true}

// Piece is one piece of a message as an editor shows it: a stretch of text with no
// plural/select block in it (as ICU writes it: arguments, tags and quotes included), or a
// block whose forms are parts again. Split cuts a message into pieces; JoinPieces writes
// them back, byte for byte.
type Piece struct {
	Text  string
	Block *Frame // nil for text
}

// Frame is one plural, selectordinal or select block of a split message.
type Frame struct {
	Head  string // as written up to its first form, "{count, plural," or with its offset
	Arg   string
	Type  string
	Forms []FrameForm
	Tail  string // whitespace and '}' as written
}

// FrameForm is one form of a Frame: Prefix is the whitespace, selector and '{' before its
// text as written (" one {"), Parts its text cut at the blocks nested in it.
type FrameForm struct {
	Prefix   string
	Selector string
	Pieces   []Piece
}

// Form returns the form with the given selector, or nil.
func (f *Frame) Form(selector string) *FrameForm {
	for i := range f.Forms {
		if f.Forms[i].Selector == selector {
			return &f.Forms[i]
		}
	}
	return nil
}

// Split cuts value, read in syn, into text and blocks: always text first and last and
// text between two blocks (possibly empty), the same inside every form. A block inside
// an element or a link is cut out of it (the tag's opening and closing are text around
// it). ok is false when a block or form never closes or a selector is not one: such a
// value is edited as text.
func Split(value string, syn Syntax) ([]Piece, bool) {
	m := Parse(value, syn)
	for _, p := range m.Problems {
		switch p.Code {
		case UnclosedSelect, BadSelector, TooDeep:
			return nil, false
		}
	}
	return splitNodes(m.Nodes)
}

func splitNodes(ns []Node) ([]Piece, bool) {
	var out []Piece
	var text strings.Builder
	ok := true
	var walk func(ns []Node)
	walk = func(ns []Node) {
		for _, n := range ns {
			switch n := n.(type) {
			case *Select:
				if n.Tail == "" {
					ok = false
					return
				}
				fr := &Frame{Head: n.Head, Arg: n.Arg, Type: n.Type, Tail: n.Tail}
				for _, f := range n.Forms {
					if f.Close == "" {
						ok = false
						return
					}
					parts, fok := splitNodes(f.Message.Nodes)
					ok = ok && fok
					fr.Forms = append(fr.Forms, FrameForm{Prefix: f.Prefix, Selector: f.Selector, Pieces: parts})
				}
				out = append(out, Piece{Text: text.String()}, Piece{Block: fr})
				text.Reset()
			case *Tag:
				if n.Kind != Element || !hasSelect(n.Children) {
					n.write(&text)
					continue
				}
				shell := *n
				shell.Children, shell.Close = nil, ""
				shell.write(&text)
				walk(n.Children)
				text.WriteString(n.Close)
			case *Link:
				if !hasSelect(n.Text) {
					n.write(&text)
					continue
				}
				if n.Image {
					text.WriteByte('!')
				}
				text.WriteByte('[')
				walk(n.Text)
				text.WriteString("](" + n.Target + ")")
			default:
				n.write(&text)
			}
		}
	}
	walk(ns)
	out = append(out, Piece{Text: text.String()})
	return out, ok
}

func hasSelect(ns []Node) bool {
	found := false
	walkNodes(ns, nil, func(n Node, _ Path) bool {
		if _, ok := n.(*Select); ok {
			found = true
		}
		return !found
	})
	return found
}

// Blocks reports whether parts hold a block.
func Blocks(parts []Piece) bool {
	for _, p := range parts {
		if p.Block != nil {
			return true
		}
	}
	return false
}

// JoinPieces writes parts as one value: Split's inverse. A form whose parts join to
// nothing is left out, so that a form nobody wrote is reported missing rather than stored
// empty; a form with no Prefix is written " selector {".
func JoinPieces(parts []Piece) string {
	var b strings.Builder
	joinParts(&b, parts)
	return b.String()
}

func joinParts(b *strings.Builder, parts []Piece) {
	for _, p := range parts {
		if p.Block == nil {
			b.WriteString(p.Text)
			continue
		}
		f := p.Block
		head := f.Head
		if head == "" {
			head = "{" + f.Arg + ", " + f.Type + ","
		}
		b.WriteString(head)
		for _, form := range f.Forms {
			text := JoinPieces(form.Pieces)
			if text == "" {
				continue
			}
			pre := form.Prefix
			if pre == "" {
				pre = " " + form.Selector + " {"
			}
			b.WriteString(pre + text + "}")
		}
		tail := f.Tail
		if tail == "" {
			tail = "}"
		}
		b.WriteString(tail)
	}
}
