package plural

import "sync"

// maxSamples is how many numbers Samples returns per category.
const maxSamples = 6

// sampleDecimals and sampleLarge are tried after the whole numbers below sampleScan: a
// category some languages give only fractions (Polish other: 1.5) or only large round
// numbers (French many: 1000000) still gets an example.
var (
	sampleDecimals = []string{"0.0", "0.5", "1.0", "1.5", "2.5", "0.1", "1.1", "2.1", "10.5", "100.5"}
	sampleLarge    = []int64{1000000, 2000000, 10000000, 1000000000}
)

const sampleScan = 1000

var samplesCache sync.Map // locale + kind -> map[Category][]string

// Samples returns example numbers that lang's rules of kind put in category c, smallest
// first and at most six ("2", "3", "4", "22", "23", "24" for Polish few): whole numbers
// first, then fractions and large round numbers when the category has few whole numbers
// below 1000. A category lang does not use has none.
func Samples(lang string, kind Kind, c Category) []string {
	loc, rs := resolve(lang, kind)
	key := loc + "/" + kind.String()
	if v, ok := samplesCache.Load(key); ok {
		return v.(map[Category][]string)[c]
	}
	all := map[Category][]string{}
	add := func(cat Category, s string) {
		if len(all[cat]) < maxSamples {
			all[cat] = append(all[cat], s)
		}
	}
	for n := int64(0); n < sampleScan; n++ {
		o := IntOperands(n)
		add(rs.selectCategory(&o), itoa(n))
	}
	for _, n := range sampleLarge {
		o := IntOperands(n)
		if cat := rs.selectCategory(&o); len(all[cat]) < 3 {
			add(cat, itoa(n))
		}
	}
	for _, d := range sampleDecimals {
		o, err := ParseOperands(d)
		if err != nil {
			continue
		}
		if cat := rs.selectCategory(&o); len(all[cat]) < 3 {
			add(cat, d)
		}
	}
	samplesCache.Store(key, all)
	return all[c]
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for ; n > 0; n /= 10 {
		i--
		b[i] = byte('0' + n%10)
	}
	return string(b[i:])
}
