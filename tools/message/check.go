package message

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lokal-dev/lokal/tools/message/plural"
)

// Term is a glossary pair: Source in the source language is written Target
// in Locale, a language ("de", "pt-BR") or "all".
type Term struct{ Source, Target, Locale string }

// Rules is what a translation is checked against besides its source.
type Rules struct {
	// SourceLang and TargetLang are BCP 47 tags. Without TargetLang the
	// plural categories, '#' and the language are not checked.
	SourceLang, TargetLang string
	// Syntax is the project's syntaxes; 0 detects them from the source.
	Syntax Syntax
	// Glossary and DoNotTranslate are the project's entries; Check applies
	// those TermsFor returns for TargetLang.
	Glossary       []Term
	DoNotTranslate []string
	// MaxGrowth bounds the translation's prose length as a multiple of the
	// source's (plus a fixed allowance for short values); 0 is
	// DefaultMaxGrowth.
	MaxGrowth float64
	// SkipProse leaves out the prose checks (language, copied sentences,
	// chatter, length): for callers with prose checks of their own, such as
	// the checkup, which would otherwise pay for language identification
	// on every value.
	SkipProse bool
}

// DefaultMaxGrowth is the length bound when Rules.MaxGrowth is 0.
const DefaultMaxGrowth = 3.0

// Problem is one way a translation breaks its source's contract.
type Problem struct {
	Code string // one of the Code constants
	// Path is the plural/select form the problem is in, as Path.String()
	// of the translation's form ("n:few", "n:one/g:female"); "" for the
	// whole message.
	Path string
	// Detail says what is wrong for a person and for a model's retry,
	// naming the form: "the `few` form lacks {name}".
	Detail string
}

// String is the problem for people: Detail, in plain words. The code is for programs
// (JSON "code", the checkup's kinds) and never shown.
func (p Problem) String() string { return p.Detail }

// Problem codes Check reports.
const (
	// The translation has syntax errors its source has not: an unclosed
	// brace or quote, a plural without other, a duplicate selector.
	CodeSyntax = "syntax"
	// A plural's forms are not exactly the target language's CLDR
	// categories (ordinal ones for selectordinal) plus the source's
	// explicit =N forms; or a select's keys differ from the source's.
	CodePluralForms = "plural_forms"
	// A plural form whose category matches more than one number shows
	// neither '#' nor the argument, while the source shows the number.
	CodePound = "pound"
	// A form lacks an argument (or nested plural/select) of the
	// corresponding source form: the same selector, or other when the
	// target has categories the source lacks.
	CodeMissingArg = "missing_arg"
	// A form has an argument its source form has not (also the other
	// half of an argument moved between forms).
	CodeExtraArg = "extra_arg"
	// Non-positional printf arguments (%s %d) are in another order; they
	// are consumed in order, so only positional ones (%1$s) may move.
	CodePrintfOrder = "printf_order"
	// A form's tags differ from its source form's: names, nesting, atoms
	// or non-translatable attributes. Sibling order may change, and so
	// may the text of alt, title, placeholder and aria-label; an entity
	// equals its character.
	CodeMarkup = "markup"
	// A form's markdown link or image targets differ from the source's.
	CodeLink = "link"
	// An ICU quoted literal ('{name}') of the source is no longer printed
	// as text: judged by what it prints, so '{'name'}' equals '{name}'.
	CodeQuoted = "quoted"
	// A do-not-translate term of the source is not in the translation
	// verbatim (a suffix glued to it is allowed: Lokalin).
	CodeDNT = "dnt"
	// A glossary term of the source is not translated with its glossary
	// target (inflected forms count).
	CodeGlossary = "glossary"
	// The translation is not in the target language: the wrong script,
	// or prose long enough to tell that is in another language.
	CodeLanguage = "language"
	// A sentence of the source is copied unchanged.
	CodeUntranslated = "untranslated"
	// The translation apologises, refuses, introduces itself or adds a
	// note the source has not.
	CodeChatter = "chatter"
	// The translation is far longer than the source (see MaxGrowth).
	CodeTooLong = "too_long"
	// The translation is empty while the source is not.
	CodeEmpty = "empty"
	// The translation is a fraction of a long source: a model that
	// answered an instruction in the source ("reply with OK") instead of
	// translating it.
	CodeTooShort = "too_short"
)

