package plural

import (
	"errors"
	"strconv"
	"strings"
)

// maxDigits is how many low-order digits of the integer and fraction
// operands are kept: every modulus in CLDR's rules divides 10^18, so the
// low digits decide every rule; a value with more digits is only marked big.
const maxDigits = 18

// maxExponent bounds the compact exponent a decimal string may carry, so
// that "1c999999999" cannot make the parser build a billion-digit number.
const maxExponent = 1 << 20

// Operands are a number as CLDR's plural rules see it (UTS #35, Part 3,
// "Plural Operand Meanings"). The zero value is the number 0.
//
// N is not stored: it is I plus the visible fraction, and the rules only
// compare it with integers, which holds exactly when F is 0.
type Operands struct {
	I uint64 // integer digits of the absolute value (the low 18 when IBig)
	V int    // number of visible fraction digits, with trailing zeros
	W int    // number of visible fraction digits, without trailing zeros
	F uint64 // visible fraction digits, with trailing zeros (the low 18 when FBig)
	T uint64 // visible fraction digits, without trailing zeros (the low 18 when FBig)
	C int    // compact decimal exponent: 6 for "1.2c6" (CLDR's c, also written e)

	// IBig, FBig and TBig mark an I, F or T longer than 18 digits; such a
	// value equals no constant of any rule.
	IBig, FBig, TBig bool
}

// ErrSyntax is returned for a string that is not a decimal number.
var ErrSyntax = errors.New("plural: not a decimal number")

// IntOperands returns the operands of the integer n (its absolute value).
func IntOperands(n int64) Operands {
	if n < 0 {
		return Operands{I: uint64(-(n + 1)) + 1}
	}
	return Operands{I: uint64(n)}
}

// ParseOperands reads a decimal string: an optional sign, digits, an
// optional fraction after '.', and an optional compact exponent written
// 'c' or 'e' (as in CLDR's samples: "1.5", "1.50", "1c6", "1.1c6").
// Visible fraction digits count: "1.50" has V=2, F=50, T=5, W=1.
// The exponent shifts the decimal point, so "1.1c6" is 1100000 with C=6.
func ParseOperands(s string) (Operands, error) {
	var o Operands
	rest := s
	if rest != "" && (rest[0] == '-' || rest[0] == '+') {
		rest = rest[1:]
	}
	mant, exp := rest, ""
	if k := strings.IndexAny(rest, "cCeE"); k >= 0 {
		mant, exp = rest[:k], rest[k+1:]
		if exp == "" || !allDigits(exp) {
			return Operands{}, ErrSyntax
		}
	}
	intPart, frac := mant, ""
	if k := strings.IndexByte(mant, '.'); k >= 0 {
		intPart, frac = mant[:k], mant[k+1:]
		if frac == "" {
			return Operands{}, ErrSyntax
		}
	}
	if (intPart == "" && frac == "") || !allDigits(intPart) || !allDigits(frac) {
		return Operands{}, ErrSyntax
	}
	if exp != "" {
		e := strings.TrimLeft(exp, "0")
		if len(e) > 7 {
			return Operands{}, ErrSyntax
		}
		c, _ := strconv.Atoi("0" + e)
		if c > maxExponent {
			return Operands{}, ErrSyntax
		}
		o.C = c
		// Move the decimal point c places right, padding with zeros.
		if c <= len(frac) {
			intPart, frac = intPart+frac[:c], frac[c:]
		} else {
			pad := c - len(frac)
			if pad > maxDigits+1 {
				pad = maxDigits + 1 // more zeros change no low digit
			}
			intPart, frac = intPart+frac+strings.Repeat("0", pad), ""
		}
	}
	o.I, o.IBig = lowDigits(intPart)
	o.V = len(frac)
	o.F, o.FBig = lowDigits(frac)
	trimmed := strings.TrimRight(frac, "0")
	o.W = len(trimmed)
	o.T, o.TBig = lowDigits(trimmed)
	return o, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// lowDigits returns the value of the last maxDigits digits of s and whether
// s has more significant digits than that.
func lowDigits(s string) (uint64, bool) {
	s = strings.TrimLeft(s, "0")
	big := len(s) > maxDigits
	if big {
		s = s[len(s)-maxDigits:]
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		v = v*10 + uint64(s[i]-'0')
	}
	return v, big
}
