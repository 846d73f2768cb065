package message_test

import (
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/message"
)

// TestSyntaxErrorSaysWhere: a syntax error of a translation is placed by the text around
// it, as a translator reads it, never by a byte or character offset or a code.
func TestSyntaxErrorSaysWhere(t *testing.T) {
	t.Parallel()
	syn, err := message.ParseSyntax("icu")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range message.Check("Hello {name}", "Grüße {name", message.Rules{Syntax: syn}) {
		got = append(got, p.Detail)
	}
	s := strings.Join(got, "; ")
	if !strings.Contains(s, `the { before "name" is never closed`) || strings.Contains(s, "byte") ||
		strings.Contains(s, "character") || strings.Contains(s, "unclosed-brace") {
		t.Errorf("problems %q, want the unclosed brace placed by its text", s)
	}
}
