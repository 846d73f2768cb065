package message

import "strings"

// Text typed into one field of an editor (the text around a message's blocks, or one
// form's text) is text: FieldText writes it into the message so that no keystroke changes
// the message's structure, and IsolateSyntax prepares a field's text for a right-to-left
// box.

// The isolates IsolateSyntax puts around syntax: left-to-right isolate and pop.
const (
	lri = "\u2066"
	pdi = "\u2069"
)

// BlockSyntax is the syntax the forms of a block are read in: i18next without ICU reads a
// whole plural or select block (a plural family) with ICU's rules, so text typed into one
// of its forms is quoted as ICU requires.
func BlockSyntax(syn Syntax) Syntax {
	if syn.Has(I18next) {
		return syn | ICU
	}
	return syn
}

// FormFieldText is FieldText for a field inside a block (a form's text, or text around a
// block nested in a form) of a value read in syn. The forms of a block read in i18next
// without ICU are a plural family's, which i18next reads as plain text: everything typed
// but i18next's own syntax ({{x}}, $t(), tags) is text, a '#' included, written with ICU's
// quoting (BlockSyntax) so that ICUToNative gives the typed text back. Elsewhere it is
// FieldText in BlockSyntax(syn).
func FormFieldText(text string, syn Syntax, plural bool) string {
	if syn&ICU != 0 || syn&I18next == 0 {
		return FieldText(text, BlockSyntax(syn), plural, false)
	}
	text = stripIsolates(text, syn, plural)
	atoms, clean := fieldAtoms(text, syn, plural)
	if clean && !strings.ContainsAny(text, "{}#'") {
		return text
	}
	return strings.TrimSuffix(writeAtoms(append(atoms, atom{raw: followed}), plural), followed)
}

// FormFieldShow is the text a field inside a block shows for text, as the value has it
// (FormFieldText's inverse): a plural family's form as i18next reads it (quoting undone,
// '#' as {{count}}), any other as written.
func FormFieldShow(text string, syn Syntax, plural bool) string {
	if syn&ICU != 0 || syn&I18next == 0 || !strings.ContainsAny(text, "#'") {
		return text
	}
	atoms, clean := fieldAtoms(text, BlockSyntax(syn), plural)
	if !clean {
		return text
	}
	var b strings.Builder
	for _, a := range atoms {
		switch {
		case a.lit:
			b.WriteString(a.text)
		case plural && a.raw == "#":
			b.WriteString("{{count}}")
		default:
			b.WriteString(a.raw)
		}
	}
	return b.String()
}

// FieldText returns text typed into one field as ICU writes it in that place of a
// message read in syn: plural is true for a form of a plural or selectordinal block, where
// '#' is the number; last is true for the text at the very end of the message, where no
// syntax follows. The field's text is read as form content: its arguments, tags, '#'
// and closed quotes stay syntax; a '{' or '}' that is no argument's, a block typed into
// the field and an apostrophe that would open a quote never closed are text and are
// quoted ('{', '}', ”). Text that reads cleanly is returned as it is, so a value loaded
// into fields and saved unedited is byte-identical; only a trailing apostrophe a brace
// follows is doubled. The isolates IsolateSyntax put around syntax are removed first.
// Outside ICU nothing is quoted.
func FieldText(text string, syn Syntax, plural, last bool) string {
	text = stripIsolates(text, syn, plural)
	if syn&ICU == 0 {
		return text
	}
	atoms, clean := fieldAtoms(text, syn, plural)
	if !last && len(atoms) > 0 {
		// The field's text is followed by '}' or a block's '{': an apostrophe at its end
		// would open a quote.
		if a := atoms[len(atoms)-1]; a.lit && a.raw == a.text && strings.HasSuffix(a.raw, "'") {
			clean = false
			atoms = append(atoms, atom{raw: followed})
		}
	}
	if clean {
		return text
	}
	return strings.TrimSuffix(writeAtoms(atoms, plural), followed)
}