// Codes lists every code Check reports, in a stable order.
var Codes = []string{CodeSyntax, CodePluralForms, CodePound, CodeMissingArg, CodeExtraArg, CodePrintfOrder,
	CodeMarkup, CodeLink, CodeQuoted, CodeDNT, CodeGlossary, CodeLanguage, CodeUntranslated, CodeChatter,
	CodeTooLong, CodeEmpty, CodeTooShort}

// Check reports how translation, a value for r.TargetLang, breaks the
// contract of source: its structure form by form, the project's terms,
// its language and its prose. Both are judged by their trees: raw
// placeholders written by a model are right when the tree is right. No
// problems means the translation may be stored. The value check is the
// callers' own.
func Check(source, translation string, r Rules) []Problem {
	syn := r.Syntax
	if syn == 0 {
		syn = DetectSyntax([]string{source})
	}
	if strings.TrimSpace(translation) == "" {
		if strings.TrimSpace(source) == "" {
			return nil
		}
		return []Problem{{Code: CodeEmpty, Detail: "the translation is empty"}}
	}
	c := &checker{r: r, src: Parse(source, syn), tr: Parse(translation, syn), trText: translation}
	c.syntax()
	c.structure()
	c.quoted()
	terms, dnt := TermsFor(r.TargetLang, r.Glossary, r.DoNotTranslate)
	c.terms(terms, dnt)
	if !r.SkipProse {
		c.prose(dnt, terms)
	}
	return c.out
}

type checker struct {
	r       Rules
	src, tr *Message
	trText  string // the translation, to say positions in characters
	out     []Problem
	// nth pairs the translation's blocks with the source's where a form
	// has several on one argument: nthKey of the translation's block to
	// the source block's Nth.
	nth map[string]int
}

func (c *checker) add(code string, path Path, format string, args ...any) {
	c.out = append(c.out, Problem{Code: code, Path: path.String(), Detail: fmt.Sprintf(format, args...)})
}

// formName names a form for a person: "the message", "the `few` form",
// "the `n:one/g:female` form".
func formName(p Path) string {
	switch len(p) {
	case 0:
		return "the message"
	case 1:
		return "the `" + p[0].Selector + "` form"
	}
	return "the `" + p.String() + "` form"
}

func (c *checker) syntax() {
	had := map[ProblemCode]int{}
	for _, p := range c.src.Problems {
		had[p.Code]++
	}
	for _, p := range c.tr.Problems {
		if had[p.Code] > 0 {
			had[p.Code]--
			continue
		}
		c.add(CodeSyntax, nil, "%s", Explain(c.trText, p))
	}
	// The parser reads {n, Plural, ...} as a block, ICU itself does not:
	// its keywords are lowercase, and a translation keeps the source's.
	spelled := func(s *Select) string {
		i := strings.Index(strings.ToLower(s.Head), s.Type)
		if i < 0 {
			return s.Type
		}
		return s.Head[i : i+len(s.Type)]
	}
	srcSpell := map[string]bool{}
	Walk(c.src, func(n Node, _ Path) bool {
		if s, ok := n.(*Select); ok {
			srcSpell[spelled(s)] = true
		}
		return true
	})
	Walk(c.tr, func(n Node, _ Path) bool {
		if s, ok := n.(*Select); ok && spelled(s) != s.Type && !srcSpell[spelled(s)] {
			c.add(CodeSyntax, nil, "ICU's keyword is %s, in lowercase: %s", s.Type, s.Head)
		}
		return true
	})
}

// structure compares every form of the translation with its source form.
func (c *checker) structure() {
	srcForms := map[string]*FormContent{}
	for _, f := range Forms(c.src) {
		srcForms[f.Path.String()] = f
	}
	keys := c.argKeys()
	c.nth = map[string]int{}
	for _, tf := range Forms(c.tr) {
		sp, ok := c.mapPath(tf.Path, srcForms)
		if !ok {
			continue // in a block the source has not: reported on its parent form
		}
		sf := srcForms[sp.String()]
		c.blocks(tf, sf, keys)
		c.args(tf, sf, keys)
		if tagShape(sf, c.src, true) != tagShape(tf, c.tr, true) {
			c.add(CodeMarkup, tf.Path, "%s has the tags %s where the source has %s (same names, nesting and attributes; only alt, title, placeholder and aria-label text may change)",
				formName(tf.Path), orNone(tagShape(tf, c.tr, false)), orNone(tagShape(sf, c.src, false)))
		}
		c.links(tf, sf)
	}
	c.printfOrder()
}

