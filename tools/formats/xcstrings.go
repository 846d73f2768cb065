package formats

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// xcstrings: Xcode's String Catalog, every language in one JSON file:
// {"sourceLanguage", "strings": {key: {"comment", "extractionState", "shouldTranslate",
// "localizations": {lang: {"stringUnit": {"state", "value"}, "variations": {"plural":
// {category: {"stringUnit"}}, "device": {...}}, "substitutions": {...}}}}}, "version"}.
//
// Decode with Options.Language "all" (or "") gives every language in Values, Languages in
// the order they first appear; with one language only that one. Entries come in Xcode's
// order (the file's, for a file Xcode wrote). Entry.Source is the source localization's
// value, or the key when the entry has none or an empty one (the contract's rule).
// comment is Entry.Comment, shouldTranslate false DoNotTranslate. A localization's value
// is, in this order: its stringUnit; its plural variations as one ICU plural on count
// (FromNative: zero is =0 where the language has no zero category; text as written, ICU's
// {, } and # quoted); the "other" device's stringUnit. States: translated, needs_review,
// new (StateNone) and stale.
//
// A plural's forms the language never selects (the one Xcode writes beside other in ja,
// ko, zh, where other is the only category: ToNative's dropped) are left out of the value.
//
// A file with no sourceLanguage is in Options.SourceLanguage; one with no version is 1.0.
// Meta, kept so that a file Xcode wrote is written back byte for byte (JSON values are
// compact, keys in Xcode's order):
//   - File.Meta["version"]; File.Meta["json:<field>"] for another top-level member (JSON);
//     File.Meta["escapedSlashes"] = "true" when the file wrote / as \/;
//     File.Meta["noFinalNewline"] = "true" when it does not end in a newline.
//     File.Meta["emptyKey"]: the entry with the empty key "" (Xcode extracts one from
//     Text("")), which lokal cannot hold as a key: its JSON as written, written back
//     first (its place in Xcode's order); Decode warns that it is kept in the file only.
//   - Entry.Meta["extractionState"]; Entry.Meta["json:<field>"] for another member (JSON).
//   - Entry.Meta["<lang>.variations.device"], ["<lang>.substitutions"] and
//     ["<lang>.<field>"] for any other member of a localization: the JSON as written.
//   - Substitutions: a stringUnit "Осталось %#@files@ в %#@folders@" whose variables are
//     substitutions of plural forms is one ICU value, each %#@var@ a plural block on var
//     with the text around it kept ("Осталось {files, plural, =0 {...} one {%arg файл}
//     ...} в {folders, plural, ...}"), by the conversion .stringsdict uses (formatkey.go).
//     ["<lang>:substitutions"] = "true" marks it; ["<lang>:argNum.<var>"] and
//     ["<lang>:formatSpecifier.<var>"] keep those members ("" for none),
//     ["<lang>:position.<var>"] the n of %n$#@var@, ["<lang>:states.<var>"] the forms'
//     states (JSON) when one differs from the stringUnit's, ["<lang>:written.<var>"] the
//     plural as written when it has forms lang never selects (as plural.written below).
//     Substitutions that do not make one value (a variable no reference names, other
//     variations, a plural with no form the language selects) stay
//     ["<lang>.substitutions"] and the value keeps %#@var@.
//   - ["<lang>:plain"] = "true": a stringUnit whose text reads as ICU plural blocks,
//     written back as a stringUnit rather than as variations or substitutions.
//     ["<lang>:value"] = "device" when the value is the "other" device's (Encode writes it
//     back there); ["<lang>:plural.states"] the per-form states (JSON) when they differ;
//     ["<lang>:plural.written"] a plural with forms lang never selects, as written (JSON),
//     unless they are Xcode's one equal to other: Encode writes it while the value's
//     forms and states are its; ["<lang>:plural.noOne"] = "true" plurals (or
//     substitutions) in a language with other alone written without Xcode's one (by
//     another tool);
//     ["<lang>.variations.plural"] a plural kept as written because lokal cannot read it
//     (a form that is no plain stringUnit, or no form the language selects);
//     ["<lang>:state"] a state lokal has no name for; ["<lang>:stringUnit"] other
//     members of the stringUnit (JSON), ["<lang>.stringUnit"] one lokal cannot read.
//     (Markers are spelled with ':', members of the file with '.': a language has neither.)
//
// Encode writes Xcode's own spelling: two-space indent, " : " between key and value,
// every object's keys in Xcode's order (the Unicode collation, numbers by value:
// "%lld min" before "%lld Points", "%" before "$", "month" before "Month %lld"), an empty
// object as "{\n\n<indent>}", / unescaped. A plural is written as variations.plural with
// exactly the language's CLDR categories (=0 as zero where the language lacks zero; '#' as
// %lld), and, as Xcode writes them, a one form the same as other where other is the
// language's only category. A value with plural blocks and text around them is a format
// key with substitutions: the same categories, '#' as %arg, argNum and formatSpecifier as
// kept (another language's when this one has none; else no argNum and "lld"), and Xcode's
// one beside other as for a plural. With one language, the source localization is written
// from Entry.Source when it differs from the key. sourceLanguage is File.SourceLanguage,
// else Options.SourceLanguage (an export must give it: a catalog without one is left
// without).
//
// xcstringsUnkept (Codec.Unkept) names what of an entry only Meta keeps that a store of
// values alone would write back meaning something else.
var xcstringsCodec = &Codec{
	Name:           "xcstrings",
	SourceFallback: true,
	ContentType:    "application/json",
	Extension:      "xcstrings",
	Bilingual:      true,
	Multilingual:   true,
	Decode:         decodeXCStrings,
	Encode:         encodeXCStrings,
	Merge:          mergeXCStrings,
	Unkept:         xcstringsUnkept,
}

