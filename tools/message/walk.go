package message

import (
	"slices"
	"strconv"
	"strings"
)

// Step is one plural/select form on the way from the top of a message to
// a node: the block's argument and type, which of the blocks on that
// argument in the enclosing form it is (0 for the first), and the form's
// selector.
type Step struct {
	Arg      string
	Type     string
	Nth      int
	Selector string
}

// Path locates a form: nil is the top of the message.
type Path []Step

// String is a stable key for the path, e.g. "n:one/g:female"; a second
// block on the same argument in one form is written "n#1:one".
func (p Path) String() string {
	var b strings.Builder
	for i, s := range p {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(s.Arg)
		if s.Nth > 0 {
			b.WriteByte('#')
			b.WriteString(strconv.Itoa(s.Nth))
		}
		b.WriteByte(':')
		b.WriteString(s.Selector)
	}
	return b.String()
}

// Walk calls fn for every node of m in document order, with the path of
// the form it is in. The values of translatable attributes are walked
// after their tag, in the tag's form. When fn returns false, Walk does not
// descend into the node.
func Walk(m *Message, fn func(n Node, path Path) bool) {
	walkNodes(m.Nodes, nil, fn)
}

func walkNodes(ns []Node, path Path, fn func(Node, Path) bool) {
	var nth map[string]int
	for _, n := range ns {
		if !fn(n, path) {
			continue
		}
		switch n := n.(type) {
		case *Select:
			if nth == nil {
				nth = map[string]int{}
			}
			k := n.Arg + "\x00" + n.Type
			step := Step{Arg: n.Arg, Type: n.Type, Nth: nth[k]}
			nth[k]++
			for _, f := range n.Forms {
				step.Selector = f.Selector
				walkNodes(f.Message.Nodes, append(slices.Clip(path), step), fn)
			}
		case *Tag:
			for _, a := range n.Attrs {
				if a.Text != nil {
					walkNodes(a.Text.Nodes, path, fn)
				}
			}
			walkNodes(n.Children, path, fn)
		case *Link:
			walkNodes(n.Text, path, fn)
		}
	}
}

// FormContent is what one form holds directly, not counting the forms of
// blocks nested in it (which have their own FormContent).
type FormContent struct {
	Path Path
	// Select and Form are the block and form this is; nil at the top.
	Select *Select
	Form   *Form
	// Args in document order, including those inside tags, link texts
	// and translatable attribute values.
	Args []*Arg
	// Selects are the plural/select blocks directly in this form.
	Selects []*Select
	// Tags in document order (pre-order: an element before its children).
	Tags []*Tag
	// Links in document order.
	Links []*Link
	// Pounds counts the '#' of this form.
	Pounds int
	// Markup is the tag and link structure of the form as one string
	// (see MarkupShape), for comparing nesting.
	Markup string
}

// Forms returns the content of the top of m and of every plural/select
// form in it, in document order. The top comes first with a nil Path.
func Forms(m *Message) []*FormContent {
	var out []*FormContent
	var visit func(ns []Node, path Path, sel *Select, form *Form)
	visit = func(ns []Node, path Path, sel *Select, form *Form) {
		fc := &FormContent{Path: path, Select: sel, Form: form, Markup: MarkupShape(ns)}
		out = append(out, fc)
		type nested struct {
			s    *Select
			path Path
		}
		var inner []nested
		walkNodes(ns, path, func(n Node, p Path) bool {
			switch n := n.(type) {
			case *Arg:
				fc.Args = append(fc.Args, n)
			case *Pound:
				fc.Pounds++
			case *Tag:
				fc.Tags = append(fc.Tags, n)
			case *Link:
				fc.Links = append(fc.Links, n)
			case *Select:
				fc.Selects = append(fc.Selects, n)
				inner = append(inner, nested{n, p})
				return false
			}
			return true
		})
		nth := map[string]int{}
		for _, in := range inner {
			k := in.s.Arg + "\x00" + in.s.Type
			step := Step{Arg: in.s.Arg, Type: in.s.Type, Nth: nth[k]}
			nth[k]++
			for _, f := range in.s.Forms {
				step.Selector = f.Selector
				visit(f.Message.Nodes, append(slices.Clip(in.path), step), in.s, f)
			}
		}
	}
	visit(m.Nodes, nil, nil, nil)
	return out
}