// IsolateSyntax wraps every piece of syntax in a field's text (argument, '#', tag,
// entity) in a left-to-right isolate, so that a right-to-left box shows it whole and in
// its place; FieldText removes them again. Text that does not read cleanly is returned
// as it is.
func IsolateSyntax(text string, syn Syntax, plural bool) string {
	if syn == 0 {
		return text
	}
	atoms, clean := fieldAtoms(text, syn, plural)
	if !clean {
		return text
	}
	var b strings.Builder
	for _, a := range atoms {
		if a.lit {
			b.WriteString(a.text)
		} else {
			b.WriteString(lri + a.text + pdi)
		}
	}
	return b.String()
}

// stripIsolates removes the isolates directly around a piece of syntax.
func stripIsolates(text string, syn Syntax, plural bool) string {
	if !strings.Contains(text, lri) || syn == 0 {
		return text
	}
	atoms, _ := fieldAtoms(text, syn, plural)
	for i, a := range atoms {
		if a.lit || i == 0 || i+1 == len(atoms) || !atoms[i-1].lit || !atoms[i+1].lit {
			continue
		}
		before, after := &atoms[i-1], &atoms[i+1]
		if strings.HasSuffix(before.raw, lri) && strings.HasPrefix(after.raw, pdi) {
			before.raw = strings.TrimSuffix(before.raw, lri)
			after.raw = strings.TrimPrefix(after.raw, pdi)
		}
	}
	var b strings.Builder
	for _, a := range atoms {
		b.WriteString(a.raw)
	}
	return b.String()
}

// followed stands, while writing, for the syntax after a field that is not its message's
// last text.
const followed = "{\x00"

// atom is a piece of a field: literal text (text is what it reads as, raw as written) or
// syntax kept as written.
type atom struct {
	lit       bool
	text, raw string
}

// fieldAtoms reads a field as form content; clean is false when something in it is not
// syntax the field may hold (a stray brace, a block, an unclosed quote).
func fieldAtoms(s string, syn Syntax, plural bool) ([]atom, bool) {
	c := ctx{inForm: true, plural: plural}
	clean := true
	var out []atom
	for {
		p := &parser{s: s, syn: syn}
		nodes, stop := p.seq(0, len(s), c)
		cut := stop
		for _, pr := range p.problems {
			if pr.Code == UnclosedQuote && pr.Offset < cut {
				cut = pr.Offset
			}
		}
		if cut < len(s) {
			// A '}' that would end the form, or an apostrophe opening a quote never closed:
			// text, and the field goes on after it.
			clean = false
			q := &parser{s: s[:cut], syn: syn}
			nodes, _ = q.seq(0, cut, c)
			out = appendAtoms(out, nodes, &clean)
			out = append(out, atom{lit: true, text: s[cut : cut+1], raw: s[cut : cut+1]})
			s = s[cut+1:]
			continue
		}
		if len(p.problems) > 0 {
			clean = false
		}
		return appendAtoms(out, nodes, &clean), clean
	}
}

func appendAtoms(out []atom, ns []Node, clean *bool) []atom {
	syntax := func(raw string) { out = append(out, atom{text: raw, raw: raw}) }
	for _, n := range ns {
		switch n := n.(type) {
		case *Text:
			out = append(out, atom{lit: true, text: n.Value, raw: n.Value})
		case *Quoted:
			out = append(out, atom{lit: true, text: n.Value, raw: n.Raw})
		case *Select:
			*clean = false // a block typed into a field is text
			out = append(out, atom{lit: true, text: n.String(), raw: n.String()})
		case *Tag:
			if n.Kind != Element {
				syntax(n.String())
				continue
			}
			shell := *n
			shell.Children, shell.Close = nil, ""
			syntax(shell.String())
			out = appendAtoms(out, n.Children, clean)
			syntax(n.Close)
		case *Link:
			open := "["
			if n.Image {
				open = "!["
			}
			syntax(open)
			out = appendAtoms(out, n.Text, clean)
			syntax("](" + n.Target + ")")
		default:
			syntax(n.String())
		}
	}
	return out
}