// mapPath returns the source form a translation form answers: the same
// selectors, or other where the source's block has no form for a
// category of the target language.
func (c *checker) mapPath(p Path, src map[string]*FormContent) (Path, bool) {
	var out Path
	for i, s := range p {
		if j, ok := c.nth[nthKey(p[:i], s.Arg, s.Type, s.Nth)]; ok {
			s.Nth = j
		}
		out = append(out, s)
		if _, ok := src[out.String()]; ok {
			continue
		}
		out[len(out)-1].Selector = "other"
		if _, ok := src[out.String()]; !ok {
			return nil, false
		}
	}
	return out, true
}

func blockKey(s *Select) string { return "{" + s.Arg + ", " + s.Type + "}" }

func nthKey(at Path, arg, typ string, nth int) string {
	return at.String() + "\x00" + arg + "\x00" + typ + "\x00" + strconv.Itoa(nth)
}

// blocks compares the plural/select blocks directly in a form, and the
// forms of each. Several blocks on one argument are paired by content, as
// a translation may reorder them (with the tags around them).
func (c *checker) blocks(tf, sf *FormContent, keys map[*Arg]string) {
	src := map[string][]*Select{}
	var order []string // keys in document order, so problems come in a stable order
	for _, s := range sf.Selects {
		src[blockKey(s)] = append(src[blockKey(s)], s)
	}
	tr := map[string][]*Select{}
	for _, t := range tf.Selects {
		if tr[blockKey(t)] == nil {
			order = append(order, blockKey(t))
		}
		tr[blockKey(t)] = append(tr[blockKey(t)], t)
	}
	seen := map[string]int{}
	for _, k := range order {
		ts := tr[k]
		pair := pairBlocks(ts, src[k], keys)
		seen[k] = min(len(ts), len(src[k]))
		for i, t := range ts {
			j := pair[i]
			if j < 0 {
				c.add(CodeExtraArg, tf.Path, "%s has a %s on {%s} the source has not there", formName(tf.Path), t.Type, t.Arg)
				continue
			}
			c.nth[nthKey(tf.Path, t.Arg, t.Type, i)] = j
			c.forms(tf.Path, i, t, src[k][j])
		}
	}
	done := map[string]bool{}
	for _, s := range sf.Selects {
		k := blockKey(s)
		if n := len(src[k]) - seen[k]; n > 0 && !done[k] {
			done[k] = true
			c.add(CodeMissingArg, tf.Path, "%s lacks the %s on {%s}%s", formName(tf.Path), s.Type, s.Arg, times(n))
		}
	}
}

func pluralKind(typ string) (plural.Kind, bool) {
	switch typ {
	case "plural":
		return plural.KindCardinal, true
	case "selectordinal":
		return plural.KindOrdinal, true
	}
	return 0, false
}

// forms checks one block's selectors against the target language, and
// that its forms show the number where a category covers several.
func (c *checker) forms(at Path, nth int, t, s *Select) {
	kind, isPlural := pluralKind(t.Type)
	if isPlural && c.r.TargetLang == "" {
		return // no language, no categories to hold the forms to
	}
	var want []string
	if isPlural {
		for _, cat := range plural.Categories(c.r.TargetLang, kind) {
			want = append(want, cat.String())
		}
		for _, f := range s.Forms {
			if strings.HasPrefix(f.Selector, "=") {
				want = append(want, f.Selector)
			}
		}
	} else {
		for _, f := range s.Forms {
			want = append(want, f.Selector)
		}
	}
	var have []string
	for _, f := range t.Forms {
		have = append(have, f.Selector)
	}
	var lack, extra []string
	for _, w := range want {
		if !slices.Contains(have, w) {
			lack = append(lack, "`"+w+"`")
		}
	}
	for _, h := range have {
		if !slices.Contains(want, h) && !slices.Contains(extra, "`"+h+"`") {
			extra = append(extra, "`"+h+"`")
		}
	}
	if len(lack) > 0 || len(extra) > 0 {
		var parts []string
		if len(lack) > 0 {
			parts = append(parts, "lacks "+strings.Join(lack, ", "))
		}
		if len(extra) > 0 {
			parts = append(parts, "has "+strings.Join(extra, ", ")+" it must not have")
		}
		what := "the keys of the source"
		if isPlural {
			what = fmt.Sprintf("exactly the %s categories of %s", kind, orNone(c.r.TargetLang))
			if slices.ContainsFunc(want, func(w string) bool { return strings.HasPrefix(w, "=") }) {
				what += " and the source's =N forms"
			}
		}
		where := ""
		if len(at) > 0 {
			where = " in " + formName(at)
		}
		c.add(CodePluralForms, at, "the %s on {%s}%s needs %s (%s): it %s", t.Type, t.Arg, where,
			what, strings.Join(want, " "), strings.Join(parts, " and "))
	}
	if !isPlural {
		return
	}
	most := 1
	for _, f := range s.Forms {
		most = max(most, pounds(f.Message.Nodes))
	}
	for _, f := range t.Forms {
		if n := pounds(f.Message.Nodes); n > most {
			p := append(slices.Clip(at), Step{Arg: t.Arg, Type: t.Type, Nth: nth, Selector: f.Selector})
			c.add(CodePound, p, "%s of {%s} shows # %d times: the source shows the number at most %d", formName(p), t.Arg, n, most)
		}
	}
	if !showsNumber(s) {
		return
	}
	for _, f := range t.Forms {
		cat, ok := plural.ParseCategory(f.Selector)
		if !ok || plural.ExactlyOne(c.r.TargetLang, kind, cat) {
			continue // =N and single-number categories may leave the number out
		}
		if !formShowsNumber(f.Message, t.Arg) {
			p := append(slices.Clip(at), Step{Arg: t.Arg, Type: t.Type, Nth: nth, Selector: f.Selector})
			c.add(CodePound, p, "%s of {%s} shows no number: `%s` covers several numbers in %s, so it needs # or {%s}",
				formName(p), t.Arg, f.Selector, c.r.TargetLang, t.Arg)
		}
	}
}