// PrintfOrder returns the non-positional printf arguments of m (%s, %d,
// not %1$s, %(x)s or %%) in document order: the order a translation must
// keep, because they are consumed in it.
func PrintfOrder(m *Message) []*Arg {
	var out []*Arg
	Walk(m, func(n Node, _ Path) bool {
		if a, ok := n.(*Arg); ok && a.Kind == ArgPrintf && !a.Positional {
			out = append(out, a)
		}
		return true
	})
	return out
}

// MarkupShape returns the tags and links of ns (not those in nested
// plural/select forms) as a canonical string: names lower-cased, opaque
// attributes sorted with their values, translatable attributes by name
// only, text and arguments left out: `<a href="/x"><b></b></a>` is an <a>
// element holding a <b> element, `<b>` an unclosed <b>.
func MarkupShape(ns []Node) string {
	var b strings.Builder
	shape(&b, ns)
	return b.String()
}

func shape(b *strings.Builder, ns []Node) {
	for _, n := range ns {
		switch n := n.(type) {
		case *Tag:
			tagSig(b, n, func(*strings.Builder, *Message) {}, shape)
		case *Link:
			if n.Image {
				b.WriteByte('!')
			}
			b.WriteByte('[')
			shape(b, n.Text)
			b.WriteString("](")
			b.WriteString(n.Target)
			b.WriteByte(')')
		}
	}
}

// Signature returns a canonical spelling of m for comparison: arguments
// however spaced ({ name } is {name}), an entity as its character (&amp;
// is &), <br> as <br/>, attributes sorted. Two messages with the same
// signature mean the same.
func (m *Message) Signature() string {
	var b strings.Builder
	sigNodes(&b, m.Nodes)
	return b.String()
}

// Signature returns the canonical spelling of one node (see
// Message.Signature).
func Signature(n Node) string {
	var b strings.Builder
	n.sig(&b)
	return b.String()
}

func sigNodes(b *strings.Builder, ns []Node) {
	for _, n := range ns {
		n.sig(b)
	}
}

func (n *Text) sig(b *strings.Builder) { b.WriteString(n.Value) }
func (n *Entity) sig(b *strings.Builder) {
	if n.Char != "" {
		b.WriteString(n.Char)
	} else {
		b.WriteString(n.Raw)
	}
}
func (n *Pound) sig(b *strings.Builder) { b.WriteByte('#') }

func (n *Quoted) sig(b *strings.Builder) {
	switch {
	case n.Raw == "''":
		b.WriteByte('\'')
	case n.Raw == "{{" || n.Raw == "}}":
		b.WriteString(n.Raw)
	default:
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(n.Value, "'", "''"))
		b.WriteByte('\'')
	}
}

func (n *Arg) sig(b *strings.Builder) {
	switch n.Kind {
	case ArgICU:
		b.WriteString("{" + n.Name + "}")
	case ArgICUFormatted:
		b.WriteString("{" + n.Name + ", " + n.Type)
		if n.Style != "" {
			b.WriteString(", " + n.Style)
		}
		b.WriteByte('}')
	case ArgI18next:
		b.WriteString("{{")
		if n.Unescaped {
			b.WriteString("- ")
		}
		b.WriteString(n.Name)
		if n.Type != "" {
			b.WriteString(", " + n.Type)
		}
		b.WriteString("}}")
	case ArgNesting:
		b.WriteString("$t(" + n.Name)
		if n.Style != "" {
			b.WriteString(", " + compactJSON(n.Style))
		}
		b.WriteByte(')')
	case ArgBrace:
		b.WriteString("{" + n.Name + n.Type)
		if strings.HasPrefix(n.Style, ",") {
			b.WriteString(n.Style)
		} else if n.Style != "" {
			b.WriteString(":" + n.Style)
		}
		b.WriteByte('}')
	case ArgTemplate:
		b.WriteString("${" + n.Name + "}")
	default:
		b.WriteString(n.Raw)
	}
}

