package model

import (
	"context"
	"testing"
)

type testKey struct{}
type otherKey struct{}

// TestWithPrincipalRef: one node carries the principal, the caller's value and every value
// of the context beneath, as WithPrincipal and a WithValue node did.
func TestWithPrincipalRef(t *testing.T) {
	parent := context.WithValue(context.Background(), otherKey{}, "beneath")
	p := &Principal{Kind: KindAPIKey, TokenID: "t1", ProjectID: "p1", ReadOnly: true}
	ctx := WithPrincipalRef(parent, p, testKey{}, 7)
	if got := PrincipalFrom(ctx); got != *p {
		t.Errorf("principal %+v, want %+v", got, *p)
	}
	if got := ctx.Value(testKey{}); got != 7 {
		t.Errorf("value %v", got)
	}
	if got := ctx.Value(otherKey{}); got != "beneath" {
		t.Errorf("parent's value %v", got)
	}
	// A principal set above it wins, as with nested WithValue nodes.
	if got := PrincipalFrom(WithPrincipal(ctx, Principal{Kind: KindSystem})); got.Kind != KindSystem {
		t.Errorf("above: %+v", got)
	}
	if got := PrincipalFrom(WithPrincipalRef(parent, p, nil, nil)).TokenID; got != "t1" {
		t.Errorf("without a value: %q", got)
	}
	if got := WithPrincipalRef(parent, p, nil, nil).Value(nil); got != nil {
		t.Errorf("nil key: %v", got)
	}
	if got := PrincipalFrom(context.Background()); got.Kind != KindAnonymous {
		t.Errorf("none: %+v", got)
	}
}
