package main

import (
	"errors"
	"flag"
	"net/http"
	"strconv"
	"time"

	"github.com/VictoriaMetrics/metrics"

	"vigil/storage/app/fairqueue"
	"vigil/storage/app/querylimits"
	"vigil/storage/lib/apierror"
)

// VictoriaMetrics' vmselect bounds concurrent searches in its own request handler, which
// vigil-storage does not use; the read endpoints take a slot of app/fairqueue instead: at
// most -search.maxConcurrentRequests searches at once, at most the workspace's limit
// (X-Vigil-Max-Concurrent-Queries, capped by -search.maxConcurrentPerWorkspace) of them for
// one workspace, and waiting searches served round-robin across workspaces.
var (
	maxConcurrentPerWorkspace = flag.Int("search.maxConcurrentPerWorkspace", 0, "The most searches one workspace may run at once, whatever its "+
		"X-Vigil-Max-Concurrent-Queries header asks; 0 means a quarter of -search.maxConcurrentRequests (at least 1): each search may use every CPU "+
		"(-search.maxWorkersPerQuery), so a workspace with fewer searches running leaves the CPU to the others' searches. "+
		"See also -search.maxQueuedPerWorkspace")
	maxQueuedPerWorkspace = flag.Int("search.maxQueuedPerWorkspace", 64, "The most searches one workspace may have waiting for a slot; "+
		"one more gets 429 at once. Waiting longer than -search.maxQueueDuration also gets 429")
)

var (
	readQueue        *fairqueue.Queue
	readLimitReached = metrics.NewCounter(`vigil_concurrent_read_limit_reached_total`)
	readLimitTimeout = metrics.NewCounter(`vigil_concurrent_read_limit_timeout_total`)
	readQueueFull    = metrics.NewCounter(`vigil_concurrent_read_queue_full_total`)
)

func initReadLimiter() {
	slots := max(*maxConcurrentRequests, 1)
	perWorkspace := *maxConcurrentPerWorkspace
	if perWorkspace <= 0 {
		perWorkspace = max(1, slots/4)
	}
	readQueue = fairqueue.New(fairqueue.Config{
		Slots:        slots,
		PerWorkspace: min(perWorkspace, slots),
		MaxQueued:    max(0, *maxQueuedPerWorkspace),
		MaxWait:      *maxQueueDuration,
	})
	_ = metrics.NewGauge(`vigil_concurrent_reads_running`, func() float64 { return float64(readQueue.Stats().Busy) })
	_ = metrics.NewGauge(`vigil_concurrent_reads_waiting`, func() float64 { return float64(readQueue.Stats().Waiting) })
}

// acquireReadSlot waits for a read slot for workspace ws; the caller must call
// releaseReadSlot with the ticket after a nil error. It answers 429 with Retry-After when the
// workspace's queue is full or the search waited longer than -search.maxQueueDuration.
func acquireReadSlot(w http.ResponseWriter, r *http.Request, ws string) (fairqueue.Ticket, error) {
	limit, err := querylimits.MaxConcurrent(r)
	if err != nil {
		return fairqueue.Ticket{}, err
	}
	t, err := readQueue.Acquire(r.Context(), ws, limit)
	if err == nil {
		if t.Queued {
			readLimitReached.Inc()
		}
		return t, nil
	}
	readLimitReached.Inc()
	var refused *fairqueue.Refused
	if !errors.As(err, &refused) {
		return t, err
	}
	if refused.Cause == fairqueue.Canceled {
		return t, apierror.New(http.StatusServiceUnavailable, apierror.TypeUnavailable, "%s", refused)
	}
	if refused.QueueFull {
		readQueueFull.Inc()
	} else {
		readLimitTimeout.Inc()
	}
	w.Header().Set("Retry-After", strconv.Itoa(refused.RetryAfter(readQueue.Config().MaxWait)))
	return t, apierror.New(http.StatusTooManyRequests, apierror.TypeLimitExceeded, "%s", refused)
}

func releaseReadSlot(t fairqueue.Ticket) { readQueue.Release(t) }

func durationFlag(name string, def time.Duration) time.Duration {
	if f := flag.Lookup(name); f != nil {
		if v, ok := f.Value.(flag.Getter).Get().(time.Duration); ok && v > 0 {
			return v
		}
	}
	return def
}