// pounds counts the '#' of a form, not those of blocks nested in it.
func pounds(ns []Node) int {
	n := 0
	for _, x := range ns {
		switch x := x.(type) {
		case *Pound:
			n++
		case *Tag:
			n += pounds(x.Children)
		case *Link:
			n += pounds(x.Text)
		}
	}
	return n
}

// showsNumber reports whether some form of the source block shows its
// number; a source that never does lets the translation leave it out.
func showsNumber(s *Select) bool {
	for _, f := range s.Forms {
		if formShowsNumber(f.Message, s.Arg) {
			return true
		}
	}
	return false
}

func formShowsNumber(m *Message, arg string) bool {
	found := false
	Walk(m, func(n Node, _ Path) bool {
		switch n := n.(type) {
		case *Pound:
			found = true
		case *Arg:
			found = found || n.Name == arg && (n.Kind == ArgICU || n.Kind == ArgICUFormatted)
		}
		return !found
	})
	return found
}

// argKeys returns the comparison key of every argument of both messages.
// Non-positional printf arguments are keyed by conversion, unless the
// translation numbers them (%1$s), which it may; then the source's are
// keyed by their position. A printf-looking piece the model wrote into
// prose, `10%igen` (a digit before, a letter after) that the source has
// not, is text.
func (c *checker) argKeys() map[*Arg]string {
	keys := map[*Arg]string{}
	srcOrder := PrintfOrder(c.src)
	trPositional := false
	Walk(c.tr, func(n Node, _ Path) bool {
		if a, ok := n.(*Arg); ok && a.Kind == ArgPrintf && a.Positional {
			trPositional = true
		}
		return true
	})
	renumber := trPositional && len(srcOrder) > 0
	Walk(c.src, func(n Node, _ Path) bool {
		if a, ok := n.(*Arg); ok && a.Kind == ArgPrintf && a.Positional {
			renumber = false
		}
		return true
	})
	for i, a := range srcOrder {
		if renumber {
			keys[a] = "%" + strconv.Itoa(i+1) + "$" + a.Style + a.Type
		}
	}
	srcCount := map[string]int{}
	Walk(c.src, func(n Node, _ Path) bool {
		if a, ok := n.(*Arg); ok {
			if _, done := keys[a]; !done {
				keys[a] = argKey(a)
			}
			srcCount[keys[a]]++
		}
		return true
	})
	trCount := map[string]int{}
	eachGlued(c.tr.Nodes, func(a *Arg, glued bool) {
		k := argKey(a)
		trCount[k]++
		if glued && trCount[k] > srcCount[k] {
			k = "" // prose, not an argument
		}
		keys[a] = k
	})
	return keys
}

