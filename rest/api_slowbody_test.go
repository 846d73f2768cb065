package rest_test

// Slow and big bodies: a body is read under a time budget, bodies in flight share a byte
// budget, and MCP takes the same body cap as REST. The bodies here are written by the test
// through a pipe, so a request can be held open or trickled while others run.

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/storage/storagetest"
)

// pipedRequest is a request whose body the test writes: the client announces the length,
// asks for 100 Continue and sends nothing until the server answers it, which the server
// does only once the body middleware has room for the body and starts reading it.
type pipedRequest struct {
	body   *io.PipeWriter
	answer chan pipedAnswer
}

type pipedAnswer struct {
	res *response
	err error
}

func (a pipedAnswer) String() string {
	if a.err != nil {
		return a.err.Error()
	}
	return fmt.Sprintf("%d %s", a.res.status, truncated(a.res.body))
}

// startPiped sends method path with a body of length bytes that the test writes through
// p.body; the answer arrives on p.answer.
func (s *server) startPiped(t *testing.T, method, path, auth string, length int) *pipedRequest {
	t.Helper()
	pr, pw := io.Pipe()
	t.Cleanup(func() { pr.CloseWithError(errors.New("test over")) })
	req, err := http.NewRequestWithContext(t.Context(), method, s.http.URL+path, pr)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = int64(length)
	req.Header.Set("Authorization", auth)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Expect", "100-continue")
	// Its own client: the harness's sends bodies without waiting for 100 Continue.
	client := &http.Client{Transport: &http.Transport{DisableCompression: true, ExpectContinueTimeout: time.Minute}}
	t.Cleanup(client.CloseIdleConnections)
	p := &pipedRequest{body: pw, answer: make(chan pipedAnswer, 1)}
	go func() {
		res, err := client.Do(req)
		if err != nil {
			p.answer <- pipedAnswer{err: err}
			return
		}
		defer res.Body.Close()
		data, err := io.ReadAll(res.Body)
		p.answer <- pipedAnswer{res: &response{status: res.StatusCode, header: res.Header, body: data}, err: err}
	}()
	return p
}

// started writes the body's first byte; it returns once the server has taken the body in
// (nil), or the error that refused it, such as an answer that came first.
func (p *pipedRequest) started() error {
	_, err := p.body.Write([]byte("{"))
	return err
}

// paddedSync is a sync body of one key, padded with JSON whitespace to exactly n bytes.
func paddedSync(t *testing.T, key string, n int) string {
	t.Helper()
	b := fmt.Sprintf(`{"translations":{%q:"Value"}}`, key)
	if len(b) > n {
		t.Fatalf("a body of %d bytes cannot hold %s", n, b)
	}
	return b + strings.Repeat(" ", n-len(b))
}

// TestSlowBodyIsCutOff: a client that sends its headers and then trickles the body a byte
// at a time does not hold the request past the body time budget: it answers 503 timeout
// (or the connection is closed) and nothing is stored.
func TestSlowBodyIsCutOff(t *testing.T) {
	t.Parallel()
	const budget = 200 * time.Millisecond
	forEachDialectRouter(t, &rest.Options{BodyTimeout: budget}, func(t *testing.T, s *server) {
		body := paddedSync(t, "slow", 64)
		p := s.startPiped(t, "PUT", s.syncPath("en", "trickled"), tokenAuth(s.rw), len(body))
		if err := p.started(); err != nil {
			t.Fatalf("the server did not start reading the body: %v", err)
		}
		// A byte every budget/2 after the first: the whole body would take 32 budgets, the
		// server gives it one.
		tick := time.NewTicker(budget / 2)
		defer tick.Stop()
		var got pipedAnswer
	trickle:
		for i := 1; ; i++ {
			select {
			case got = <-p.answer:
				break trickle
			case <-tick.C:
				if i == len(body) {
					t.Fatalf("the whole body was sent a byte per %s and the server still waits", budget/2)
				}
				if _, err := p.body.Write([]byte{body[i]}); err != nil {
					got = <-p.answer // the client stopped sending: the answer has come
					break trickle
				}
			}
		}
		switch {
		case got.err != nil:
			t.Logf("the connection was closed: %v", got.err)
		default:
			got.res.wantStatus(t, http.StatusServiceUnavailable).wantError(t, "timeout")
		}
		s.wantFlat(t, "en", "trickled", nil)
	})
}

