package formats

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The merge properties, for every codec with a Merge, on files generated from a seeded
// generator: a local file (Encode of a random File A) and an export (Encode of a File B
// made from A by random edits: values changed, keys removed, all of them or whole nested
// groups, keys added under new parents, states and plural forms changed). For each:
//
//  1. MergeFile neither panics nor errors;
//  2. the merged file reads as the export: B's keys, values and states exactly;
//  3. merging the export into itself gives it back byte for byte;
//  4. merging again (the merged file as local, the same export) changes nothing.

// mergeSpec is what a format's generated files hold.
type mergeSpec struct {
	o       Options
	langs   []string // the languages of Values
	nested  bool     // dotted keys nest in the file (no key may then be another's prefix)
	plurals bool     // values may be ICU plurals
	source  bool     // entries carry a source text (bilingual formats)
	onlyPl  bool     // every value is a plural (stringsdict)
	// nestedLocal: half the local files are written nested (by i18next's Encode) although
	// the codec's own Encode writes them flat (json).
	nestedLocal bool
}

func mergeSpecOf(format string) mergeSpec {
	mono := Options{Language: "de", SourceLanguage: "en"}
	all := Options{Language: AllLanguages, SourceLanguage: "en"}
	switch format {
	case "json":
		return mergeSpec{o: mono, langs: []string{"de"}, plurals: true, nestedLocal: true}
	case "i18next", "yaml":
		return mergeSpec{o: mono, langs: []string{"de"}, nested: true, plurals: true}
	case "arb", "android":
		return mergeSpec{o: mono, langs: []string{"de"}, plurals: true}
	case "po", "xliff", "xliff2":
		return mergeSpec{o: mono, langs: []string{"de"}, plurals: true, source: true}
	case "stringsdict":
		return mergeSpec{o: mono, langs: []string{"de"}, plurals: true, onlyPl: true}
	case "xcstrings", "csv":
		return mergeSpec{o: all, langs: []string{"en", "de"}, plurals: true, source: true}
	}
	return mergeSpec{o: mono, langs: []string{"de"}} // properties, strings
}

// mergeAtoms are the texts values are made of.
var mergeAtoms = []string{
	"", "Öffnen", "Datei speichern", "zwei\nZeilen", "endet mit Zeilenumbruch\n", "\nbeginnt so",
	`sag "hallo"`, "it's", `back\slash`, "Tab\there", " vorne", "hinten ", "Grüße 日本語 👍",
	"<b>fett</b> & mehr", "50 % off", "#1", "a: b", "- Punkt", "yes", "null", "123", "*/ /*",
	"=x", "'zitiert'", "Sign in. Now", "a\n\n  b", "\u00a0nbsp", "%s und %d", "x\\ny",
}

// mergeFormTexts are plural forms' texts (ICU form content, '#' the number).
var mergeFormTexts = []string{"# Datei", "# Dateien", "keine", "eine Datei", "# Dateien\nneu", "# „Dateien“", "# files it's", ""}

var mergeSegments = []string{"app", "menu", "title", "file", "open", "save", "settings", "user", "name", "btn", "errors", "notFound", "x", "deep", "Ünï"}

type mergeGen struct {
	r    *rand.Rand
	spec mergeSpec
}

func (g *mergeGen) pick(s []string) string { return s[g.r.IntN(len(s))] }

func (g *mergeGen) key() string {
	if !g.spec.nested && g.r.IntN(8) == 0 {
		return g.pick([]string{"Sign in", "héllo wörld", "a=b", "key with \"quote\"", "#hash", "x.y z"})
	}
	n := 1 + g.r.IntN(3)
	segs := make([]string, n)
	for i := range segs {
		segs[i] = g.pick(mergeSegments)
	}
	return strings.Join(segs, ".")
}

func (g *mergeGen) plural() string {
	var b strings.Builder
	b.WriteString("{count, plural, ")
	if g.r.IntN(4) == 0 {
		fmt.Fprintf(&b, "=0 {%s} ", g.pick(mergeFormTexts[2:4]))
	}
	fmt.Fprintf(&b, "one {%s} other {%s}}", g.pick(mergeFormTexts), g.pick(mergeFormTexts))
	return b.String()
}

func (g *mergeGen) text() string {
	if g.spec.onlyPl || g.spec.plurals && g.r.IntN(5) == 0 {
		return g.plural()
	}
	if g.r.IntN(6) == 0 {
		return g.pick(mergeAtoms) + " " + g.pick(mergeAtoms)
	}
	return g.pick(mergeAtoms)
}

