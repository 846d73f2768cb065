package formats

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lokal-dev/lokal/tools/message"
	"go.yaml.in/yaml/v3"
)

// i18next: i18next JSON v4. Rules:
//
//   - Nesting flattens to dot-separated keys ({"a": {"b": "x"}} is "a.b"). An array's items
//     are keyed by their index (key.0, key.1; key.0.name for an array of objects), and
//     File.Meta["arrays"] (a JSON array of those keys, sorted) remembers the arrays
//     that the nesting rule writes back alone in their object, which are written back as
//     arrays. A number, boolean or null value is refused with its line.
//   - Plural forms are sibling keys with a CLDR suffix (files_one, files_few, files_other;
//     place_ordinal_two): they are gathered into one ICU value on count under the base key
//     ("{count, plural, one {{{count}} file} other {{{count}} files}}", selectordinal for
//     _ordinal_), at the place of the first form, forms in the order Encode writes them,
//     text as written ({{count}} stays {{count}}; ICU's syntax characters {, } and # are
//     quoted). i18next uses _zero for 0 in any language: it becomes =0 where the language
//     has no zero category, and =0 is written back as _zero. Suffixed keys stay keys of
//     their own when the base key is itself a key of the file (separate lookups in
//     i18next), when they are ordinal forms beside cardinal ones, and when Encode could not
//     write them back (a suffix the language has no category for, such as _two in English).
//   - Encode writes exactly the language's CLDR categories of a plural ('#' written as
//     {{count}}; a category the value lacks is left out), and nests by the contract's rule,
//     the one the yaml renderer uses (buildYAMLTree): a key that cannot nest is written
//     whole at its deepest possible level, so a file that nests such a key reads back with
//     it at that level. Keys keep the order of the entries (a decoded file's order). A
//     plural the file wrote in ICU itself (i18next-icu) is marked Meta["icu"] = "true" and
//     written back as it is.
//   - A key the entry has no value for in the language is left out.
//   - Merge patches member by member: a plural's forms are members of their own.
var i18nextCodec = &Codec{
	Name:        "i18next",
	ContentType: "application/json",
	Extension:   "json",
	Decode:      decodeI18next,
	Encode:      encodeI18next,
	Merge:       mergeI18next,
}

func decodeI18next(data []byte, o Options) (*File, error) {
	root, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	leaves, arrays, err := flattenJSON(data, root, true)
	if err != nil {
		return nil, err
	}
	lang := o.Language
	f := &File{Languages: []string{lang}}

	// Plural families are gathered by the message model's one rule (message.GatherFamilies);
	// a family with a form the language lacks keeps its keys as they are, so that the file
	// reads back unchanged (the doors that store it warn about the form).
	kvs := make([]message.KeyValue, len(leaves))
	for i, l := range leaves {
		kvs[i] = message.KeyValue{Key: l.key, Value: l.node.Str}
	}
	for _, g := range message.GatherFamilies(lang, kvs, nil) {
		if g.Family != nil && len(g.Family.Dropped) == 0 && g.Value != "" {
			f.Entries = append(f.Entries, Entry{Key: g.Key, Values: map[string]Value{lang: {Text: g.Value}}})
			continue
		}
		var plainKVs []message.KeyValue
		if g.Family != nil {
			for _, m := range g.Family.Members {
				for _, kv := range kvs {
					if kv.Key == m {
						plainKVs = append(plainKVs, kv)
					}
				}
			}
		} else {
			plainKVs = []message.KeyValue{{Key: g.Key, Value: g.Value}}
		}
		for _, kv := range plainKVs {
			e := Entry{Key: kv.Key, Values: map[string]Value{lang: {Text: kv.Value}}}
			if _, isPlural := singlePlural(kv.Value); isPlural {
				e.Meta = map[string]string{"icu": "true"}
			}
			f.Entries = append(f.Entries, e)
		}
	}
	// Only arrays that the nesting rule writes back nested, alone in their object, can be
	// arrays again: not one whose key (or an item's) cannot nest or runs through a string,
	// nor one beside flat keys that nest into it ("a.5" beside "a": [...]).
	sorted := make([]string, 0, len(leaves))
	for _, l := range leaves {
		sorted = append(sorted, l.key)
	}
	slices.Sort(sorted)
	written := make([]string, 0, len(f.Entries)) // the keys Encode places
	isKey := make(map[string]bool, len(f.Entries))
	for _, e := range f.Entries {
		written = append(written, e.Key)
		isKey[e.Key] = true
	}
	slices.Sort(written)
	list := &jsonNode{Kind: jsonArray}
	slices.SortFunc(arrays, func(a, b jsonArrayKey) int { return strings.Compare(a.key, b.key) })
	for _, arr := range arrays {
		a := arr.key
		if !nestable(a) {
			continue
		}
		through := isKey[a]
		for i := range len(a) {
			through = through || a[i] == '.' && isKey[a[:i]]
		}
		lo, _ := slices.BinarySearch(written, a+".")
		hi, _ := slices.BinarySearch(written, a+"/") // '/' follows '.'
		for _, k := range written[lo:hi] {
			through = through || !nestable(k)
		}
		lo, _ = slices.BinarySearch(sorted, a+".")
		hi, _ = slices.BinarySearch(sorted, a+"/")
		if !through && hi-lo == arr.leaves {
			list.Vals = append(list.Vals, jsonStr(a))
		}
	}
	if len(list.Vals) > 0 {
		f.Meta = map[string]string{"arrays": canonicalJSON(list)}
	}
	return f, nil
}

