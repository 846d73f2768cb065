package valuecheck

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// Refusal explains why a value was refused.
type Refusal struct{ Reason string }

// Error returns the reason, a short human sentence.
func (r *Refusal) Error() string { return r.Reason }

func refuse(format string, args ...any) *Refusal {
	return &Refusal{Reason: fmt.Sprintf(format, args...)}
}

// Check returns nil when value is safe to store, or a *Refusal explaining
// why not.
func Check(value string) error {
	// Without these a value opens no tag and names no scheme, not even
	// through an entity or an escape.
	if !strings.ContainsAny(value, "<:&\\") {
		return nil
	}
	if r := checkValue(value); r != nil {
		return r
	}
	if strings.IndexByte(value, '\\') >= 0 {
		// One level only: decoding is done by the context the value lands in,
		// and no context decodes backslash escapes twice.
		for _, v := range [...]string{jsUnescape(value), cssUnescape(value, false)} {
			if r := checkValue(v); r != nil {
				return &Refusal{Reason: r.Reason + " once backslash escapes are decoded"}
			}
		}
	}
	return nil
}

func checkValue(v string) *Refusal {
	decoded := v
	if strings.IndexByte(v, '&') >= 0 {
		// A template may put the value into an href, where the browser decodes
		// entities before it looks at the scheme.
		decoded = html.UnescapeString(v)
	}
	if d := valueDangerAtStart(decoded, v); d != "" {
		return refuse("value starts with a %s URL", d)
	}
	if r := checkMarkup(v, true); r != nil {
		return r
	}
	// Values are Markdown too where a page renders them so.
	if d, kind := markdownDanger(v); d != "" {
		return refuse("value has a Markdown %s to a %s URL", kind, d)
	}
	return nil
}

// checkMarkup tokenizes s and checks every token. When tail is set and s ends
// inside a tag, that tag is checked again as the page would close it.
func checkMarkup(s string, tail bool) *Refusal {
	z := html.NewTokenizer(strings.NewReader(s))
	offset := 0
	styleText := false
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		// Raw must be read before TagAttr or Text, which decode in place.
		raw := z.Raw()
		offset += len(raw)
		if hidesMarkup(raw, tt == html.TextToken) {
			return refuse("value hides markup inside an attribute, comment or raw-text element")
		}
		afterStyle := styleText
		styleText = false
		switch tt {
		case html.TextToken:
			if afterStyle {
				// Raw text in HTML, but entity-decoded text inside <svg>.
				text := string(raw)
				if p := cssDanger(text); p != "" {
					return refuse("value has a <style> element that can run script (%s)", p)
				}
				if p := cssDanger(html.UnescapeString(text)); p != "" {
					return refuse("value has a <style> element that can run script (%s)", p)
				}
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			tag := string(name)
			if localName(tag) == "script" {
				return refuse("value contains a <script> element")
			}
			// The tokenizer treats <style/> as raw text too.
			styleText = tag == "style"
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if r := checkAttr(tag, string(k), string(v)); r != nil {
					return r
				}
			}
		}
	}
	if tail && offset < len(s) {
		// The value ends inside a tag that the page around it will close.
		rest := s[offset:]
		for _, end := range [...]string{">", "\">", "'>"} {
			if r := checkMarkup(rest+end, false); r != nil {
				return r
			}
		}
	}
	return nil
}

// hidesMarkup reports whether raw has a "<" that could open a tag, comment or
// end tag anywhere other than at the token's own start. Such markup is inert
// under this tokenization, but a browser in another context (SVG, MathML,
// noscript, CDATA) may split the input differently and run it.
func hidesMarkup(raw []byte, text bool) bool {
	if !text && len(raw) > 0 {
		raw = raw[1:]
	}
	for {
		i := bytes.IndexByte(raw, '<')
		if i < 0 || i+1 >= len(raw) {
			return false
		}
		c := raw[i+1]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '/' || c == '!' || c == '?' {
			return true
		}
		raw = raw[i+1:]
	}
}

// listAttrs hold several URLs, so every entry is checked, not just the first.
var listAttrs = map[string]bool{
	"srcset":      true,
	"imagesrcset": true,
	"ping":        true,
	"archive":     true,
	"values":      true, // SVG <animate values="a;javascript:...">
	"content":     true, // <meta http-equiv=refresh content="0;url=...">
}

// linkAttrs only change the wording of the refusal.
var linkAttrs = map[string]bool{
	"href":       true,
	"xlink:href": true,
	"action":     true,
	"formaction": true,
}

func checkAttr(tag, key, val string) *Refusal {
	// The prefix test catches names like "onload!#$%&()" that old Gecko
	// honoured; the local name catches namespaced ones like "xlink:onclick".
	if strings.HasPrefix(key, "on") || strings.HasPrefix(localName(key), "on") {
		return refuse("value carries an inline event handler (%s)", clip(key))
	}
	switch key {
	case "srcdoc":
		// A whole second document, decoded once more; no translation needs
		// one, so it is refused outright rather than checked recursively.
		return refuse("value carries an iframe srcdoc document")
	case "style":
		if p := cssDanger(val); p != "" {
			return refuse("value has a style attribute that can run script (%s)", p)
		}
	case "attributename":
		// <set attributeName="onclick" to="alert(1)"> adds a handler.
		if strings.HasPrefix(localName(strings.ToLower(strings.TrimSpace(val))), "on") {
			return refuse("value animates an event handler attribute (%s)", clip(strings.TrimSpace(val)))
		}
	case "href":
		if tag == "base" {
			// Even an https base makes the page's own relative scripts load
			// from wherever it points.
			return refuse("value contains a <base href> element")
		}
	case "rel":
		if tag == "link" && hasWord(strings.ToLower(val), "import") {
			return refuse("value contains a <link rel=import> element")
		}
	}
	// Every attribute, not just known URL ones: custom elements and SVG take
	// URLs in attributes of any name (to, from, by, xlink:href, ...).
	d := urlDangerAtStart(val)
	if d == "" && listAttrs[key] {
		d = urlDangerInList(val)
	}
	if d == "" {
		return nil
	}
	if linkAttrs[key] || strings.HasSuffix(key, ":href") {
		return refuse("value links to a %s URL", d)
	}
	return refuse("value points %s at a %s URL", clip(key), d)
}

// localName drops a namespace prefix such as "xlink:" or "svg:".
func localName(name string) string {
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		return name[i+1:]
	}
	return name
}

func hasWord(s, word string) bool {
	for _, f := range strings.Fields(s) {
		if f == word {
			return true
		}
	}
	return false
}

// clip keeps attacker-chosen names from bloating or garbling the reason.
func clip(s string) string {
	const max = 32
	if len(s) > max {
		s = s[:max] + "..."
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return '?'
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
}
