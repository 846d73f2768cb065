package valuecheck

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// evasions are taken from the OWASP XSS Filter Evasion Cheat Sheet, plus a
// few modern ones (srcdoc, formaction, SVG animation, mutation XSS).
var evasions = []struct{ name, value string }{
	{"bare javascript URL", "javascript:alert(1)"},
	{"bare javascript URL after space and control", " \x01javascript:alert(1)"},
	{"bare entity-encoded colon", "javascript&#58;alert(1)"},
	{"bare entity-encoded first letter", "&#106;avascript:alert(1)"},
	{"bare named entities tab and colon", "java&Tab;script&colon;alert(1)"},
	{"bare mixed case", "JaVaScRiPt:alert(1)"},
	{"bare vbscript", "vbscript:msgbox(1)"},
	{"bare data text/html", "data:text/html,<script>alert(1)</script>"},
	{"bare JS-escaped scheme", `\x6aavascript:alert(1)`},
	{"IMG javascript src", `<IMG SRC=javascript:alert('XSS')>`},
	{"IMG mixed case", `<IMG SRC=JaVaScRiPt:alert('XSS')>`},
	{"IMG quoted src", `<IMG SRC="javascript:alert('XSS');">`},
	{"IMG decimal entities", `<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>`},
	{"IMG long decimal entities without semicolons", `<IMG SRC=&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041>`},
	{"IMG hex entities without semicolons", `<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>`},
	{"IMG embedded tab", "<IMG SRC=\"jav\tascript:alert('XSS');\">"},
	{"IMG encoded tab", `<IMG SRC="jav&#x09;ascript:alert('XSS');">`},
	{"IMG encoded newline", `<IMG SRC="jav&#x0A;ascript:alert('XSS');">`},
	{"IMG encoded carriage return", `<IMG SRC="jav&#x0D;ascript:alert('XSS');">`},
	{"IMG null byte", "<IMG SRC=java\x00script:alert(\"XSS\")>"},
	{"IMG spaces and meta chars before scheme", `<IMG SRC=" &#14;  javascript:alert('XSS');">`},
	{"IMG grave accent quoting", "<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>"},
	{"IMG onerror", `<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>`},
	{"IMG onmouseover", `<IMG SRC=# onmouseover="alert('xxs')">`},
	{"IMG malformed quotes with SCRIPT", `<IMG """><SCRIPT>alert("XSS")</SCRIPT>">`},
	{"IMG half open with onerror", `<img src=x onerror=alert(1)//`},
	{"IMG half open javascript src", `<IMG SRC="javascript:alert('XSS')"`},
	{"IMG dynsrc", `<IMG DYNSRC="javascript:alert('XSS')">`},
	{"IMG lowsrc", `<IMG LOWSRC="javascript:alert('XSS')">`},
	{"IMG style expression with comment", `<IMG STYLE="xss:expr/*XSS*/ession(alert('XSS'))">`},
	{"IMG srcset entry", `<img srcset="a.png 1x, javascript:alert(1) 2x">`},
	{"SCRIPT with slash attribute", `<SCRIPT/XSS SRC="http://xss.rocks/xss.js"></SCRIPT>`},
	{"SCRIPT plain", `<script>alert(1)</script>`},
	{"SCRIPT extraneous open brackets", `<<SCRIPT>alert("XSS");//<</SCRIPT>`},
	{"SCRIPT no closing tag", `<SCRIPT SRC=http://xss.rocks/xss.js?< B >`},
	{"SVG script", `<svg><script>alert(1)</script></svg>`},
	{"BODY onload", `<BODY ONLOAD=alert('XSS')>`},
	{"BODY onload with junk before equals", "<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert(\"XSS\")>"},
	{"SVG onload with slash", `<svg/onload=alert('XSS')>`},
	{"IFRAME javascript src", `<IFRAME SRC="javascript:alert('XSS');"></IFRAME>`},
	{"IFRAME event", `<IFRAME SRC=# onmouseover="alert(document.cookie)"></IFRAME>`},
	{"IFRAME srcdoc", `<iframe srcdoc="<script>alert(1)</script>">`},
	{"FRAMESET frame", `<FRAMESET><FRAME SRC="javascript:alert('XSS');"></FRAMESET>`},
	{"META refresh javascript", `<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert('XSS');">`},
	{"META refresh data base64", `<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">`},
	{"META refresh quoted URL", `<META HTTP-EQUIV="refresh" CONTENT="0; URL='javascript:alert(1)'">`},
	{"TABLE background", `<TABLE BACKGROUND="javascript:alert('XSS')">`},
	{"TD background", `<TABLE><TD BACKGROUND="javascript:alert('XSS')">`},
	{"DIV background-image", `<DIV STYLE="background-image: url(javascript:alert('XSS'))">`},
	{"DIV background-image CSS escapes", `<DIV STYLE="background-image:\0075\0072\006C\0028'\006a\0061\0076\0061\0073\0063\0072\0069\0070\0074\003a\0061\006c\0065\0072\0074\0028.1027\0058.1053\0053\0027\0029'\0029">`},
	{"DIV expression", `<DIV STYLE="width: expression(alert('XSS'));">`},
	{"XSS behavior", `<XSS STYLE="behavior: url(xss.htc);">`},
	{"moz-binding", `<div style="-moz-binding:url(http://x/xss.xml#xss)">`},
	{"STYLE element list-style-image", `<STYLE>li {list-style-image: url("javascript:alert('XSS')");}</STYLE><UL><LI>XSS</br>`},
	{"STYLE element full-width expression", `<style>a{width:ｅｘｐｒｅｓｓｉｏｎ(alert(1))}</style>`},
	{"LINK stylesheet javascript", `<LINK REL="stylesheet" HREF="javascript:alert('XSS');">`},
	{"LINK import", `<LINK REL="import" HREF="http://xss.rocks/xss.html">`},
	{"BASE href", `<BASE HREF="javascript:alert('XSS');//">`},
	{"BASE https href", `<base href="https://evil.example/">`},
	{"A vbscript", `<a href="vbscript:msgbox(1)">x</a>`},
	{"A livescript", `<a href="livescript:[code]">x</a>`},
	{"A entity-encoded colon", `<a href="javascript&colon;alert(1)">x</a>`},
	{"A newline entity inside scheme", `<a href="javas&NewLine;cript:alert(1)">x</a>`},
	{"A data text/html", `<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>`},
	{"FORM button formaction", `<form><button formaction="javascript:alert(1)">X</button></form>`},
	{"FORM action", `<form action="javascript:alert(1)"><input type=submit></form>`},
	{"INPUT image src", `<INPUT TYPE="IMAGE" SRC="javascript:alert('XSS');">`},
	{"SVG xlink:href", `<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>`},
	{"SVG a href", `<svg><a href="javascript:alert(1)"><text>x</text></a></svg>`},
	{"SVG animate to", `<svg><animate attributeName="href" to="javascript:alert(1)"/></svg>`},
	{"SVG animate values list", `<svg><a><animate attributeName="href" values="https://x;javascript:alert(1)"/></a></svg>`},
	{"SVG set event handler", `<svg><set attributeName="onmouseover" to="alert(1)"/></svg>`},
	{"SVG use data", `<svg><use href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=#x"/></svg>`},
	{"OBJECT data text/html", `<object data="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">`},
	{"EMBED svg", `<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv">`},
	{"MATH href", `<math href="javascript:alert(1)">x</math>`},
	{"VIDEO poster", `<video poster="javascript:alert(1)"></video>`},
	{"conditional comment hiding script", `<!--[if gte IE 4]><SCRIPT>alert('XSS');</SCRIPT><![endif]-->`},
	{"mXSS noscript title attribute", `<noscript><p title="</noscript><img src=x onerror=alert(1)>">`},
	{"mXSS svg style", `<svg><style><img src=x onerror=alert(1)></style></svg>`},
	{"mXSS svg CDATA", `<svg><![CDATA[><b title="]]><img src=x onerror=alert(1)>">`},
	{"mXSS style straddle in foreign content", `<svg><style><a title='</style>' onclick=alert(1)>x</a></style></svg>`},
	{"JS-escaped tag", `\u003cimg src=x onerror=alert(1)\u003e`},
}

