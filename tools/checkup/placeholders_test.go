package checkup

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestPlaceholders(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"plain text", "Hello world", nil},
		{"rails", "Hello %{name}!", []string{"%{name}"}},
		{"single brace", "Hello {name}", []string{"{name}"}},
		{"single brace with spaces", "Hello { name }", []string{"{name}"}},
		{"numbered brace", "{0} of {1}", []string{"{0}", "{1}"}},
		{"dotted name", "{user.name}", []string{"{user.name}"}},
		{"i18next", "Hi {{name}}", []string{"{{name}}"}},
		{"i18next spaces normalized", "Hi {{ name }}", []string{"{{name}}"}},
		{"i18next format", "{{ val, number }}", []string{"{{val,number}}"}},
		{"printf s and d", "%s has %d items", []string{"%d", "%s"}},
		{"printf positional", "%1$s has %2$d", []string{"%1$s", "%2$d"}},
		{"printf precision and length", "%.2f %5d %-3s %lld %lu", []string{"%-3s", "%.2f", "%5d", "%lld", "%lu"}},
		{"apple", "Hello %@ and %1$@", []string{"%1$@", "%@"}},
		{"python named", "%(count)d files", []string{"%(count)d"}},
		{"escaped percent", "100%% done", nil},
		{"percent before space", "50% off", nil},
		{"percent at end", "100%", nil},
		{"multiset keeps duplicates", "{a} {a} %s %s", []string{"%s", "%s", "{a}", "{a}"}},
		{"sorted", "{z} %{a} {{m}}", []string{"%{a}", "{z}", "{{m}}"}},
		{"icu plural", "{count, plural, one {# item} other {# items}}", []string{"{count}"}},
		{"icu plural with offset and exact", "{n, plural, offset:1 =0 {nobody} one {you} other {you and # others}}", []string{"{n}"}},
		{"icu select", "{gender, select, male {He} female {She} other {They}} left", []string{"{gender}"}},
		{"icu inner placeholders deduplicated", "{count, plural, one {{name} has # item} other {{name} has # items}}", []string{"{count}", "{name}"}},
		{"icu inner argument equals selector", "{count, plural, one {one item} other {{count} items}}", []string{"{count}"}},
		{"icu nested", "{g, select, male {{n, plural, one {# him} other {# them}}} other {{n, plural, other {#}}}}", []string{"{g}", "{n}"}},
		{"icu and top level", "{count, plural, other {# files}} in {folder}", []string{"{count}", "{folder}"}},
		{"icu simple format", "Total: {price, number, ::currency/EUR} on {d, date, short}", []string{"{d}", "{price}"}},
		{"icu no style", "{price, number}", []string{"{price}"}},
		{"icu unbalanced", "{count, plural, one {# item", []string{"{count}"}},
		{"icu unbalanced nested", "{a, select, x {{b, select, y {", []string{"{a}", "{b}"}},
		{"unbalanced open", "{{name}", []string{"{name}"}},
		{"unbalanced close", "name}} and }", nil},
		{"empty braces", "{} {{}} %{}", nil},
		{"json-like", `{"a": 1}`, nil},
		{"sentence in braces", "{first name}", nil},
		{"dots only", "{...}", nil},
		{"triple brace", "{{{name}}}", []string{"{{name}}"}},
		{"invalid utf8", "\xff{na\xffme} %{ok}\xfe", []string{"%{ok}"}},
		{"unicode name", "{名前}", []string{"{名前}"}},
		{"percent rails with bad name falls back to brace", "%{ name }", []string{"{name}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Placeholders(tt.in)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Placeholders(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestLiteralText(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // fields joined by one space
	}{
		{"placeholders removed", "Hello %{name}, you have %d messages", "Hello , you have messages"},
		{"icu branch text kept", "{count, plural, one {# item} other {# items}}", "# item # items"},
		{"no placeholders", "Plain text", "Plain text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(strings.Fields(literalText(tt.in)), " ")
			if got != tt.want {
				t.Errorf("literalText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestPlaceholdersAdversarial checks that pathological input is handled in
// roughly linear time; a quadratic or backtracking scanner would take
// minutes on these.
func TestPlaceholdersAdversarial(t *testing.T) {
	const n = 200_000
	inputs := map[string]string{
		"open braces":       strings.Repeat("{", n),
		"open double":       strings.Repeat("{{a", n/3),
		"nested icu":        strings.Repeat("{a, select, x {", n/15),
		"unclosed icu":      strings.Repeat("{a, plural, one {", n/17) + strings.Repeat("}", n/40),
		"long name":         "{" + strings.Repeat("a", n),
		"many percents":     strings.Repeat("%1", n/2),
		"percent digits":    strings.Repeat("%"+strings.Repeat("9", 50), n/51),
		"rails unclosed":    strings.Repeat("%{abc", n/5),
		"whitespace braces": strings.Repeat("{"+strings.Repeat(" ", 300), n/301),
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			got := Placeholders(in)
			_ = MarkupTags(in)
			_ = literalText(in)
			if !slices.IsSorted(got) {
				t.Error("result not sorted")
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func FuzzPlaceholders(f *testing.F) {
	for _, s := range []string{
		"", "Hello %{name}", "{count, plural, one {# item} other {# items}}",
		"{{ name }}", "%1$s %@ %.2f %%", "{a, select, x {{b}", "}{", "\xff{\xfe}",
		"<b>{n}</b>", "{n, number, ::x}", "%(name)s",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Placeholders(s)
		if !slices.IsSorted(got) {
			t.Fatalf("Placeholders(%q) = %q is not sorted", s, got)
		}
		for _, p := range got {
			if p == "" {
				t.Fatalf("Placeholders(%q) has an empty placeholder", s)
			}
			if !utf8.ValidString(p) {
				t.Fatalf("Placeholders(%q) has invalid UTF-8 %q", s, p)
			}
		}
		// Every placeholder consumes at least two input bytes.
		if len(got) > len(s)/2 {
			t.Fatalf("Placeholders(%q) returned %d placeholders", s, len(got))
		}
		_ = literalText(s)
	})
}
