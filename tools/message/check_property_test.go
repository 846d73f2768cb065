package message

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/message/plural"
)

// The property: an answer built from the source's tree by rewrites that
// keep the contract (text translated, arguments and tags reordered where
// that is allowed, plurals expanded to the target's categories, '#' added
// or left out where the category allows) is accepted; one mutation of such
// an answer (an argument dropped, duplicated, renamed or moved to another
// form, non-positional printf arguments swapped, tags crossed, '#' dropped
// where it is needed) is refused.

var propSyntax = ICU | HTML | Markdown | Printf

var sourceWords = []string{"file", "files", "open", "settings", "save", "user", "account", "share", "folder", "change", "delete", "project", "message", "every", "today"}

var targetWords = map[string][]string{
	"pl": {"plik", "konto", "ustawienia", "zapisz", "otwórz", "folder", "zmiana", "wiadomość", "projekt", "udostępnij"},
	"ru": {"файл", "настройки", "сохранить", "открыть", "папка", "сообщение", "проект", "удалить", "сегодня"},
	"ar": {"ملف", "إعدادات", "حفظ", "فتح", "مجلد", "رسالة", "مشروع", "حذف", "اليوم"},
	"he": {"קובץ", "הגדרות", "שמור", "פתח", "תיקייה", "הודעה", "פרויקט", "מחק", "היום"},
	"cy": {"ffeil", "gosodiadau", "cadw", "agor", "ffolder", "neges", "prosiect", "dileu", "heddiw"},
	"ja": {"ファイル", "設定", "保存", "開く", "フォルダー", "メッセージ", "削除", "今日"},
	"de": {"Datei", "Einstellungen", "speichern", "öffnen", "Ordner", "Nachricht", "Projekt", "löschen", "heute"},
	"fr": {"fichier", "paramètres", "enregistrer", "ouvrir", "dossier", "message", "projet", "supprimer", "aujourd'hui"},
}

var propLangs = []string{"pl", "ru", "ar", "he", "cy", "ja", "de", "fr"}

// gen writes a random source message.
type gen struct {
	r     *rand.Rand
	depth int
	tags  []string // open element names, so none nests in itself
}

func (g *gen) words(n int) string {
	var w []string
	for range n {
		w = append(w, sourceWords[g.r.IntN(len(sourceWords))])
	}
	return strings.Join(w, " ")
}

var propArgs = []string{"{name}", "{user}", "{folder}", "{when, date, short}", "{price, number, ::currency/EUR}"}

func (g *gen) piece(top bool) string {
	for {
		switch g.r.IntN(10) {
		case 0, 1:
			return g.words(1 + g.r.IntN(3))
		case 2, 3:
			return propArgs[g.r.IntN(len(propArgs))]
		case 4:
			if top {
				return []string{"%s", "%d", "%.2f"}[g.r.IntN(3)]
			}
		case 5:
			if g.depth < 2 {
				return g.plural()
			}
		case 6:
			if g.depth < 2 {
				return g.selectBlock()
			}
		case 7:
			if len(g.tags) < 2 {
				name := []string{"b", "i", "a"}[g.r.IntN(3)]
				if slices.Contains(g.tags, name) {
					continue
				}
				open := "<" + name + ">"
				if name == "a" {
					open = fmt.Sprintf(`<a href="/p%d">`, g.r.IntN(3))
				}
				g.tags = append(g.tags, name)
				inner := g.seq(1+g.r.IntN(2), false)
				g.tags = g.tags[:len(g.tags)-1]
				return open + inner + "</" + name + ">"
			}
		case 8:
			return []string{"<br/>", fmt.Sprintf(`<img src="/i%d.png" alt="%s">`, g.r.IntN(3), g.words(2))}[g.r.IntN(2)]
		case 9:
			if len(g.tags) == 0 {
				return fmt.Sprintf("[%s](https://example.com/%d)", g.words(2), g.r.IntN(3))
			}
		}
	}
}

func (g *gen) seq(n int, top bool) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = g.piece(top)
	}
	return strings.Join(parts, " ")
}

func (g *gen) form(pound bool) string {
	g.depth++
	defer func() { g.depth-- }()
	s := g.seq(1+g.r.IntN(2), false)
	if pound {
		s = "# " + s
	}
	return s
}

func (g *gen) plural() string {
	var b strings.Builder
	b.WriteString("{count, plural,")
	if g.r.IntN(3) == 0 {
		b.WriteString(" =0 {" + g.form(false) + "}")
	}
	b.WriteString(" one {" + g.form(g.r.IntN(2) == 0) + "}")
	b.WriteString(" other {" + g.form(true) + "}}")
	return b.String()
}