// TestBodyBytesInFlight: past the bytes of bodies in flight a request waits for room, and
// answers 503 unavailable with Retry-After when none frees up within its wait (the body time
// budget); sent again once the body before it is done, it succeeds.
//
// Three 1,000-byte bodies against room for 1,024 bytes: the first holds the room until the
// body budget cuts it off; the next two queue behind it. When the first goes, one of them
// takes the room and is held open by the test, so the other's wait, which began before the
// first was cut off, runs out while the room is still taken. Both must join the queue well
// after the first took the room (or their waits end with the first's) and well before it is
// cut off: half the budget into it, with half a budget of margin either way.
//
// It waits out budgets of seconds and its margins are of wall time, so make test-long runs
// it, on a machine no longer busy with the rest of the suite.
func TestBodyBytesInFlight(t *testing.T) {
	storagetest.Long(t)
	t.Parallel()
	// Six seconds: room for the test to queue two requests behind the first, and half a
	// budget of margin for the held body under a loaded race run (one second was not, and
	// three was not once the suite gained browser tests).
	const budget = 6 * time.Second
	forEachDialectRouter(t, &rest.Options{BodyTimeout: budget, BodyBytesInFlight: 1024}, func(t *testing.T, s *server) {
		const size = 1000
		auth := tokenAuth(s.rw)
		first := s.startPiped(t, "PUT", s.syncPath("en", "first"), auth, size)
		if err := first.started(); err != nil {
			t.Fatalf("the first body was refused: %v", err)
		}
		time.Sleep(budget / 2)
		ns := []string{"second", "third"}
		queued := []*pipedRequest{
			s.startPiped(t, "PUT", s.syncPath("en", ns[0]), auth, size),
			s.startPiped(t, "PUT", s.syncPath("en", ns[1]), auth, size),
		}
		in := make(chan int, 2)
		for i, p := range queued {
			go func() {
				if p.started() == nil {
					in <- i
				}
			}()
		}
		if a := <-first.answer; a.err == nil && a.res.status == http.StatusOK {
			t.Fatalf("the first body, never finished, was stored: %s", truncated(a.res.body))
		}

		var held int // the one that took the room once the first was cut off
		select {
		case held = <-in:
		case a := <-queued[0].answer:
			t.Fatalf("a queued request answered before either got room: %v", a)
		case a := <-queued[1].answer:
			t.Fatalf("a queued request answered before either got room: %v", a)
		}
		waiting := 1 - held
		a := <-queued[waiting].answer
		if a.err != nil {
			t.Fatalf("the waiting request failed: %v", a.err)
		}
		a.res.wantStatus(t, http.StatusServiceUnavailable).wantError(t, "unavailable")
		if secs, err := strconv.Atoi(a.res.header.Get("Retry-After")); err != nil || secs < 1 {
			t.Errorf("Retry-After %q, want whole seconds", a.res.header.Get("Retry-After"))
		}
		s.wantFlat(t, "en", ns[waiting], nil)

		body := paddedSync(t, "held", size)
		if _, err := io.WriteString(queued[held].body, body[1:]); err != nil {
			t.Fatalf("finishing the held body: %v", err)
		}
		queued[held].body.Close()
		if a := <-queued[held].answer; a.err != nil {
			t.Fatalf("the held request failed: %v", a.err)
		} else {
			a.res.wantStatus(t, http.StatusOK)
		}
		s.call(t, "PUT", s.syncPath("en", ns[waiting]), auth, paddedSync(t, "retried", size)).wantStatus(t, http.StatusOK)
		s.wantFlat(t, "en", ns[held], map[string]string{"held": "Value"})
		s.wantFlat(t, "en", ns[waiting], map[string]string{"retried": "Value"})
		s.wantFlat(t, "en", "first", nil)
	})
}

// TestMCPBodyCap: MCP takes bodies up to the REST cap of 5 MiB, past the go-sdk's own
// 4 MiB default, and refuses a larger one with 413 in the error shape.
func TestMCPBodyCap(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		path := "/api/" + s.proj.ID + "/mcp"
		h := map[string]string{"Accept": "application/json"}
		list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
		padded := func(n int) string { return list + strings.Repeat(" ", n-len(list)) }

		r := s.do(t, request{Method: "POST", Path: path, Auth: tokenAuth(s.rw), Header: h, Body: padded(rest.MaxBody + 1)})
		r.wantStatus(t, http.StatusRequestEntityTooLarge).wantError(t, "too_large")

		var out struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		s.mcpPost(t, path, tokenAuth(s.rw), h, padded(rest.MaxBody*9/10)).result(t, &out)
		if len(out.Tools) == 0 {
			t.Errorf("tools/list in a %d-byte body listed no tools", rest.MaxBody*9/10)
		}
	})
}