var xcstatesIn = map[string]State{"translated": StateTranslated, "needs_review": StateNeedsReview, "new": StateNone, "stale": StateStale}
var xcstatesOut = map[State]string{StateTranslated: "translated", StateNeedsReview: "needs_review", StateNone: "new", StateStale: "stale"}

func decodeXCStrings(data []byte, o Options) (*File, error) {
	root, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	if root.Kind != jsonObject {
		return nil, offsetError(data, root.Start, "the file is %s, want a JSON object", root.Kind)
	}
	all := o.Language == "" || o.Language == AllLanguages
	f := &File{SourceLanguage: o.SourceLanguage}
	meta := map[string]string{"version": "1.0"}
	var stringsNode *jsonNode
	for i, k := range root.Keys {
		v := root.Vals[i]
		switch k {
		case "sourceLanguage":
			if v.Kind != jsonString {
				return nil, offsetError(data, v.Start, "sourceLanguage must be a string")
			}
			f.SourceLanguage = v.Str
		case "version":
			if v.Kind != jsonString {
				return nil, offsetError(data, v.Start, "version must be a string")
			}
			meta["version"] = v.Str
		case "strings":
			if v.Kind != jsonObject {
				return nil, offsetError(data, v.Start, "strings must be an object, not %s", v.Kind)
			}
			stringsNode = v
		default:
			meta["json:"+k] = xcJSON(v)
		}
	}
	if bytes.Contains(data, []byte(`\/`)) {
		meta["escapedSlashes"] = "true"
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		meta["noFinalNewline"] = "true"
	}
	f.Meta = meta
	if !all {
		f.Languages = []string{o.Language}
	}
	if stringsNode == nil {
		return f, nil
	}
	langs := make([][]string, len(stringsNode.Keys)) // each entry's languages, in entry order
	for i, key := range stringsNode.Keys {
		v := stringsNode.Vals[i]
		if key == "" {
			// Xcode extracts one from Text(""): no key lokal can hold, kept as written.
			meta["emptyKey"] = xcJSON(v)
			f.Warnings = append(f.Warnings, Warning{Message: xcEmptyKeyWarning})
			continue
		}
		if v.Kind != jsonObject {
			return nil, offsetError(data, v.Start, "string %q must be an object, not %s", key, v.Kind)
		}
		e := Entry{Key: key, Source: key, Values: map[string]Value{}}
		em := map[string]string{}
		for j, field := range v.Keys {
			fv := v.Vals[j]
			switch {
			case field == "comment" && fv.Kind == jsonString:
				e.Comment = fv.Str
			case field == "extractionState" && fv.Kind == jsonString:
				em["extractionState"] = fv.Str
			case field == "shouldTranslate" && fv.Kind == jsonBool && fv.Str == "false":
				e.DoNotTranslate = true
			case field == "localizations":
				if fv.Kind != jsonObject {
					return nil, offsetError(data, fv.Start, "localizations of %q must be an object", key)
				}
				for l, lang := range fv.Keys {
					loc := fv.Vals[l]
					if loc.Kind != jsonObject {
						return nil, offsetError(data, loc.Start, "localization %q of %q must be an object", lang, key)
					}
					if strings.ContainsAny(lang, ".:") || lang == "" {
						return nil, offsetError(data, loc.Start, "localization of %q has a bad language %q", key, lang)
					}
					val, ok, lm := readXCLocalization(lang, loc)
					if ok && lang == f.SourceLanguage && val.Text != "" {
						e.Source = val.Text
					}
					if !all && lang != o.Language {
						continue
					}
					if ok || lm != nil {
						langs[len(f.Entries)] = append(langs[len(f.Entries)], lang)
					}
					if ok {
						e.Values[lang] = val
					}
					for mk, mv := range lm {
						em[mk] = mv
					}
				}
			default:
				em["json:"+field] = xcJSON(fv)
			}
		}
		if len(em) > 0 {
			e.Meta = em
		}
		f.Entries = append(f.Entries, e)
	}
	// Xcode writes entries and localizations in its order, and so does Encode: a file in
	// another order is read in that one, so that it reads the same once written back.
	keys := make([]string, len(f.Entries))
	for i, e := range f.Entries {
		keys[i] = e.Key
	}
	if order := xcodeOrder(keys); order != nil {
		sorted := make([]Entry, len(f.Entries))
		sortedLangs := make([][]string, len(f.Entries))
		for i, j := range order {
			sorted[i], sortedLangs[i] = f.Entries[j], langs[j]
		}
		f.Entries, langs = sorted, sortedLangs
	}
	if all {
		for _, ls := range langs {
			order := xcodeOrder(ls)
			for i := range ls {
				lang := ls[i]
				if order != nil {
					lang = ls[order[i]]
				}
				if !slices.Contains(f.Languages, lang) {
					f.Languages = append(f.Languages, lang)
				}
			}
		}
	}
	return f, nil
}

// xcEmptyKeyWarning is Decode's word on the entry with the empty key.
const xcEmptyKeyWarning = `the catalog's entry with the empty key "" (Xcode extracts one from Text("")) holds nothing to translate; lokal does not import it, and it stays in the file as written`