// harmless values must pass: ordinary UI strings with markup and
// placeholders.
var harmless = []struct{ name, value string }{
	{"empty", ""},
	{"plain text", "Save changes"},
	{"colon in prose", "Note: save first"},
	{"time", "10:30"},
	{"ratio", "Ratio 1:2"},
	{"javascript in prose", "javascript is fun"},
	{"words starting with on", "one more, only online"},
	{"strong", "<strong>Welcome back</strong>, %{name}!"},
	{"em and br", "<em>Careful</em><br>this cannot be undone"},
	{"https link", `Read the <a href="https://example.com/docs?a=1&amp;b=2">docs</a>.`},
	{"mailto link", `<a href="mailto:a@b.c">Write to us</a>`},
	{"relative link", `<a href="/relative">Back</a>`},
	{"fragment link", `<a href="#top">Top</a>`},
	{"tel link", `<a href="tel:+4712345678">Call</a>`},
	{"ruby placeholder", "Hello %{name}"},
	{"brace placeholder", "Hello {name}"},
	{"double brace placeholder", "{{count}} items"},
	{"printf placeholder", "%s of %d"},
	{"img with alt containing colon and on", `<img src="https://x/y.png" alt="Lower: on sale">`},
	{"data-on attribute", `<span data-on="click">x</span>`},
	{"class onboarding", `<span class="onboarding">Start</span>`},
	{"data png image", `<img src="data:image/png;base64,iVBORw0KGgo=" alt="">`},
	{"target blank link", `<a href="https://example.com" target="_blank" rel="noopener">Open</a>`},
	{"style colour", `<span style="color: red; font-weight: bold">Warning:</span> disk full`},
	{"scroll behavior style", `<div style="scroll-behavior: smooth">x</div>`},
	{"entities", "Tom &amp; Jerry &copy; 2024 &mdash; 5 &lt; 6"},
	{"less than in text", "a < b and 5<6"},
	{"windows path", `C:\Users\%{name}\Documents`},
	{"escaped quote", `Say \"hi\"`},
	{"html comment", "<!-- keep %{count} untranslated -->%{count} files"},
	{"ICU plural", "{count, plural, one {# file} other {# files}}"},
	{"prose starting with Data:", "Data: XML, JSON or CSV"},
	{"https URL bare", "https://example.com/path?x=1"},
	{"comparison without spaces", "if a<b then"},
	{"JavaScript: inside a title", `<a href="https://x.example" title="Learn JavaScript: closures">x</a>`},
	{"mocha is a drink", "Mocha: espresso with chocolate"},
	{"JavaScript in link text", `<a href="https://developer.mozilla.org/">JavaScript: The Good Parts</a>`},
}

