package message

import "strings"

// VisibleLength is how many characters value shows once rendered, as the overflow estimate
// of review in context compares them: text, entities and quoted text count (a wide CJK
// character as two, a run of spaces as one, none at either end); placeholders, markup and
// '#' count nothing, since what they render is not known here; a plural or select block
// counts its longest form.
func VisibleLength(value string, syn Syntax) int {
	var b strings.Builder
	visible(&b, Parse(value, syn).Nodes)
	return width(strings.TrimSpace(b.String()))
}

func visible(b *strings.Builder, ns []Node) {
	for _, n := range ns {
		switch n := n.(type) {
		case *Text:
			b.WriteString(n.Value)
		case *Entity:
			b.WriteString(n.Char)
		case *Quoted:
			b.WriteString(n.Value)
		case *Select:
			longest, best := -1, ""
			for _, f := range n.Forms {
				var fb strings.Builder
				visible(&fb, f.Message.Nodes)
				if w := width(fb.String()); w > longest {
					longest, best = w, fb.String()
				}
			}
			b.WriteString(best)
		case *Tag:
			visible(b, n.Children)
		case *Link:
			visible(b, n.Text)
		}
	}
}
