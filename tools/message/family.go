package message

import "strings"

// Plural families: i18next keeps the forms of a plural in sibling keys ("files_one",
// "files_few", "files_other"; "place_ordinal_two"), lokal keeps them as one message under
// the base key ("files"), whose value is an ICU plural on count with i18next text inside
// ("{count, plural, one {{{count}} file} other {{{count}} files}}"). Every door that reads
// or writes i18next keys (the file codec, sync, overwrite, reads, the dictionary) gathers
// and expands through the functions here, so that they agree on what a family is.

// KeyValue is one key of a flat set and its value.
type KeyValue struct {
	Key   string
	Value string
}

// BaseKind is what a set's context (a namespace) knows of a base key.
type BaseKind uint8

const (
	BaseUnknown BaseKind = iota // no such key
	BasePlain                   // a key of its own: its suffixed siblings are separate lookups
	BaseFamily                  // a family: a lone suffix key is one of its forms
)

// Family is suffix keys gathered into one message.
type Family struct {
	Key     string   // the base key
	Value   string   // one ICU plural on count: the forms lang has
	Ordinal bool     // _ordinal_ forms: selectordinal
	Members []string // the suffix keys gathered, in the set's order
	Dropped []string // members whose form lang does not have: not in Value, callers warn
}

// Gathered is one entry of a gathered set: a plain key or a family.
type Gathered struct {
	Key    string
	Value  string
	Family *Family // nil for a plain key
}

// GatherFamilies gathers the flat keys of one language into families, keeping the set's
// order (a family stands where its first member was). Keys form a family when they differ
// only by a plural suffix, their base key is not itself a key (of the set, or plain by
// known), and they have an _other member, or at least two, or known says the base is a
// family already. Ordinal forms beside cardinal ones stay plain keys. Text is converted
// with NativeToICU (i18next's {{count}} kept, ICU's syntax characters quoted); a form lang
// does not have is left out of the value and its key named in Family.Dropped. known may be
// nil.
func GatherFamilies(lang string, kvs []KeyValue, known func(base string) BaseKind) []Gathered {
	kind := func(base string) BaseKind {
		if known == nil {
			return BaseUnknown
		}
		return known(base)
	}
	plain := make(map[string]bool, len(kvs))
	for _, kv := range kvs {
		plain[kv.Key] = true
	}
	cardinal := map[string]bool{}
	for _, kv := range kvs {
		if base, _, ord, ok := SplitPluralKey(kv.Key); ok && !ord && !plain[base] {
			cardinal[base] = true
		}
	}
	type group struct {
		ordinal bool
		members []string
		forms   []PluralForm
		other   bool
	}
	groups := map[string]*group{}
	member := func(key string) (string, string, bool, bool) {
		base, cat, ord, ok := SplitPluralKey(key)
		ok = ok && !plain[base] && kind(base) != BasePlain && (!ord || !cardinal[base])
		return base, cat, ord, ok
	}
	for _, kv := range kvs {
		base, cat, ord, ok := member(kv.Key)
		if !ok {
			continue
		}
		g := groups[base]
		if g == nil {
			g = &group{ordinal: ord}
			groups[base] = g
		}
		g.members = append(g.members, kv.Key)
		g.forms = append(g.forms, PluralForm{Selector: cat, Text: NativeToICU(kv.Value, I18next)})
		g.other = g.other || cat == "other"
	}
	families := map[string]*Family{}
	for base, g := range groups {
		if !g.other && len(g.members) < 2 && kind(base) != BaseFamily {
			continue
		}
		families[base] = familyOf(lang, base, g.ordinal, g.members, g.forms)
	}
	out := make([]Gathered, 0, len(kvs))
	for _, kv := range kvs {
		if base, _, _, ok := member(kv.Key); ok && families[base] != nil {
			if f := families[base]; f.Members != nil {
				out = append(out, Gathered{Key: base, Value: f.Value, Family: f})
				families[base] = &Family{} // placed: later members add nothing
			}
			continue
		}
		out = append(out, Gathered{Key: kv.Key, Value: kv.Value})
	}
	return out
}

// familyOf is the family of the members' forms in lang: the forms lang has, explicit ones
// (=0 from _zero where lang has no zero) first, then lang's categories in CLDR's order.
func familyOf(lang, base string, ordinal bool, members []string, forms []PluralForm) *Family {
	p := FromNative(lang, "count", ordinal, forms)
	back, _, dropped := ToNative(lang, p, ZeroExplicit)
	f := &Family{Key: base, Ordinal: ordinal, Members: members, Value: FromNative(lang, "count", ordinal, back).String()}
	for _, sel := range dropped {
		for i, pf := range p.Forms {
			if pf.Selector == sel {
				f.Dropped = append(f.Dropped, members[i])
			}
		}
	}
	if len(back) == 0 {
		f.Value = ""
	}
	return f
}