func TestCheckRefusesEvasions(t *testing.T) {
	if len(evasions) < 25 {
		t.Fatalf("want at least 25 evasion vectors, have %d", len(evasions))
	}
	for _, tc := range evasions {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(tc.value)
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("Check(%q) = %v, want a *Refusal", tc.value, err)
			}
			if r.Reason == "" || r.Error() != r.Reason {
				t.Fatalf("Check(%q): bad reason %q", tc.value, r.Reason)
			}
		})
	}
}

func TestCheckAcceptsHarmless(t *testing.T) {
	if len(harmless) < 15 {
		t.Fatalf("want at least 15 harmless values, have %d", len(harmless))
	}
	for _, tc := range harmless {
		t.Run(tc.name, func(t *testing.T) {
			if err := Check(tc.value); err != nil {
				t.Fatalf("Check(%q) = %v, want nil", tc.value, err)
			}
		})
	}
}

// TestScriptSchemeProse pins where prose that starts with "JavaScript:"
// ends and a script URL begins: a body with two plain words side by side
// is a syntax error, so a browser runs nothing; anything that may parse,
// or that could hide the pair in a string, comment or second line, is
// refused.
func TestScriptSchemeProse(t *testing.T) {
	t.Parallel()
	for _, v := range []string{
		"JavaScript: The Good Parts",
		"JavaScript: enable it in your browser settings",
		"javascript: activez-le dans les paramètres de votre navigateur",
		"JavaScript: bitte aktivieren Sie es",
	} {
		if err := Check(v); err != nil {
			t.Errorf("Check(%q) = %v, want nil", v, err)
		}
	}
	for _, v := range []string{
		"javascript: alert(1)",
		"javascript:void fetch(x)",
		"javascript:typeof x",
		"javascript:new Date",
		"javascript:a in b",
		"javascript:let it",
		"javascript:alert(1)//enable it",
		"javascript:alert(1);'enable it'",
		"javascript:alert(1)\nenable it",
		"javascript:enable\nit",
		"javascript:enable%0Ait",
		"javascript:enable\u2028it",
		"javascript:enable\u00a0it;alert(1)",
		"javascript:alert(1)<!--enable it",
		"JavaScript&colon;alert(1)",
	} {
		if Check(v) == nil {
			t.Errorf("Check(%q) = nil, want a refusal", v)
		}
	}
	// A Markdown destination's end is a guess: no prose exemption there.
	if Check("[x](javascript:enable it)") == nil {
		t.Errorf("Markdown link to javascript: accepted")
	}
}

func TestReasons(t *testing.T) {
	for _, tc := range []struct{ value, reason string }{
		{`<img src=x onerror=alert(1)>`, "value carries an inline event handler (onerror)"},
		{`<a href="javascript:alert(1)">x</a>`, "value links to a javascript: URL"},
		{`<script>alert(1)</script>`, "value contains a <script> element"},
		{`javascript:alert(1)`, "value starts with a javascript: URL"},
		{`<iframe src="data:text/html,x">`, "value points src at a data:text/html URL"},
		{`<p style="width:expression(1)">`, "value has a style attribute that can run script (expression()"},
		{`\x3cscript>`, "value contains a <script> element once backslash escapes are decoded"},
	} {
		err := Check(tc.value)
		if err == nil || err.Error() != tc.reason {
			t.Errorf("Check(%q) = %v, want %q", tc.value, err, tc.reason)
		}
	}
}

