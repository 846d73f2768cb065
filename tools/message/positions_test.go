package message_test

import (
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/message"
)

// TestSyntaxErrorSaysCharacter: a syntax error of a translation is placed in characters
// as people count them, not bytes ("ü" and "ß" are one each): the brace of "Grüße {name"
// is the 7th character (the 9th byte).
func TestSyntaxErrorSaysCharacter(t *testing.T) {
	t.Parallel()
	syn, err := message.ParseSyntax("icu")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range message.Check("Hello {name}", "Grüße {name", message.Rules{Syntax: syn}) {
		got = append(got, p.Detail)
	}
	if s := strings.Join(got, "; "); !strings.Contains(s, "unclosed-brace at character 7") || strings.Contains(s, "byte") {
		t.Errorf("problems %q, want the unclosed brace at character 7", s)
	}
}
