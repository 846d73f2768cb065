package message

import (
	"slices"
	"strings"
)

// voidElements never have a closing tag in HTML.
var voidElements = setOf("area base br col embed hr img input link meta param source track wbr")

// booleanAttrs may be written without a value. A tag with another bare
// word in it ("x<y and y>z") is text, not a tag.
var booleanAttrs = setOf(`allowfullscreen async autofocus autoplay checked controls default defer disabled download
formnovalidate hidden inert ismap itemscope loop multiple muted nomodule novalidate open playsinline readonly required
reversed selected nowrap`)

// translatableAttrs hold text for people; every other attribute is opaque.
var translatableAttrs = setOf("alt title placeholder aria-label")

// tagAt reads a tag, closing tag or comment at s[i] == '<'. Opening tags
// come back as Unclosed and closing tags as Unmatched; buildTags pairs
// them into elements. "a < b", "<3" and "x<y and y>z" are text.
func (p *parser) tagAt(s string, i int, c ctx) *Tag {
	j := i + 1
	if strings.HasPrefix(s[j:], "!--") {
		end := strings.Index(s[j+3:min(len(s), j+3+maxTag)], "-->")
		if end < 0 || !p.balanced(s[j+3:j+3+end]) {
			return nil
		}
		return &Tag{Kind: Comment, Name: "!--", Start: s[i : j+3+end+3]}
	}
	closing := j < len(s) && s[j] == '/'
	if closing {
		j++
	}
	name, k := p.tagName(s, j)
	if name == "" {
		return nil
	}
	if closing {
		e := space(s, k)
		if e < len(s) && s[e] == '>' {
			return &Tag{Kind: Unmatched, Name: name, Close: s[i : e+1]}
		}
		return nil
	}
	if k < len(s) && !(s[k] == '>' || s[k] == '/' || isASCIISpace(s[k])) {
		return nil
	}
	t := &Tag{Name: name, Start: s[i:k]}
	var valueAt []int // where each translatable value starts
	for {
		w := space(s, k)
		if w >= len(s) || w-i > maxTag {
			return nil
		}
		if s[w] == '>' || s[w] == '/' && w+1 < len(s) && s[w+1] == '>' {
			t.End = s[k : w+1]
			t.Kind = Unclosed
			if s[w] == '/' {
				t.End = s[k : w+2]
				t.Kind = SelfClosing
			} else if p.has(HTML) && voidElements[strings.ToLower(name)] {
				t.Kind = Void
			}
			break
		}
		if w == k {
			return nil // attributes are separated by whitespace
		}
		n := w
		for n < len(s) && n-w < maxName && !isASCIISpace(s[n]) && strings.IndexByte("\"'<>/={}`", s[n]) < 0 {
			n++
		}
		if n == w {
			return nil
		}
		a := &Attr{Space: s[k:w], Name: s[w:n]}
		e := space(s, n)
		if e < len(s) && s[e] == '=' {
			v := space(s, e+1)
			if v >= len(s) {
				return nil
			}
			a.Eq = s[n:v]
			if q := s[v]; q == '"' || q == '\'' {
				end := strings.IndexByte(s[v+1:min(len(s), v+1+maxTag)], q)
				if end < 0 || !p.balanced(s[v+1:v+1+end]) {
					return nil
				}
				a.Quote, a.Value = s[v:v+1], s[v+1:v+1+end]
				k = v + 1 + end + 1
				v++
			} else {
				u := v
				for u < len(s) && !isASCIISpace(s[u]) && strings.IndexByte("\"'<>=`{}", s[u]) < 0 {
					u++
				}
				if u == v {
					return nil
				}
				a.Value = s[v:u]
				k = u
			}
			if translatableAttrs[strings.ToLower(a.Name)] {
				valueAt = append(valueAt, v)
			} else {
				valueAt = append(valueAt, -1)
			}
		} else {
			if !bareAttr(a.Name) {
				return nil
			}
			valueAt = append(valueAt, -1)
			k = n
		}
		t.Attrs = append(t.Attrs, a)
	}
	// Accepted: parse the translatable values as text of this form.
	for x, a := range t.Attrs {
		if at := valueAt[x]; at >= 0 {
			nodes, _ := p.seq(at, at+len(a.Value), ctx{plural: c.plural, noTags: true})
			a.Text = &Message{Nodes: nodes, Syntax: p.syn}
		}
	}
	return t
}

