package formats

import (
	"bytes"
	"fmt"
	"strings"
)

func renderStrings(language string, entries []Row) ([]byte, error) {
	var b bytes.Buffer
	// Apple's parser rejects a zero-length file but reads a comment-only one as an empty
	// table, so the header comment also keeps an empty export valid.
	b.WriteString("/* Language: " + stringsComment(language) + " */\n")
	for _, e := range entries {
		b.WriteByte('\n')
		if e.Source != "" {
			b.WriteString("/* " + stringsComment(e.Source) + " */\n")
		}
		b.WriteString(`"` + stringsEscape(e.Key) + `" = "` + stringsEscape(e.Value) + "\";\n")
	}
	return b.Bytes(), nil
}

// stringsEscape escapes what CoreFoundation's old-style plist parser unescapes. Other
// control characters use \U with four hex digits (Apple reads exactly up to four; octal
// escapes are read as NeXTSTEP-encoded bytes, so they are avoided).
func stringsEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		default:
			writeControl(&b, r)
		}
	}
	return b.String()
}

// stringsComment keeps a comment on one line and stops "*/" inside it from ending the
// comment early. Comments are not unescaped by readers, so this is for display only.
func stringsComment(s string) string {
	var b strings.Builder
	for _, r := range s {
		writeControl(&b, r)
	}
	return strings.ReplaceAll(b.String(), "*/", `*\/`)
}

func writeControl(b *strings.Builder, r rune) {
	switch r {
	case '\n':
		b.WriteString(`\n`)
	case '\t':
		b.WriteString(`\t`)
	case '\r':
		b.WriteString(`\r`)
	default:
		if r < 0x20 || r == 0x7f {
			fmt.Fprintf(b, `\U%04X`, r)
		} else {
			b.WriteRune(r)
		}
	}
}