// writeAtoms writes atoms as ICU form content: literal text with every run of '{', '}'
// (and '#' in a plural) quoted, and an apostrophe doubled where a single one would open
// a quote or close one.
func writeAtoms(atoms []atom, plural bool) string {
	special := func(c byte) bool { return c == '{' || c == '}' || (plural && c == '#') }
	opens := func(c byte) bool { return special(c) || c == '|' || c == '\'' }
	// Literal text joined into runs, syntax as written.
	type seg struct {
		lit bool
		s   string
	}
	var segs []seg
	for _, a := range atoms {
		if a.lit && len(segs) > 0 && segs[len(segs)-1].lit {
			segs[len(segs)-1].s += a.text
			continue
		}
		if a.lit {
			segs = append(segs, seg{true, a.text})
		} else if a.raw != "" {
			segs = append(segs, seg{false, a.raw})
		}
	}
	var b strings.Builder
	closed := false // b ends with the apostrophe that closes a quote
	for i, sg := range segs {
		if !sg.lit {
			b.WriteString(sg.s)
			closed = false
			continue
		}
		s := sg.s
		for j := 0; j < len(s); {
			c := s[j]
			switch {
			case special(c):
				k := j
				for k < len(s) && special(s[k]) {
					k++
				}
				if closed { // go on in the quote just closed
					str := b.String()
					b.Reset()
					b.WriteString(str[:len(str)-1])
				} else {
					b.WriteByte('\'')
				}
				b.WriteString(s[j:k])
				b.WriteByte('\'')
				closed, j = true, k
			case c == '\'':
				var next byte
				if j+1 < len(s) {
					next = s[j+1]
				} else if i+1 < len(segs) && segs[i+1].s != "" {
					next = segs[i+1].s[0]
				}
				if closed || opens(next) {
					b.WriteString("''")
				} else {
					b.WriteByte('\'')
				}
				j++
			default:
				b.WriteByte(c)
				closed = false
				j++
			}
		}
	}
	return b.String()
}

// ParseForm reads text as the content of one form of an ICU plural block (where '#' is the
// number), in the syntax plural and select blocks of a file are read in (FileSyntax). It
// is false when text does not read as one form: an unbalanced brace closes the block early.
// Codecs that hold each form apart (PO msgstr[n], stringsdict, Rails, Android items) read
// a form's text through it instead of wrapping it in a plural of their own.
func ParseForm(text string) (*Message, bool) {
	s, ok := oneForm(text)
	if !ok {
		return nil, false
	}
	return s.Forms[0].Message, true
}

// QuoteLiteral writes text as an ICU literal: read back (by Parse, or by ParseForm when
// plural is true) it is exactly text, with no argument, tag or '#' in it. Apostrophes are
// doubled where ICU would read them as opening a quote, and every run of ICU syntax
// characters ({, }, |, and '#' in a form) is quoted, so text without them comes back as it
// is.
func QuoteLiteral(text string, plural bool) string {
	special := "{}|"
	if plural {
		special += "#"
	}
	if !strings.ContainsAny(text, special+"'") {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && strings.IndexByte(special, text[j]) >= 0 {
			j++
		}
		if j > i {
			b.WriteString("'" + text[i:j] + "'")
			i = j
			continue
		}
		if c := text[i]; c == '\'' {
			// An apostrophe is literal unless a syntax character or another apostrophe
			// follows it (or it ends the text, where a closing brace may follow); doubling
			// it is always read as one.
			next := byte(0)
			if i+1 < len(text) {
				next = text[i+1]
			}
			if next == 0 || next == '\'' || strings.IndexByte(special, next) >= 0 || next == '#' {
				b.WriteString("''")
			} else {
				b.WriteByte(c)
			}
			i++
			continue
		}
		b.WriteByte(text[i])
		i++
	}
	return b.String()
}
