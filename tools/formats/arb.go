package formats

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// arb: Flutter's Application Resource Bundle, a flat JSON object whose values are ICU (a
// plural is already one ICU value; it is kept as written). Rules:
//
//   - "@@locale", "@@context" and every other "@@x" member go to File.Meta["@@x"]: the
//     string, or for a value that is not a string its JSON, with File.Meta["@@x:json"] =
//     "true" (a file that has both "@@x" and "@@x:json" is refused). Encode writes them
//     first, @@locale then the others by name. Without a kept @@locale Encode writes the
//     export's language (pt_BR, Flutter's spelling), unless Meta["nolocale"] = "true"
//     says the file had none.
//   - "@key" is the metadata of "key": its "description" is Entry.Comment, everything else
//     (placeholders, type, context, ...) is kept, members in file order, as one compact JSON
//     object in Entry.Meta["metadata"]. Encode writes "@key" right after "key",
//     "description" first. A "@key" with no "key" is kept as an entry with no value (Meta
//     and Comment only), which is written back in its place.
//   - Any other value that is not a string is refused with its line, as is a key given twice.
//   - Entries keep file order; a key with no value in the language is left out, unless it
//     carries metadata only. arbUnkept (Codec.Unkept) names the metadata only Meta keeps.
//   - Merge patches values in place; "@key" and "@@" members stay as the file has them.
var arbCodec = &Codec{
	Name:        "arb",
	ContentType: "application/json",
	Extension:   "arb",
	Decode:      decodeARB,
	Encode:      encodeARB,
	Merge:       mergeARB,
	Unkept:      arbUnkept,
}

// arbUnkept names the metadata of an entry that only its Meta keeps: placeholders (their
// types and formats decide how Flutter formats the argument) and any other member.
func arbUnkept(e Entry) []string {
	s := e.Meta["metadata"]
	if s == "" {
		return nil
	}
	n, err := parseMetaJSON("metadata", s)
	if err != nil || n.Kind != jsonObject {
		return []string{"its ARB metadata"}
	}
	out := make([]string, 0, len(n.Keys))
	for _, k := range n.Keys {
		out = append(out, "the ARB metadata "+strconv.Quote(k))
	}
	return out
}

// arbLocale is the @@locale of an export in lang: the file's own when it has one, else
// lang in Flutter's spelling, with underscores (pt_BR).
func arbLocale(kept, lang string) string {
	if kept != "" || lang == "" {
		return kept
	}
	return strings.ReplaceAll(lang, "-", "_")
}

// mergeARB patches local value by value. "@key" metadata and "@@" members stay as the
// file has them; a new key is written with its metadata after the key before it, and a
// key lokal no longer has goes with its metadata.
func mergeARB(local []byte, theirs *File, o Options) ([]byte, error) {
	if _, err := decodeARB(local, o); err != nil {
		return nil, err
	}
	root, err := parseJSON(local)
	if err != nil {
		return nil, err
	}
	lang := fileLanguage(theirs, o)
	var leaves []jsonLeafAt
	for i, k := range root.Keys {
		leaves = append(leaves, jsonLeafAt{key: k, node: root.Vals[i], path: []jsonStep{{root, i}}})
	}
	var wants []jsonWant
	has := map[string]bool{}
	for _, e := range theirs.Entries {
		has[e.Key] = true
		if v, ok := e.Values[lang]; ok {
			wants = append(wants, jsonWant{key: e.Key, text: v.Text})
		}
		if root.get(e.Key) != nil {
			// A key the file has keeps its "@key" as the file has it, or its absence: a
			// translation's file often leaves the descriptions to the template.
			if root.get("@"+e.Key) != nil {
				wants = append(wants, jsonWant{key: "@" + e.Key, opaque: root.get("@" + e.Key)})
			}
			continue
		}
		meta, err := arbMetadata(e)
		if err != nil {
			return nil, err
		}
		if meta != nil {
			wants = append(wants, jsonWant{key: "@" + e.Key, opaque: meta})
		}
	}
	keep := func(key string) bool {
		return strings.HasPrefix(key, "@@") || strings.HasPrefix(key, "@") && has[key[1:]]
	}
	return mergeJSONLeaves(local, root, leaves, wants, false, keep)
}