// compactJSON drops the whitespace outside quoted strings.
func compactJSON(s string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			b.WriteByte(c)
			if c == '\\' && i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
			b.WriteByte(c)
		case isASCIISpace(c):
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func (n *Select) sig(b *strings.Builder) {
	b.WriteString("{" + n.Arg + ", " + n.Type + ",")
	if n.Offset != 0 {
		b.WriteString(" offset:" + strconv.Itoa(n.Offset))
	}
	for _, f := range n.Forms {
		b.WriteString(" " + f.Selector + " {")
		sigNodes(b, f.Message.Nodes)
		b.WriteByte('}')
	}
	b.WriteByte('}')
}

func (n *Tag) sig(b *strings.Builder) {
	tagSig(b, n, func(b *strings.Builder, m *Message) { sigNodes(b, m.Nodes) }, func(b *strings.Builder, ns []Node) { sigNodes(b, ns) })
}

// tagSig writes the canonical form of a tag; attr and children say how to
// write translatable attribute values and the element's content.
func tagSig(b *strings.Builder, n *Tag, attr func(*strings.Builder, *Message), children func(*strings.Builder, []Node)) {
	key := n.Key()
	switch n.Kind {
	case Comment:
		b.WriteString(n.Start)
		return
	case Unmatched:
		b.WriteString("</" + key + ">")
		return
	}
	b.WriteString("<" + key)
	attrs := slices.Clone(n.Attrs)
	slices.SortStableFunc(attrs, func(x, y *Attr) int { return strings.Compare(strings.ToLower(x.Name), strings.ToLower(y.Name)) })
	for _, a := range attrs {
		b.WriteString(" " + strings.ToLower(a.Name))
		switch {
		case a.Text != nil:
			b.WriteString(`="`)
			attr(b, a.Text)
			b.WriteByte('"')
		case a.Eq != "":
			b.WriteString(`="` + a.Value + `"`)
		}
	}
	switch n.Kind {
	case Void, SelfClosing:
		b.WriteString("/>")
	case Unclosed:
		b.WriteByte('>')
	case Element:
		b.WriteByte('>')
		children(b, n.Children)
		b.WriteString("</" + key + ">")
	}
}

func (n *Link) sig(b *strings.Builder) {
	if n.Image {
		b.WriteByte('!')
	}
	b.WriteByte('[')
	sigNodes(b, n.Text)
	b.WriteString("](" + n.Target + ")")
}

// PlainText returns the text of m a person reads and translates: literal
// text with entities and quotes decoded, from every form, element, link
// and translatable attribute, with a space where an argument, tag or form
// boundary was.
func (m *Message) PlainText() string {
	var b strings.Builder
	plain(&b, m.Nodes)
	return b.String()
}

func plain(b *strings.Builder, ns []Node) {
	for _, n := range ns {
		switch n := n.(type) {
		case *Text:
			b.WriteString(n.Value)
		case *Entity:
			b.WriteString(n.Char)
		case *Quoted:
			b.WriteString(n.Value)
		case *Select:
			for _, f := range n.Forms {
				b.WriteByte(' ')
				plain(b, f.Message.Nodes)
			}
			b.WriteByte(' ')
		case *Tag:
			b.WriteByte(' ')
			for _, a := range n.Attrs {
				if a.Text != nil {
					plain(b, a.Text.Nodes)
					b.WriteByte(' ')
				}
			}
			plain(b, n.Children)
			b.WriteByte(' ')
		case *Link:
			b.WriteByte(' ')
			plain(b, n.Text)
			b.WriteByte(' ')
		default:
			b.WriteByte(' ')
		}
	}
}