// readXCLocalization reads one localization: its value (ok false when it has none lokal
// can hold) and the Meta keeping the rest.
func readXCLocalization(lang string, loc *jsonNode) (Value, bool, map[string]string) {
	// The usual localization is one plain stringUnit: no Meta to make.
	if len(loc.Keys) == 1 && loc.Keys[0] == "stringUnit" {
		u := loc.Vals[0]
		if len(u.Keys) == 2 && u.Keys[0] == "state" && u.Keys[1] == "value" && u.Vals[0].Kind == jsonString && u.Vals[1].Kind == jsonString {
			if st, known := xcstatesIn[u.Vals[0].Str]; known {
				v := Value{Text: u.Vals[1].Str, State: st}
				if xcReadsAsICU(v.Text) {
					return v, true, map[string]string{lang + ":plain": "true"}
				}
				return v, true, nil
			}
		}
	}
	meta := map[string]string{}
	var val Value
	ok := false
	unitRead := false // the value is the stringUnit's
	var device *jsonNode
	for i, field := range loc.Keys {
		fv := loc.Vals[i]
		switch field {
		case "stringUnit":
			v, extra, isUnit := readStringUnit(fv)
			if !isUnit {
				meta[lang+".stringUnit"] = xcJSON(fv)
				continue
			}
			val, ok, unitRead = v, true, true
			if extra != "" {
				meta[lang+":stringUnit"] = extra
			}
			if st := fv.get("state"); st != nil && xcstatesIn[st.Str] == "" && st.Str != "new" {
				meta[lang+":state"] = st.Str
			}
		case "variations":
			if fv.Kind != jsonObject {
				meta[lang+".variations"] = xcJSON(fv)
				continue
			}
			for j, kind := range fv.Keys {
				kv := fv.Vals[j]
				if kind == "device" {
					device = kv
				}
				meta[lang+".variations."+kind] = xcJSON(kv)
			}
		default:
			meta[lang+"."+field] = xcJSON(fv)
		}
	}
	if plural, has := meta[lang+".variations.plural"]; has && !ok {
		pn := loc.get("variations").get("plural")
		if v, states, written, isPlural := readXCPlural(lang, pn); isPlural {
			val, ok = v, true
			delete(meta, lang+".variations.plural")
			if states != "" {
				meta[lang+":plural.states"] = states
			}
			if written != "" {
				meta[lang+":plural.written"] = written
			} else if xcOtherOnly(lang) && pn.get("one") == nil {
				meta[lang+":plural.noOne"] = "true"
			}
		} else {
			meta[lang+".variations.plural"] = plural
		}
	}
	if device != nil && !ok {
		if v, extra, isUnit := readStringUnit(device.get("other").get("stringUnit")); isUnit && extra == "" && len(device.get("other").Keys) == 1 {
			if _, known := xcstatesIn[device.get("other").get("stringUnit").get("state").text()]; known {
				val, ok = v, true
				meta[lang+":value"] = "device"
			}
		}
	}
	if _, has := meta[lang+".substitutions"]; has && unitRead {
		state := loc.get("stringUnit").get("state").text()
		if text, sm, isICU := readXCSubstitutions(lang, val.Text, state, loc.get("substitutions")); isICU {
			val.Text = text
			delete(meta, lang+".substitutions")
			for k, v := range sm {
				meta[k] = v
			}
		}
	}
	if unitRead && meta[lang+":substitutions"] == "" && xcReadsAsICU(val.Text) {
		meta[lang+":plain"] = "true"
	}
	if len(meta) == 0 {
		meta = nil
	}
	return val, ok, meta
}

// xcReadsAsICU says whether a stringUnit's text reads as ICU plural blocks: it is kept a
// stringUnit (Meta "<lang>:plain"), not written as variations or substitutions.
func xcReadsAsICU(text string) bool {
	if !strings.Contains(text, "{") {
		return false
	}
	_, ok := SinglePlural(text)
	return ok || len(Pieces(text)) > 1
}

// readXCSubstitutions turns a format key and its substitutions into one ICU value, each
// %#@var@ a plural block on var (the mechanism .stringsdict shares), when every reference
// has a substitution of plain plural forms, every substitution is referenced, and
// writing the value back gives the same file. The Meta keeps argNum, formatSpecifier,
// positions and form states that differ from state (the format's).
func readXCSubstitutions(lang, format, state string, n *jsonNode) (string, map[string]string, bool) {
	parts := splitFormatKey(format)
	if parts == nil || n == nil || n.Kind != jsonObject {
		return "", nil, false
	}
	meta := map[string]string{lang + ":substitutions": "true"}
	read := map[string][]PluralForm{}
	for i := range parts {
		p := &parts[i]
		if p.arg == "" {
			continue
		}
		if p.pos != "" {
			if q, seen := meta[lang+":position."+p.arg]; seen && q != p.pos {
				return "", nil, false
			}
			meta[lang+":position."+p.arg] = p.pos
		}
		if forms, seen := read[p.arg]; seen {
			p.forms = forms
			continue
		}
		sub := n.get(p.arg)
		if sub == nil || sub.Kind != jsonObject {
			return "", nil, false
		}
		for j, k := range sub.Keys {
			v := sub.Vals[j]
			switch {
			case k == "argNum" && v.Kind == jsonNumber:
				meta[lang+":argNum."+p.arg] = v.Str
			case k == "formatSpecifier" && v.Kind == jsonString:
				meta[lang+":formatSpecifier."+p.arg] = v.Str
			case k == "variations" && v.Kind == jsonObject && len(v.Keys) == 1 && v.Keys[0] == "plural":
			default:
				return "", nil, false
			}
		}
		if sub.get("formatSpecifier") == nil {
			meta[lang+":formatSpecifier."+p.arg] = "" // none: Encode writes none
		}
		pn := sub.get("variations").get("plural")
		forms, states, ok := readXCForms(pn)
		if !ok {
			return "", nil, false
		}
		forms, states, written := xcSetAside(lang, pn, forms, states)
		if len(forms) == 0 {
			return "", nil, false
		}
		if written != "" {
			meta[lang+":written."+p.arg] = written
		} else if xcOtherOnly(lang) && pn.get("one") == nil {
			meta[lang+":plural.noOne"] = "true"
		}
		for _, st := range states.Vals {
			if st.Str != state {
				meta[lang+":states."+p.arg] = xcJSON(states)
				break
			}
		}
		// Forms in the order lokal writes them, and only when they are written back.
		back, _, dropped := ToNative(lang, FromNative(lang, p.arg, false, forms), ZeroExplicit)
		if len(dropped) > 0 || len(back) != len(forms) {
			return "", nil, false
		}
		p.forms, read[p.arg] = back, back
	}
	if len(read) != len(n.Keys) {
		return "", nil, false // a substitution no reference names
	}
	text, ok := formatKeyICU(lang, parts)
	if !ok {
		return "", nil, false
	}
	return text, meta, true
}

