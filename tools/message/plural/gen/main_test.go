package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestParseCondition(t *testing.T) {
	t.Parallel()
	got, err := parseCondition("v = 0 and i % 10 = 2..4,7 and i % 100 != 12..14 or e != 0..5")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]relation{
		{
			{op: 'v', spans: []span{{0, 0}}},
			{op: 'i', mod: 10, spans: []span{{2, 4}, {7, 7}}},
			{op: 'i', mod: 100, neg: true, spans: []span{{12, 14}}},
		},
		{{op: 'c', neg: true, spans: []span{{0, 5}}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseCondition = %+v, want %+v", got, want)
	}
	// Syntax the generator does not know is an error, never a guess.
	for _, bad := range []string{"", "x = 1", "n is 1", "n in 1..2", "n = 2..1", "n % 7 = 1",
		"n = a", "n", "n % = 1", "n = 1 and", "n within 1..2"} {
		if _, err := parseCondition(bad); err == nil {
			t.Errorf("parseCondition(%q) succeeded", bad)
		}
	}
}

func TestSplitSamples(t *testing.T) {
	t.Parallel()
	cond, ints, decs, more, err := splitSamples("n % 10 = 1 @integer 1, 21~23, … @decimal 0.00~0.03, 1.1c6, …")
	if err != nil {
		t.Fatal(err)
	}
	if cond != "n % 10 = 1" || !more {
		t.Errorf("cond %q, more %v", cond, more)
	}
	if want := []string{"1", "21", "22", "23"}; !reflect.DeepEqual(ints, want) {
		t.Errorf("ints %v, want %v", ints, want)
	}
	if want := []string{"0.00", "0.01", "0.02", "0.03", "1.1c6"}; !reflect.DeepEqual(decs, want) {
		t.Errorf("decs %v, want %v", decs, want)
	}
	for _, bad := range []string{"n = 1 @fraction 1", "n = 1 @integer 5~2", "n = 1 @decimal 0.0~1.00", "n = 1 @integer 1c3~2c3"} {
		if _, _, _, _, err := splitSamples(bad); err == nil {
			t.Errorf("splitSamples(%q) succeeded", bad)
		}
	}
}

func TestFindSingles(t *testing.T) {
	t.Parallel()
	compileOrFail := func(rules map[string]string) *ruleSet {
		rs, err := compile(rules)
		if err != nil {
			t.Fatal(err)
		}
		if err := rs.findSingles(); err != nil {
			t.Fatal(err)
		}
		return rs
	}
	he := compileOrFail(map[string]string{
		"pluralRule-count-one":   "i = 1 and v = 0 or i = 0 and v != 0 @integer 1",
		"pluralRule-count-two":   "i = 2 and v = 0 @integer 2",
		"pluralRule-count-other": " @integer 0, 3~17",
	})
	if !reflect.DeepEqual(he.singles, map[int]uint64{1: 1, 2: 2}) {
		t.Errorf("he singles %v", he.singles)
	}
	ru := compileOrFail(map[string]string{
		"pluralRule-count-one":   "v = 0 and i % 10 = 1 and i % 100 != 11 @integer 1, 21",
		"pluralRule-count-other": " @integer 0",
	})
	if len(ru.singles) != 0 {
		t.Errorf("ru singles %v", ru.singles)
	}
	// A constant above the largest modulus: 1000001 is the only number.
	big := compileOrFail(map[string]string{
		"pluralRule-count-many":  "n = 1000001 and n % 1000000 = 1 @integer 1000001",
		"pluralRule-count-other": " @integer 0",
	})
	if !reflect.DeepEqual(big.singles, map[int]uint64{4: 1000001}) {
		t.Errorf("big singles %v", big.singles)
	}
}

// TestGeneratedFilesUpToDate regenerates from the CLDR data in $CLDR_CORE
// (skipped without it) and compares with the committed files.
func TestGeneratedFilesUpToDate(t *testing.T) {
	dir := os.Getenv("CLDR_CORE")
	if dir == "" {
		t.Skip("CLDR_CORE not set (see gen/main.go)")
	}
	tmp := t.TempDir()
	out, samples := filepath.Join(tmp, "rules_gen.go"), filepath.Join(tmp, "samples_gen_test.go")
	if err := run(dir, out, samples); err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]string{{out, "../rules_gen.go"}, {samples, "../samples_gen_test.go"}} {
		fresh, err := os.ReadFile(pair[0])
		if err != nil {
			t.Fatal(err)
		}
		committed, err := os.ReadFile(pair[1])
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fresh, committed) {
			t.Errorf("%s differs from what $CLDR_CORE generates: run go generate", pair[1])
		}
	}
}
