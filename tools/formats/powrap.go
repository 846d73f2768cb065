package formats

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// How GNU gettext's tools (msgmerge, msgcat, xgettext) split a string over lines at their
// default page width of 79 columns, so that Merge writes a changed msgstr as the tools
// that wrote the file would: one line when it fits after the keyword, else "" and then
// one line per "\n"-terminated portion, each portion broken where Unicode line breaking
// (UAX #14) allows so that no line, quotes included, passes the page width. The break
// rules below are the ones that decide in gettext's languages (spaces, punctuation that
// does not start a line, quotes, hyphens, slashes, ideographs); they are not all of UAX #14.

// poPageWidth is gettext's default --width.
const poPageWidth = 79

// poWrapParts is the layout (byte length of each quoted piece, as Meta "wrap" has it) that
// gettext gives s after keyword at poPageWidth.
func poWrapParts(keyword, s string) []int {
	var parts []int
	first := true
	for rest := s; ; {
		portion := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			portion = rest[:i+1]
		}
		rest = rest[len(portion):]
		runes := []rune(portion)
		cols := make([]int, len(runes))
		for i, r := range runes {
			cols[i] = poRuneCols(r)
		}
		// The width of a line's text: the page less both quotes.
		const lineWidth = poPageWidth - 2
		startcol := 0
		if first {
			startcol = len(keyword) + 1
		}
		breaks := poBreaks(runes, cols, lineWidth, startcol)
		if first && len(runes) > 0 && (rest != "" || startcol > lineWidth || len(breaks) > 0) {
			parts = append(parts, 0) // keyword ""
			first = false
			breaks = poBreaks(runes, cols, lineWidth, 0)
		}
		first = false
		at := 0
		for _, b := range breaks {
			n := len(string(runes[at:b]))
			parts = append(parts, n)
			at = b
		}
		parts = append(parts, len(string(runes[at:])))
		if rest == "" {
			return parts
		}
	}
}

// poBreaks is where the greedy line breaking of libunistring (ulc_width_linebreaks) breaks
// runes: the indexes a new line starts at.
func poBreaks(runes []rune, cols []int, lineWidth, startcol int) []int {
	var out []int
	last := -1 // the last break opportunity
	lastCol, piece := startcol, 0
	for i := range runes {
		possible := i > 0 && poBreakBefore(runes, i)
		if runes[i] == '\n' && i == len(runes)-1 {
			possible = false // gettext never breaks before the final "\n"
		}
		if possible {
			if last >= 0 && lastCol+piece > lineWidth {
				out = append(out, last)
				lastCol = 0
			}
			last = i
			lastCol += piece
			piece = 0
		}
		piece += cols[i]
	}
	if last >= 0 && lastCol+piece > lineWidth {
		out = append(out, last)
	}
	return out
}