func TestDataURLs(t *testing.T) {
	for _, tc := range []struct {
		value string
		ok    bool
	}{
		{`<img src="data:image/png;base64,AAAA">`, true},
		{`<img src="data:image/gif,x">`, true},
		{`<a href="data:,hello">`, true},
		{`<a href="data:text/plain;charset=utf-8,hi">`, true},
		{`<img src="data:image/svg+xml,<svg/>">`, false}, // refused even in <img>, where it is inert: simpler and no value needs it
		{`<a href="data:application/xhtml+xml,x">`, false},
		{`<a href="data:text/xml,x">`, false},
		{`<a href="data:text/javascript,alert(1)">`, false},
		{`<a href="data:  TEXT/HTML,x">`, false},
		{"<a href=\"data:te\txt/html,x\">", false},
		{`<a href="data:unknown/unknown,x">`, false},
		{`<a href="data:multipart/x-mixed-replace,x">`, false},
	} {
		if got := Check(tc.value) == nil; got != tc.ok {
			t.Errorf("Check(%q) ok = %v, want %v", tc.value, got, tc.ok)
		}
	}
}

func TestNeverPanics(t *testing.T) {
	for _, v := range []string{
		"\xff\xfe<", "<a href=\"\xffjavascript:x\">", "&#", "&#x", "&#99999999999;", "\\", "\\u{", "\\u{110000}",
		"\\x", "<style>\\", "<style>/*", "<a style=\"\\", "<", "</", "<!", "<!-", "<!--", "<?", "<a", "<a b", "<a b=", "<a b='",
		"<svg><![CDATA[", "data:", "data:/", "javascript", ":", "<plaintext>", strings.Repeat("\ufffd", 3),
	} {
		_ = Check(v)
	}
	if !testing.Short() {
		for _, v := range largeValues() {
			_ = Check(v)
		}
	}
}

// largeValues are 1 MB inputs shaped to trigger rescanning if any scan were
// quadratic: BenchmarkCheckLarge reads its throughput on each (a quadratic scan of 1 MB
// would take minutes, not milliseconds).
func largeValues() map[string]string {
	const mb = 1 << 20
	fill := func(unit string) string { return strings.Repeat(unit, mb/len(unit)) }
	return map[string]string{
		"markup":          fill(`<p class="x"><a href="https://example.com/a">Hello %{name}</a>, <strong>welcome</strong>: 10:30 &amp; more.</p>`),
		"nested divs":     fill("<div>"),
		"open attribute":  `<a title="` + fill("x"),
		"srcset commas":   `<img srcset="` + fill(",\t") + `">`,
		"srcset data":     `<img srcset="` + fill("data: ") + `">`,
		"content tabs":    `<meta content="0;url=` + fill("\t") + `">`,
		"ampersands":      fill("&"),
		"entity digits":   "&#" + fill("1"),
		"backslashes":     fill(`\x`),
		"style comments":  `<p style="` + fill("/*") + `">`,
		"many attributes": "<p " + fill("a ") + ">",
		"colons":          fill("a:"),
		"markdown links":  fill("[a](https://x.test/p) "),
		"bracket parens":  fill("]("),
		"bracket spaces":  fill("] \n"),
		"destination":     "[a](" + fill("a"),
		"destination tab": "[a](<a" + fill("\t"),
		"angle letters":   fill("<a"),
		"angle entities":  fill("<&#1"),
		"reference defs":  fill("[r]: &colon;"),
	}
}

func BenchmarkCheck(b *testing.B) {
	b.Run("short", func(b *testing.B) {
		v := `Hello <strong>%{name}</strong>, read the <a href="https://example.com/docs">docs</a>.`
		b.SetBytes(int64(len(v)))
		for b.Loop() {
			_ = Check(v)
		}
	})
	b.Run("short-fastpath", func(b *testing.B) {
		v := "Save {count} files"
		b.SetBytes(int64(len(v)))
		for b.Loop() {
			_ = Check(v)
		}
	})
	b.Run("1MB", func(b *testing.B) {
		v := largeValues()["markup"]
		b.SetBytes(int64(len(v)))
		for b.Loop() {
			_ = Check(v)
		}
	})
}

func ExampleCheck() {
	fmt.Println(Check(`Hello <strong>%{name}</strong>`))
	fmt.Println(Check(`<img src=x onerror=alert(1)>`))
	// Output:
	// <nil>
	// value carries an inline event handler (onerror)
}

// BenchmarkCheckLarge checks each 1 MB shape of largeValues; its MB/s stays of the order of
// the short values' if every scan is linear.
func BenchmarkCheckLarge(b *testing.B) {
	for name, v := range largeValues() {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(v)))
			for b.Loop() {
				_ = Check(v)
			}
		})
	}
}
