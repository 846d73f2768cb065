package ai

import (
	"errors"
	"slices"
	"strings"
)

// A small ICU MessageFormat parser. No well-kept Go library parses ICU
// messages into an AST (golang.org/x/text/message formats but does not
// parse user strings), and we need only what Verify and ExpandPlurals use:
// arguments with their types, and the branches of plural/select blocks,
// each piece keeping its exact source bytes.

type icuNode struct {
	raw      string // exact source bytes of the node
	text     bool
	name     string
	typ      string // "", number, date, plural, select, selectordinal, ...
	head     string // blocks: "{n, plural, offset:1" up to the first branch
	branches []icuBranch
	tail     string // blocks: whitespace and the closing '}'
}

type icuBranch struct {
	prefix string // whitespace, selector, whitespace and '{'
	sel    string
	nodes  []icuNode
}

var errICU = errors.New("not an ICU message")

type icuParser struct {
	s     string
	i     int
	depth int
}

// parseICU parses s as an ICU message.
func parseICU(s string) ([]icuNode, error) {
	p := &icuParser{s: s}
	nodes, err := p.message(false)
	if err != nil {
		return nil, err
	}
	if p.i != len(s) {
		return nil, errICU // an unmatched '}'
	}
	return nodes, nil
}

// message parses until the end, or until an unmatched '}' when inBranch.
func (p *icuParser) message(inBranch bool) ([]icuNode, error) {
	var nodes []icuNode
	start := p.i
	flush := func() {
		if p.i > start {
			nodes = append(nodes, icuNode{raw: p.s[start:p.i], text: true})
		}
	}
	for p.i < len(p.s) {
		switch c := p.s[p.i]; c {
		case '\'':
			// '' is an apostrophe; '{...}' quotes syntax characters.
			if p.i+1 < len(p.s) && p.s[p.i+1] == '\'' {
				p.i += 2
				continue
			}
			if p.i+1 < len(p.s) && strings.IndexByte("{}#|", p.s[p.i+1]) >= 0 {
				end := strings.IndexByte(p.s[p.i+1:], '\'')
				if end < 0 {
					p.i = len(p.s)
				} else {
					p.i += 1 + end + 1
				}
				continue
			}
			p.i++
		case '{':
			flush()
			n, err := p.argument()
			if err != nil {
				return nil, err
			}
			nodes = append(nodes, n)
			start = p.i
		case '}':
			if !inBranch {
				return nil, errICU
			}
			flush()
			return nodes, nil
		default:
			p.i++
		}
	}
	if inBranch {
		return nil, errICU // unclosed branch
	}
	flush()
	return nodes, nil
}

func (p *icuParser) argument() (icuNode, error) {
	s := p.s
	start := p.i
	j := space(s, p.i+1)
	name, j := ident(s, j)
	if name == "" {
		return icuNode{}, errICU
	}
	j = space(s, j)
	n := icuNode{name: name}
	if j < len(s) && s[j] == '}' {
		p.i = j + 1
		n.raw = s[start:p.i]
		return n, nil
	}
	if j >= len(s) || s[j] != ',' {
		return icuNode{}, errICU
	}
	j = space(s, j+1)
	n.typ, j = ident(s, j)
	if n.typ == "" {
		return icuNode{}, errICU
	}
	j = space(s, j)
	if j < len(s) && s[j] == '}' {
		p.i = j + 1
		n.raw = s[start:p.i]
		return n, nil
	}
	if j >= len(s) || s[j] != ',' {
		return icuNode{}, errICU
	}
	switch n.typ {
	case "plural", "select", "selectordinal":
	default:
		end := skipBalanced(s, j+1)
		if end < 0 {
			return icuNode{}, errICU
		}
		p.i = end
		n.raw = s[start:end]
		return n, nil
	}
	if p.depth >= maxFrames {
		return icuNode{}, errICU
	}
	p.depth++
	defer func() { p.depth-- }()
	j++
	if k := space(s, j); strings.HasPrefix(s[k:], "offset:") {
		k = space(s, k+len("offset:"))
		d := digitsAt(s, k)
		if d <= k {
			return icuNode{}, errICU
		}
		j = d
	}
	n.head = s[start:j]
	seen := map[string]bool{}
	for {
		k := space(s, j)
		if k < len(s) && s[k] == '}' {
			n.tail = s[j : k+1]
			p.i = k + 1
			break
		}
		sel, end := selectorBrace(s, k)
		if end < 0 || seen[sel] {
			return icuNode{}, errICU
		}
		seen[sel] = true
		p.i = end
		nodes, err := p.message(true)
		if err != nil {
			return icuNode{}, err
		}
		n.branches = append(n.branches, icuBranch{prefix: s[j:end], sel: sel, nodes: nodes})
		j = p.i + 1 // after the branch's '}'
	}
	if !seen["other"] {
		return icuNode{}, errICU
	}
	n.raw = s[start:p.i]
	return n, nil
}

