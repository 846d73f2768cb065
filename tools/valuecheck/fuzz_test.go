package valuecheck

import (
	"html"
	"strings"
	"testing"
)

func FuzzCheck(f *testing.F) {
	for _, tc := range evasions {
		f.Add(tc.value)
	}
	for _, tc := range harmless {
		f.Add(tc.value)
	}
	for _, tc := range markdownEvasions {
		f.Add(tc.value)
	}
	for _, tc := range markdownHarmless {
		f.Add(tc.value)
	}
	// Markdown survives HTML escaping, so escaped text also has its brackets encoded.
	escape := strings.NewReplacer("[", "&#91;", "]", "&#93;")
	const handler = `<img src=x onerror=alert(1)>`
	f.Fuzz(func(t *testing.T, s string) {
		err := Check(s)
		if again := Check(s); (err == nil) != (again == nil) || err != nil && err.Error() != again.Error() {
			t.Fatalf("Check(%q) not deterministic: %v then %v", s, err, again)
		}
		if err != nil {
			if _, ok := err.(*Refusal); !ok {
				t.Fatalf("Check(%q) returned %T, want *Refusal", s, err)
			}
			return
		}
		// Nothing a value leaves open may swallow a handler that follows it.
		if Check(s+handler) == nil {
			t.Fatalf("Check(%q + handler) = nil, want a refusal", s)
		}
		// A value starting with a script URL is refused whatever follows,
		// unless what follows cannot parse as a program.
		if Check("javascript:"+s) == nil && !cannotParse(s) {
			t.Fatalf("Check(%q) = nil, want a refusal", "javascript:"+s)
		}
		// Whatever follows a Markdown link's opening, a script URL in it is refused, and
		// so is a reference definition after any value.
		if Check("[x](javascript:"+s+")") == nil {
			t.Fatalf("Check(%q) = nil, want a refusal", "[x](javascript:"+s+")")
		}
		if Check(s+"\n\n[r]: javascript:alert(1)") == nil {
			t.Fatalf("Check(%q + reference definition) = nil, want a refusal", s)
		}
		// Fully escaped text can never run, so refusing it would be a false
		// positive. Backslashes are removed first: a template could decode
		// \x3c into markup.
		if strings.IndexByte(s, '\\') < 0 {
			if err := Check("x " + escape.Replace(html.EscapeString(s))); err != nil {
				t.Fatalf("Check(escaped %q) = %v, want nil", s, err)
			}
		}
	})
}
