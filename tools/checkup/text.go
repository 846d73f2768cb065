package checkup

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// isWordRune reports whether r is part of a word for whole-word matching.
// Scripts written without spaces (Han, kana, Thai, ...) never form word
// boundaries, so a term there matches wherever it occurs.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf { // fast path: most text is ASCII
		return r == '_' || ('0' <= r && r <= '9') || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z')
	}
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) {
		return false
	}
	return !unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana,
		unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// containsWord reports whether term occurs in text as a whole word. A
// boundary is only required on a side where the term itself ends in a word
// character, so terms like "C++" or ".NET" still match.
func containsWord(text, term string) bool {
	return indexWord(text, term, 0) >= 0
}

// indexWord returns the position of the first whole-word occurrence of term
// in text at or after from, or -1.
func indexWord(text, term string, from int) int {
	if term == "" {
		return -1
	}
	first, _ := utf8.DecodeRuneInString(term)
	last, _ := utf8.DecodeLastRuneInString(term)
	needStart, needEnd := isWordRune(first), isWordRune(last)
	for i := from; i <= len(text)-len(term); {
		k := strings.Index(text[i:], term)
		if k < 0 {
			return -1
		}
		p := i + k
		e := p + len(term)
		okStart := !needStart || p == 0 || !isWordRune(lastRune(text[:p]))
		okEnd := !needEnd || e == len(text) || !isWordRune(firstRune(text[e:]))
		if okStart && okEnd {
			return p
		}
		if needStart {
			// Any later match inside this word is preceded by a word
			// character too: jump past the word so the scan stays linear.
			i = p
			for i < len(text) {
				r, size := utf8.DecodeRuneInString(text[i:])
				if !isWordRune(r) {
					break
				}
				i += size
			}
		} else {
			_, size := utf8.DecodeRuneInString(text[p:])
			i = p + size
		}
	}
	return -1
}

// removeWord replaces every whole-word occurrence of term in text by a space.
func removeWord(text, term string) string {
	var b strings.Builder
	last := 0
	for p := indexWord(text, term, 0); p >= 0; p = indexWord(text, term, last) {
		b.WriteString(text[last:p])
		b.WriteByte(' ')
		last = p + len(term)
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

func firstRune(s string) rune { r, _ := utf8.DecodeRuneInString(s); return r }
func lastRune(s string) rune  { r, _ := utf8.DecodeLastRuneInString(s); return r }

// countLetters counts letters, stopping early once limit is exceeded.
func countLetters(s string, limit int) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			if n++; n > limit {
				break
			}
		}
	}
	return n
}

// isURLish reports whether a whitespace-separated field is a URL or an
// e-mail address, which stay the same in every language.
func isURLish(f string) bool {
	l := strings.ToLower(f)
	if strings.Contains(l, "://") || strings.HasPrefix(l, "www.") || strings.HasPrefix(l, "mailto:") {
		return true
	}
	at := strings.IndexByte(l, '@')
	return at > 0 && strings.Contains(l[at+1:], ".")
}