// tagName reads a tag name at j: an ASCII letter then letters, digits and
// - : _ . (x:bold, my-icon), or, for react-i18next, an index (0, 12).
func (p *parser) tagName(s string, j int) (string, int) {
	k := j
	if p.has(React) && k < len(s) && s[k] >= '0' && s[k] <= '9' {
		for k < len(s) && k-j < maxDigits && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		return s[j:k], k
	}
	if k >= len(s) || !isASCIILetter(s[k]) {
		return "", j
	}
	for k < len(s) && k-j < maxName && (isWordByte(s[k]) || s[k] == '-' || s[k] == ':' || s[k] == '.') {
		k++
	}
	return s[j:k], k
}

// balanced reports whether s keeps ICU braces balanced, so that a tag or
// link never swallows the brace that ends a plural form.
func (p *parser) balanced(s string) bool {
	if !p.has(ICU) {
		return true
	}
	d := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			d++
		case '}':
			if d--; d < 0 {
				return false
			}
		}
	}
	return d == 0
}

// bareAttr reports whether an attribute may stand without a value:
// boolean HTML attributes, data-*, aria-* and namespaced ones.
func bareAttr(name string) bool {
	l := strings.ToLower(name)
	return booleanAttrs[l] || strings.HasPrefix(l, "data-") || strings.HasPrefix(l, "aria-") || strings.Contains(l, ":")
}

// isIndex reports whether a tag name is a react-i18next index.
func isIndex(name string) bool { return name != "" && argIndex(name) >= 0 }

// buildTags pairs the opening and closing tags of one sequence into
// elements. A closing tag closes the nearest open tag of its name; tags
// left open inside it, and opening tags never closed, stay atoms
// (Unclosed), as do closing tags that close nothing (Unmatched). So a lone
// <p> or <Enter> never hides the structure of the rest.
func buildTags(nodes []Node) []Node {
	type open struct {
		t  *Tag
		at int
	}
	var out []Node
	var stack []open
	counts := map[string]int{}
	for _, n := range nodes {
		t, ok := n.(*Tag)
		if !ok {
			out = append(out, n)
			continue
		}
		switch t.Kind {
		case Unclosed:
			if len(stack) < maxDepth {
				stack = append(stack, open{t, len(out)})
				counts[t.Key()]++
			}
			out = append(out, t)
		case Unmatched:
			key := t.Key()
			if counts[key] == 0 {
				out = append(out, t)
				continue
			}
			k := len(stack) - 1
			for stack[k].t.Key() != key {
				k--
			}
			el := stack[k].t
			el.Kind, el.Close = Element, t.Close
			el.Children = slices.Clone(out[stack[k].at+1:])
			out = out[:stack[k].at+1]
			for _, o := range stack[k:] {
				counts[o.t.Key()]--
			}
			stack = stack[:k]
		default:
			out = append(out, t)
		}
	}
	return out
}

// linkAt reads a markdown link [text](target) or image ![alt](target) at
// i. The text may hold brackets and the target parentheses, balanced.
func (p *parser) linkAt(i, end int, c ctx) (*Link, int) {
	s := p.s[:end]
	j := i
	image := s[i] == '!'
	if image {
		if i+1 >= len(s) || s[i+1] != '[' {
			return nil, 0
		}
		j++
	}
	if !(p.rbFrom <= j && j < p.rb) {
		p.rbFrom, p.rb = j, len(p.s)+1
		if k := strings.IndexByte(p.s[j+1:], ']'); k >= 0 {
			p.rb = j + 1 + k
		}
	}
	if p.rb >= len(s) || p.rb-j > maxLink+1 {
		return nil, 0
	}
	textEnd := matching(s, j+1, '[', ']')
	if textEnd < 0 || textEnd+1 >= len(s) || s[textEnd+1] != '(' {
		return nil, 0
	}
	targetEnd := matching(s, textEnd+2, '(', ')')
	if targetEnd < 0 || !p.balanced(s[j+1:textEnd]) || !p.balanced(s[textEnd+2:targetEnd]) {
		return nil, 0
	}
	p.depth++
	nodes, _ := p.seq(j+1, textEnd, ctx{plural: c.plural})
	p.depth--
	return &Link{Image: image, Text: nodes, Target: s[textEnd+2 : targetEnd]}, targetEnd + 1 - i
}

// matching returns the index of the closer that balances an opener just
// before j, on one line and within maxLink bytes, or -1.
func matching(s string, j int, opener, closer byte) int {
	d := 0
	for k := j; k < len(s) && k-j <= maxLink; k++ {
		switch s[k] {
		case '\n':
			return -1
		case opener:
			d++
		case closer:
			if d == 0 {
				return k
			}
			d--
		}
	}
	return -1
}