// ExpandFamily is a family value as lang's suffix keys of base, in the order i18next files
// write them: exactly the categories lang has that the value has (=0 as _zero where lang
// has no zero category, ordinal forms as _ordinal_*), '#' written as {{count}} and ICU
// quoting undone. ok is false when value is not one plural block.
func ExpandFamily(lang, base, value string) (keys []KeyValue, ok bool) {
	p, ok := SinglePlural(value)
	if !ok {
		return nil, false
	}
	forms, _, _ := ToNative(lang, p, ZeroExplicit)
	keys = make([]KeyValue, 0, len(forms))
	for _, f := range forms {
		keys = append(keys, KeyValue{Key: FormKey(base, f.Selector, p.Ordinal), Value: ICUToNative(f.Text, "{{count}}")})
	}
	return keys, true
}

// FormKey is the suffix key of one category of a family: files_few, place_ordinal_two.
func FormKey(base, category string, ordinal bool) string {
	if ordinal {
		return base + "_ordinal_" + category
	}
	return base + "_" + category
}

// MissingCategories are the categories lang needs that value, one plural block, lacks (pl:
// few and many for a value with one and other); nil for a value that is not one block.
func MissingCategories(lang, value string) []string {
	if !strings.HasPrefix(value, "{") {
		return nil
	}
	p, ok := SinglePlural(value)
	if !ok {
		return nil
	}
	_, missing, _ := ToNative(lang, p, ZeroExplicit)
	return missing
}

// FamilyIncomplete reports whether value, in lang, is a plural family's translation that
// lacks a category lang needs (pl with one and other only): it is served, form by form,
// but counts as missing until every form is written. A family's value is one plural on
// count whose forms have no '#' (its text is i18next's: the number is {{count}}); an ICU
// plural with '#' is not one, and its gaps stay QA findings.
func FamilyIncomplete(lang, value string) bool {
	if !strings.HasPrefix(value, "{count") {
		return false
	}
	m := Parse(value, FileSyntax)
	if len(m.Nodes) != 1 {
		return false
	}
	s, ok := m.Nodes[0].(*Select)
	return ok && s.Tail != "" && familyShape(s) && len(MissingCategories(lang, value)) > 0
}

// FamilyOutside reports whether value, a translation of source, a plural family's value
// (one plural on count), has a plural block with text (or space) outside it: i18next reads
// a family as one key per form, so such a value cannot be served as the forms, and the app
// would show it, syntax and all, under the base key. reason quotes the text outside.
func FamilyOutside(source, value string) (reason string, broken bool) {
	if !strings.HasPrefix(source, "{count") || !strings.Contains(value, "{") {
		return "", false
	}
	if p, ok := SinglePlural(source); !ok || p.Arg != "count" {
		return "", false
	}
	if _, ok := SinglePlural(strings.TrimSpace(value)); ok && strings.TrimSpace(value) == value {
		return "", false
	}
	var outside []string
	blocks := 0
	for _, pc := range PluralPieces(value) {
		if pc.Plural != nil {
			blocks++
		} else if strings.TrimSpace(pc.Text) != "" {
			outside = append(outside, quote(strings.TrimSpace(pc.Text)))
		}
	}
	if blocks == 0 {
		return "", false // text alone: i18next falls back to the base key, and shows it
	}
	if len(outside) == 0 {
		outside = []string{"whitespace"}
	}
	return "the translation has " + strings.Join(outside, " and ") + " outside its plural forms, which i18next reads as one key per form", true
}

// familyShape reports whether s has the shape lokal stores an i18next plural family in: a
// plural or selectordinal on count whose forms have no '#'.
func familyShape(s *Select) bool {
	if s.Arg != "count" || s.Type == "select" {
		return false
	}
	pound := false
	walkNodes([]Node{s}, nil, func(n Node, _ Path) bool {
		_, isPound := n.(*Pound)
		pound = pound || isPound
		return !pound
	})
	return !pound
}

// MergeFamily writes the forms of update (a family value gathered from some of a family's
// suffix keys) into cur (the language's stored value of the family): forms update has
// replace cur's, cur's other forms are kept. cur that is not one plural block is replaced.
func MergeFamily(cur, update string) string {
	p, ok := SinglePlural(cur)
	if !ok {
		return update
	}
	u, ok := SinglePlural(update)
	if !ok {
		return cur
	}
	for _, f := range u.Forms {
		replaced := false
		for i := range p.Forms {
			if p.Forms[i].Selector == f.Selector {
				p.Forms[i].Text, replaced = f.Text, true
			}
		}
		if !replaced {
			p.Forms = append(p.Forms, f)
		}
	}
	p.Forms = orderForms(p.Ordinal, p.Forms)
	return p.String()
}

// orderForms puts explicit forms first, then categories in CLDR's order.
func orderForms(ordinal bool, forms []PluralForm) []PluralForm {
	rank := func(sel string) int {
		if strings.HasPrefix(sel, "=") {
			return -1
		}
		for i, c := range pluralCategories {
			if c == sel {
				return i
			}
		}
		return len(pluralCategories)
	}
	out := make([]PluralForm, 0, len(forms))
	for r := -1; r <= len(pluralCategories); r++ {
		for _, f := range forms {
			if rank(f.Selector) == r {
				out = append(out, f)
			}
		}
	}
	return out
}
