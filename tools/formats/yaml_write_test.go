package formats

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// yamlAwkward are pieces of text that test yaml.v3's choice of scalar style and its escapes.
var yamlAwkward = []string{
	"", " ", "  ", "a", "Hello", "x: y", "a:b", "a #b", "a#b", "# c", ":", "-", "- x", "?", "? x",
	"'", "\"", "\\", "'q'", "\"dq\"", "\t", "a\tb", "\n", "a\nb", "a\n\nb", "a \nb", "a\n b",
	"\na", "a\n", "a\n\n", "\r", "a\r\nb", "\x00", "\x07", "\x1b", "\x7f", "\u0085", "\u00a0",
	"\u2028", "\u2029", "\ufeff", "\ufeffbom", "\ufffe", "\U0001F44D", "日本語", "ñ", "—", "æøå",
	"true", "True", "TRUE", "false", "null", "Null", "~", "yes", "No", "on", "OFF", "y", "n",
	"1", "-1", "+1", "0x1F", "1.5", ".5", ".inf", "-.inf", ".nan", "1e3", "2024-01-31", "12:30",
	"<<", "<b>", "&a", "*a", "!t", "|", ">", "%x", "@x", "`x", "[a]", "{a}", "a,b", "{count}",
	"%{count}", "---", "...", "--- x", "a ", " a", "long " + strings.Repeat("word ", 40) + "end",
	"!!bool true", "!!int 3", "!!null ~", "!!null", "!!symbol :day", "!!float 0.5", ":day",
	"{count, plural, one {# file} other {# files}}", "{n, plural, one {x} other {y}}",
	"{count, plural, =0 {none} one {one 'x'} other {# \"q\"}}",
}

// yamlGenText is a random text of awkward pieces and letters.
func yamlGenText(r *rand.Rand) string {
	var b strings.Builder
	for n := r.IntN(4); n >= 0; n-- {
		if r.IntN(3) == 0 {
			b.WriteString([]string{"Save", "the", " ", "file", "nb", "x"}[r.IntN(6)])
		} else {
			b.WriteString(yamlAwkward[r.IntN(len(yamlAwkward))])
		}
	}
	return b.String()
}

// yamlGenKey is a random key: dotted paths, sequences (0..n), flat keys and awkward names.
func yamlGenKey(r *rand.Rand) string {
	segs := []string{"a", "b", "0", "1", "2", "10", "nav", "home", "one", "other", "x y", "yes", "null", "1.5", "", "日本", "k:v", "#", "-", "'"}
	n := 1 + r.IntN(4)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = segs[r.IntN(len(segs))]
	}
	if r.IntN(20) == 0 {
		parts[n-1] = strings.Repeat("k", 125+r.IntN(8))
	}
	if r.IntN(30) == 0 {
		parts[n-1] = "line\nbreak"
	}
	return strings.Join(parts, ".")
}

// yamlGenFile is a random file: most keys sorted (lokal's export), some not.
func yamlGenFile(r *rand.Rand, lang string) *File {
	f := &File{Languages: []string{lang}}
	seen := map[string]bool{}
	for n := 1 + r.IntN(12); n > 0; n-- {
		k := yamlGenKey(r)
		if seen[k] {
			continue
		}
		seen[k] = true
		f.Entries = append(f.Entries, Entry{Key: k, Values: map[string]Value{lang: {Text: yamlGenText(r)}}})
	}
	if r.IntN(3) > 0 {
		slices.SortFunc(f.Entries, func(a, b Entry) int { return strings.Compare(a.Key, b.Key) })
	}
	switch r.IntN(12) {
	case 0:
		f.Meta = map[string]string{"language": yamlGenText(r)}
	case 1:
		f.Entries[0].Comment = "a note"
	}
	return f
}

// TestYAMLWriterEqualsEmitter: for random files of awkward texts and keys, the writer's
// bytes are yaml.v3's (encodeYAMLNodes) whenever it writes the file, yaml.v3 reads them back
// as the same texts, and the writer writes most files itself.
func TestYAMLWriterEqualsEmitter(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(34, 3))
	written, n := 0, 3000
	for i := 0; i < n; i++ {
		lang := []string{"nb", "en", "pl", "ja"}[r.IntN(4)]
		f := yamlGenFile(r, lang)
		o := Options{Language: lang}
		tree, langKey, sorted, err := yamlBuild(f, o)
		if err != nil {
			continue // duplicate or clashing keys: refused either way
		}
		want, err := encodeYAMLNodes(f, langKey, tree, sorted)
		if err != nil {
			continue
		}
		got, ok := appendYAMLDoc(nil, yamlString(langKey.Value, true), tree, sorted)
		if !ok {
			continue
		}
		written++
		if !bytes.Equal(got, want) {
			t.Fatalf("file %d: the writer wrote\n%s\nyaml.v3 writes\n%s\n(%q)", i, got, want, got)
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(got, &doc); err != nil {
			t.Fatalf("file %d: yaml.v3 cannot read\n%s\n%v", i, got, err)
		}
		back, err := decodeYAML(got, o)
		if err != nil {
			t.Fatalf("file %d: decoding\n%s\n%v", i, got, err)
		}
		if full, err := Encode("yaml", f, o); err != nil || !bytes.Equal(full, got) {
			t.Fatalf("file %d: Encode differs from the writer: %v", i, err)
		}
		read := map[string]bool{}
		for _, e := range back.Entries {
			read[e.Key] = true
		}
		for _, e := range f.Entries {
			if !read[e.Key] && !strings.HasPrefix(e.Values[lang].Text, "{") {
				t.Fatalf("file %d: key %q not read back from\n%s", i, e.Key, got)
			}
		}
	}
	if written < n/3 {
		t.Fatalf("the writer wrote %d of %d files itself", written, n)
	}
	t.Logf("the writer wrote %d of %d files", written, n)
}