func argKey(a *Arg) string {
	switch a.Kind {
	case ArgPercent:
		return "%%"
	case ArgPrintf:
		if a.Positional {
			return "%" + strconv.Itoa(a.Index) + "$" + a.Style + a.Type
		}
		return "%" + a.Style + a.Type
	}
	return Signature(a)
}

// eachGlued calls fn for every argument of ns and below, saying whether it
// is a non-positional printf argument between a digit and a letter.
func eachGlued(ns []Node, fn func(a *Arg, glued bool)) {
	for i, n := range ns {
		switch n := n.(type) {
		case *Arg:
			glued := false
			if n.Kind == ArgPrintf && !n.Positional && i > 0 && i+1 < len(ns) {
				prev, ok1 := ns[i-1].(*Text)
				next, ok2 := ns[i+1].(*Text)
				if ok1 && ok2 && prev.Value != "" && next.Value != "" {
					r1, _ := utf8.DecodeLastRuneInString(prev.Value)
					r2, _ := utf8.DecodeRuneInString(next.Value)
					glued = unicode.IsDigit(r1) && unicode.IsLetter(r2)
				}
			}
			fn(n, glued)
		case *Select:
			for _, f := range n.Forms {
				eachGlued(f.Message.Nodes, fn)
			}
		case *Tag:
			for _, a := range n.Attrs {
				if a.Text != nil {
					eachGlued(a.Text.Nodes, fn)
				}
			}
			eachGlued(n.Children, fn)
		case *Link:
			eachGlued(n.Text, fn)
		}
	}
}

// args compares the arguments of a form with its source form's. An ICU
// argument naming an enclosing plural is the number, like '#', which the
// pound check covers.
func (c *checker) args(tf, sf *FormContent, keys map[*Arg]string) {
	count := func(fc *FormContent) map[string]int {
		numbers := map[string]bool{}
		for _, s := range fc.Path {
			if _, ok := pluralKind(s.Type); ok {
				numbers[s.Arg] = true
			}
		}
		m := map[string]int{}
		for _, a := range fc.Args {
			k := keys[a]
			if k == "" || numbers[a.Name] && (a.Kind == ArgICU || a.Kind == ArgICUFormatted) {
				continue
			}
			m[k]++
		}
		return m
	}
	want, have := count(sf), count(tf)
	for _, k := range sortedKeys(want) {
		if n := want[k] - have[k]; n > 0 {
			c.add(CodeMissingArg, tf.Path, "%s lacks %s%s", formName(tf.Path), k, times(n))
		}
	}
	for _, k := range sortedKeys(have) {
		// An escaped %% the source lacks prints a percent sign all the
		// same; one the source has and the translation lost does not.
		if n := have[k] - want[k]; n > 0 && k != "%%" {
			c.add(CodeExtraArg, tf.Path, "%s has %s%s, which the source has not there", formName(tf.Path), k, times(n))
		}
	}
}

