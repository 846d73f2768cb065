package storagetest

import "testing"

// Runner is what ForEachDialect runs subtests on: *testing.T or *testing.B.
type Runner[T any] interface {
	testing.TB
	Run(name string, fn func(T)) bool
}

// ForEachDialect runs fn once per dialect, as subtests (or sub-benchmarks) named after the
// dialect ("sqlite", "postgres"), so that `-run 'X/sqlite'` picks one. The subtests of a
// test run in parallel with each other; a benchmark's run one after the other, since they
// measure. Each package's harness builds its own environment from the dialect inside fn.
func ForEachDialect[T Runner[T]](tb T, fn func(tb T, dialect string)) {
	tb.Helper()
	eachDialect(tb, true, fn)
}

// ForEachDialectInOrder is ForEachDialect without the parallelism, for tests that measure
// (the benchmarks run as tests) or that wait out budgets of wall time, which two databases
// doing the same work at once on a small machine would blur.
func ForEachDialectInOrder[T Runner[T]](tb T, fn func(tb T, dialect string)) {
	tb.Helper()
	eachDialect(tb, false, fn)
}

func eachDialect[T Runner[T]](tb T, parallel bool, fn func(tb T, dialect string)) {
	tb.Helper()
	for _, dialect := range Dialects {
		tb.Run(dialect, func(tb T) {
			if p, ok := any(tb).(interface{ Parallel() }); ok && parallel {
				p.Parallel()
			}
			fn(tb, dialect)
		})
	}
}
