package formats

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// yamlTree is one mapping of the yml output. A child is either a leaf (a translation) or a
// nested mapping. Child names are single key segments, except for keys written flat (see
// doc.go), whose names are the rest of the key with its dots kept.
type yamlTree struct {
	leaves   map[string]string
	children map[string]*yamlTree
}

func newYAMLTree() *yamlTree {
	return &yamlTree{leaves: map[string]string{}, children: map[string]*yamlTree{}}
}

// nestable reports whether a key is an ordinary dotted identifier path. Keys with empty
// segments cannot be nested (ruby i18n drops empty segments on lookup), and keys with
// whitespace are page text, where a dot is punctuation rather than a separator.
func nestable(key string) bool {
	if strings.ContainsFunc(key, unicode.IsSpace) {
		return false
	}
	return !slices.Contains(strings.Split(key, "."), "")
}

// buildYAMLTree places every key by the rule in doc.go. entries must be sorted by key: a
// key that is a segment prefix of another ("a" of "a.b") then always arrives first, so a
// leaf is never replaced by a mapping and the leaf keeps its nested place.
func buildYAMLTree(entries []Row) (*yamlTree, error) {
	root := newYAMLTree()
	for _, e := range entries {
		if !nestable(e.Key) {
			root.leaves[e.Key] = e.Value
			continue
		}
		segs := strings.Split(e.Key, ".")
		t := root
		for i, seg := range segs {
			if i == len(segs)-1 {
				if _, clash := t.children[seg]; clash {
					return nil, fmt.Errorf("formats: yml: key %q placed after its sub-keys", e.Key)
				}
				t.leaves[seg] = e.Value
				break
			}
			if _, isLeaf := t.leaves[seg]; isLeaf {
				// A shorter key owns this name: keep the rest flat beside it.
				t.leaves[strings.Join(segs[i:], ".")] = e.Value
				break
			}
			next, ok := t.children[seg]
			if !ok {
				next = newYAMLTree()
				t.children[seg] = next
			}
			t = next
		}
	}
	return root, nil
}

func (t *yamlTree) node() *yaml.Node {
	names := make([]string, 0, len(t.leaves)+len(t.children))
	for name := range t.leaves {
		names = append(names, name)
	}
	for name := range t.children {
		names = append(names, name)
	}
	slices.Sort(names)
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, name := range names {
		var v *yaml.Node
		if child, ok := t.children[name]; ok {
			v = child.node()
		} else {
			v = yamlString(t.leaves[name], false)
		}
		m.Content = append(m.Content, yamlString(name, true), v)
	}
	return m
}

// yamlString returns a string scalar. yaml.v3 quotes what YAML 1.2 would read as another
// type, but Rails reads with Psych (YAML 1.1), where yes/no/on/off are booleans, ":x" is a
// Symbol and more; so anything that does not start with a letter, or is one of those words,
// is double-quoted. Other strings are left to the emitter, which quotes for syntax (": ", " #").
func yamlString(s string, isKey bool) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	multiline := strings.Contains(s, "\n")
	switch {
	case multiline && isKey:
		// A block scalar cannot be a simple key; keep the key on one line with escapes.
		n.Style = yaml.DoubleQuotedStyle
	case multiline && !literalSafe(s):
		// yaml.v3 writes some literal blocks it cannot read back (leading line breaks
		// or tabs, control characters); double quotes with escapes always round-trip.
		n.Style = yaml.DoubleQuotedStyle
	case multiline:
		// The emitter picks a literal block (|), and double quotes when a literal block
		// cannot hold the text (trailing spaces on a line, for one).
	case yaml11Unsafe(s):
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// yaml11Words are the plain scalars that YAML 1.1 (Psych, PyYAML) reads as booleans or null
// (case-insensitively in Psych); the short y/n forms are 1.1 booleans in the spec.
var yaml11Words = map[string]bool{
	"y": true, "n": true, "yes": true, "no": true, "true": true, "false": true,
	"on": true, "off": true, "null": true,
}

// yaml11Unsafe reports whether a plain scalar s could be read as something other than a
// string by a YAML 1.1 reader. Numbers, dates, times, .inf/.nan, ~, :symbols and every
// indicator character start with a non-letter, so the first-letter test covers them.
func yaml11Unsafe(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	if s == "" || !unicode.IsLetter(r) {
		return true
	}
	return yaml11Words[strings.ToLower(s)]
}

// literalSafe reports whether yaml.v3 writes s as a literal block that reads back exactly:
// no leading whitespace or line break (those need an indentation indicator), no tabs and
// only printable characters (YAML 1.1 also breaks lines at U+0085, U+2028 and U+2029).
func literalSafe(s string) bool {
	if s[0] == ' ' || s[0] == '\n' {
		return false
	}
	for _, r := range s {
		switch {
		case r == '\n':
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff, r > 0xffff:
			return false
		}
	}
	return true
}

func renderYAML(language string, entries []Row) ([]byte, error) {
	tree, err := buildYAMLTree(entries)
	if err != nil {
		return nil, err
	}
	top := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	top.Content = []*yaml.Node{yamlString(language, true), tree.node()}
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{top}}

	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2) // the Rails convention
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("formats: yml: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("formats: yml: %w", err)
	}
	return buf.Bytes(), nil
}
