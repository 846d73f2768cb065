package main

import (
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
)

// TestServerHooksAreTheTestedOnes: the hooks the server and the admin commands register
// are those, in that order, that the catalogue's tests run with (tools.DefaultHooks), so
// that what the scenario tests assert is what production does.
func TestServerHooksAreTheTestedOnes(t *testing.T) {
	names := func(hooks []tools.WriteHook) []string {
		var out []string
		for _, h := range hooks {
			// A closure is named after its constructor (tools.CacheHook.func1), with the
			// caller's name before it when the constructor was inlined.
			parts := strings.Split(runtime.FuncForPC(reflect.ValueOf(h).Pointer()).Name(), ".")
			i := lastIndexFunc(parts, func(p string) bool { return strings.HasSuffix(p, "Hook") })
			if i < 0 {
				t.Fatalf("hook %s is not made by a tools.*Hook constructor", strings.Join(parts, "."))
			}
			out = append(out, parts[i])
		}
		return out
	}
	served, tested := names(writeHooks(&tools.Options{})), names(tools.DefaultHooks(nil))
	if len(served) == 0 || !slices.Equal(served, tested) {
		t.Errorf("cmd/lokal registers %q, the tests run with %q", served, tested)
	}
}

func lastIndexFunc(s []string, f func(string) bool) int {
	for i := len(s) - 1; i >= 0; i-- {
		if f(s[i]) {
			return i
		}
	}
	return -1
}