// readStringUnit reads {"state", "value"}: the Value, and the JSON of any other members.
func readStringUnit(n *jsonNode) (Value, string, bool) {
	if n == nil || n.Kind != jsonObject {
		return Value{}, "", false
	}
	v := n.get("value")
	if v == nil || v.Kind != jsonString {
		return Value{}, "", false
	}
	st := n.get("state")
	if st != nil && st.Kind != jsonString {
		return Value{}, "", false
	}
	out := Value{Text: v.Str}
	if st != nil {
		out.State = xcstatesIn[st.Str]
	}
	extra := jsonObj()
	for i, k := range n.Keys {
		if k != "state" && k != "value" {
			extra.Keys = append(extra.Keys, k)
			extra.Vals = append(extra.Vals, n.Vals[i])
		}
	}
	if len(extra.Keys) == 0 {
		return out, "", true
	}
	return out, xcJSON(extra), true
}

// readXCPlural turns variations.plural into one ICU plural, when every form is a plain
// stringUnit and writing it back gives the same forms. Forms the language never selects
// (the one Xcode writes beside other for Japanese, ToNative's dropped) are left out of
// the value; the third result is then the plural as written (JSON), which Encode writes
// back while the value's forms are unchanged ("" when Encode writes those forms anyway).
func readXCPlural(lang string, n *jsonNode) (Value, string, string, bool) {
	forms, states, ok := readXCForms(n)
	if !ok {
		return Value{}, "", "", false
	}
	for i := range forms {
		forms[i].Text = nativeToICU(forms[i].Text, 0)
	}
	forms, states, written := xcSetAside(lang, n, forms, states)
	if len(forms) == 0 {
		return Value{}, "", "", false
	}
	same := true
	for _, st := range states.Vals {
		same = same && st.Str == states.Vals[0].Str
	}
	text := pluralOfForms(lang, false, forms, ZeroExplicit)
	if text == "" {
		return Value{}, "", "", false
	}
	s := ""
	if !same {
		s = xcJSON(states)
	}
	return Value{Text: text, State: xcstatesIn[states.Vals[0].Str]}, s, written, true
}

// xcSetAside leaves out of a plural's forms (n as written, read by readXCForms) those lang
// never selects (ToNative's dropped): the forms and states kept, and n as written (JSON)
// unless Encode writes the same forms back without it (Xcode's one, the same as other,
// where other is lang's only category). No form kept: nil.
func xcSetAside(lang string, n *jsonNode, forms []PluralForm, states *jsonNode) ([]PluralForm, *jsonNode, string) {
	p := FromNative(lang, "count", false, forms)
	_, _, dropped := ToNative(lang, p, ZeroExplicit)
	if len(dropped) == 0 {
		return forms, states, ""
	}
	// FromNative keeps the forms' order: p.Forms[i] is forms[i].
	var kept []PluralForm
	keptStates := jsonObj()
	for i, f := range p.Forms {
		if !slices.Contains(dropped, f.Selector) {
			kept = append(kept, forms[i])
			keptStates.Keys = append(keptStates.Keys, states.Keys[i])
			keptStates.Vals = append(keptStates.Vals, states.Vals[i])
		}
	}
	if len(kept) == 0 {
		return nil, nil, ""
	}
	one, other := n.get("one"), n.get("other")
	if xcOtherOnly(lang) && len(n.Keys) == len(kept)+1 && one != nil && other != nil && canonicalJSON(one) == canonicalJSON(other) {
		return kept, keptStates, ""
	}
	return kept, keptStates, xcJSON(n)
}

// xcOtherOnly says whether lang's plurals have the other category alone (ja, ko, zh):
// Xcode writes such a plural with a one form beside other, which lang never selects.
func xcOtherOnly(lang string) bool {
	cats := Categories(lang, false)
	return len(cats) == 1 && cats[0] == "other"
}

// readXCForms reads the forms of a plural variation, each a plain stringUnit with a state
// lokal knows: the forms' text as written, and each form's state (an object by category).
func readXCForms(n *jsonNode) ([]PluralForm, *jsonNode, bool) {
	if n == nil || n.Kind != jsonObject || len(n.Keys) == 0 {
		return nil, nil, false
	}
	var forms []PluralForm
	states := jsonObj()
	for i, cat := range n.Keys {
		form := n.Vals[i]
		if form.Kind != jsonObject || len(form.Keys) != 1 {
			return nil, nil, false
		}
		unit := form.get("stringUnit")
		v, extra, ok := readStringUnit(unit)
		if !ok || extra != "" {
			return nil, nil, false
		}
		if _, known := xcstatesIn[unit.get("state").text()]; !known {
			return nil, nil, false
		}
		states.Keys = append(states.Keys, cat)
		states.Vals = append(states.Vals, jsonStr(unit.get("state").text()))
		forms = append(forms, PluralForm{Selector: cat, Text: v.Text})
	}
	return forms, states, true
}

