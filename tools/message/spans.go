package message

// Part says which piece of a node a Span is.
type Part uint8

// Parts. A node with translatable content between its pieces (a Select's
// forms, an element's children, a link's text, a translatable attribute's
// value) is cut into Open, Inner... and Close spans around that content.
const (
	Whole Part = iota + 1 // an Arg, Entity, Quoted, Pound, or a tag atom
	Open                  // "<a href=...>", "{n, plural, one {", "[", `<img alt="`
	Inner                 // "} other {", `">` between an attribute value and the children
	Close                 // "</a>", "}}", "](target)", `">` ending an atom
)

var partNames = [...]string{"", "whole", "open", "inner", "close"}

func (p Part) String() string {
	if int(p) < len(partNames) {
		return partNames[p]
	}
	return "unknown"
}

// Span is a run of syntax in the printed message: bytes Start to End of
// m.String() belong to Node and are not text to translate. The bytes no
// span covers are the text.
type Span struct {
	Start, End int
	Node       Node
	Part       Part
}

// Spans returns every piece of syntax of m in order, without overlap and
// with none empty: what the editor highlights and what masking replaces
// by tokens.
func Spans(m *Message) []Span {
	w := spanWriter{}
	w.nodes(m.Nodes)
	return w.out
}

type spanWriter struct {
	pos int
	out []Span
}

// pieces adds the pieces of node n that surround its content; content[i]
// is called after piece i.
func (w *spanWriter) pieces(n Node, pieces []string, content func(i int)) {
	for i, p := range pieces {
		part := Inner
		switch {
		case len(pieces) == 1:
			part = Whole
		case i == 0:
			part = Open
		case i == len(pieces)-1:
			part = Close
		}
		if p != "" {
			w.out = append(w.out, Span{Start: w.pos, End: w.pos + len(p), Node: n, Part: part})
			w.pos += len(p)
		}
		if i < len(pieces)-1 {
			content(i)
		}
	}
}

func (w *spanWriter) nodes(ns []Node) {
	for _, n := range ns {
		switch n := n.(type) {
		case *Text:
			w.pos += len(n.Value)
		case *Select:
			if len(n.Forms) == 0 {
				w.pieces(n, []string{n.Head + n.Tail}, nil)
				continue
			}
			ps := []string{n.Head + n.Forms[0].Prefix}
			for i, f := range n.Forms {
				if i+1 < len(n.Forms) {
					ps = append(ps, f.Close+n.Forms[i+1].Prefix)
				} else {
					ps = append(ps, f.Close+n.Tail)
				}
			}
			w.pieces(n, ps, func(i int) { w.nodes(n.Forms[i].Message.Nodes) })
		case *Tag:
			var ps []string
			var contents [][]Node
			cur := n.Start
			for _, a := range n.Attrs {
				if a.Text == nil {
					cur += a.Space + a.Name + a.Eq + a.Quote + a.Value + a.Quote
					continue
				}
				ps = append(ps, cur+a.Space+a.Name+a.Eq+a.Quote)
				contents = append(contents, a.Text.Nodes)
				cur = a.Quote
			}
			cur += n.End
			if n.Kind == Element {
				ps = append(ps, cur)
				contents = append(contents, n.Children)
				cur = n.Close
			} else {
				cur += n.Close // an Unmatched tag is all Close
			}
			ps = append(ps, cur)
			w.pieces(n, ps, func(i int) { w.nodes(contents[i]) })
		case *Link:
			open := "["
			if n.Image {
				open = "!["
			}
			w.pieces(n, []string{open, "](" + n.Target + ")"}, func(int) { w.nodes(n.Text) })
		default: // Arg, Entity, Quoted, Pound
			w.pieces(n, []string{n.String()}, nil)
		}
	}
}
