package storagetest

import (
	"os"
	"testing"
)

// EnvLong names the variable that runs the long tests: `make test-long` sets it to 1.
const EnvLong = "LOKAL_TEST_LONG"

// Long skips the test unless LOKAL_TEST_LONG=1. It marks the tests that take many seconds
// by what they are (hundreds of requests one at a time, a server killed and restarted,
// budgets of seconds waited out), so that `make test` stays quick; `make test-long`, which
// CI runs after it, finds them by this call and runs only them. Call it in the test's own
// function body, not in a helper: that is how they are found.
func Long(t testing.TB) {
	t.Helper()
	if os.Getenv(EnvLong) != "1" {
		t.Skip("a long test: make test-long runs it (" + EnvLong + "=1)")
	}
}