// icuArgs returns the sorted, de-duplicated "name:type" of every argument.
func icuArgs(nodes []icuNode) []string {
	var out []string
	var walk func([]icuNode)
	walk = func(ns []icuNode) {
		for _, n := range ns {
			if n.text {
				continue
			}
			out = append(out, n.name+":"+n.typ)
			for _, b := range n.branches {
				walk(b.nodes)
			}
		}
	}
	walk(nodes)
	slices.Sort(out)
	return slices.Compact(out)
}

// isICU reports whether s parses as ICU and has at least one argument.
func isICU(s string) ([]string, bool) {
	nodes, err := parseICU(s)
	if err != nil {
		return nil, false
	}
	args := icuArgs(nodes)
	return args, len(args) > 0
}

// pluralCategories holds the CLDR cardinal plural categories of languages
// whose rules differ from the source's in ways a translator must see.
// Languages not listed keep the source's branches.
var pluralCategories = buildPluralCategories()

func buildPluralCategories() map[string][]string {
	m := map[string][]string{}
	for cats, langs := range map[string]string{
		"other":                       "ja zh ko th vi id ms km lo my yue",
		"one other":                   "en de nl sv da nb nn no fi et el hu tr bg hi bn fa ur sw af sq az ka kk ky mn ne ta te ml kn mr gu eu gl is",
		"one many other":              "fr es it pt ca",
		"one few other":               "hr sr bs ro",
		"one few many other":          "pl ru uk be cs sk lt",
		"one two other":               "he",
		"zero one other":              "lv",
		"one two few other":           "sl",
		"zero one two few many other": "ar cy",
		"one two few many other":      "ga",
	} {
		for _, l := range strings.Fields(langs) {
			m[l] = strings.Fields(cats)
		}
	}
	return m
}

// PluralCategories returns the CLDR cardinal plural categories of a
// language code (its base language: pt-BR is pt), or nil when unknown.
func PluralCategories(lang string) []string {
	base, _, _ := strings.Cut(strings.ToLower(lang), "-")
	base, _, _ = strings.Cut(base, "_")
	return pluralCategories[base]
}

// ExpandPlurals rewrites every ICU plural block of text to the plural
// categories of lang: exact branches (=0) stay, a category the source lacks
// gets a copy of the source's "other" text (for the model to translate into
// that form), and categories the language does not use are dropped. A text
// that is not ICU, or a language we know no rules for, is returned as is.
func ExpandPlurals(text, lang string) string {
	cats := PluralCategories(lang)
	if cats == nil || !strings.Contains(text, "plural") {
		return text
	}
	nodes, err := parseICU(text)
	if err != nil {
		return text
	}
	var b strings.Builder
	renderExpanded(&b, nodes, cats)
	return b.String()
}

func renderExpanded(b *strings.Builder, nodes []icuNode, cats []string) {
	for _, n := range nodes {
		if n.text || n.branches == nil {
			b.WriteString(n.raw)
			continue
		}
		branches := n.branches
		if n.typ == "plural" {
			branches = expandBranches(branches, cats)
		}
		b.WriteString(n.head)
		for _, br := range branches {
			b.WriteString(br.prefix)
			renderExpanded(b, br.nodes, cats)
			b.WriteByte('}')
		}
		b.WriteString(n.tail)
	}
}

func expandBranches(src []icuBranch, cats []string) []icuBranch {
	bySel := map[string]icuBranch{}
	var out []icuBranch
	for _, br := range src {
		bySel[br.sel] = br
		if strings.HasPrefix(br.sel, "=") {
			out = append(out, br)
		}
	}
	other := bySel["other"]
	for _, c := range cats {
		if br, ok := bySel[c]; ok {
			out = append(out, br)
			continue
		}
		out = append(out, icuBranch{prefix: " " + c + " {", sel: c, nodes: other.nodes})
	}
	// Keep the source's layout when nothing changed.
	if len(out) == len(src) {
		same := true
		for i := range out {
			same = same && out[i].sel == src[i].sel
		}
		if same {
			return src
		}
	}
	return out
}