// i18nextMember is one JSON member an entry writes where its key is placed: the entry's
// value, or one of a plural's forms.
type i18nextMember struct {
	name string // suffix appended to the key's last name ("", "_one", "_ordinal_two")
	text string
}

// i18nextMembers lists the keys of f that have a value in lang, in entry order, and the
// members each writes.
func i18nextMembers(f *File, lang string) ([]string, map[string][]i18nextMember, error) {
	var keys []string
	members := map[string][]i18nextMember{}
	for _, e := range f.Entries {
		v, ok := e.Values[lang]
		if !ok {
			continue
		}
		if _, dup := members[e.Key]; dup {
			return nil, nil, fmt.Errorf("formats: i18next: duplicate key %q", e.Key)
		}
		keys = append(keys, e.Key)
		_, isPlural := singlePlural(v.Text)
		if !isPlural || e.Meta["icu"] == "true" {
			members[e.Key] = []i18nextMember{{text: v.Text}}
			continue
		}
		forms, _ := message.ExpandFamily(lang, "", v.Text)
		if len(forms) == 0 {
			// Not one form i18next can hold: kept as ICU rather than lost.
			members[e.Key] = []i18nextMember{{text: v.Text}}
			continue
		}
		ms := make([]i18nextMember, len(forms))
		for i, fm := range forms {
			ms[i] = i18nextMember{name: fm.Key, text: fm.Value}
		}
		members[e.Key] = ms
	}
	return keys, members, nil
}

// mergeI18next patches local member by member: a plural's forms are members of their
// own, so that a changed form rewrites only its line.
func mergeI18next(local []byte, theirs *File, o Options) ([]byte, error) {
	root, err := parseJSON(local)
	if err != nil {
		return nil, err
	}
	leaves, _, err := flattenJSONPaths(local, root, true, true)
	if err != nil {
		return nil, err
	}
	keys, members, err := i18nextMembers(theirs, fileLanguage(theirs, o))
	if err != nil {
		return nil, err
	}
	var wants []jsonWant
	for _, k := range keys {
		for _, m := range members[k] {
			wants = append(wants, jsonWant{key: k + m.name, text: m.text})
		}
	}
	return mergeJSONLeaves(local, root, leavesAt(leaves), wants, isNestedJSON(root), nil)
}

