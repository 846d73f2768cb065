package formats

import (
	"slices"
	"strconv"
	"strings"

	"github.com/lokal-dev/lokal/tools/message"
)

// Merge of Android strings.xml (Codec.Merge): a changed <string> or <item> gets its
// content rewritten in the spelling the file used for it (Meta "content", "cdata"), a
// changed <plurals> only the items whose form changed (an item the value gains is written
// after the one before it; one of a category the language has that it loses goes); a
// <string-array> whose items come and go is written again in place. What lokal no longer
// has goes with its line and the comment lines above it; a new string follows the element
// of the entry before it in theirs, indented as that one is.

func mergeAndroid(local []byte, theirs *File, o Options) ([]byte, error) {
	lf, err := decodeAndroid(local, o)
	if err != nil {
		return nil, err
	}
	doc, err := xmlParse(local)
	if err != nil {
		return nil, err
	}
	data := doc.data
	lang := o.Language
	if len(lf.Languages) > 0 {
		lang = lf.Languages[0]
	}
	byKey := map[string]Entry{}
	for _, e := range lf.Entries {
		byKey[e.Key] = e
	}
	// The elements of local's entries: a <string> or <plurals> per key, an <item> per
	// array key, and the arrays by name.
	type slot struct {
		el, array *xlNode
	}
	slots := map[string]slot{}
	arrays := map[string]*xlNode{}
	var order []*xlNode
	seen := map[string]bool{}
	for _, el := range doc.root.elements() {
		name, _ := el.attr("name")
		switch el.name {
		case "string", "plurals":
			k := name
			if p, _ := el.attr("product"); p != "" && seen[k] {
				k += "#" + p
			}
			seen[k] = true
			slots[k] = slot{el: el}
		case "string-array":
			arrays[name] = el
			for i, it := range el.elements() {
				slots[name+"."+strconv.Itoa(i)] = slot{el: it, array: el}
			}
		default:
			continue
		}
		order = append(order, el)
	}
	indent, step := "    ", "    "
	if len(order) > 0 {
		indent, step = xmlIndent(data, order[0].start), xmlStep(data, order[0])
	} else if els := doc.root.elements(); len(els) > 0 {
		indent = xmlIndent(data, els[0].start)
	}
	render := func(es []Entry) string {
		out, _ := encodeAndroid(&File{Languages: []string{lang}, Entries: es}, Options{Language: lang})
		s := string(out)
		i := strings.Index(s, "<resources")
		i += strings.Index(s[i:], ">\n") + 1
		j := strings.LastIndex(s, "\n</resources>")
		return xmlReindent(s[i:j], 4, indent, step)
	}
	tes := xlTheirs(theirs, lang)
	inTheirs := map[string]bool{}
	theirArrays := map[string][]Entry{}
	for _, t := range tes {
		inTheirs[t.Key] = true
		if base, _, ok := arrayKey(t.Key); ok && arrays[base] != nil {
			theirArrays[base] = append(theirArrays[base], t)
		}
	}
	var edits []Edit
	// Arrays: items patched while the same ones are there, else the array written again.
	same := map[string]bool{}
	for name, arr := range arrays {
		items, ts := arr.elements(), theirArrays[name]
		ok := len(ts) == len(items)
		for i, t := range ts {
			if t.Key != name+"."+strconv.Itoa(i) {
				ok = false
			}
		}
		switch {
		case len(ts) == 0:
			edits = append(edits, xmlRemoval(data, arr.start, arr.end))
		case ok:
			same[name] = true
		default:
			ts = slices.Clone(ts)
			ts[0].Comment = "" // the comment above stays as written
			edits = append(edits, Edit{Start: xmlWSStart(data, arr.start), End: arr.end, Text: render(ts)})
		}
	}
	for k, s := range slots {
		if s.array == nil && !inTheirs[k] {
			edits = append(edits, xmlRemoval(data, s.el.start, s.el.end))
		}
	}
	var after *xlNode // the element of the last entry of theirs local has
	for i := 0; i < len(tes); i++ {
		t := tes[i]
		if base, _, ok := arrayKey(t.Key); ok && arrays[base] != nil {
			after = arrays[base]
			if same[base] {
				le, s := byKey[t.Key], slots[t.Key]
				if !SameValue(le, t, lang) {
					edits = append(edits, xlReplaceElement(data, s.el, s.el.rawAttrs, androidWriteValue(t.Values[lang].Text, le.Meta["content"], le.Meta["cdata"]))...)
				}
			}
			continue
		}
		if s, ok := slots[t.Key]; ok {
			after = s.el
			le := byKey[t.Key]
			if !SameValue(le, t, lang) {
				edits = append(edits, androidChange(data, s.el, le, t, lang, render)...)
			}
			continue
		}
		// New: the array it starts, else the entry alone.
		run := []Entry{t}
		if _, n, _ := arrayRun(tes, i, lang); n > 0 {
			run = tes[i : i+n]
			i += n - 1
		}
		if _, has := t.Values[lang]; !has && len(run) == 1 {
			continue // untranslated: an export leaves it out
		}
		at := doc.root.innerStart
		if after != nil {
			at = after.end
		} else if len(order) > 0 {
			at = xmlWSStart(data, order[0].start)
		}
		edits = append(edits, Edit{Start: at, End: at, Text: render(run)})
	}
	return Splice(data, edits)
}

