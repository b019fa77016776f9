// Package fairqueue admits searches to a bounded number of slots, fairly across workspaces.
//
// The node runs at most Slots searches at once, and a workspace at most its own limit (the
// workspace's concurrent queries limit, capped by PerWorkspace). A search that cannot start
// waits in its workspace's queue; whenever a slot frees up, the queues are served in
// round-robin order, one search per workspace in turn, skipping workspaces that run as many
// searches as their limit allows. So a workspace that keeps its whole share busy, with many
// more searches waiting behind it, never delays another workspace by more than one search per
// waiting workspace, and never takes the slots its limit leaves to the others.
//
// A workspace's queue holds at most MaxQueued searches; one more is refused at once. A search
// that waits longer than MaxWait is refused too. Both refusals say whether the workspace's own
// limit or the node's slots held the search back.
package fairqueue

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Queue is the admission queue of one node. Make one with New.
type Queue struct {
	slots        int
	perWorkspace int
	maxQueued    int
	maxWait      time.Duration

	mu      sync.Mutex
	busy    int
	byID    map[string]*workspace
	ring    []*workspace // workspaces with waiting searches, in round-robin order
	next    int          // index in ring of the workspace served next
	waiting int
}

// Config sets a Queue's bounds.
type Config struct {
	// Slots is the number of searches the node runs at once (>= 1).
	Slots int
	// PerWorkspace caps what any workspace may run at once, whatever limit it asks for
	// (>= 1).
	PerWorkspace int
	// MaxQueued is the number of searches a workspace may have waiting (>= 0).
	MaxQueued int
	// MaxWait is how long a search may wait for a slot (> 0).
	MaxWait time.Duration
}

type workspace struct {
	id      string
	limit   int
	running int
	waiters []*waiter
	inRing  bool
}

type waiter struct {
	ready   chan struct{} // closed when the search may start
	granted bool          // set under Queue.mu together with closing ready
}

// New returns a Queue with the given bounds.
func New(c Config) *Queue {
	if c.Slots < 1 || c.PerWorkspace < 1 || c.MaxQueued < 0 || c.MaxWait <= 0 {
		panic(fmt.Sprintf("BUG: invalid fairqueue config %+v", c))
	}
	return &Queue{
		slots:        c.Slots,
		perWorkspace: c.PerWorkspace,
		maxQueued:    c.MaxQueued,
		maxWait:      c.MaxWait,
		byID:         map[string]*workspace{},
	}
}

// Config returns the bounds of q.
func (q *Queue) Config() Config {
	return Config{Slots: q.slots, PerWorkspace: q.perWorkspace, MaxQueued: q.maxQueued, MaxWait: q.maxWait}
}

// Cause says what held a refused search back.
type Cause int

const (
	// WorkspaceLimit means the workspace already runs as many searches as its limit allows.
	WorkspaceLimit Cause = iota
	// NodeSlots means every slot of the node is busy.
	NodeSlots
	// Canceled means the caller gave up while waiting.
	Canceled
)

// Refused is returned by Acquire when a search may not run.
type Refused struct {
	Cause Cause
	// QueueFull is true when the search was refused at once because its workspace's queue
	// was full; false when it waited MaxWait (or was canceled).
	QueueFull bool
	// Limit is the workspace's limit, Running and Waiting what it had at the refusal.
	Limit, Running, Waiting int
	// Slots is the node's number of slots; Waited how long the search waited.
	Slots  int
	Waited time.Duration
}

func (e *Refused) Error() string {
	switch {
	case e.Cause == Canceled:
		return fmt.Sprintf("the request was canceled after waiting %s for a query slot", e.Waited.Round(time.Millisecond))
	case e.QueueFull:
		return fmt.Sprintf("workspace limit concurrent_queries=%d reached: %d queries running and %d waiting, the most a workspace may queue; retry later",
			e.Limit, e.Running, e.Waiting)
	case e.Cause == WorkspaceLimit:
		return fmt.Sprintf("workspace limit concurrent_queries=%d reached: the query waited %s while the workspace's %d running queries took every slot it may use; retry later",
			e.Limit, e.Waited.Round(time.Millisecond), e.Running)
	default:
		return fmt.Sprintf("storage is busy: all %d query slots stayed busy for %s; retry later", e.Slots, e.Waited.Round(time.Millisecond))
	}
}

// RetryAfter is the number of seconds a refused caller should wait before trying again.
func (e *Refused) RetryAfter(maxWait time.Duration) int {
	if e.QueueFull {
		return 1
	}
	return int(maxWait/time.Second) + 1
}

// Ticket is a granted slot; pass it to Release when the search is done.
type Ticket struct {
	w *workspace
	// Queued is true when the search had to wait for its slot.
	Queued bool
}