func encodeXCStrings(f *File, o Options) ([]byte, error) {
	all := o.Language == "" || o.Language == AllLanguages
	src := f.SourceLanguage
	if src == "" {
		src = o.SourceLanguage
	}
	root := jsonObj()
	if src != "" {
		root.set("sourceLanguage", jsonStr(src))
	}
	strs := jsonObj()
	root.set("strings", strs)
	version := f.Meta["version"]
	if version == "" {
		version = "1.0"
	}
	root.set("version", jsonStr(version))
	for k, v := range f.Meta {
		if name, ok := strings.CutPrefix(k, "json:"); ok {
			n, err := parseMetaJSON(k, v)
			if err != nil {
				return nil, err
			}
			root.set(name, n)
		}
	}
	seen := make(map[string]bool, len(f.Entries))
	if s, ok := f.Meta["emptyKey"]; ok && !slices.ContainsFunc(f.Entries, func(e Entry) bool { return e.Key == "" }) {
		n, err := parseMetaJSON("emptyKey", s)
		if err != nil {
			return nil, err
		}
		// The writer puts it first, where Xcode's order has it.
		strs.set("", n)
	}
	for _, e := range f.Entries {
		if seen[e.Key] {
			return nil, fmt.Errorf("formats: xcstrings: duplicate key %q", e.Key)
		}
		seen[e.Key] = true
		n, err := xcEntry(e, src, all, o.Language)
		if err != nil {
			return nil, err
		}
		strs.Keys = append(strs.Keys, e.Key)
		strs.Vals = append(strs.Vals, n)
	}
	w := jsonWriter{colon: " : ", xcodeEmpty: true, order: xcodeOrder, slash: f.Meta["escapedSlashes"] == "true"}
	w.b.Grow(256 + 512*len(f.Entries)) // about what an entry in three languages takes
	w.node(root, 0)
	if f.Meta["noFinalNewline"] != "true" {
		w.b.WriteByte('\n')
	}
	return w.b.Bytes(), nil
}

func xcEntry(e Entry, src string, all bool, only string) (*jsonNode, error) {
	n := jsonObj()
	if e.Comment != "" {
		n.set("comment", jsonStr(e.Comment))
	}
	if s := e.Meta["extractionState"]; s != "" {
		n.set("extractionState", jsonStr(s))
	}
	if e.DoNotTranslate {
		n.set("shouldTranslate", &jsonNode{Kind: jsonBool, Str: "false"})
	}
	// The languages the entry writes: its values, and those its Meta keeps something for.
	var langs []string
	for lang := range e.Values {
		if all || lang == only {
			langs = append(langs, lang)
		}
	}
	for k, v := range e.Meta {
		if name, ok := strings.CutPrefix(k, "json:"); ok {
			mv, err := parseMetaJSON(k, v)
			if err != nil {
				return nil, err
			}
			n.set(name, mv)
			continue
		}
		if i := strings.IndexAny(k, ".:"); i >= 0 && (all || k[:i] == only) && !slices.Contains(langs, k[:i]) {
			lang := k[:i]
			langs = append(langs, lang)
		}
	}
	_, hasSrc := e.Values[src]
	if src != "" && !hasSrc && !slices.Contains(langs, src) && e.Source != "" && e.Source != e.Key {
		langs = append(langs, src)
	}
	locs := jsonObj()
	for _, lang := range langs {
		v, has := e.Values[lang]
		if !has && src != "" && lang == src && e.Source != "" && e.Source != e.Key {
			v, has = Value{Text: e.Source, State: StateTranslated}, true
		}
		loc, err := xcLocalization(e, lang, v, has)
		if err != nil {
			return nil, err
		}
		if len(loc.Keys) > 0 {
			locs.set(lang, loc)
		}
	}
	if len(locs.Keys) > 0 {
		n.set("localizations", locs)
	}
	return n, nil
}

func xcLocalization(e Entry, lang string, v Value, has bool) (*jsonNode, error) {
	loc := jsonObj()
	prefix := lang + "."
	metaJSON := func(key string) (*jsonNode, error) {
		s, ok := e.Meta[key]
		if !ok {
			return nil, nil
		}
		return parseMetaJSON(key, s)
	}
	state := xcstatesOut[v.State]
	marker := lang + ":"
	if s, ok := e.Meta[marker+"state"]; ok && v.State == StateNone {
		state = s
	}
	unit := func(text, state string) *jsonNode {
		return &jsonNode{Kind: jsonObject, Keys: []string{"state", "value"}, Vals: []*jsonNode{jsonStr(state), jsonStr(text)}}
	}
	variations := jsonObj()
	for k, s := range e.Meta {
		rest, ok := strings.CutPrefix(k, prefix)
		if !ok {
			continue
		}
		kind, isVariation := strings.CutPrefix(rest, "variations.")
		switch {
		case isVariation:
			n, err := parseMetaJSON(k, s)
			if err != nil {
				return nil, err
			}
			variations.set(kind, n)
		case rest == "stringUnit":
		default:
			n, err := parseMetaJSON(k, s)
			if err != nil {
				return nil, err
			}
			loc.set(rest, n)
		}
	}
	plain := e.Meta[marker+"plain"] == "true"
	p, isPlural := singlePlural(v.Text)
	// A value with plural blocks and text around them (or one from substitutions, marked so
	// or naming %arg, the substitution's own argument, which a plural variation never
	// names) is a format key with substitutions.
	var subFormat string
	var subVars []*Plural
	subst := false
	if has && !plain && e.Meta[marker+"value"] != "device" && (!isPlural || e.Meta[marker+"substitutions"] == "true" || strings.Contains(v.Text, "%arg")) && strings.Contains(v.Text, "{") {
		subFormat, subVars, subst = icuFormatKey(lang, Pieces(v.Text), func(arg string) string { return e.Meta[marker+"position."+arg] })
	}
	switch {
	case !has:
	case e.Meta[marker+"value"] == "device":
		device := variations.get("device")
		if device == nil || device.Kind != jsonObject {
			device = jsonObj()
			variations.set("device", device)
		}
		other := jsonObj()
		other.set("stringUnit", unit(v.Text, state))
		device.set("other", other)
	case subst:
		u := unit(subFormat, state)
		if extra, err := metaJSON(lang + ":stringUnit"); err != nil {
			return nil, err
		} else if extra != nil {
			for i, k := range extra.Keys {
				u.set(k, extra.Vals[i])
			}
		}
		loc.set("stringUnit", u)
		subs, err := xcWriteSubstitutions(e, lang, state, subVars, unit)
		if err != nil {
			return nil, err
		}
		loc.set("substitutions", subs)
	case isPlural && !plain && variations.get("plural") == nil:
		states, err := metaJSON(lang + ":plural.states")
		if err != nil {
			return nil, err
		}
		forms, _, _ := ToNative(lang, p, ZeroExplicit)
		plural := jsonObj()
		for _, fm := range forms {
			st := state
			if s := states.get(fm.Selector); s != nil {
				st = s.Str
			}
			form := jsonObj()
			form.set("stringUnit", unit(icuToNative(fm.Text, "%lld"), st))
			plural.set(fm.Selector, form)
		}
		plural, err = xcXcodeForms(e, lang, lang+":plural.written", plural)
		if err != nil {
			return nil, err
		}
		variations.set("plural", plural)
	default:
		u := unit(v.Text, state)
		if extra, err := metaJSON(lang + ":stringUnit"); err != nil {
			return nil, err
		} else if extra != nil {
			for i, k := range extra.Keys {
				u.set(k, extra.Vals[i])
			}
		}
		loc.set("stringUnit", u)
	}
	if loc.get("stringUnit") == nil {
		// A stringUnit lokal could not read, beside a value from elsewhere or none.
		if n, err := metaJSON(prefix + "stringUnit"); err != nil {
			return nil, err
		} else if n != nil {
			loc.set("stringUnit", n)
		}
	}
	if len(variations.Keys) > 0 {
		loc.set("variations", variations)
	}
	return loc, nil
}