func (g *mergeGen) state() State {
	return []State{StateNone, StateTranslated, StateNeedsReview, StateStale}[g.r.IntN(4)]
}

func (g *mergeGen) value() Value {
	v := Value{Text: g.text()}
	if g.r.IntN(2) == 0 {
		v.State = g.state()
	}
	return v
}

func (g *mergeGen) entry(key string) Entry {
	e := Entry{Key: key, Values: map[string]Value{}}
	for _, l := range g.spec.langs {
		e.Values[l] = g.value()
	}
	if g.spec.source {
		e.Source = g.pick(mergeAtoms[1:]) + " " + key
		if v, ok := e.Values["en"]; ok {
			e.Source = v.Text
		}
	}
	return e
}

// fits: key may join keys (unique, and in a nested file neither a prefix of another nor
// prefixed by one).
func (g *mergeGen) fits(key string, keys map[string]bool) bool {
	if keys[key] || key == "" {
		return false
	}
	if g.spec.nested {
		for k := range keys {
			if strings.HasPrefix(k, key+".") || strings.HasPrefix(key, k+".") {
				return false
			}
		}
	}
	return true
}

func (g *mergeGen) fileA() *File {
	f := &File{Languages: slices.Clone(g.spec.langs), SourceLanguage: "en"}
	keys := map[string]bool{}
	for range g.r.IntN(12) {
		k := g.key()
		if !g.fits(k, keys) {
			continue
		}
		keys[k] = true
		f.Entries = append(f.Entries, g.entry(k))
	}
	return f
}

// fileB is A edited as lokal's export of it might be.
func (g *mergeGen) fileB(a *File) *File {
	b := &File{Languages: slices.Clone(a.Languages), SourceLanguage: a.SourceLanguage}
	gone := ""
	if len(a.Entries) > 0 && g.r.IntN(4) == 0 { // a whole group goes
		gone = strings.SplitN(a.Entries[g.r.IntN(len(a.Entries))].Key, ".", 2)[0]
	}
	all := g.r.IntN(10) == 0 // every key goes
	for _, e := range a.Entries {
		if all || gone != "" && (e.Key == gone || strings.HasPrefix(e.Key, gone+".")) || g.r.IntN(6) == 0 {
			continue
		}
		e.Values = maps.Clone(e.Values)
		for l, v := range e.Values {
			switch g.r.IntN(6) {
			case 0:
				v.Text = g.text()
			case 1:
				v.State = g.state()
			case 2:
				if strings.HasPrefix(v.Text, "{count, plural,") {
					v.Text = g.plural()
				}
			}
			e.Values[l] = v
		}
		if len(g.spec.langs) > 1 && g.r.IntN(8) == 0 { // a language's value goes
			delete(e.Values, g.spec.langs[1])
		}
		if v, ok := e.Values["en"]; ok && g.spec.source {
			e.Source = v.Text
		}
		b.Entries = append(b.Entries, e)
	}
	keys := map[string]bool{}
	for _, e := range b.Entries {
		keys[e.Key] = true
	}
	for range g.r.IntN(5) {
		k := g.key()
		if g.r.IntN(3) == 0 {
			k = g.pick([]string{"neu", "brand", "Ünï"}) + "." + k // a new parent
		}
		if !g.fits(k, keys) {
			continue
		}
		keys[k] = true
		at := g.r.IntN(len(b.Entries) + 1)
		b.Entries = slices.Insert(b.Entries, at, g.entry(k))
	}
	return b
}

// mergeCaseGen makes case i of format: the local file and the export.
func mergeCaseGen(t testing.TB, format string, i int) (local, export []byte, ok bool) {
	spec := mergeSpecOf(format)
	g := &mergeGen{r: rand.New(rand.NewPCG(uint64(i), uint64(len(format)))), spec: spec}
	a := g.fileA()
	b := g.fileB(a)
	c, _ := Lookup(format)
	enc := c.Encode
	if spec.nestedLocal && i%2 == 1 {
		enc = i18nextCodec.Encode
		for _, e := range a.Entries {
			for _, v := range e.Values {
				if strings.HasPrefix(v.Text, "{count, plural,") {
					enc = c.Encode // i18next would write the plural's forms as keys of their own
				}
			}
		}
	}
	local, err := enc(a, spec.o)
	if err != nil {
		t.Logf("%s case %d: Encode(A): %v", format, i, err)
		return nil, nil, false
	}
	export, err = c.Encode(b, spec.o)
	if err != nil {
		t.Logf("%s case %d: Encode(B): %v", format, i, err)
		return nil, nil, false
	}
	return local, export, true
}

