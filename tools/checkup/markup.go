package checkup

import (
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// MarkupTags returns the sorted multiset of tag names (opening and closing
// separately, e.g. "<strong>", "</strong>", "<a>") in s. Names are
// lower-cased, attributes are ignored and a self-closing <br/> counts as
// <br>. Comments, doctypes and text that merely looks like a comparison
// ("a < b") are not tags.
func MarkupTags(s string) []string {
	var out []string
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		switch z.Next() {
		case html.ErrorToken: // io.EOF: the reader never fails otherwise
			if len(out) == 0 {
				return nil
			}
			slices.Sort(out)
			return out
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			out = append(out, "<"+string(name)+">")
			// A value is a fragment, not a document: tags after <title>,
			// <textarea>, <style>... still count instead of becoming text.
			z.NextIsNotRawText()
		case html.EndTagToken:
			name, _ := z.TagName()
			out = append(out, "</"+string(name)+">")
		}
	}
}

// markupText returns the text content of s (tags, comments and attributes
// dropped, entities decoded), with a space where each tag was.
func markupText(s string) string {
	if !strings.ContainsRune(s, '<') && !strings.ContainsRune(s, '&') {
		return s
	}
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			b.Write(z.Text())
		case html.StartTagToken:
			b.WriteByte(' ')
			z.NextIsNotRawText()
		default:
			b.WriteByte(' ')
		}
	}
}

// multisetDiff compares two sorted multisets and returns what want has that
// got lacks (missing) and what got has beyond want (unexpected).
func multisetDiff(want, got []string) (missing, unexpected []string) {
	i, j := 0, 0
	for i < len(want) && j < len(got) {
		switch {
		case want[i] == got[j]:
			i++
			j++
		case want[i] < got[j]:
			missing = append(missing, want[i])
			i++
		default:
			unexpected = append(unexpected, got[j])
			j++
		}
	}
	missing = append(missing, want[i:]...)
	unexpected = append(unexpected, got[j:]...)
	return missing, unexpected
}
