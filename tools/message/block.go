package message

import "strings"

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
// dir attribute takes it: by its script subtag when it has one, else by its language.
func Direction(lang string) string {
	parts := strings.Split(strings.ToLower(strings.ReplaceAll(lang, "_", "-")), "-")
	for _, p := range parts[1:] {
		if len(p) == 4 {
			if rtlScripts[p] {
				return "rtl"
			}
			return "ltr"
		}
	}
	if rtlLanguages[parts[0]] {
		return "rtl"
	}
	return "ltr"
}

// rtlScripts are the ISO 15924 scripts written right to left that languages are written in.
var rtlScripts = map[string]bool{"arab": true, "hebr": true, "thaa": true, "syrc": true, "nkoo": true, "adlm": true, "rohg": true, "mand": true, "samr": true}

// rtlLanguages are languages whose default script is written right to left.
var rtlLanguages = map[string]bool{"ar": true, "he": true, "iw": true, "fa": true, "ur": true, "ps": true, "sd": true, "ug": true,
	"yi": true, "ji": true, "dv": true, "ckb": true, "syr": true, "ks": true, "arc": true, "prs": true, "ms-arab": true, "nqo": true, "mzn": true, "glk": true, "lrc": true, "bal": true, "azb": true}