// mergeMeaning is what a file says of its keys: key -> language -> text and state, of
// the languages of of when multi (a multi-language file keeps the columns and
// localizations of languages the export does not hold, as what it says of itself).
func mergeMeaning(f, of *File, multi bool) map[string]string {
	out := map[string]string{}
	for _, e := range f.Entries {
		var vs []string
		for _, l := range slices.Sorted(maps.Keys(e.Values)) {
			if multi && !slices.Contains(of.Languages, l) && l != of.SourceLanguage {
				continue
			}
			v := e.Values[l]
			if multi && l == of.SourceLanguage {
				// A catalog's source state is the file's (Xcode's "new"), not lokal's.
				vs = append(vs, fmt.Sprintf("%s=%q", l, v.Text))
				continue
			}
			vs = append(vs, fmt.Sprintf("%s=%q/%s", l, v.Text, normState(v.State)))
		}
		if _, ok := e.Values[of.SourceLanguage]; multi && !ok && of.SourceLanguage != "" {
			// Xcode leaves out a source localization that is the key itself.
			vs = append(vs, fmt.Sprintf("%s=%q", of.SourceLanguage, e.Key))
			slices.Sort(vs)
		}
		out[e.Key] = strings.Join(vs, " ")
	}
	return out
}

// safeMerge is MergeFile with a panic turned into an error, so that one case's panic
// names the case.
func safeMerge(format string, local, export []byte, o Options) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	o.Prune = true // the merged file must read exactly as the export
	return MergeFile(format, local, export, o)
}

// checkMergeProperties asserts the four properties of one local file and export; an
// export or local file that does not decode is no case (the fuzz targets meet them).
func checkMergeProperties(format string, local, export []byte, o Options) error {
	c, _ := Lookup(format)
	text, _, err := readText(format, local) // what MergeFile reads: a file it refuses is no case
	if err != nil {
		return nil
	}
	if _, err := c.Decode([]byte(text), o); err != nil {
		return nil
	}
	theirs, err := c.Decode(export, o)
	if err != nil {
		return nil
	}
	// lokal's export is in Encode's spelling, with nothing of the repository's file (File.
	// Meta): an arbitrary export is made so first.
	theirs.Meta = nil
	if export, err = c.Encode(theirs, o); err != nil {
		return nil
	}
	if theirs, err = c.Decode(export, o); err != nil {
		return fmt.Errorf("the export written again does not read: %v\n%s", err, export)
	}
	merged, err := safeMerge(format, local, export, o)
	if err != nil {
		return fmt.Errorf("MergeFile: %v", err)
	}
	if !c.Multilingual && o.Language != o.SourceLanguage {
		// A key new to a translation file comes with a translation only.
		mine, _ := c.Decode([]byte(text), o)
		leaveUntranslated(theirs, mine, o.Language)
	}
	mergedText, _, err := readText(format, merged)
	if err != nil {
		return fmt.Errorf("the merged file does not read: %v\n%s", err, merged)
	}
	got, err := c.Decode([]byte(mergedText), o)
	if err != nil {
		return fmt.Errorf("the merged file does not read: %v\n%s", err, merged)
	}
	if want, have := mergeMeaning(theirs, theirs, c.Multilingual), mergeMeaning(got, theirs, c.Multilingual); !maps.Equal(want, have) {
		var diff []string
		for _, k := range slices.Sorted(maps.Keys(want)) {
			if v, ok := have[k]; !ok || v != want[k] {
				diff = append(diff, fmt.Sprintf("  %q: merged %s, export %s", k, orNone(have, k), want[k]))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(have)) {
			if _, ok := want[k]; !ok {
				diff = append(diff, fmt.Sprintf("  %q: merged %s, the export has no such key", k, have[k]))
			}
		}
		return fmt.Errorf("the merged file does not read as the export:\n%s\nmerged:\n%s", strings.Join(diff, "\n"), merged)
	}
	if self, err := safeMerge(format, export, export, o); err != nil || !bytes.Equal(self, export) {
		return fmt.Errorf("the export merged into itself: %v\n%s\nwant\n%s", err, self, export)
	}
	if again, err := safeMerge(format, merged, export, o); err != nil || !bytes.Equal(again, merged) {
		return fmt.Errorf("merging again: %v\n%s\nwant the merged file\n%s", err, again, merged)
	}
	return nil
}

func orNone(m map[string]string, k string) string {
	if v, ok := m[k]; ok {
		return v
	}
	return "(none)"
}

// mergeFormats are the formats whose codec has a Merge.
func mergeFormats() []string {
	var out []string
	for _, name := range Names() {
		if c, _ := Lookup(name); c.Merge != nil {
			out = append(out, name)
		}
	}
	return out
}

const mergePropertyCases = 300

func TestMergePropertyBased(t *testing.T) {
	t.Parallel()
	for _, format := range mergeFormats() {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			o := mergeSpecOf(format).o
			failed := 0
			for i := range mergePropertyCases {
				local, export, ok := mergeCaseGen(t, format, i)
				if !ok {
					continue
				}
				if err := checkMergeProperties(format, local, export, o); err != nil {
					failed++
					if failed <= 3 {
						t.Errorf("case %d\nlocal:\n%s\nexport:\n%s\n%v", i, local, export, err)
					}
				}
			}
			if failed > 0 {
				t.Errorf("%d of %d cases fail", failed, mergePropertyCases)
			}
		})
	}
}

