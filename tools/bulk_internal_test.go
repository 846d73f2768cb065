package tools

import (
	"context"
	"testing"
)

// TestProjectLocksTakeTurnsPerProject: a second write of a project waits for the first (and
// gives up when its context ends); writes of other projects do not wait; released locks are
// forgotten.
func TestProjectLocksTakeTurnsPerProject(t *testing.T) {
	t.Parallel()
	var b bulkWrites
	unlockA, err := b.lock(t.Context(), "a")
	if err != nil {
		t.Fatal(err)
	}
	unlockB, err := b.lock(t.Context(), "b")
	if err != nil {
		t.Fatalf("project b waited for project a: %v", err)
	}
	gone, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := b.lock(gone, "a"); err == nil {
		t.Fatal("a second write of project a got the lock while the first held it")
	}
	unlockA()
	unlockA2, err := b.lock(t.Context(), "a")
	if err != nil {
		t.Fatalf("project a after its first write ended: %v", err)
	}
	unlockA2()
	unlockB()
	if n := len(b.locks); n != 0 {
		t.Errorf("%d locks left after every write ended", n)
	}
}
