//go:build ignore

// testlines reads `go test -json` on stdin and prints go test's usual lines as each package
// ends, the ok or FAIL line and the output of the tests that failed, instead of go test's
// own output, which holds back every package behind the slowest one before it in the list.
// With -times FILE it writes one line per test without subtests, "seconds package test", for
// the slowest-tests list at the end of make test. Run by .ci/test:
//
//	go test -json ./... | go run .ci/testlines.go -times /tmp/times
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
)

type event struct {
	Action     string
	Package    string
	ImportPath string // build events
	Test       string
	Output     string
	Elapsed    float64
}

func main() {
	times := flag.String("times", "", "write the elapsed seconds of every leaf test to this file")
	flag.Parse()
	out := bufio.NewWriter(os.Stdout)
	held := map[string][]string{}   // package + test: output, printed if the test fails
	elapsed := map[string]float64{} // package + test: seconds
	parents := map[string]bool{}    // package + test that has subtests
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	for in.Scan() {
		var e event
		if err := json.Unmarshal(in.Bytes(), &e); err != nil || e.Action == "" {
			// Not an event (a line go test printed itself): pass it on.
			fmt.Fprintln(out, in.Text())
			out.Flush()
			continue
		}
		key := e.Package + " " + e.Test
		switch {
		case e.Action == "build-output":
			out.WriteString(e.Output)
		case e.Test == "" && e.Action == "output":
			// The package's own lines: ok, FAIL, panics, "no test files". PASS is what -v adds.
			if e.Output != "PASS\n" {
				out.WriteString(e.Output)
			}
		case e.Action == "output":
			if !strings.HasPrefix(e.Output, "=== ") {
				held[key] = append(held[key], e.Output)
			}
		case e.Action == "run" && strings.Contains(e.Test, "/"):
			parents[e.Package+" "+e.Test[:strings.LastIndex(e.Test, "/")]] = true
		case e.Action == "fail" && e.Test != "":
			for _, line := range held[key] {
				out.WriteString(line)
			}
			fallthrough
		case e.Action == "pass" || e.Action == "skip":
			if e.Test != "" {
				elapsed[key] = e.Elapsed
				delete(held, key)
			}
		}
		out.Flush()
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "testlines:", err)
		os.Exit(1)
	}
	if *times == "" {
		return
	}
	var rows []string
	for key, secs := range elapsed {
		if !parents[key] {
			rows = append(rows, fmt.Sprintf("%.2f %s", secs, key))
		}
	}
	sort.Strings(rows)
	if err := os.WriteFile(*times, []byte(strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "testlines:", err)
		os.Exit(1)
	}
}