func (g *gen) selectBlock() string {
	return "{g, select, female {" + g.form(false) + "} male {" + g.form(false) + "} other {" + g.form(false) + "}}"
}

// rewrite builds a correct answer in lang from the source tree.
type rewrite struct {
	r    *rand.Rand
	lang string
}

func (w *rewrite) nodes(ns []Node, reorder bool) []Node {
	out := make([]Node, len(ns))
	for i, n := range ns {
		out[i] = w.node(n)
	}
	if !reorder {
		return out
	}
	// Permute the movable nodes among their places: everything but text
	// and non-positional printf arguments.
	var at []int
	for i, n := range out {
		switch n := n.(type) {
		case *Arg:
			if n.Kind != ArgPrintf || n.Positional {
				at = append(at, i)
			}
		case *Tag, *Link:
			at = append(at, i)
		}
	}
	moved := make([]Node, len(at))
	for j, i := range at {
		moved[j] = out[i]
	}
	w.r.Shuffle(len(moved), func(i, j int) { moved[i], moved[j] = moved[j], moved[i] })
	for j, i := range at {
		out[i] = moved[j]
	}
	return out
}

func (w *rewrite) text(s string) string {
	lead := s[:len(s)-len(strings.TrimLeft(s, " "))]
	trail := s[len(strings.TrimRight(s, " ")):]
	n := len(strings.Fields(s))
	if n == 0 {
		return s
	}
	ws := targetWords[w.lang]
	var out []string
	for range n {
		out = append(out, ws[w.r.IntN(len(ws))])
	}
	return lead + strings.Join(out, " ") + trail
}

func (w *rewrite) node(n Node) Node {
	switch n := n.(type) {
	case *Text:
		return &Text{Value: w.text(n.Value)}
	case *Tag:
		c := *n
		c.Attrs = nil
		for _, a := range n.Attrs {
			ac := *a
			if a.Text != nil {
				ac.Text = &Message{Nodes: w.nodes(a.Text.Nodes, false)}
			}
			c.Attrs = append(c.Attrs, &ac)
		}
		c.Children = w.nodes(n.Children, true)
		return &c
	case *Link:
		c := *n
		c.Text = w.nodes(n.Text, true)
		return &c
	case *Select:
		return w.selectBlock(n)
	}
	return n // Arg, Pound, Entity, Quoted: immutable here
}

func (w *rewrite) selectBlock(s *Select) *Select {
	c := *s
	c.Forms = nil
	kind, isPlural := pluralKind(s.Type)
	if !isPlural {
		for _, f := range s.Forms {
			c.Forms = append(c.Forms, w.form(f.Selector, f, false))
		}
		return &c
	}
	for _, f := range s.Forms {
		if strings.HasPrefix(f.Selector, "=") {
			c.Forms = append(c.Forms, w.form(f.Selector, f, false))
		}
	}
	shows := showsNumber(s)
	for _, cat := range plural.Categories(w.lang, kind) {
		f := s.Form(cat.String())
		if f == nil {
			f = s.Form("other")
		}
		nf := w.form(cat.String(), f, false)
		if shows {
			has := formShowsNumber(nf.Message, s.Arg)
			switch {
			case plural.ExactlyOne(w.lang, kind, cat) && has && w.r.IntN(2) == 0:
				nf.Message.Nodes = dropPounds(nf.Message.Nodes) // ar `one {ملف واحد}`
			case !plural.ExactlyOne(w.lang, kind, cat) && !has:
				nf.Message.Nodes = append([]Node{&Pound{}, &Text{Value: " "}}, nf.Message.Nodes...) // ru `one {# файл}`
			}
		}
		c.Forms = append(c.Forms, nf)
	}
	return &c
}

func (w *rewrite) form(selector string, f *Form, _ bool) *Form {
	return &Form{Prefix: " " + selector + " {", Selector: selector, Message: &Message{Nodes: w.nodes(f.Message.Nodes, true)}, Close: "}"}
}

func dropPounds(ns []Node) []Node {
	var out []Node
	for _, n := range ns {
		if _, ok := n.(*Pound); !ok {
			out = append(out, n)
		}
	}
	return out
}

// places lists every node list of m with the form path it is in, so a
// mutation can edit one in place.
type place struct {
	list *[]Node
	path string
	sel  *Select // the block whose form this is; nil at the top and in tags
	form *Form
}

