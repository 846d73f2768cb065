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
		// A value starting with a script URL is refused whatever follows.
		if Check("javascript:"+s) == nil {
			t.Fatalf("Check(%q) = nil, want a refusal", "javascript:"+s)
		}
		// Fully escaped text can never run, so refusing it would be a false
		// positive. Backslashes are removed first: a template could decode
		// \x3c into markup.
		if strings.IndexByte(s, '\\') < 0 {
			if err := Check("x " + html.EscapeString(s)); err != nil {
				t.Fatalf("Check(escaped %q) = %v, want nil", s, err)
			}
		}
	})
}
