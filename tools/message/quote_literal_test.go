package message

import (
	"strings"
	"testing"
)

func TestQuoteLiteralReadsBack(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain", "it's", "it's {name}", "'", "''", "a'#b", "50% #1 {x}", "{", "}", "a|b", "'{'", "x'", "{{count}} items", "don''t", "#'"} {
		for _, plural := range []bool{false, true} {
			q := QuoteLiteral(s, plural)
			var m *Message
			if plural {
				var ok bool
				if m, ok = ParseForm(q); !ok {
					t.Errorf("QuoteLiteral(%q, plural) = %q: not one form", s, q)
					continue
				}
			} else {
				m = Parse(q, ICU)
			}
			var b strings.Builder
			for _, n := range m.Nodes {
				switch n := n.(type) {
				case *Quoted:
					b.WriteString(n.Value)
				case *Text:
					b.WriteString(n.Value)
				default:
					t.Errorf("QuoteLiteral(%q, %v) = %q reads a %T", s, plural, q, n)
				}
			}
			got := b.String()
			if got != s {
				t.Errorf("QuoteLiteral(%q, %v) = %q reads back as %q", s, plural, q, got)
			}
		}
	}
}