// androidChange rewrites a <string>'s content or a <plurals>' changed items.
func androidChange(data []byte, el *xlNode, le, t Entry, lang string, render func([]Entry) string) []Edit {
	v, has := t.Values[lang]
	if !has {
		return []Edit{xmlRemoval(data, el.start, el.end)} // untranslated now: left out
	}
	p, plural := SinglePlural(v.Text)
	plural = plural && !p.Ordinal && le.Meta["type"] != "string"
	if el.name == "string" && !plural {
		return xlReplaceElement(data, el, el.rawAttrs, androidWriteValue(v.Text, le.Meta["content"], le.Meta["cdata"]))
	}
	lp, lok := SinglePlural(le.Values[lang].Text)
	if el.name != "plurals" || !plural || !lok {
		// A string that became a plural or the other way round: the element written again.
		t.Comment = ""
		t.Meta = le.Meta
		return []Edit{{Start: xmlWSStart(data, el.start), End: el.end, Text: render([]Entry{t})}}
	}
	forms, _, _ := ToNative(lang, p, nil)
	lforms, _, _ := ToNative(lang, lp, nil)
	was := map[string]string{}
	for _, f := range lforms {
		was[f.Selector] = f.Text
	}
	items := map[string]*xlNode{}
	for _, it := range el.elements() {
		q, _ := it.attr("quantity")
		items[q] = it
	}
	var edits []Edit
	var prev *xlNode
	want := map[string]bool{}
	for _, f := range forms {
		want[f.Selector] = true
		content := androidWriteValue(message.ICUToNative(f.Text, "%d"), le.Meta["content"], "")
		it := items[f.Selector]
		switch {
		case it == nil:
			at, in := el.innerStart, ""
			if prev != nil {
				at, in = prev.end, xmlIndent(data, prev.start)
			} else if els := el.elements(); len(els) > 0 {
				in = xmlIndent(data, els[0].start)
				at = xmlWSStart(data, els[0].start)
			}
			edits = append(edits, Edit{Start: at, End: at, Text: "\n" + in + `<item quantity="` + f.Selector + `">` + content + "</item>"})
			continue
		case was[f.Selector] != f.Text:
			edits = append(edits, xlReplaceElement(data, it, it.rawAttrs, content)...)
		}
		prev = it
	}
	cats := Categories(lang, false)
	for q, it := range items {
		if !want[q] && slices.Contains(cats, q) {
			edits = append(edits, xmlRemoval(data, it.start, it.end))
		}
	}
	return edits
}