// Acquire waits for a slot for a search of workspace ws, whose own concurrency limit is limit
// (<= 0: the PerWorkspace cap). It returns a *Refused error when the search may not run.
func (q *Queue) Acquire(ctx context.Context, ws string, limit int) (Ticket, error) {
	if limit <= 0 || limit > q.perWorkspace {
		limit = q.perWorkspace
	}
	q.mu.Lock()
	w := q.byID[ws]
	if w == nil {
		w = &workspace{id: ws}
		q.byID[ws] = w
	}
	w.limit = limit
	if len(w.waiters) == 0 && w.running < w.limit && q.busy < q.slots {
		q.grantLocked(w)
		q.mu.Unlock()
		return Ticket{w: w}, nil
	}
	if len(w.waiters) >= q.maxQueued {
		err := &Refused{Cause: WorkspaceLimit, QueueFull: true, Limit: w.limit, Running: w.running, Waiting: len(w.waiters), Slots: q.slots}
		q.forgetIfIdleLocked(w)
		q.mu.Unlock()
		return Ticket{}, err
	}
	wt := &waiter{ready: make(chan struct{})}
	w.waiters = append(w.waiters, wt)
	q.waiting++
	if !w.inRing {
		w.inRing = true
		q.ring = append(q.ring, w)
	}
	q.mu.Unlock()

	start := time.Now()
	t := time.NewTimer(q.maxWait)
	defer t.Stop()
	var cause Cause
	select {
	case <-wt.ready:
		return Ticket{w: w, Queued: true}, nil
	case <-ctx.Done():
		cause = Canceled
	case <-t.C:
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if wt.granted {
		// Granted while timing out: run it rather than waste the slot.
		return Ticket{w: w, Queued: true}, nil
	}
	q.removeWaiterLocked(w, wt)
	if cause != Canceled {
		cause = NodeSlots
		if w.running >= w.limit {
			cause = WorkspaceLimit
		}
	}
	err := &Refused{Cause: cause, Limit: w.limit, Running: w.running, Waiting: len(w.waiters), Slots: q.slots, Waited: time.Since(start)}
	q.forgetIfIdleLocked(w)
	return Ticket{}, err
}

// Release frees the slot of t and starts the next waiting searches.
func (q *Queue) Release(t Ticket) {
	if t.w == nil {
		panic("BUG: fairqueue.Release of a ticket that was never granted")
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.busy--
	t.w.running--
	q.dispatchLocked()
	q.forgetIfIdleLocked(t.w)
}

// Stats is a snapshot of the queue.
type Stats struct {
	Busy, Waiting, Workspaces int
}

// Stats returns how many searches run and wait, and how many workspaces have either.
func (q *Queue) Stats() Stats {
	q.mu.Lock()
	defer q.mu.Unlock()
	return Stats{Busy: q.busy, Waiting: q.waiting, Workspaces: len(q.byID)}
}

func (q *Queue) grantLocked(w *workspace) {
	q.busy++
	w.running++
}

// dispatchLocked hands free slots to waiting searches, one per workspace in round-robin
// order, skipping workspaces at their own limit.
func (q *Queue) dispatchLocked() {
	for q.busy < q.slots && len(q.ring) > 0 {
		served := false
		for i := 0; i < len(q.ring); i++ {
			idx := (q.next + i) % len(q.ring)
			w := q.ring[idx]
			if w.running >= w.limit {
				continue
			}
			wt := w.waiters[0]
			w.waiters[0] = nil
			w.waiters = w.waiters[1:]
			q.waiting--
			q.grantLocked(w)
			wt.granted = true
			close(wt.ready)
			q.next = idx + 1
			if len(w.waiters) == 0 {
				q.dropFromRingLocked(idx)
			}
			served = true
			break
		}
		if !served {
			return
		}
	}
}

func (q *Queue) removeWaiterLocked(w *workspace, wt *waiter) {
	for i, x := range w.waiters {
		if x == wt {
			w.waiters = append(w.waiters[:i], w.waiters[i+1:]...)
			q.waiting--
			break
		}
	}
	if len(w.waiters) == 0 && w.inRing {
		for i, x := range q.ring {
			if x == w {
				q.dropFromRingLocked(i)
				break
			}
		}
	}
}

// dropFromRingLocked removes ring[idx], keeping q.next on the workspace that was due next.
func (q *Queue) dropFromRingLocked(idx int) {
	q.ring[idx].inRing = false
	q.ring = append(q.ring[:idx], q.ring[idx+1:]...)
	if q.next > idx {
		q.next--
	}
	if len(q.ring) == 0 || q.next >= len(q.ring) {
		q.next = 0
	}
}

func (q *Queue) forgetIfIdleLocked(w *workspace) {
	if w.running == 0 && len(w.waiters) == 0 {
		delete(q.byID, w.id)
	}
}
