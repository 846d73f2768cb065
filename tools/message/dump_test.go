package message

import (
	"fmt"
	"strings"
)

// dump writes a compact picture of a tree for table tests.
func dump(ns []Node) string {
	var parts []string
	for _, n := range ns {
		parts = append(parts, dumpNode(n))
	}
	return strings.Join(parts, " ")
}

func dumpNode(n Node) string {
	switch n := n.(type) {
	case *Text:
		return fmt.Sprintf("%q", n.Value)
	case *Entity:
		return fmt.Sprintf("E(%s=%q)", n.Raw, n.Char)
	case *Quoted:
		return fmt.Sprintf("Q(%s=%s)", n.Raw, n.Value)
	case *Pound:
		return "#"
	case *Arg:
		s := n.Kind.String() + ":" + n.Name
		if n.Index >= 0 {
			s += fmt.Sprintf("#%d", n.Index)
		}
		if n.Positional {
			s += "@"
		}
		if n.Type != "" {
			s += "," + n.Type
		}
		if n.Style != "" {
			s += "," + n.Style
		}
		if n.Unescaped {
			s += ",-"
		}
		return "A(" + s + ")"
	case *Select:
		s := "S(" + n.Arg + " " + n.Type
		if n.Offset != 0 {
			s += fmt.Sprintf(" offset:%d", n.Offset)
		}
		for _, f := range n.Forms {
			s += " [" + f.Selector + ": " + dump(f.Message.Nodes) + "]"
		}
		return s + ")"
	case *Tag:
		var attrs string
		for _, a := range n.Attrs {
			if a.Text != nil {
				attrs += " " + a.Name + "={" + dump(a.Text.Nodes) + "}"
			} else {
				attrs += " " + a.Name + "=" + a.Value
			}
		}
		switch n.Kind {
		case Element:
			return "<" + n.Name + attrs + ">[" + dump(n.Children) + "]"
		case Void, SelfClosing:
			return "<" + n.Name + attrs + "/>"
		case Unclosed:
			return "U<" + n.Name + attrs + ">"
		case Unmatched:
			return "U</" + n.Name + ">"
		case Comment:
			return "C(" + n.Start + ")"
		}
	case *Link:
		s := "L["
		if n.Image {
			s = "I["
		}
		return s + dump(n.Text) + "](" + n.Target + ")"
	}
	return "?"
}
