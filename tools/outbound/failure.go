package outbound

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
)

// Party is who an outbound call went to, as a reason names it.
type Party string

// The parties lokal calls.
const (
	ModelProvider Party = "the provider"
	CodeHost      Party = "the code host"
	DeployHook    Party = "the deploy hook"
	Receiver      Party = "the receiver"
)

// Failure kinds.
const (
	FailAuth        = "auth"         // 401, 403: the key or token is refused
	FailNotFound    = "not_found"    // 404
	FailRateLimited = "rate_limited" // 429
	FailServer      = "server"       // 5xx
	FailRequest     = "request"      // another 4xx
	FailRedirect    = "redirect"     // 3xx, never followed where this is used
	FailBadAnswer   = "bad_answer"   // 2xx with nothing usable
	FailTimeout     = "timeout"      // no answer in time (or 408)
	FailNetwork     = "network"      // no connection
	FailBlocked     = "blocked"      // refused by the outbound guard
	FailTooLarge    = "too_large"    // an answer past its cap
)

// Failure is a failed outbound call as lokal tells it: a kind, the HTTP status (0 when
// nothing answered) and a reason lokal wrote. Never the answer's body nor a transport
// error's text: a server that echoes its request answers with the API key or token, and a
// transport error names the URL, which can be a secret (deploy hooks).
type Failure struct {
	Kind   string
	Status int
	Reason string
}

// Error is the reason with the status.
func (f Failure) Error() string {
	if f.Status != 0 {
		return f.Reason + " (HTTP " + strconv.Itoa(f.Status) + ")"
	}
	return f.Reason
}

// Fail is the one way an outbound failure becomes text: how a call to party ended, its
// HTTP status (0 when none) and the transport's error (nil when it answered), mapped to a
// kind and a reason. err is read for its kind only.
func Fail(party Party, status int, err error) Failure {
	f := Failure{Kind: failKind(status, err), Status: status}
	f.Reason = failReason(party, f.Kind, status, err)
	return f
}

func failKind(status int, err error) string {
	var blocked *BlockedError
	var ne net.Error
	switch {
	case errors.As(err, &blocked):
		return FailBlocked
	case errors.Is(err, ErrTooLarge):
		return FailTooLarge
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) || status == http.StatusRequestTimeout:
		return FailTimeout
	case err != nil && status == 0:
		return FailNetwork
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return FailAuth
	case status == http.StatusNotFound:
		return FailNotFound
	case status == http.StatusTooManyRequests:
		return FailRateLimited
	case status >= 500:
		return FailServer
	case status >= 400:
		return FailRequest
	case status >= 300:
		return FailRedirect
	}
	return FailBadAnswer
}

func failReason(party Party, kind string, status int, err error) string {
	switch kind {
	case FailAuth:
		switch party {
		case ModelProvider:
			return "the provider refused the API key"
		case CodeHost:
			return "the code host refused the token"
		}
		return string(party) + " refused the call"
	case FailNotFound:
		switch party {
		case CodeHost:
			return "the code host could not find the repository or workflow"
		case ModelProvider:
			return "the provider could not find the model or its API at this base URL"
		}
		return string(party) + " answered that its URL is unknown"
	case FailRateLimited:
		return string(party) + " is rate limiting"
	case FailServer:
		return string(party) + " failed"
	case FailRequest:
		if party == CodeHost && status == http.StatusUnprocessableEntity {
			return "the code host refused the dispatch: check the ref and that the workflow has a workflow_dispatch trigger"
		}
		return string(party) + " refused the request"
	case FailRedirect:
		return string(party) + " answered with a redirect, which lokal does not follow"
	case FailTimeout:
		return string(party) + " did not answer in time"
	case FailNetwork:
		return string(party) + " could not be reached"
	case FailBlocked:
		// The guard's reason is lokal's own words about the address.
		var b *BlockedError
		errors.As(err, &b)
		return fmt.Sprintf("lokal's outbound guard refused the call to %s: %v", party, b)
	case FailTooLarge:
		var tl *TooLargeError
		if errors.As(err, &tl) {
			return fmt.Sprintf("%s answered with more than %s; lokal stopped reading", party, FormatSize(tl.Limit))
		}
		return string(party) + " answered with more than lokal reads; it stopped reading"
	}
	return string(party) + " gave no usable answer"
}