func decodeARB(data []byte, o Options) (*File, error) {
	root, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	if root.Kind != jsonObject {
		return nil, offsetError(data, root.Start, "the file is %s, want a JSON object", root.Kind)
	}
	lang := o.Language
	f := &File{Languages: []string{lang}}
	index := map[string]int{}
	entry := func(key string) *Entry {
		i, ok := index[key]
		if !ok {
			i = len(f.Entries)
			index[key] = i
			f.Entries = append(f.Entries, Entry{Key: key, Values: map[string]Value{}})
		}
		return &f.Entries[i]
	}
	for i, k := range root.Keys {
		v := root.Vals[i]
		switch {
		case strings.HasPrefix(k, "@@"):
			if base, ok := strings.CutSuffix(k, ":json"); ok && root.get(base) != nil {
				// Meta marks a @@ value that is not a string with this name.
				return nil, offsetError(data, v.Start, "%q beside %q cannot be kept", k, base)
			}
			if f.Meta == nil {
				f.Meta = map[string]string{}
			}
			if v.Kind == jsonString {
				f.Meta[k] = v.Str
			} else {
				f.Meta[k] = canonicalJSON(v)
				f.Meta[k+":json"] = "true"
			}
		case strings.HasPrefix(k, "@"):
			if v.Kind != jsonObject {
				return nil, offsetError(data, v.Start, "metadata %q must be an object, not %s", k, v.Kind)
			}
			e := entry(k[1:])
			rest := jsonObj()
			for j, mk := range v.Keys {
				mv := v.Vals[j]
				if mk == "description" && mv.Kind == jsonString {
					e.Comment = mv.Str
					continue
				}
				rest.Keys = append(rest.Keys, mk)
				rest.Vals = append(rest.Vals, mv)
			}
			if len(rest.Keys) > 0 {
				e.Meta = map[string]string{"metadata": canonicalJSON(rest)}
			}
		default:
			if v.Kind != jsonString {
				return nil, offsetError(data, v.Start, "value of %q must be a string, not %s", k, v.Kind)
			}
			entry(k).Values[lang] = Value{Text: v.Str}
		}
	}
	if root.get("@@locale") == nil {
		// Encode writes the export's language as @@locale; this file says none.
		if f.Meta == nil {
			f.Meta = map[string]string{}
		}
		f.Meta["nolocale"] = "true"
	}
	// An empty "@key" of a key the file does not have says nothing.
	f.Entries = slices.DeleteFunc(f.Entries, func(e Entry) bool {
		return len(e.Values) == 0 && e.Comment == "" && e.Meta == nil
	})
	if len(f.Entries) == 0 {
		f.Entries = nil
	}
	return f, nil
}

func encodeARB(f *File, o Options) ([]byte, error) {
	lang := fileLanguage(f, o)
	root := jsonObj()
	var heads []string
	for k := range f.Meta {
		base, marker := strings.CutSuffix(k, ":json")
		if _, hasBase := f.Meta[base]; strings.HasPrefix(k, "@@") && !(marker && hasBase) {
			heads = append(heads, k)
		}
	}
	slices.SortFunc(heads, func(a, b string) int {
		if (a == "@@locale") != (b == "@@locale") {
			if a == "@@locale" {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	if _, has := f.Meta["@@locale"]; !has && lang != "" && f.Meta["nolocale"] != "true" {
		heads = slices.Insert(heads, 0, "@@locale")
	}
	for _, k := range heads {
		v := jsonStr(f.Meta[k])
		if k == "@@locale" && f.Meta[k+":json"] != "true" {
			v = jsonStr(arbLocale(f.Meta[k], lang))
		}
		if f.Meta[k+":json"] == "true" {
			n, err := parseMetaJSON(k, f.Meta[k])
			if err != nil {
				return nil, err
			}
			v = n
		}
		root.Keys = append(root.Keys, k)
		root.Vals = append(root.Vals, v)
	}
	seen := map[string]bool{}
	for _, e := range f.Entries {
		v, hasValue := e.Values[lang]
		hasMeta := e.Comment != "" || e.Meta["metadata"] != ""
		if !hasValue && (len(e.Values) > 0 || !hasMeta) {
			continue // untranslated here: left out of a monolingual file
		}
		if seen[e.Key] || strings.HasPrefix(e.Key, "@") {
			return nil, fmt.Errorf("formats: arb: key %q is given twice or starts with @", e.Key)
		}
		seen[e.Key] = true
		if hasValue {
			root.Keys = append(root.Keys, e.Key)
			root.Vals = append(root.Vals, jsonStr(v.Text))
		}
		if !hasMeta {
			continue
		}
		meta, err := arbMetadata(e)
		if err != nil {
			return nil, err
		}
		root.Keys = append(root.Keys, "@"+e.Key)
		root.Vals = append(root.Vals, meta)
	}
	return writeJSONFile(root, ": "), nil
}

// arbMetadata is the "@key" object of e: its description first, then the members its
// Meta keeps; nil when it has neither.
func arbMetadata(e Entry) (*jsonNode, error) {
	if e.Comment == "" && e.Meta["metadata"] == "" {
		return nil, nil
	}
	meta := jsonObj()
	if e.Comment != "" {
		meta.set("description", jsonStr(e.Comment))
	}
	if s := e.Meta["metadata"]; s != "" {
		rest, err := parseMetaJSON("metadata of "+e.Key, s)
		if err != nil {
			return nil, err
		}
		if rest.Kind != jsonObject {
			return nil, fmt.Errorf("formats: arb: metadata of %q is not a JSON object", e.Key)
		}
		for i, k := range rest.Keys {
			meta.set(k, rest.Vals[i])
		}
	}
	return meta, nil
}
