package message

import (
	"reflect"
	"testing"
)

func TestGatherFamilies(t *testing.T) {
	t.Parallel()
	kvs := []KeyValue{
		{"title", "Files"},
		{"files.count_one", "{{count}} plik"},
		{"files.count_few", "{{count}} pliki"},
		{"files.count_many", "{{count}} plików"},
		{"files.count_other", "{{count}} pliku"},
		{"lonely_one", "just one"}, // one member, no _other: a plain key
		{"label", "Label"},         // base of label_other below
		{"label_other", "Labels"},  // its base is a key: separate lookup
		{"place_ordinal_one", "{{count}}st"},
		{"place_ordinal_other", "{{count}}th"},
	}
	got := GatherFamilies("pl", kvs, nil)
	var keys []string
	for _, g := range got {
		keys = append(keys, g.Key)
	}
	want := []string{"title", "files.count", "lonely_one", "label", "label_other", "place"}
	if !reflect.DeepEqual(keys, want) {
		t.Fatalf("keys = %v, want %v", keys, want)
	}
	if v := got[1].Value; v != "{count, plural, one {{{count}} plik} few {{{count}} pliki} many {{{count}} plików} other {{{count}} pliku}}" {
		t.Errorf("pl family = %q", v)
	}
	if f := got[1].Family; f == nil || len(f.Members) != 4 || len(f.Dropped) != 0 {
		t.Errorf("pl family members = %+v", f)
	}
	// Polish ordinals have only other: _ordinal_one is dropped and named.
	if f := got[5].Family; f == nil || !f.Ordinal || got[5].Value != "{count, selectordinal, other {{{count}}th}}" || !reflect.DeepEqual(f.Dropped, []string{"place_ordinal_one"}) {
		t.Errorf("ordinal family = %q %+v", got[5].Value, f)
	}
}

func TestGatherFamiliesLanguages(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lang    string
		kvs     []KeyValue
		value   string
		dropped []string
	}{
		{"ja", []KeyValue{{"files_one", "1 個"}, {"files_other", "{{count}} 個"}}, "{count, plural, other {{{count}} 個}}", []string{"files_one"}},
		{"id", []KeyValue{{"files_one", "1 berkas"}, {"files_other", "{{count}} berkas"}}, "{count, plural, other {{{count}} berkas}}", []string{"files_one"}},
		{"en", []KeyValue{{"m_zero", "None"}, {"m_one", "One"}, {"m_other", "{{count}}"}}, "{count, plural, =0 {None} one {One} other {{{count}}}}", nil},
		{"en", []KeyValue{{"m_two", "Two"}, {"m_other", "Many"}}, "{count, plural, other {Many}}", []string{"m_two"}},
		{"ar", []KeyValue{{"c_other", "o"}, {"c_many", "m"}, {"c_few", "f"}, {"c_two", "t"}, {"c_one", "w"}, {"c_zero", "z"}},
			"{count, plural, zero {z} one {w} two {t} few {f} many {m} other {o}}", nil},
		{"en", []KeyValue{{"q_other", "{a} # 'x'"}}, "{count, plural, other {'{'a'}' '#' 'x''}}", nil},
	} {
		got := GatherFamilies(c.lang, c.kvs, nil)
		if len(got) != 1 || got[0].Family == nil {
			t.Errorf("%s %v: gathered %+v, want one family", c.lang, c.kvs, got)
			continue
		}
		if got[0].Value != c.value || len(got[0].Family.Dropped) != len(c.dropped) || len(c.dropped) > 0 && !reflect.DeepEqual(got[0].Family.Dropped, c.dropped) {
			t.Errorf("%s: value %q dropped %v, want %q %v", c.lang, got[0].Value, got[0].Family.Dropped, c.value, c.dropped)
		}
		// Expanding gives the language's keys back, text as sent.
		back, ok := ExpandFamily(c.lang, "x", got[0].Value)
		if !ok || len(back)+len(c.dropped) != len(c.kvs) {
			t.Errorf("%s: expand %q = %v", c.lang, got[0].Value, back)
		}
	}
}

func TestGatherFamiliesKnownBase(t *testing.T) {
	t.Parallel()
	known := func(base string) BaseKind {
		return map[string]BaseKind{"files": BaseFamily, "plainkey": BasePlain}[base]
	}
	got := GatherFamilies("pl", []KeyValue{{"files_few", "{{count}} pliki"}, {"plainkey_other", "x"}, {"plainkey_one", "y"}}, known)
	if len(got) != 3 || got[0].Family == nil || got[0].Key != "files" || got[1].Key != "plainkey_other" {
		t.Fatalf("gathered %+v", got)
	}
	if got[0].Value != "{count, plural, few {{{count}} pliki}}" {
		t.Errorf("lone form of a known family = %q", got[0].Value)
	}
}

func TestExpandFamily(t *testing.T) {
	t.Parallel()
	v := "{count, plural, =0 {Nic} one {{{count}} plik} few {# pliki} many {{{count}} plików} other {{{count}} pliku '{'x'}'} two {dwa}}"
	got, ok := ExpandFamily("pl", "files", v)
	want := []KeyValue{{"files_zero", "Nic"}, {"files_one", "{{count}} plik"}, {"files_few", "{{count}} pliki"},
		{"files_many", "{{count}} plików"}, {"files_other", "{{count}} pliku {x}"}}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("pl expand = %v, want %v", got, want)
	}
	got, _ = ExpandFamily("ja", "files", "{count, plural, one {1} other {{{count}} 個}}")
	if !reflect.DeepEqual(got, []KeyValue{{"files_other", "{{count}} 個"}}) {
		t.Errorf("ja expand = %v", got)
	}
	got, _ = ExpandFamily("en", "place", "{count, selectordinal, one {{{count}}st} two {{{count}}nd} few {{{count}}rd} other {{{count}}th}}")
	if len(got) != 4 || got[1].Key != "place_ordinal_two" {
		t.Errorf("en ordinal expand = %v", got)
	}
	if _, ok := ExpandFamily("pl", "x", "plain text"); ok {
		t.Error("plain text expanded")
	}
}