// xcXcodeForms is plural (the forms of a value in lang) as the file writes it: the plural
// as written (Meta writtenKey) while it holds the same forms, else Xcode's one beside
// other where other is lang's only category (unless the file had none: "plural.noOne").
func xcXcodeForms(e Entry, lang, writtenKey string, plural *jsonNode) (*jsonNode, error) {
	var written *jsonNode
	if s, ok := e.Meta[writtenKey]; ok {
		n, err := parseMetaJSON(writtenKey, s)
		if err != nil {
			return nil, err
		}
		written = n
	}
	switch {
	case xcSameForms(lang, written, plural):
		return written, nil
	case xcOtherOnly(lang) && e.Meta[lang+":plural.noOne"] != "true" && plural.get("one") == nil && plural.get("other") != nil:
		plural.set("one", plural.get("other"))
	}
	return plural, nil
}

// xcSameForms says whether written (a plural as the file had it, or nil) holds exactly
// the forms of plural, with the same texts and states, and besides them only forms lang
// never selects: written is then the file's spelling of the same value.
func xcSameForms(lang string, written, plural *jsonNode) bool {
	if written == nil || written.Kind != jsonObject {
		return false
	}
	for i, sel := range plural.Keys {
		if w := written.get(sel); w == nil || canonicalJSON(w) != canonicalJSON(plural.Vals[i]) {
			return false
		}
	}
	for _, sel := range written.Keys {
		if plural.get(sel) != nil {
			continue
		}
		p := FromNative(lang, "count", false, []PluralForm{{Selector: sel}})
		if _, _, dropped := ToNative(lang, p, ZeroExplicit); len(dropped) == 0 {
			return false // a form lang selects, which the value no longer has
		}
	}
	return true
}

// xcWriteSubstitutions writes a format key's variables as substitutions in lang: argNum and
// formatSpecifier as kept (from another language of the entry when lang has none, else
// no argNum and "lld"), exactly lang's categories, '#' as %arg (Xcode's spelling of the
// substitution's own argument).
func xcWriteSubstitutions(e Entry, lang, state string, vars []*Plural, unit func(text, state string) *jsonNode) (*jsonNode, error) {
	subs := jsonObj()
	for _, p := range vars {
		sub := jsonObj()
		if k, n := xcSubMeta(e, lang, "argNum", p.Arg); k != "" {
			num, err := parseMetaJSON(k, n)
			if err != nil {
				return nil, err
			}
			if num.Kind != jsonNumber {
				return nil, fmt.Errorf("formats: xcstrings: Meta %q is not a number", k)
			}
			sub.set("argNum", num)
		}
		spec := "lld"
		if k, s := xcSubMeta(e, lang, "formatSpecifier", p.Arg); k != "" {
			spec = s
		}
		if spec != "" {
			sub.set("formatSpecifier", jsonStr(spec))
		}
		var states *jsonNode
		if s, ok := e.Meta[lang+":states."+p.Arg]; ok {
			n, err := parseMetaJSON(lang+":states."+p.Arg, s)
			if err != nil {
				return nil, err
			}
			states = n
		}
		plural := jsonObj()
		for _, fm := range formatKeyForms(lang, p, "%arg") {
			st := state
			if s := states.get(fm.Selector); s != nil {
				st = s.Str
			}
			form := jsonObj()
			form.set("stringUnit", unit(fm.Text, st))
			plural.set(fm.Selector, form)
		}
		plural, err := xcXcodeForms(e, lang, lang+":written."+p.Arg, plural)
		if err != nil {
			return nil, err
		}
		variations := jsonObj()
		variations.set("plural", plural)
		sub.set("variations", variations)
		subs.set(p.Arg, sub)
	}
	return subs, nil
}

// xcSubMeta finds a substitution's kept field: lang's, else the first other language's
// (by language code) that has one. It returns the Meta key and value, "" when none has.
func xcSubMeta(e Entry, lang, field, arg string) (string, string) {
	k := lang + ":" + field + "." + arg
	if v, ok := e.Meta[k]; ok {
		return k, v
	}
	suffix := ":" + field + "." + arg
	best := ""
	for mk := range e.Meta {
		if l, ok := strings.CutSuffix(mk, suffix); ok && l != "" && !strings.ContainsAny(l, ".:") && (best == "" || mk < best) {
			best = mk
		}
	}
	if best == "" {
		return "", ""
	}
	return best, e.Meta[best]
}

