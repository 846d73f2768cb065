package formats

import "maps"

// mergeXCStrings patches a String Catalog localization by localization (Codec.Merge): an
// unchanged one keeps its bytes; a changed one has only the strings that differ rewritten
// (a stringUnit's value and state, a plural form's), members it gains inserted in Xcode's
// key order and those it loses removed; a new language's localization and a new key are
// written in the file's style (Xcode's `"key" : value`, its indentation, its escaping).
// Entry fields lokal may not keep (comment, extractionState, shouldTranslate) stay as the
// file has them.
func mergeXCStrings(local []byte, theirs *File, o Options) ([]byte, error) {
	mine, err := decodeXCStrings(local, o)
	if err != nil {
		return nil, err
	}
	root, err := parseJSON(local)
	if err != nil {
		return nil, err
	}
	p := newJSONPatch(local, root)
	p.style.xcode = true
	all := o.Language == "" || o.Language == AllLanguages
	src := mine.SourceLanguage
	strs := root.get("strings")
	if strs == nil {
		// No strings to patch: the export is the file.
		return encodeXCStrings(theirs, o)
	}
	want := make(map[string]*Entry, len(theirs.Entries))
	for i := range theirs.Entries {
		want[theirs.Entries[i].Key] = &theirs.Entries[i]
	}
	have := make(map[string]*Entry, len(mine.Entries))
	for i := range mine.Entries {
		have[mine.Entries[i].Key] = &mine.Entries[i]
	}
	for i, key := range strs.Keys {
		t := want[key]
		if key == "" {
			continue // Xcode's empty key is no entry of lokal's: it stays as written
		}
		if t == nil {
			p.remove(strs, i)
			continue
		}
		m := have[key]
		langs := map[string]bool{}
		for l := range m.Values {
			langs[l] = true
		}
		for l := range t.Values {
			langs[l] = true
		}
		// The entry as lokal has it, with what only the file kept (argNum, markers).
		e := *t
		e.Meta = maps.Clone(m.Meta)
		if e.Meta == nil {
			e.Meta = map[string]string{}
		}
		maps.Copy(e.Meta, t.Meta)
		for l := range langs {
			if !all && l != o.Language {
				continue
			}
			mv, mok := m.Values[l]
			tv, tok := t.Values[l]
			if mok == tok && mv.Text == tv.Text && xcstatesOut[mv.State] == xcstatesOut[tv.State] {
				continue
			}
			if l == src && tok && (mok && mv.Text == tv.Text || !mok && tv.Text == key) {
				// The source localization's state is Xcode's ("new" until a translation
				// exists), and Xcode leaves out one that says the key itself.
				continue
			}
			if err := p.xcLocalization(strs.Vals[i], &e, l, tv, tok); err != nil {
				return nil, err
			}
		}
	}
	for _, e := range theirs.Entries {
		if have[e.Key] != nil {
			continue
		}
		n, err := xcEntry(e, src, all, o.Language)
		if err != nil {
			return nil, err
		}
		p.insert(strs, xcAfter(strs, e.Key), e.Key, n)
	}
	return p.bytes()
}

// xcLocalization writes lang's localization of entry node n as e has it.
func (p *jsonPatch) xcLocalization(n *jsonNode, e *Entry, lang string, v Value, has bool) error {
	locs := n.get("localizations")
	var loc *jsonNode
	if locs != nil {
		loc = locs.get(lang)
	}
	if !has {
		if loc != nil {
			p.remove(locs, locs.index(lang))
		}
		return nil
	}
	wantLoc, err := xcLocalization(*e, lang, v, true)
	if err != nil {
		return err
	}
	switch {
	case locs == nil || locs.Kind != jsonObject:
		w := jsonObj()
		w.set(lang, wantLoc)
		if locs != nil {
			p.replace(n, locs, w)
		} else {
			p.insert(n, xcAfter(n, "localizations"), "localizations", w)
		}
	case loc == nil:
		p.insert(locs, xcAfter(locs, lang), lang, wantLoc)
	default:
		p.xcPatch(locs, loc, wantLoc, true)
	}
	return nil
}

// xcPatch turns have (a member of c) into want: strings that differ are rewritten, members
// want lacks go (in a localization only the value's own: stringUnit, variations,
// substitutions), members it adds are inserted in Xcode's order.
func (p *jsonPatch) xcPatch(c, have, want *jsonNode, isLoc bool) {
	switch {
	case have.Kind == jsonString && want.Kind == jsonString:
		p.setString(have, want.Str)
		return
	case have.Kind != jsonObject || want.Kind != jsonObject:
		if canonicalJSON(have) != canonicalJSON(want) {
			p.replace(c, have, want)
		}
		return
	}
	for i, k := range have.Keys {
		if want.index(k) >= 0 {
			continue
		}
		if !isLoc || k == "stringUnit" || k == "variations" || k == "substitutions" {
			p.remove(have, i)
		}
	}
	for i, k := range want.Keys {
		if j := have.index(k); j >= 0 {
			p.xcPatch(have, have.Vals[j], want.Vals[i], false)
			continue
		}
		p.insert(have, xcAfter(have, k), k, want.Vals[i])
	}
}

// xcAfter is the member of obj a new key follows in Xcode's order, -1 for the first place.
func xcAfter(obj *jsonNode, key string) int {
	keys := append(append(make([]string, 0, len(obj.Keys)+1), obj.Keys...), key)
	order := xcodeOrder(keys)
	if order == nil {
		return len(obj.Keys) - 1
	}
	after := -1
	for _, i := range order {
		if i == len(obj.Keys) {
			return after
		}
		after = i
	}
	return after
}
