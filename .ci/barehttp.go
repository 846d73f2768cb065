//go:build ignore

// barehttp is the Go ceiling of make bench's read part: a bare net/http handler answering
// every request with the bytes and headers endpoint 1 sent (curl -D's dump), so that wrk
// measures lokal against net/http itself beside nginx. Run by .ci/bench:
//
//	go build -o $tmp/barehttp .ci/barehttp.go
//	$tmp/barehttp -listen 127.0.0.1:18581 -body common.json -headers lokal.headers
package main

import (
	"bufio"
	"bytes"
	"flag"
	"log"
	"net/http"
	"net/textproto"
	"os"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:18581", "address to serve on")
	bodyFile := flag.String("body", "", "the body to answer")
	headerFile := flag.String("headers", "", "the answer's headers as curl -D wrote them")
	flag.Parse()
	body, err := os.ReadFile(*bodyFile)
	if err != nil {
		log.Fatal(err)
	}
	raw, err := os.ReadFile(*headerFile)
	if err != nil {
		log.Fatal(err)
	}
	r := textproto.NewReader(bufio.NewReader(bytes.NewReader(raw)))
	if _, err := r.ReadLine(); err != nil { // the status line
		log.Fatal(err)
	}
	mime, err := r.ReadMIMEHeader()
	if err != nil {
		log.Fatal(err)
	}
	header := http.Header(mime)
	header.Del("Date") // net/http writes its own
	log.Fatal(http.ListenAndServe(*listen, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		for k, v := range header {
			h[k] = v
		}
		w.WriteHeader(http.StatusOK)
		w.Write(body)
	})))
}