// xcJSON is n as a Meta value: compact, keys in Xcode's order (so that it reads the same
// after Xcode or this codec rewrote the file).
func xcJSON(n *jsonNode) string {
	w := jsonWriter{order: xcodeOrder}
	w.compact(n)
	return w.b.String()
}

// xcodeCollators are collators in Xcode's key order (one per goroutine at a time: a
// Collator is not safe for concurrent use).
var xcodeCollators = sync.Pool{New: func() any { return collate.New(language.Und, collate.Numeric) }}

// xcodeOrder orders an object's keys as Xcode writes them: by the Unicode collation with
// numbers compared by value (what Finder's sort does), ties by bytes.
func xcodeOrder(keys []string) []int {
	if len(keys) < 2 {
		return nil
	}
	plain := true
	for _, k := range keys {
		for i := 0; i < len(k) && plain; i++ {
			plain = k[i] >= 'a' && k[i] <= 'z'
		}
	}
	if plain {
		// Lower-case ASCII words collate in byte order.
		if slices.IsSorted(keys) {
			return nil
		}
		order := identity(len(keys))
		slices.SortFunc(order, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
		return order
	}
	if !slices.ContainsFunc(keys, func(k string) bool { return !xcodeSimple(k) }) {
		// Identifiers (section_2.title): their collation is computed here, without the
		// collator's key per string, which was most of a 50,000-key export.
		if slices.IsSortedFunc(keys, xcodeSimpleCompare) {
			return nil
		}
		order := identity(len(keys))
		if sk, ok := xcodeSimpleKeys(keys); ok {
			slices.SortFunc(order, func(a, b int) int {
				if r := bytes.Compare(sk[a], sk[b]); r != 0 {
					return r
				}
				return strings.Compare(keys[a], keys[b])
			})
			return order
		}
		slices.SortFunc(order, func(a, b int) int { return xcodeSimpleCompare(keys[a], keys[b]) })
		return order
	}
	order := identity(len(keys))
	c := xcodeCollators.Get().(*collate.Collator)
	defer xcodeCollators.Put(c)
	var buf collate.Buffer
	sk := make([][]byte, len(keys))
	for i, k := range keys {
		sk[i] = c.KeyFromString(&buf, k)
	}
	slices.SortFunc(order, func(a, b int) int {
		if r := bytes.Compare(sk[a], sk[b]); r != 0 {
			return r
		}
		return strings.Compare(keys[a], keys[b])
	})
	return order
}

// xcodeSimple: k is made of lower-case ASCII letters, numbers, "_", "-" and ".", where
// xcodeSimpleCompare gives the collator's order.
func xcodeSimple(k string) bool {
	for i := 0; i < len(k); i++ {
		switch c := k[i]; {
		case c >= 'a' && c <= 'z', c == '_', c == '-', c == '.', c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return true
}

// xcodeSimpleKeys are xcodeSimple keys' sort keys, which compare bytewise as
// xcodeSimpleCollate does (comparing them was most of sorting): a number's digit count
// below every character, then "_" < "-" < "." < a number's start < letters; a number is
// its start, then its count and digits without leading zeros unless it is zeros alone.
// The keys share one slab; false when a number has more digits than a byte counts here.
func xcodeSimpleKeys(keys []string) ([][]byte, bool) {
	const maxDigits, start = 100, 104
	n := 0
	for _, k := range keys {
		n += 2 * len(k)
	}
	slab := make([]byte, 0, n)
	out := make([][]byte, len(keys))
	for i, k := range keys {
		at := len(slab)
		for j := 0; j < len(k); {
			switch c := k[j]; {
			case c == '_':
				slab = append(slab, maxDigits+1)
			case c == '-':
				slab = append(slab, maxDigits+2)
			case c == '.':
				slab = append(slab, maxDigits+3)
			case c >= '0' && c <= '9':
				for j < len(k) && k[j] == '0' {
					j++
				}
				lo := j
				for j < len(k) && k[j] >= '0' && k[j] <= '9' {
					j++
				}
				if j-lo > maxDigits {
					return nil, false
				}
				slab = append(slab, start)
				if j > lo {
					slab = append(slab, byte(j-lo))
					slab = append(slab, k[lo:j]...)
				}
				continue
			default:
				slab = append(slab, start+1+c-'a')
			}
			j++
		}
		out[i] = slab[at:len(slab):len(slab)]
	}
	return out, true
}

// xcodeSimpleCompare is the Unicode collation with numbers compared by value of two
// xcodeSimple strings, ties by bytes: "_" < "-" < "." < numbers < letters, a string
// before those it begins. The collator drops a number's leading zeros; a number of
// zeros alone weighs only its start, so that what follows it compares with another
// number's digit count, which is below every character (x_1.l before x_0.l, x_0 before
// x_1).
func xcodeSimpleCompare(a, b string) int {
	if r := xcodeSimpleCollate(a, b); r != 0 {
		return r
	}
	return strings.Compare(a, b)
}

// xcodeSimpleCollate is xcodeSimpleCompare without the tie by bytes: 0 for strings that
// differ only in their numbers' leading zeros.
func xcodeSimpleCollate(a, b string) int {
	class := func(c byte) int {
		switch {
		case c == '_':
			return 0
		case c == '-':
			return 1
		case c == '.':
			return 2
		case c >= '0' && c <= '9':
			return 3
		}
		return 4
	}
	digits := func(s string, i int) (lo, hi int) { // the number at i without its leading zeros
		for i < len(s) && s[i] == '0' {
			i++
		}
		lo = i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return lo, i
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := class(a[i]), class(b[j])
		if ca != cb {
			return ca - cb
		}
		if ca != 3 {
			if a[i] != b[j] {
				return int(a[i]) - int(b[j])
			}
			i++
			j++
			continue
		}
		si, ei := digits(a, i)
		sj, ej := digits(b, j)
		switch za, zb := si == ei, sj == ej; {
		case za && zb:
		case za: // what follows a's zeros against b's digit count
			if ei == len(a) {
				return -1
			}
			return 1
		case zb:
			if ej == len(b) {
				return 1
			}
			return -1
		case ei-si != ej-sj:
			return (ei - si) - (ej - sj)
		default:
			if r := strings.Compare(a[si:ei], b[sj:ej]); r != 0 {
				return r
			}
		}
		i, j = ei, ej
	}
	return (len(a) - i) - (len(b) - j)
}

// xcstringsUnkept names what of e only its Meta keeps (Codec.Unkept), in the words of what
// a store keeping only the key, values, comment and do-not-translate mark would lose:
// device variations, the substitutions' argNum, positions and format specifiers, forms
// and substitutions lokal cannot read, extractionState. What changes nothing the app shows
// or Xcode does (Xcode's spelling, isCommentAutoGenerated) is not named.
func xcstringsUnkept(e Entry) []string {
	var out []string
	keys := slices.Sorted(maps.Keys(e.Meta))
	subs := map[string][]string{} // lang: its substitutions' argNum, position, specifier
	for _, k := range keys {
		v := e.Meta[k]
		// "<lang>.<member>" or "<lang>:<marker>": a language has neither '.' nor ':'.
		lang, rest := k, ""
		if i := strings.IndexAny(k, ".:"); i >= 0 {
			lang, rest = k[:i], k[i:]
		}
		switch {
		case k == "extractionState" && v == "manual":
			out = append(out, `extractionState "manual" (a key added by hand): without it Xcode marks the key stale once its code does not use it`)
		case k == "extractionState" && v == "stale":
			out = append(out, `extractionState "stale" (Xcode's mark that the code no longer uses the key)`)
		case k == "extractionState":
			out = append(out, fmt.Sprintf("extractionState %q", v))
		case k == "json:isCommentAutoGenerated":
		case strings.HasPrefix(k, "json:"):
			out = append(out, fmt.Sprintf("the entry's member %q", strings.TrimPrefix(k, "json:")))
		case rest == ".variations.device":
			out = append(out, fmt.Sprintf("the %s device variations (%s): without them every device shows one text", lang, xcMembers(v)))
		case strings.HasPrefix(rest, ".variations."):
			out = append(out, fmt.Sprintf("the %s %s variations, which lokal cannot read as a value", lang, strings.TrimPrefix(rest, ".variations.")))
		case rest == ".substitutions":
			out = append(out, fmt.Sprintf("the %s substitutions (%s), which lokal cannot read as plurals: the value keeps their %%#@name@ references only", lang, xcMembers(v)))
		case rest == ".stringUnit" || rest == ":state" || rest == ":stringUnit":
			out = append(out, fmt.Sprintf("what lokal cannot read of the %s stringUnit: %s", lang, v))
		case strings.HasPrefix(rest, "."):
			out = append(out, fmt.Sprintf("the %s localization's member %q", lang, rest[1:]))
		case strings.HasPrefix(rest, ":argNum."):
			// An argNum that is the variable's place in the text changes nothing.
			arg := strings.TrimPrefix(rest, ":argNum.")
			if v != strconv.Itoa(xcArgPlace(e.Values[lang].Text, arg)) || e.Meta[lang+":position."+arg] != "" {
				subs[lang] = append(subs[lang], fmt.Sprintf("%s argNum %s", arg, v))
			}
		case strings.HasPrefix(rest, ":position."):
			subs[lang] = append(subs[lang], fmt.Sprintf("%s position %s", strings.TrimPrefix(rest, ":position."), v))
		case strings.HasPrefix(rest, ":formatSpecifier.") && v != "lld":
			subs[lang] = append(subs[lang], fmt.Sprintf("%s formatSpecifier %q", strings.TrimPrefix(rest, ":formatSpecifier."), v))
		case rest == ":plural.written":
			out = append(out, fmt.Sprintf("the %s plural's %s, which %s never selects (Xcode writes one beside other): without the file's copy, one is written as other reads", lang, xcNeverSelected(lang, v), lang))
		case rest == ":plural.states" || strings.HasPrefix(rest, ":states."):
			out = append(out, fmt.Sprintf("the %s plural forms' own states (%s)", lang, v))
		}
	}
	for _, lang := range slices.Sorted(maps.Keys(subs)) {
		out = append(out, fmt.Sprintf("the %s substitutions' %s: without them the substitutions take the arguments in the order the text names them, as %%lld, so a reordered or non-integer argument shows the wrong number", lang, strings.Join(subs[lang], ", ")))
	}
	return out
}

// xcArgPlace is the place (1-based) of arg's plural block among those of value, 0 when
// it has none.
func xcArgPlace(value, arg string) int {
	n := 0
	for _, p := range Pieces(value) {
		if p.Plural != nil {
			n++
			if p.Plural.Arg == arg {
				return n
			}
		}
	}
	return 0
}

// xcNeverSelected lists the forms of a plural as written (JSON) that lang never selects,
// with their text: `one ("1 张照片")`.
func xcNeverSelected(lang, written string) string {
	n, err := parseMetaJSON("", written)
	if err != nil || n.Kind != jsonObject {
		return "forms"
	}
	var out []string
	for i, sel := range n.Keys {
		p := FromNative(lang, "count", false, []PluralForm{{Selector: sel}})
		if _, _, dropped := ToNative(lang, p, ZeroExplicit); len(dropped) > 0 {
			out = append(out, fmt.Sprintf("%s form (%q)", sel, n.Vals[i].get("stringUnit").get("value").text()))
		}
	}
	return strings.Join(out, ", ")
}

// xcMembers lists the members of a Meta JSON object ("iphone, mac, other").
func xcMembers(s string) string {
	n, err := parseMetaJSON("", s)
	if err != nil || n.Kind != jsonObject {
		return s
	}
	return strings.Join(n.Keys, ", ")
}
