package reqbody_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/rest/reqbody"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestErr: what a body read fails with becomes the catalogue's code: the client's faults
// are timeout, too_large and invalid, never internal; a handler's own bug stays an error
// without a code.
func TestErr(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		err  error
		want string
	}{
		{&net.OpError{Op: "read", Err: os.ErrDeadlineExceeded}, model.CodeTimeout},
		{&http.MaxBytesError{Limit: 10}, model.CodeTooLarge},
		{io.ErrUnexpectedEOF, model.CodeInvalid},
		{errors.New("malformed chunked encoding"), model.CodeInvalid},
		{fmt.Errorf("reading: %w", &net.OpError{Op: "read", Err: errors.New("connection reset by peer")}), model.CodeInvalid},
		{model.Errorf(model.CodeUnavailable, "busy"), model.CodeUnavailable},
		{http.ErrBodyReadAfterClose, model.CodeInternal},
	} {
		if got := model.ErrorCode(reqbody.Err(tt.err)); got != tt.want {
			t.Errorf("Err(%v) has code %q, want %q", tt.err, got, tt.want)
		}
	}
	if reqbody.Err(nil) != nil {
		t.Error("Err(nil) is not nil")
	}
}

// TestWholeBodyKeepsConnection: bodies read to their end, declared or chunked, leave the
// connection open for the next request, pipelined behind them; a request whose body the
// handler left unread is answered with Connection: close and ends the connection, the
// request queued behind it unread.
func TestWholeBodyKeepsConnection(t *testing.T) {
	t.Parallel()
	h := reqbody.Guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ignore" {
			fmt.Fprint(w, "ignored")
			return
		}
		b, err := reqbody.ReadAll(r, 1<<10)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		fmt.Fprintf(w, "%d", len(b))
	}), time.Minute)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(time.Minute))
	reqs := "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello" +
		"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n" +
		"POST /ignore HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nskip" +
		"GET / HTTP/1.1\r\nHost: x\r\n\r\n"
	if _, err := io.WriteString(c, reqs); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	for i, want := range []struct {
		body  string
		close bool
	}{{"5", false}, {"3", false}, {"ignored", true}} {
		res, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatalf("answer %d: %v", i+1, err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if strings.TrimSpace(string(b)) != want.body || res.Close != want.close {
			t.Errorf("answer %d: %q, close %v; want %q, close %v", i+1, b, res.Close, want.body, want.close)
		}
	}
	if res, err := http.ReadResponse(r, nil); err == nil {
		t.Errorf("the request behind an unread body was answered: %d", res.StatusCode)
	}
}
