package tools

import (
	"strings"
	"unicode"
)

// DiffPart is a run of words of a word-level difference: Op is "=" (in both), "-" (only
// in the old text) or "+" (only in the new).
type DiffPart struct {
	Op   string `json:"op"`
	Text string `json:"text"`
}

// maxDiffWords bounds the words compared (the table is their product); past it the two
// texts are shown as one removal and one insertion.
const maxDiffWords = 2000

// WordDiff marks what changed from old to new, word by word; spaces stay with the word
// before them, so joining the "=" and "-" parts gives old and the "=" and "+" parts new.
func WordDiff(old, new string) []DiffPart {
	a, b := words(old), words(new)
	if len(a)*len(b) > maxDiffWords*maxDiffWords/4 || len(a) > maxDiffWords || len(b) > maxDiffWords {
		return joinParts([]DiffPart{{"-", old}, {"+", new}})
	}
	// lcs[i][j] is the longest common run of a[i:] and b[j:].
	lcs := make([][]int32, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []DiffPart
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out = append(out, DiffPart{"=", a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, DiffPart{"-", a[i]})
			i++
		default:
			out = append(out, DiffPart{"+", b[j]})
			j++
		}
	}
	return joinParts(out)
}

// words cuts s into words, each with the spaces after it.
func words(s string) []string {
	var out []string
	start := 0
	inSpace := false
	for i, r := range s {
		sp := unicode.IsSpace(r)
		if !sp && inSpace {
			out = append(out, s[start:i])
			start = i
		}
		inSpace = sp
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// joinParts merges neighbouring parts of one kind and drops empty ones.
func joinParts(ps []DiffPart) []DiffPart {
	out := []DiffPart{}
	for _, p := range ps {
		if p.Text == "" {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Op == p.Op {
			out[n-1].Text += p.Text
			continue
		}
		out = append(out, p)
	}
	return out
}

// DiffText is the text of the parts with op "=" or op.
func DiffText(ps []DiffPart, op string) string {
	var b strings.Builder
	for _, p := range ps {
		if p.Op == "=" || p.Op == op {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}