func places(m *Message) []place {
	var out []place
	var visit func(list *[]Node, path string, sel *Select, form *Form)
	visit = func(list *[]Node, path string, sel *Select, form *Form) {
		out = append(out, place{list, path, sel, form})
		for _, n := range *list {
			switch n := n.(type) {
			case *Select:
				for _, f := range n.Forms {
					visit(&f.Message.Nodes, path+"/"+n.Arg+":"+f.Selector, n, f)
				}
			case *Tag:
				visit(&n.Children, path, sel, form)
			case *Link:
				visit(&n.Text, path, sel, form)
			}
		}
	}
	visit(&m.Nodes, "", nil, nil)
	return out
}

// movableArgs are the arguments a mutation may touch: not %% and not the
// plural's own number (which '#' stands for too).
func isArgToTouch(n Node) bool {
	a, ok := n.(*Arg)
	return ok && a.Consumes() && a.Name != "count"
}

type mutation struct {
	name  string
	apply func(r *rand.Rand, m *Message) bool
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

type argAt struct {
	p place
	i int
}

func argsOf(m *Message) []argAt {
	var out []argAt
	for _, p := range places(m) {
		for i, n := range *p.list {
			if isArgToTouch(n) {
				out = append(out, argAt{p, i})
			}
		}
	}
	return out
}

var mutations = []mutation{
	{"drop an argument", func(r *rand.Rand, m *Message) bool {
		as := argsOf(m)
		if len(as) == 0 {
			return false
		}
		a := pick(r, as)
		*a.p.list = slices.Delete(*a.p.list, a.i, a.i+1)
		return true
	}},
	{"duplicate an argument", func(r *rand.Rand, m *Message) bool {
		as := argsOf(m)
		if len(as) == 0 {
			return false
		}
		a := pick(r, as)
		*a.p.list = slices.Insert(*a.p.list, a.i, Node(&Text{Value: " "}), (*a.p.list)[a.i])
		return true
	}},
	{"rename an argument", func(r *rand.Rand, m *Message) bool {
		as := argsOf(m)
		if len(as) == 0 {
			return false
		}
		a := pick(r, as)
		old := (*a.p.list)[a.i].(*Arg)
		renamed := &Arg{Raw: "{renamed}", Kind: ArgICU, Name: "renamed", Index: -1}
		if old.Kind == ArgPrintf {
			renamed = &Arg{Raw: "%x", Kind: ArgPrintf, Type: "x", Index: -1}
		}
		(*a.p.list)[a.i] = renamed
		return true
	}},
	{"move an argument to another form", func(r *rand.Rand, m *Message) bool {
		var cands []argAt
		for _, a := range argsOf(m) {
			if a.p.sel != nil && len(a.p.sel.Forms) > 1 {
				cands = append(cands, a)
			}
		}
		if len(cands) == 0 {
			return false
		}
		a := pick(r, cands)
		n := (*a.p.list)[a.i]
		*a.p.list = slices.Delete(*a.p.list, a.i, a.i+1)
		var others []*Form
		for _, f := range a.p.sel.Forms {
			if f != a.p.form {
				others = append(others, f)
			}
		}
		to := pick(r, others)
		to.Message.Nodes = append(to.Message.Nodes, &Text{Value: " "}, n)
		return true
	}},
	{"swap non-positional printf arguments", func(r *rand.Rand, m *Message) bool {
		order := PrintfOrder(m)
		for i := range order {
			for j := i + 1; j < len(order); j++ {
				if order[i].Style+order[i].Type != order[j].Style+order[j].Type {
					*order[i], *order[j] = *order[j], *order[i]
					return true
				}
			}
		}
		return false
	}},
	{"cross tags", func(r *rand.Rand, m *Message) bool {
		for _, p := range places(m) {
			for _, n := range *p.list {
				outer, ok := n.(*Tag)
				if !ok || outer.Kind != Element {
					continue
				}
				for _, ch := range outer.Children {
					if inner, ok := ch.(*Tag); ok && inner.Kind == Element {
						inner.Close, outer.Close = outer.Close, inner.Close
						return true
					}
				}
			}
		}
		return false
	}},
	{"drop # where the category needs it", func(r *rand.Rand, m *Message) bool {
		for _, p := range places(m) {
			if p.sel == nil || p.sel.Type != "plural" || p.form == nil || p.form.Selector != "other" {
				continue
			}
			if formShowsNumber(p.form.Message, p.sel.Arg) && slices.ContainsFunc(*p.list, func(n Node) bool { _, ok := n.(*Pound); return ok }) {
				*p.list = dropPounds(*p.list)
				if !formShowsNumber(p.form.Message, p.sel.Arg) {
					return true
				}
			}
		}
		return false
	}},
}

func TestCheckProperty(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(17, 2026))
	applied := map[string]int{}
	rounds := 1000 // LOKAL_TEST_LONG=1 runs five times as many, for a deeper search
	if os.Getenv("LOKAL_TEST_LONG") == "1" {
		rounds = 5000
	}
	for i := range rounds {
		g := &gen{r: r}
		src := g.seq(1+r.IntN(4), true)
		lang := propLangs[i%len(propLangs)]
		rules := Rules{SourceLang: "en", TargetLang: lang, Syntax: propSyntax}
		sm := Parse(src, propSyntax)
		if len(sm.Problems) > 0 {
			t.Fatalf("generator wrote a broken source %q: %v", src, sm.Problems)
		}
		w := &rewrite{r: r, lang: lang}
		answer := &Message{Nodes: w.nodes(sm.Nodes, true)}
		good := answer.String()
		if got := Check(src, good, rules); len(got) > 0 {
			t.Fatalf("%s: a correct answer was refused\nsource: %s\nanswer: %s\nproblems: %v", lang, src, good, got)
		}
		for _, mu := range mutations {
			m := Parse(good, propSyntax)
			if !mu.apply(r, m) {
				continue
			}
			bad := m.String()
			if bad == good {
				continue
			}
			applied[mu.name]++
			if got := Check(src, bad, rules); len(got) == 0 {
				t.Fatalf("%s: mutation %q was accepted\nsource: %s\ngood:   %s\nbad:    %s", lang, mu.name, src, good, bad)
			}
		}
	}
	for _, mu := range mutations {
		if applied[mu.name] < rounds/100 {
			t.Errorf("mutation %q applied only %d times", mu.name, applied[mu.name])
		}
	}
}

