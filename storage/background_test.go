package storage

import (
	"sync/atomic"
	"testing"
)

// Close waits for the background work that runs, and work asked for afterwards (by a
// write that was in flight when Close began) does not start.
func TestBackgroundStopsAtClose(t *testing.T) {
	t.Parallel()
	var b background
	release := make(chan struct{})
	var ran atomic.Int32
	if !b.start(func() { <-release; ran.Add(1) }) {
		t.Fatal("start refused work before close")
	}
	closed := make(chan struct{})
	go func() { b.close(); close(closed) }()
	select {
	case <-closed:
		t.Fatal("close returned while work was running")
	default:
	}
	close(release)
	<-closed
	if ran.Load() != 1 {
		t.Fatalf("the running work ran %d times, want 1", ran.Load())
	}
	if b.start(func() { ran.Add(1) }) {
		t.Fatal("start accepted work after close")
	}
	if ran.Load() != 1 {
		t.Fatal("work asked for after close ran")
	}
}