// poRuneCols is the columns r takes once escaped as Encode writes it.
func poRuneCols(r rune) int {
	if r < 0x20 || r == '\\' || r == '"' || r == 0x7f || r == utf8.RuneError {
		return len(poEscape(string(r)))
	}
	if unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) {
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// UAX #14 line breaking classes, those the rules below tell apart.
type poLBClass uint8

const (
	lbAL poLBClass = iota // letters and anything else
	lbSP                  // space
	lbOP                  // opening punctuation
	lbCL                  // closing punctuation
	lbCP                  // closing parenthesis
	lbEX                  // ! ?
	lbIS                  // , . : ;
	lbSY                  // /
	lbQU                  // quotation marks
	lbHY                  // hyphen-minus
	lbBA                  // break after (|, en dash)
	lbB2                  // em dash
	lbPR                  // prefix ($, \)
	lbPO                  // postfix (%)
	lbNU                  // digits
	lbGL                  // no-break spaces
	lbIN                  // ellipsis
	lbID                  // ideographs, kana, emoji
	lbNS                  // small kana, prolonged sound mark
	lbCM                  // combining marks
)

func poLBClassOf(r rune) poLBClass {
	switch r {
	case ' ':
		return lbSP
	case '(', '[', '{', '\u00ab', '\u300c', '\u300e', '\uff08', '\u3010', '\u3008', '\u300a':
		if r == '\u00ab' {
			return lbQU
		}
		return lbOP
	case ')', ']':
		return lbCP
	case '}', '\u3001', '\u3002', '\uff0c', '\uff0e', '\u300d', '\u300f', '\uff09', '\u3011', '\u3009', '\u300b':
		return lbCL
	case '!', '?', '\uff01', '\uff1f':
		return lbEX
	case ',', '.', ':', ';', '\uff1a', '\uff1b':
		return lbIS
	case '/':
		return lbSY
	case '"', '\'', '\u2018', '\u2019', '\u201c', '\u201d', '\u00bb', '\u2039', '\u203a':
		return lbQU
	case '-':
		return lbHY
	case '|', '\u2010', '\u2013':
		return lbBA
	case '\u2014':
		return lbB2
	case '$', '+', '\\', '\u00a3', '\u20ac', '\u00a5':
		return lbPR
	case '%', '\u00b0', '\u2030':
		return lbPO
	case '\u00a0', '\u202f', '\u2007', '\u2060':
		return lbGL
	case '\u2026':
		return lbIN
	case '\u30fc', '\u30fb', '\u3005':
		return lbNS
	}
	switch {
	case r >= '0' && r <= '9':
		return lbNU
	case unicode.In(r, unicode.Mn, unicode.Me):
		return lbCM
	case strings.ContainsRune("ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ", r):
		return lbNS
	case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || r >= 0x1F000 && r <= 0x1FAFF:
		return lbID
	}
	return lbAL
}

// poClassAfter and poClassBefore are the classes a rune has on each side once escaped:
// gettext breaks the escaped text, where "\t" is a backslash (before) and a letter (after).
func poClassAfter(r rune) poLBClass {
	if e := poEscape(string(r)); len(e) > 1 && e[0] == '\\' {
		return poLBClassOf(rune(e[len(e)-1]))
	}
	return poLBClassOf(r)
}

func poClassBefore(r rune) poLBClass {
	if e := poEscape(string(r)); len(e) > 1 && e[0] == '\\' {
		return lbPR
	}
	return poLBClassOf(r)
}

// poBreakBefore says whether UAX #14 allows a line break between runes[i-1] and runes[i].
func poBreakBefore(runes []rune, i int) bool {
	a, b := poClassAfter(runes[i-1]), poClassBefore(runes[i])
	switch b {
	case lbSP, lbCM, lbCL, lbCP, lbEX, lbIS, lbSY: // LB7, LB9, LB13
		return false
	}
	if a == lbSP {
		j := i - 1
		for j > 0 && runes[j] == ' ' {
			j--
		}
		switch x := poClassAfter(runes[j]); {
		case x == lbSP: // only spaces before: the line's start
		case x == lbOP, x == lbQU && b == lbOP, (x == lbCL || x == lbCP) && b == lbNS, x == lbB2 && b == lbB2: // LB14-17
			return false
		}
		return true // LB18
	}
	switch {
	case a == lbGL || b == lbGL, b == lbQU || a == lbQU, // LB12, LB19
		b == lbBA || b == lbHY || b == lbNS, b == lbIN, // LB21, LB22
		a == lbOP, // LB14
		(a == lbAL || a == lbNU) && (b == lbAL || b == lbNU || b == lbOP || b == lbPR || b == lbPO), // LB23, LB24, LB28, LB30
		(a == lbPR || a == lbPO) && (b == lbAL || b == lbNU || b == lbOP || b == lbID),              // LB23a, LB24, LB25
		(a == lbCP || a == lbCL) && (b == lbPO || b == lbPR), a == lbCP && (b == lbAL || b == lbNU), // LB25, LB30
		(a == lbHY || a == lbIS || a == lbSY) && b == lbNU, // LB25
		a == lbID && b == lbPO, a == lbB2 && b == lbB2:     // LB23a, LB17
		return false
	}
	return true // LB31
}
