package fairqueue

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func newQueue(slots, perWorkspace, maxQueued int, maxWait time.Duration) *Queue {
	return New(Config{Slots: slots, PerWorkspace: perWorkspace, MaxQueued: maxQueued, MaxWait: maxWait})
}

func mustAcquire(t *testing.T, q *Queue, ws string, limit int) Ticket {
	t.Helper()
	tk, err := q.Acquire(context.Background(), ws, limit)
	if err != nil {
		t.Fatalf("Acquire(%s): unexpected error: %s", ws, err)
	}
	return tk
}

// acquireAsync starts an Acquire and returns a channel that gets the ticket (or nothing on
// error) and a channel for the error.
func acquireAsync(q *Queue, ws string, limit int) (<-chan Ticket, <-chan error) {
	tc := make(chan Ticket, 1)
	ec := make(chan error, 1)
	go func() {
		tk, err := q.Acquire(context.Background(), ws, limit)
		if err != nil {
			ec <- err
			return
		}
		tc <- tk
	}()
	return tc, ec
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestAcquireWithinLimits(t *testing.T) {
	q := newQueue(4, 2, 8, time.Second)
	a1 := mustAcquire(t, q, "a", 2)
	a2 := mustAcquire(t, q, "a", 2)
	b1 := mustAcquire(t, q, "b", 2)
	if got := q.Stats(); got != (Stats{Busy: 3, Waiting: 0, Workspaces: 2}) {
		t.Fatalf("unexpected stats %+v", got)
	}
	for _, tk := range []Ticket{a1, a2, b1} {
		q.Release(tk)
	}
	if got := q.Stats(); got != (Stats{}) {
		t.Fatalf("unexpected stats after release %+v; want every workspace forgotten", got)
	}
}

func TestWorkspaceLimitLeavesSlotsToOthers(t *testing.T) {
	q := newQueue(4, 4, 8, time.Second)
	a1 := mustAcquire(t, q, "a", 2)
	a2 := mustAcquire(t, q, "a", 2)
	a3c, _ := acquireAsync(q, "a", 2)
	waitFor(t, "a's third search to wait", func() bool { return q.Stats().Waiting == 1 })
	// b is not held back by a's waiting search: two slots are a's to leave alone.
	b1 := mustAcquire(t, q, "b", 2)
	select {
	case <-a3c:
		t.Fatalf("a's third search started while a ran its limit of 2")
	default:
	}
	q.Release(a1)
	a3 := <-a3c
	for _, tk := range []Ticket{a2, a3, b1} {
		q.Release(tk)
	}
}

func TestLimitIsCappedByPerWorkspace(t *testing.T) {
	q := newQueue(8, 2, 8, 20*time.Millisecond)
	a1 := mustAcquire(t, q, "a", 100)
	a2 := mustAcquire(t, q, "a", 100)
	_, err := q.Acquire(context.Background(), "a", 100)
	var r *Refused
	if !errors.As(err, &r) || r.Cause != WorkspaceLimit || r.Limit != 2 {
		t.Fatalf("unexpected error %v; want a refusal at the capped limit 2", err)
	}
	q.Release(a1)
	q.Release(a2)
}

func TestRoundRobinAcrossWorkspaces(t *testing.T) {
	q := newQueue(1, 1, 8, 5*time.Second)
	first := mustAcquire(t, q, "a", 1)
	// a queues three searches, then b one: b must not wait for all of a's.
	var order []string
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := func(ws string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tk, err := q.Acquire(context.Background(), ws, 1)
			if err != nil {
				t.Errorf("Acquire(%s): %s", ws, err)
				return
			}
			mu.Lock()
			order = append(order, ws)
			mu.Unlock()
			time.Sleep(5 * time.Millisecond)
			q.Release(tk)
		}()
	}
	for i := 1; i <= 3; i++ {
		start("a")
		waitFor(t, "a's search to wait", func() bool { return q.Stats().Waiting == i })
	}
	start("b")
	waitFor(t, "b's search to wait", func() bool { return q.Stats().Waiting == 4 })
	q.Release(first)
	wg.Wait()
	want := []string{"a", "b", "a", "a"}
	if len(order) != len(want) {
		t.Fatalf("unexpected order %v; want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("unexpected order %v; want %v (b served after one of a's)", order, want)
		}
	}
}

func TestQueueFull(t *testing.T) {
	q := newQueue(1, 1, 1, time.Second)
	a1 := mustAcquire(t, q, "a", 1)
	a2c, _ := acquireAsync(q, "a", 1)
	waitFor(t, "a's second search to wait", func() bool { return q.Stats().Waiting == 1 })
	_, err := q.Acquire(context.Background(), "a", 1)
	var r *Refused
	if !errors.As(err, &r) || !r.QueueFull {
		t.Fatalf("unexpected error %v; want a full queue", err)
	}
	want := "workspace limit concurrent_queries=1 reached: 1 queries running and 1 waiting, the most a workspace may queue; retry later"
	if err.Error() != want {
		t.Fatalf("unexpected message\ngot  %s\nwant %s", err, want)
	}
	if got := r.RetryAfter(time.Second); got != 1 {
		t.Fatalf("unexpected Retry-After %d; want 1", got)
	}
	q.Release(a1)
	q.Release(<-a2c)
}

func TestWaitTimeoutNamesTheCause(t *testing.T) {
	// The workspace's own limit holds it back.
	q := newQueue(4, 4, 8, 30*time.Millisecond)
	a1 := mustAcquire(t, q, "a", 1)
	_, err := q.Acquire(context.Background(), "a", 1)
	var r *Refused
	if !errors.As(err, &r) || r.Cause != WorkspaceLimit || r.QueueFull {
		t.Fatalf("unexpected error %v; want a timeout at the workspace limit", err)
	}
	if got := r.RetryAfter(30 * time.Millisecond); got != 1 {
		t.Fatalf("unexpected Retry-After %d; want 1", got)
	}
	q.Release(a1)

	// The node's slots hold it back.
	q = newQueue(1, 1, 8, 30*time.Millisecond)
	a1 = mustAcquire(t, q, "a", 1)
	_, err = q.Acquire(context.Background(), "b", 1)
	if !errors.As(err, &r) || r.Cause != NodeSlots {
		t.Fatalf("unexpected error %v; want a timeout at the node's slots", err)
	}
	if got := err.Error(); !strings.HasPrefix(got, "storage is busy: all 1 query slots stayed busy for ") || !strings.HasSuffix(got, "; retry later") {
		t.Fatalf("unexpected message %q", got)
	}
	if r.Waited < 30*time.Millisecond {
		t.Fatalf("refused after %s; want at least the 30ms wait", r.Waited)
	}
	q.Release(a1)
	if got := q.Stats(); got != (Stats{}) {
		t.Fatalf("unexpected stats %+v after the timeouts; want nothing left", got)
	}
}

func TestCanceledWhileWaiting(t *testing.T) {
	q := newQueue(1, 1, 8, time.Minute)
	a1 := mustAcquire(t, q, "a", 1)
	ctx, cancel := context.WithCancel(context.Background())
	ec := make(chan error, 1)
	go func() {
		_, err := q.Acquire(ctx, "b", 1)
		ec <- err
	}()
	waitFor(t, "b to wait", func() bool { return q.Stats().Waiting == 1 })
	cancel()
	var r *Refused
	if err := <-ec; !errors.As(err, &r) || r.Cause != Canceled {
		t.Fatalf("unexpected error %v; want canceled", err)
	}
	q.Release(a1)
	if got := q.Stats(); got != (Stats{}) {
		t.Fatalf("unexpected stats %+v; want nothing left", got)
	}
}

// TestInvariantsUnderLoad runs many workspaces' searches at once (run it with -race): no
// workspace ever runs more than its limit, the node never more than its slots, and every
// search of a workspace that waits its turn gets served.
func TestInvariantsUnderLoad(t *testing.T) {
	const slots = 3
	q := newQueue(slots, 2, 1000, 10*time.Second)
	limits := map[string]int{"a": 2, "b": 1, "c": 2, "d": 1}
	var busy atomic.Int32
	running := map[string]*atomic.Int32{}
	for ws := range limits {
		running[ws] = &atomic.Int32{}
	}
	var served atomic.Int32
	var wg sync.WaitGroup
	for ws, limit := range limits {
		for i := 0; i < 50; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tk, err := q.Acquire(context.Background(), ws, limit)
				if err != nil {
					t.Errorf("Acquire(%s): %s", ws, err)
					return
				}
				if n := busy.Add(1); n > slots {
					t.Errorf("%d searches run at once; the node has %d slots", n, slots)
				}
				if n := running[ws].Add(1); int(n) > limit {
					t.Errorf("workspace %s runs %d searches; its limit is %d", ws, n, limit)
				}
				time.Sleep(time.Millisecond)
				running[ws].Add(-1)
				busy.Add(-1)
				served.Add(1)
				q.Release(tk)
			}()
		}
	}
	wg.Wait()
	if got := served.Load(); got != 200 {
		t.Fatalf("%d searches served; want 200", got)
	}
	if got := q.Stats(); got != (Stats{}) {
		t.Fatalf("unexpected stats %+v; want nothing left", got)
	}
}
