package ai

import "strings"

// maxDigits bounds a printf width or precision, so scanning stays linear.
const maxDigits = 9

// PrintfSpec parses [argnum$][flags][width][.precision][length]conversion
// at j (just after a '%') and returns the index after the conversion, or 0.
// The checkup's placeholder scanner
// uses it; masking and verification read printf through tools/message,
// and this goes once the checkup is rewired onto that package too.
func PrintfSpec(s string, j int, argNum bool) int {
	if argNum {
		if k := digitsAt(s, j); k > j && k < len(s) && s[k] == '$' {
			j = k + 1
		}
	}
	// No space flag: "50% off" must stay text.
	for n := 0; j < len(s) && n < 5 && strings.IndexByte("-+#0'", s[j]) >= 0; n++ {
		j++
	}
	if j < len(s) && s[j] == '*' {
		j++
	} else if k := digitsAt(s, j); k < 0 {
		return 0
	} else {
		j = k
	}
	if j < len(s) && s[j] == '.' {
		j++
		if j < len(s) && s[j] == '*' {
			j++
		} else if k := digitsAt(s, j); k < 0 {
			return 0
		} else {
			j = k
		}
	}
	for _, l := range [...]string{"hh", "ll", "h", "l", "L", "q", "j", "z", "t"} {
		if strings.HasPrefix(s[j:], l) {
			j += len(l)
			break
		}
	}
	if j < len(s) && strings.IndexByte("diouxXeEfFgGcsp@", s[j]) >= 0 {
		return j + 1
	}
	return 0
}

func digitsAt(s string, j int) int {
	k := j
	for k < len(s) && s[k] >= '0' && s[k] <= '9' {
		if k-j >= maxDigits {
			return -1
		}
		k++
	}
	return k
}
