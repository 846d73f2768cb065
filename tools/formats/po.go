package formats

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

func renderPO(language string, entries []Row) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("msgid \"\"\nmsgstr \"\"\n")
	for _, h := range []string{
		"Language: " + language,
		"MIME-Version: 1.0",
		"Content-Type: text/plain; charset=UTF-8",
		"Content-Transfer-Encoding: 8bit",
		"X-Generator: lokal",
	} {
		b.WriteString(`"` + poEscape(h) + `\n"` + "\n")
	}
	ctxs := make(map[string]string, len(entries))
	for _, e := range entries {
		ctx := poEscape(e.Key)
		if other, dup := ctxs[ctx]; dup {
			return nil, fmt.Errorf("formats: po: keys %q and %q are the same in gettext (NUL and EOT are not allowed)", other, e.Key)
		}
		ctxs[ctx] = e.Key
		id := e.Source
		if id == "" {
			// gettext needs a msgid; the key is the best stand-in, and msgctxt keeps the
			// entry unique even when several keys share a source text.
			id = e.Key
		}
		b.WriteByte('\n')
		if e.Stale && e.Value != "" {
			// msgfmt leaves fuzzy entries out of the .mo unless --use-fuzzy: an outdated
			// translation then shows the source text, as an untranslated one does.
			b.WriteString("#, fuzzy\n")
		}
		writePOString(&b, "msgctxt", e.Key)
		writePOString(&b, "msgid", id)
		writePOString(&b, "msgstr", e.Value)
	}
	return b.Bytes(), nil
}

// writePOString writes one keyword and its string the way GNU gettext does: on one line,
// or, when the text has a line break before its end, as "" followed by one line per
// \n-terminated segment.
func writePOString(b *bytes.Buffer, keyword, s string) {
	if i := strings.IndexByte(s, '\n'); i < 0 || i == len(s)-1 {
		b.WriteString(keyword + ` "` + poEscape(s) + `"` + "\n")
		return
	}
	b.WriteString(keyword + ` ""` + "\n")
	for line := range strings.Lines(s) {
		b.WriteString(`"` + poEscape(line) + `"` + "\n")
	}
}

// poEscape applies the C escapes the gettext lexer reads. Other control characters become
// three-digit octal escapes: gettext reads at most three octal digits, whereas \x would swallow
// any hex digit that follows. Non-ASCII text stays raw UTF-8 (the header declares charset=UTF-8).
// NUL and EOT cannot be stored in a gettext catalog (strings are NUL-terminated, and EOT
// joins msgctxt to msgid in .mo files, so msgfmt rejects it), so they become U+FFFD.
func poEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case 0, 4:
			b.WriteRune(utf8.RuneError)
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\v':
			b.WriteString(`\v`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\%03o`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}
