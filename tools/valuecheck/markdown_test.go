package valuecheck

import (
	"errors"
	"strings"
	"testing"
)

// markdownEvasions are Markdown links, images, reference definitions and autolinks whose
// target runs script once a renderer turns them into HTML.
var markdownEvasions = []struct{ name, value string }{
	{"link", "[x](javascript:alert(1))"},
	{"link after text", "Click [here](javascript:alert(1)) to continue"},
	{"image", "![](javascript:alert(1))"},
	{"image with alt", "![logo](javascript:alert(1))"},
	{"empty link text", "[](javascript:alert(1))"},
	{"mixed case", "[x](JaVaScRiPt:alert(1))"},
	{"leading spaces", "[x](  JaVaScRiPt:alert(1))"},
	{"leading tab", "[x](\tjavascript:alert(1))"},
	{"destination on the next line", "[x](\njavascript:alert(1))"},
	{"space between bracket and paren", "[x] (javascript:alert(1))"},
	{"angle brackets", "[x](<javascript:alert(1)>)"},
	{"angle brackets after space", "[x]( <javascript:alert(1)> )"},
	{"title in double quotes", `[x](javascript:a "t")`},
	{"title in single quotes", `[x](javascript:a 't')`},
	{"title in parentheses", `[x](javascript:a (t))`},
	{"decimal entity in scheme", "[x](&#106;avascript:alert(1))"},
	{"hex entity colon", "[x](javascript&#x3A;alert(1))"},
	{"named entity colon", "[x](javascript&colon;alert(1))"},
	{"long decimal entity", "[x](&#0000106avascript:alert(1))"},
	{"entity tab inside scheme", "[x](java&Tab;script:alert(1))"},
	{"entity newline inside scheme", "[x](java&#10;script:alert(1))"},
	{"raw tab inside scheme", "[x](<java\tscript:alert(1)>)"},
	{"raw newline inside scheme", "[x](java\nscript:alert(1))"},
	{"control character before scheme", "[x](\x01javascript:alert(1))"},
	{"NUL inside scheme", "[x](java\x00script:alert(1))"},
	{"replacement character inside scheme", "[x](java\uFFFDscript:alert(1))"},
	{"backslash-escaped colon", `[x](javascript\:alert(1))`},
	{"backslash-escaped colon in angle brackets", `[x](<javascript\:alert(1)>)`},
	{"many tabs inside scheme", "[x](<java" + strings.Repeat("\t", 1000) + "script:alert(1)>)"},
	{"nested brackets in text", "[a [b] c](javascript:alert(1))"},
	{"link inside image", "[![img](https://x.test/a.png)](javascript:alert(1))"},
	{"escaped bracket", `[x\](javascript:alert(1))`},
	{"in a code span", "`[x](javascript:alert(1))`"},
	{"vbscript", "[x](vbscript:msgbox(1))"},
	{"livescript", "[x](livescript:alert(1))"},
	{"data text/html", "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)"},
	{"data text/html with spaces", "[x](data:  TEXT/HTML,<script>alert(1)</script>)"},
	{"data svg image", "![](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)"},
	{"data entity-encoded", "[x](&#100;ata:text/html,x)"},
	{"reference", "[x][r]\n\n[r]: javascript:alert(1)"},
	{"reference with angle brackets", "[x][r]\n\n[r]: <javascript:alert(1)>"},
	{"reference with title", "[x][r]\n\n[r]: javascript:alert(1) \"title\""},
	{"reference indented", "[x][r]\n\n   [r]: javascript:alert(1)"},
	{"reference destination on the next line", "[x][r]\n\n[r]:\n  javascript:alert(1)"},
	{"reference in a blockquote", "> [x][r]\n>\n> [r]: javascript:alert(1)"},
	{"reference in a list", "- [x][r]\n\n  [r]: javascript:alert(1)"},
	{"collapsed reference", "[r][]\n\n[r]: javascript:alert(1)"},
	{"shortcut reference", "[r]\n\n[r]: JAVASCRIPT:alert(1)"},
	{"reference entity-encoded", "[r]\n\n[r]: &#x6A;avascript:alert(1)"},
	{"reference vbscript", "[r]\n\n[r]: vbscript:msgbox(1)"},
	{"reference data text/html", "[r]\n\n[r]: data:text/html,x"},
	{"autolink", "<javascript:alert(1)>"},
	{"autolink after text", "See <javascript:alert(1)>"},
	{"autolink mixed case", "see <JavaScript:alert(1)>"},
	{"autolink vbscript", "x <vbscript:msgbox(1)>"},
	{"autolink data", "x <data:text/html,x>"},
	{"autolink entity colon", "x <javascript&colon;alert(1)>"},
	{"link among harmless ones", "[a](https://x.test) [b](/p) [c](javascript:alert(1))"},
	{"second line", "Intro\n\n[x](javascript:alert(1))"},
}

