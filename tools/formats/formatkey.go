package formats

import (
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/tools/message"
)

// Apple's format keys: a text such as "%#@files@ left in %#@folders@" whose %#@var@ (or
// %n$#@var@) references each name a variable with plural forms of its own (a .stringsdict
// variable dict, a String Catalog substitution). Both codecs read one as one ICU value,
// each reference a plural block on the variable's name and the text around it text
// ("{files, plural, one {%d file} other {%d files}} left in {folders, plural, ...}"), and
// write it back, with the functions here; only where the forms live differs.

// formatRef is one %#@var@ in a format key.
type formatRef struct {
	start, end int
	name, pos  string
}

// formatRefs finds the %#@var@ and %n$#@var@ references of a format.
func formatRefs(s string) []formatRef {
	var out []formatRef
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		if i+1 < len(s) && s[i+1] == '%' {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		pos := ""
		if j > i+1 {
			if j >= len(s) || s[j] != '$' {
				continue
			}
			pos = s[i+1 : j]
			j++
		}
		if !strings.HasPrefix(s[j:], "#@") {
			continue
		}
		end := strings.IndexByte(s[j+2:], '@')
		if end <= 0 {
			continue
		}
		out = append(out, formatRef{start: i, end: j + 2 + end + 1, name: s[j+2 : j+2+end], pos: pos})
		i = j + 2 + end
	}
	return out
}

// formatPart is a run of a format key: text, or a variable and its native plural forms
// (their text as the file writes it).
type formatPart struct {
	text  string
	arg   string // the variable; "" for text
	pos   string // n of a positional reference %n$#@var@
	forms []PluralForm
}

// splitFormatKey splits a format key into its text and its variables (forms not filled
// in); nil when it has no variable.
func splitFormatKey(format string) []formatPart {
	refs := formatRefs(format)
	if len(refs) == 0 {
		return nil
	}
	var parts []formatPart
	prev := 0
	for _, ref := range refs {
		if ref.start > prev {
			parts = append(parts, formatPart{text: format[prev:ref.start]})
		}
		prev = ref.end
		parts = append(parts, formatPart{arg: ref.name, pos: ref.pos})
	}
	if prev < len(format) {
		parts = append(parts, formatPart{text: format[prev:]})
	}
	return parts
}

// formatKeyICU is the ICU value of a format key's parts in lang: each variable a plural
// block built by FromNative (Apple's zero is =0 where lang has no zero), text and forms
// written so that they read back as written (ICU's # and quotes escaped, braces quoted
// where ICU would read them as unclosed). ok is false when no value reads back so.
func formatKeyICU(lang string, parts []formatPart) (string, bool) {
	for _, quoteBraces := range []bool{false, true} {
		var ps []Piece
		for _, w := range parts {
			if w.arg == "" {
				ps = append(ps, Piece{Text: nativeLiteral(w.text, false, quoteBraces)})
				continue
			}
			lit := make([]PluralForm, len(w.forms))
			for i, f := range w.forms {
				lit[i] = PluralForm{Selector: f.Selector, Text: nativeLiteral(f.Text, true, quoteBraces)}
			}
			ps = append(ps, Piece{Plural: FromNative(lang, w.arg, false, lit)})
		}
		v := JoinPieces(ps)
		back := Pieces(v)
		same := len(back) == len(parts) && (quoteBraces || !braceProblems(v))
		for i := 0; same && i < len(back); i++ {
			w, b := parts[i], back[i]
			if w.arg == "" {
				t := message.ICUToNative(b.Text, "#")
				same = b.Plural == nil && t == w.text
				continue
			}
			if b.Plural == nil || b.Plural.Arg != w.arg || b.Plural.Ordinal || len(b.Plural.Forms) != len(w.forms) {
				same = false
				continue
			}
			for j, f := range b.Plural.Forms {
				t, pounds := message.ICUToNative(f.Text, "#"), formPounds(f.Text)
				if t != w.forms[j].Text || pounds > 0 {
					same = false
				}
			}
		}
		if same {
			return v, true
		}
	}
	return "", false
}

// icuFormatKey splits an ICU value into a format key and its variables: each plural block
// becomes %#@arg@ (%n$#@arg@ when pos gives n for arg), a variable written once however
// often it appears, and the text between them its native text. A selectordinal stays as
// written. ok is false when the value has no plural block, or one that has none of lang's
// forms (a variable without forms does not read back): such a value is text.
func icuFormatKey(lang string, ps []Piece, pos func(arg string) string) (format string, vars []*Plural, ok bool) {
	for _, p := range ps {
		if p.Plural != nil && !p.Plural.Ordinal {
			if forms, _, _ := ToNative(lang, p.Plural, ZeroExplicit); len(forms) == 0 {
				return "", nil, false
			}
			ok = true
		}
	}
	if !ok {
		return "", nil, false
	}
	var b strings.Builder
	for _, p := range ps {
		switch {
		case p.Plural == nil:
			t := message.ICUToNative(p.Text, "#")
			b.WriteString(t)
		case p.Plural.Ordinal:
			b.WriteString(p.Plural.String())
		default:
			b.WriteString("%")
			if n := pos(p.Plural.Arg); n != "" {
				b.WriteString(n + "$")
			}
			b.WriteString("#@" + p.Plural.Arg + "@")
			if !slices.ContainsFunc(vars, func(v *Plural) bool { return v.Arg == p.Plural.Arg }) {
				vars = append(vars, p.Plural)
			}
		}
	}
	return b.String(), vars, true
}

// formatKeyForms are the native forms a variable writes in lang: exactly lang's categories
// (=0 as zero where lang has no zero), '#' written as pound.
func formatKeyForms(lang string, p *Plural, pound string) []PluralForm {
	forms, _, _ := ToNative(lang, p, ZeroExplicit)
	for i, f := range forms {
		forms[i].Text = message.ICUToNative(f.Text, pound)
	}
	return forms
}
