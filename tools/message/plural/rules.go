package plural

// The compiled form of CLDR's rules, filled in by rules_gen.go.

// operand is one of CLDR's operands; e is stored as c (CLDR: a synonym).
type operand uint8

const (
	opN operand = iota
	opI
	opV
	opW
	opF
	opT
	opC
)

// span is an inclusive range of integers; a single value has lo == hi.
type span struct{ lo, hi uint64 }

// relation is one comparison: "op % mod = spans" or, when neg, "!=".
type relation struct {
	op    operand
	mod   uint64 // 0: no modulus
	neg   bool
	spans []span
}

// rule selects cat when any of its and-clauses holds.
type rule struct {
	cat Category
	or  [][]relation
}

// single is a category that matches exactly one integer, n.
type single struct {
	cat Category
	n   uint64
}

// ruleSet is one locale's rules of one kind. Rules are tried in CLDR's
// order; a number that no rule matches is Other.
type ruleSet struct {
	rules   []rule
	cats    uint8 // bit c set: category c exists (Other always does)
	singles []single
}

// pow18 is 10^18: a modulus dividing it is computed exactly from the low
// 18 digits the operands keep (the generator checks every modulus does).
const pow18 = 1_000_000_000_000_000_000

// value returns the operand (modulo mod when non-zero) and false when it is
// not an integer that a range could contain: a non-integer n, or a number
// too long to equal any constant.
func (o *Operands) value(op operand, mod uint64) (uint64, bool) {
	var v uint64
	var big bool
	switch op {
	case opN:
		if o.F != 0 || o.FBig {
			return 0, false // n has a fraction: never in an integer range
		}
		v, big = o.I, o.IBig
	case opI:
		v, big = o.I, o.IBig
	case opV:
		v = uint64(o.V)
	case opW:
		v = uint64(o.W)
	case opF:
		v, big = o.F, o.FBig
	case opT:
		v, big = o.T, o.TBig
	case opC:
		v = uint64(o.C)
	}
	if mod != 0 {
		if big && pow18%mod != 0 {
			return 0, false
		}
		return v % mod, true
	}
	return v, !big
}

func (r *relation) holds(o *Operands) bool {
	v, ok := o.value(r.op, r.mod)
	in := false
	if ok {
		for _, s := range r.spans {
			if s.lo <= v && v <= s.hi {
				in = true
				break
			}
		}
	}
	return in != r.neg
}

func (rs *ruleSet) selectCategory(o *Operands) Category {
	for i := range rs.rules {
		for _, and := range rs.rules[i].or {
			all := true
			for j := range and {
				if !and[j].holds(o) {
					all = false
					break
				}
			}
			if all {
				return rs.rules[i].cat
			}
		}
	}
	return Other
}