// TestMergeEmptyExportIntoNested: an export with no keys merged into a nested JSON file
// empties it (json, i18next; ARB, which does not nest, on the flat file) (it panicked in Splice with overlapping edits; lokal pull crashed on it).
func TestMergeEmptyExportIntoNested(t *testing.T) {
	t.Parallel()
	for _, local := range []string{
		"{\n  \"a\": {\n    \"b\": \"x\",\n    \"c\": \"y\"\n  },\n  \"d\": \"z\"\n}\n",
		"{\n  \"a\": \"x\",\n  \"b\": \"y\"\n}\n",
		"{\"a\":{\"b\":\"x\"},\"c\":{\"d\":\"y\",\"e\":\"z\"}}",
	} {
		for _, format := range []string{"json", "i18next", "arb"} {
			o := Options{Language: "nb", SourceLanguage: "en", Prune: true}
			if _, err := Decode(format, []byte(local), o); err != nil {
				continue // ARB does not nest
			}
			out, err := MergeFile(format, []byte(local), []byte("{}\n"), o)
			if err != nil {
				t.Fatalf("%s %q: %v", format, local, err)
			}
			f, err := Decode(format, out, o)
			if err != nil || len(f.Entries) != 0 {
				t.Errorf("%s %q: merged %q reads %v %v, want no entries", format, local, out, f, err)
			}
		}
	}
}

// fuzzMerge seeds a fuzz target of format with the generated cases and checks the merge
// properties on whatever local file and export the fuzzer makes of them.
func fuzzMerge(f *testing.F, format string) {
	c, _ := Lookup(format)
	if c.Merge == nil {
		f.Skipf("%s has no Merge", format)
	}
	for i := range 40 {
		if local, export, ok := mergeCaseGen(f, format, i); ok {
			f.Add(local, export)
		}
	}
	o := mergeSpecOf(format).o
	f.Fuzz(func(t *testing.T, local, export []byte) {
		if err := checkMergeProperties(format, local, export, o); err != nil {
			t.Fatalf("local:\n%s\nexport:\n%s\n%v", local, export, err)
		}
	})
}

func FuzzMergeJSON(f *testing.F)        { fuzzMerge(f, "json") }
func FuzzMergeI18next(f *testing.F)     { fuzzMerge(f, "i18next") }
func FuzzMergePO(f *testing.F)          { fuzzMerge(f, "po") }
func FuzzMergeXLIFF(f *testing.F)       { fuzzMerge(f, "xliff") }
func FuzzMergeXLIFF2(f *testing.F)      { fuzzMerge(f, "xliff2") }
func FuzzMergeAndroid(f *testing.F)     { fuzzMerge(f, "android") }
func FuzzMergeStrings(f *testing.F)     { fuzzMerge(f, "strings") }
func FuzzMergeStringsdict(f *testing.F) { fuzzMerge(f, "stringsdict") }
func FuzzMergeXCStrings(f *testing.F)   { fuzzMerge(f, "xcstrings") }
func FuzzMergeARB(f *testing.F)         { fuzzMerge(f, "arb") }
func FuzzMergeYAML(f *testing.F)        { fuzzMerge(f, "yaml") }
func FuzzMergeProperties(f *testing.F)  { fuzzMerge(f, "properties") }
func FuzzMergeCSV(f *testing.F)         { fuzzMerge(f, "csv") }