func TestMissingCategories(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lang, value string
		want        []string
	}{
		{"pl", "{count, plural, one {a} other {b}}", []string{"few", "many"}},
		{"ar", "{count, plural, one {a} other {b}}", []string{"zero", "two", "few", "many"}},
		{"ja", "{count, plural, one {a} other {b}}", nil},
		{"en", "{count, selectordinal, one {a} other {b}}", []string{"two", "few"}},
		{"pl", "just text", nil},
	} {
		if got := MissingCategories(c.lang, c.value); !reflect.DeepEqual(got, c.want) {
			t.Errorf("MissingCategories(%s, %q) = %v, want %v", c.lang, c.value, got, c.want)
		}
	}
	if got := Categories("ar", false); !reflect.DeepEqual(got, []string{"zero", "one", "two", "few", "many", "other"}) {
		t.Errorf("ar categories = %v", got)
	}
}

func TestMergeFamily(t *testing.T) {
	t.Parallel()
	got := MergeFamily("{count, plural, one {a} other {b}}", "{count, plural, many {m} few {f} one {A}}")
	if got != "{count, plural, one {A} few {f} many {m} other {b}}" {
		t.Errorf("merge = %q", got)
	}
}

// In a value read in i18next without ICU a family block is one node, while "{name}" and
// loose braces stay text.
func TestI18nextReadsFamilyBlock(t *testing.T) {
	t.Parallel()
	v := "{count, plural, one {{{count}} plik '}'} other {{{count}} pliku #}}"
	m := Parse(v, I18next)
	if len(m.Nodes) != 1 || len(m.Problems) != 0 {
		t.Fatalf("family block: %d nodes, problems %v", len(m.Nodes), m.Problems)
	}
	if _, ok := m.Nodes[0].(*Select); !ok {
		t.Fatalf("node is %T", m.Nodes[0])
	}
	if m.String() != v {
		t.Errorf("round trip %q", m.String())
	}
	for _, text := range []string{"Use { and } to group", "Hello {name}", "{a, number}"} {
		m := Parse(text, I18next)
		if len(m.Nodes) != 1 {
			t.Errorf("%q: %d nodes", text, len(m.Nodes))
		}
		if _, ok := m.Nodes[0].(*Text); !ok {
			t.Errorf("%q read as %T", text, m.Nodes[0])
		}
	}
	// An evidence stored before Blocks was kept still reads.
	if e, err := ParseEvidence("3/0/0/1"); err != nil || e.Found != 3 || !e.BraceText {
		t.Errorf("old evidence: %+v %v", e, err)
	}
	e := Evidence([]string{"{{count}} files", "{count, plural, one {{{count}} plik '}'} other {{{count}} pliku}}"})
	back, err := ParseEvidence(e.String())
	if err != nil || back != e || back.Syntax() != I18next {
		t.Errorf("evidence %q read back %+v (%v)", e.String(), back, err)
	}
}

// A family translation read in an i18next project's syntax is checked form by form: a
// category its language does not have and one it needs and lacks are both reported.
func TestCheckFamilyCategories(t *testing.T) {
	t.Parallel()
	src := "{count, plural, one {{{count}} file} other {{{count}} files}}"
	for _, c := range []struct{ name, tr string }{
		{"foreign two", "{count, plural, one {{{count}} plik} two {{{count}} pliki} few {{{count}} pliki} many {{{count}} plików} other {{{count}} pliku}}"},
		{"missing few", "{count, plural, one {{{count}} plik} many {{{count}} plików} other {{{count}} pliku}}"},
	} {
		ps := Check(src, c.tr, Rules{SourceLang: "en", TargetLang: "pl", Syntax: I18next, SkipProse: true})
		found := false
		for _, p := range ps {
			found = found || p.Code == CodePluralForms
		}
		if !found {
			t.Errorf("%s: problems %v, want a plural category finding", c.name, ps)
		}
	}
	if ps := Check(src, "{count, plural, one {{{count}} plik} few {{{count}} pliki} many {{{count}} plików} other {{{count}} pliku}}",
		Rules{SourceLang: "en", TargetLang: "pl", Syntax: I18next, SkipProse: true}); len(ps) != 0 {
		t.Errorf("a complete pl family: %v", ps)
	}
}

// TestFamilyOutside: a family's translation with text or space outside its plural block
// cannot be served as i18next's suffix keys and breaks; one block, or text alone (which
// i18next falls back to), does not.
func TestFamilyOutside(t *testing.T) {
	t.Parallel()
	src := "{count, plural, one {{{count}} file} other {{{count}} files}}"
	block := "{count, plural, one {{{count}} plik} other {{{count}} pliku}}"
	for v, want := range map[string]bool{
		"AI " + block: true, block + " z": true, " " + block: true,
		block: false, "{{count}} plików": false, "pliki": false,
	} {
		reason, broken := Breaks(src, v, I18next)
		if broken != want {
			t.Errorf("Breaks(%q) = %v %q, want %v", v, broken, reason, want)
		}
	}
	if r, _ := Breaks(src, "AI "+block, I18next); r != `the translation has "AI" outside its plural forms, which i18next reads as one key per form` {
		t.Errorf("reason: %q", r)
	}
	// A plain key's source is no family.
	if _, broken := Breaks("{{count}} files", "AI "+block, I18next); broken {
		t.Error("a plain key's translation is held as a family's")
	}
}