func times(n int) string {
	if n == 1 {
		return ""
	}
	return fmt.Sprintf(" (%d times)", n)
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func (c *checker) printfOrder() {
	conv := func(as []*Arg) []string {
		var out []string
		for _, a := range as {
			out = append(out, "%"+a.Style+a.Type)
		}
		return out
	}
	s, t := conv(PrintfOrder(c.src)), conv(PrintfOrder(c.tr))
	if len(s) == 0 || slices.Equal(s, t) {
		return
	}
	if a, b := slices.Sorted(slices.Values(s)), slices.Sorted(slices.Values(t)); !slices.Equal(a, b) {
		return // missing or extra, reported per form
	}
	c.add(CodePrintfOrder, nil, "the printf arguments are in the order %s but must stay %s: they are filled in order (numbered ones like %%1$s may move)",
		strings.Join(t, " "), strings.Join(s, " "))
}

// tagShape is the tag structure of a form: names, atoms and opaque
// attributes, nesting kept, text, translatable attribute values and links
// left out. Sorted, siblings are in a canonical order (a translation may
// reorder them); unsorted, it is in document order, for people.
func tagShape(fc *FormContent, top *Message, sorted bool) string {
	if fc.Form != nil {
		return shapeOf(fc.Form.Message.Nodes, sorted)
	}
	return shapeOf(top.Nodes, sorted)
}

func shapeOf(ns []Node, sorted bool) string {
	var parts []string
	var add func(ns []Node)
	add = func(ns []Node) {
		for _, n := range ns {
			switch n := n.(type) {
			case *Tag:
				var b strings.Builder
				tagSig(&b, n, func(*strings.Builder, *Message) {}, func(b *strings.Builder, ch []Node) { b.WriteString(shapeOf(ch, sorted)) })
				parts = append(parts, b.String())
			case *Link:
				add(n.Text)
			}
		}
	}
	add(ns)
	if sorted {
		sort.Strings(parts)
	}
	return strings.Join(parts, "")
}

func (c *checker) links(tf, sf *FormContent) {
	key := func(l *Link) string {
		k := "](" + strings.TrimSpace(l.Target) + ")"
		if l.Image {
			return "!" + k
		}
		return k
	}
	want, have := map[string]int{}, map[string]int{}
	for _, l := range sf.Links {
		want[key(l)]++
	}
	for _, l := range tf.Links {
		have[key(l)]++
	}
	for _, k := range sortedKeys(want) {
		if want[k] > have[k] {
			c.add(CodeLink, tf.Path, "%s lacks the link target %s", formName(tf.Path), k[strings.Index(k, "(")+1:len(k)-1])
		}
	}
	for _, k := range sortedKeys(have) {
		if have[k] > want[k] {
			c.add(CodeLink, tf.Path, "%s has the link target %s the source has not", formName(tf.Path), k[strings.Index(k, "(")+1:len(k)-1])
		}
	}
}

// quoted checks that literal syntax the source quotes ('{name}', {{)
// is still printed as text. It is judged by the text printed, not by the
// quoting's spelling: '{'name'}' and '{name}' both print {name}, while an
// unquoted {name} prints an argument.
func (c *checker) quoted() {
	want := map[string]int{}
	Walk(c.src, func(n Node, _ Path) bool {
		if q, ok := n.(*Quoted); ok && strings.ContainsAny(q.Value, "{}#<>|") {
			want[q.Value]++
		}
		return true
	})
	if len(want) == 0 {
		return
	}
	srcText, trText := c.src.PlainText(), c.tr.PlainText()
	for _, k := range sortedKeys(want) {
		if strings.Count(trText, k) < strings.Count(srcText, k) {
			c.add(CodeQuoted, nil, "the literal %s must stay quoted as in the source ('%s')", k, k)
		}
	}
}

// pairBlocks returns, for each translation block, the index of the source
// block it answers (-1 for none): the assignment whose blocks differ least
// in the arguments, tags and links they hold.
func pairBlocks(tr, src []*Select, keys map[*Arg]string) []int {
	pair := make([]int, len(tr))
	for i := range pair {
		pair[i] = -1
		if i < len(src) {
			pair[i] = i
		}
	}
	if len(tr) < 2 || len(src) < 2 || len(tr) > 6 || len(src) > 6 {
		return pair
	}
	tp, sp := make([]map[string]bool, len(tr)), make([]map[string]bool, len(src))
	for i, t := range tr {
		tp[i] = blockPrint(t, keys)
	}
	for j, s := range src {
		sp[j] = blockPrint(s, keys)
	}
	cost := func(i, j int) int {
		n := 0
		for k := range tp[i] {
			if !sp[j][k] {
				n++
			}
		}
		for k := range sp[j] {
			if !tp[i][k] {
				n++
			}
		}
		return n
	}
	best := -1
	used := make([]bool, len(src))
	cur := make([]int, len(tr))
	var try func(i, sum int)
	try = func(i, sum int) {
		if best >= 0 && sum >= best {
			return
		}
		if i == len(tr) {
			best = sum
			copy(pair, cur)
			return
		}
		matched := false
		for j := range src {
			if !used[j] {
				matched = true
				used[j] = true
				cur[i] = j
				try(i+1, sum+cost(i, j))
				used[j] = false
			}
		}
		if !matched {
			cur[i] = -1
			try(i+1, sum+len(tp[i]))
		}
	}
	try(0, 0)
	return pair
}

// blockPrint is the set of arguments, tags and links anywhere in a block.
func blockPrint(s *Select, keys map[*Arg]string) map[string]bool {
	out := map[string]bool{}
	for _, f := range s.Forms {
		Walk(f.Message, func(n Node, _ Path) bool {
			switch n := n.(type) {
			case *Arg:
				out[keys[n]] = true
			case *Tag:
				var b strings.Builder
				tagSig(&b, n, func(*strings.Builder, *Message) {}, func(*strings.Builder, []Node) {})
				out[b.String()] = true
			case *Link:
				out["]("+n.Target+")"] = true
			case *Select:
				out[blockKey(n)] = true
			}
			return true
		})
	}
	return out
}
