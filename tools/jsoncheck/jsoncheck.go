package jsoncheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Error is one strictness refusal: what was wrong and where, as a JSON Pointer ("" for
// the top level).
type Error struct {
	Pointer string
	Reason  string
}

// Error reads as part of a sentence: `duplicate key "a" in /translations`.
func (e *Error) Error() string {
	if e.Pointer == "" {
		return e.Reason
	}
	return e.Reason + " in " + e.Pointer
}

// Check reads the first JSON value of data and reports the first duplicate object key,
// lone surrogate escape or invalid UTF-8 in it as an *Error. It returns nil for strict
// JSON and for malformed JSON, which the caller's decoder refuses with its own message.
func Check(data []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	err := dec.SkipValue()
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return nil
	}
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		return nil
	}
	ptr := string(se.JSONPointer)
	if errors.Is(err, jsontext.ErrDuplicateName) {
		return &Error{Pointer: string(se.JSONPointer.Parent()), Reason: fmt.Sprintf("duplicate key %q", se.JSONPointer.LastToken())}
	}
	// jsontext is strict on syntax too; what encoding/json takes is one of the three.
	var raw json.RawMessage
	if json.NewDecoder(bytes.NewReader(data)).Decode(&raw) != nil {
		return nil
	}
	if strings.Contains(se.Err.Error(), "invalid UTF-8") {
		return &Error{Pointer: ptr, Reason: "invalid UTF-8"}
	}
	return &Error{Pointer: ptr, Reason: "a lone UTF-16 surrogate escape (\\ud800 to \\udfff without its pair)"}
}

// CheckOutside is Check of data with the value at pointer left unread, for a door that
// hands that value to another reader which checks it itself (MCP hands tool arguments to
// the tool, which answers a tool error the agent can read).
func CheckOutside(data []byte, pointer string) error {
	err := Check(data)
	var je *Error
	if !errors.As(err, &je) || !strings.HasPrefix(je.Pointer+"/", pointer+"/") {
		return err
	}
	// The first refusal is inside the value at pointer; what follows it may hide another.
	rest, ok := without(data, pointer)
	if !ok {
		return nil
	}
	return Check(rest)
}

// without is data with every value at pointer replaced by null; ok is false for data the
// lax reader cannot read either.
func without(data []byte, pointer string) (out []byte, ok bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	last := int64(0)
	for {
		if _, err := dec.ReadToken(); err == io.EOF {
			break
		} else if err != nil {
			return nil, false
		}
		depth := dec.StackDepth()
		kind, n := dec.StackIndex(depth)
		// An object member's name was just read (names and values alternate).
		if depth == 0 || kind != '{' || n%2 == 0 || string(dec.StackPointer()) != pointer {
			continue
		}
		start := dec.InputOffset()
		if _, err := dec.ReadValue(); err != nil {
			return nil, false
		}
		out = append(append(out, data[last:start]...), ":null"...)
		last = dec.InputOffset()
	}
	return append(out, data[last:]...), true
}