// markdownHarmless are Markdown values that must pass.
var markdownHarmless = []struct{ name, value string }{
	{"https link", "[docs](https://x.test)"},
	{"https link with title", `Read [the docs](https://x.test/a?b=1&c=2 "Docs") first`},
	{"relative link", "[a](/path)"},
	{"relative link without slash", "[a](path/to/page.html)"},
	{"fragment link", "[a](#frag)"},
	{"mailto link", "[a](mailto:x@y.test)"},
	{"tel link", "[call](tel:+4712345678)"},
	{"angle-bracket destination", "[a](<https://x.test/a b>)"},
	{"image", "![logo](https://x.test/logo.png)"},
	{"png data image", "![dot](data:image/png;base64,iVBORw0KGgo=)"},
	{"reference link", "[docs][d]\n\n[d]: https://x.test/docs"},
	{"reference with angle brackets", "[docs][d]\n\n[d]: <https://x.test/docs>"},
	{"autolink", "<https://x.test>"},
	{"email autolink", "<x@y.test>"},
	{"mailto autolink", "<mailto:x@y.test>"},
	{"brackets in text", "[1] see (note)"},
	{"footnote style", "As shown [1]: the docs say so."},
	{"bracket colon before prose", "[Note]: javascript is optional here"},
	{"checkbox", "- [ ] todo\n- [x] done"},
	{"link text about JavaScript", "[JavaScript: The Good Parts](https://x.test/book)"},
	{"placeholder in link", "[%{name}](https://x.test/u/%{id})"},
	{"placeholders", "Hello %{name}, you have {count} items"},
	{"ICU plural with link", "{count, plural, one {[# file](/f)} other {[# files](/f)}}"},
	{"ICU select", "{gender, select, male {He} female {She} other {They}} replied"},
	{"emphasis", "**Bold** and _italic_ and `code`"},
	{"less than before word", "a <b then"},
	{"heart", "I <3 this"},
	{"time in brackets", "[10:30](https://x.test/t)"},
	{"scheme-like path", "[a](./javascript:alert)"},
	{"query mentions javascript", "[a](https://x.test/?q=javascript:alert(1))"},
	{"percent-encoded scheme", "[a](java%73cript:alert(1))"},
	{"escaped backslash before scheme", `[a](\\javascript:alert(1))`},
	{"data text/plain", "[a](data:text/plain,hello)"},
}

func TestMarkdownRefused(t *testing.T) {
	if len(markdownEvasions) < 40 {
		t.Fatalf("want at least 40 Markdown vectors, have %d", len(markdownEvasions))
	}
	for _, tc := range markdownEvasions {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var r *Refusal
			if err := Check(tc.value); !errors.As(err, &r) {
				t.Fatalf("Check(%q) = %v, want a *Refusal", tc.value, err)
			}
		})
	}
}

func TestMarkdownHarmless(t *testing.T) {
	for _, tc := range markdownHarmless {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if err := Check(tc.value); err != nil {
				t.Fatalf("Check(%q) = %v, want nil", tc.value, err)
			}
		})
	}
}

func TestMarkdownReasons(t *testing.T) {
	for _, tc := range []struct{ value, reason string }{
		{"[x](javascript:alert(1))", "value has a Markdown link or image to a javascript: URL"},
		{"![](data:text/html,x)", "value has a Markdown link or image to a data:text/html URL"},
		{"[r]: vbscript:x", "value has a Markdown link reference definition to a vbscript: URL"},
		{"x <javascript:alert(1)>", "value has a Markdown autolink to a javascript: URL"},
	} {
		if err := Check(tc.value); err == nil || err.Error() != tc.reason {
			t.Errorf("Check(%q) = %v, want %q", tc.value, err, tc.reason)
		}
	}
}