func encodeI18next(f *File, o Options) ([]byte, error) {
	lang := fileLanguage(f, o)
	keys, members, err := i18nextMembers(f, lang)
	if err != nil {
		return nil, err
	}

	// Place the keys by the nesting rule; a leaf's value is its key, to find its members.
	// Each is placed with its index in keys, so that a kid's first is the smallest entry
	// index under it (keys placed in key order never land outside the kids they pass).
	rows := identity(len(keys))
	slices.SortFunc(rows, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
	// The nesting rule is yaml's (doc.go): its tree, with each leaf holding its key.
	tree := newYAMLTree()
	for _, i := range rows {
		if err := tree.place(&Entry{Key: keys[i]}, i, &yaml.Node{Kind: yaml.ScalarNode, Value: keys[i]}); err != nil {
			return nil, fmt.Errorf("formats: i18next: %w", err)
		}
	}
	arrays := map[string]bool{}
	if s := f.Meta["arrays"]; s != "" {
		list, err := parseMetaJSON("arrays", s)
		if err != nil {
			return nil, err
		}
		for _, v := range list.Vals {
			arrays[v.Str] = true
		}
	}

	var build func(t *yamlTree, path string) (*jsonNode, error)
	build = func(t *yamlTree, path string) (*jsonNode, error) {
		type slot struct {
			name string
			at   int
		}
		// Members keep entry order: a kid is where the first entry under it is.
		slots := make([]slot, 0, len(t.kids))
		for _, k := range t.kids {
			slots = append(slots, slot{k.name, k.first})
		}
		slices.SortFunc(slots, func(a, b slot) int {
			if a.at != b.at {
				return a.at - b.at
			}
			return strings.Compare(a.name, b.name)
		})
		n := &jsonNode{Kind: jsonObject, Keys: make([]string, 0, len(slots)), Vals: make([]*jsonNode, 0, len(slots))}
		var seen map[string]bool // past a few members; most objects have one or two
		add := func(name string, v *jsonNode) error {
			if seen == nil && len(n.Keys) >= 8 {
				seen = make(map[string]bool, 2*len(slots))
				for _, k := range n.Keys {
					seen[k] = true
				}
			}
			if seen != nil && seen[name] || seen == nil && slices.Contains(n.Keys, name) {
				return fmt.Errorf("formats: i18next: two keys write %q in %q", name, path)
			}
			if seen != nil {
				seen[name] = true
			}
			n.Keys = append(n.Keys, name)
			n.Vals = append(n.Vals, v)
			return nil
		}
		for _, s := range slots {
			full := s.name
			if path != "" {
				full = path + "." + s.name
			}
			k := t.kid(s.name)
			if k.child != nil {
				child, err := build(k.child, full)
				if err != nil {
					return nil, err
				}
				if err := add(s.name, child); err != nil {
					return nil, err
				}
				continue
			}
			for _, m := range members[k.leaf.Value] {
				if err := add(s.name+m.name, jsonStr(m.text)); err != nil {
					return nil, err
				}
			}
		}
		if arrays[path] {
			if items, ok := asArray(n); ok {
				return items, nil
			}
		}
		return n, nil
	}
	root, err := build(tree, "")
	if err != nil {
		return nil, err
	}
	return writeJSONFile(root, ": "), nil
}

// singlePlural is SinglePlural without parsing values that cannot be one.
func singlePlural(value string) (*Plural, bool) {
	if !strings.HasPrefix(value, "{") || !strings.HasSuffix(value, "}") {
		return nil, false
	}
	return SinglePlural(value)
}

// asArray returns an object whose members are "0", "1", ... in order as an array.
func asArray(n *jsonNode) (*jsonNode, bool) {
	for i, k := range n.Keys {
		if k != strconv.Itoa(i) {
			return nil, false
		}
	}
	return &jsonNode{Kind: jsonArray, Vals: n.Vals}, true
}