// On real values (the parser's table and the eval cases): a value is a
// correct answer to itself in a variant of its language, and every
// single mutation of it is refused.
func TestCheckPropertySeeds(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 17))
	seen := 0
	for _, v := range seedValues(t) {
		syn := DetectSyntax([]string{v})
		if len(Parse(v, syn).Problems) > 0 {
			continue // a broken value is no source
		}
		// The value's own language, as far as its plurals tell: the
		// first whose categories its plural forms have.
		lang := ""
		for _, l := range []string{"en", "pl", "ru", "ar", "he", "ja", "fr", "cy", "de"} {
			if !slices.ContainsFunc(Check(v, v, Rules{SourceLang: l, TargetLang: l, Syntax: syn}), func(p Problem) bool { return p.Code == CodePluralForms }) {
				lang = l
				break
			}
		}
		if lang == "" {
			t.Errorf("no language fits the plurals of %q", v)
			continue
		}
		rules := Rules{SourceLang: lang, TargetLang: lang + "-x", Syntax: syn}
		if got := Check(v, v, rules); len(got) > 0 {
			t.Errorf("Check(v, v) refused %q: %v", v, got)
			continue
		}
		for _, mu := range mutations {
			m := Parse(v, syn)
			if !mu.apply(r, m) || m.String() == v {
				continue
			}
			seen++
			bad := m.String()
			if Parse(bad, syn).Signature() == Parse(v, syn).Signature() {
				continue // the mutation did not change the message (e.g. two equal arguments swapped)
			}
			if got := Check(v, bad, rules); len(got) == 0 {
				t.Errorf("mutation %q of %q accepted: %q", mu.name, v, bad)
			}
		}
	}
	if seen < 50 {
		t.Errorf("only %d mutations of seed values", seen)
	}
}

// FuzzCheck runs Check on any pair of values under any syntax (it must
// not panic, and answers the same twice) and checks that a value answers itself: in its own language
// only its plural categories and its own missing '#' can be wrong.
func FuzzCheck(f *testing.F) {
	seeds := seedValues(f)
	for i, v := range seeds {
		f.Add(v, seeds[(i+1)%len(seeds)], uint16(All), "pl")
	}
	f.Fuzz(func(t *testing.T, v, w string, syn uint16, lang string) {
		s := Syntax(syn) & All
		r := Rules{SourceLang: "en", TargetLang: lang, Syntax: s, Glossary: []Term{{"file", "plik", "all"}}, DoNotTranslate: []string{"Lokal"}}
		if a, b := Check(v, w, r), Check(v, w, r); !slices.Equal(a, b) {
			t.Fatalf("Check(%q, %q) not deterministic: %v, then %v", v, w, a, b)
		}
		for _, p := range Check(v, v, Rules{SourceLang: "en", TargetLang: "en-GB", Syntax: s}) {
			if p.Code != CodePluralForms && p.Code != CodePound {
				t.Fatalf("Check(v, v) with v = %q under %s: %v", v, s, p)
			}
		}
	})
}
