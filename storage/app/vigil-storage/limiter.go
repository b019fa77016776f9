package main

import (
	"flag"
	"net/http"
	"strconv"
	"time"

	"github.com/VictoriaMetrics/metrics"

	"vigil/storage/lib/apierror"
)

// VictoriaMetrics' vmselect bounds concurrent searches in its own request handler, which
// vigil-storage does not use; readLimiter applies the same two flags to our read endpoints.
var (
	readSlots        chan struct{}
	readQueueTimeout time.Duration
	readLimitReached = metrics.NewCounter(`vigil_concurrent_read_limit_reached_total`)
	readLimitTimeout = metrics.NewCounter(`vigil_concurrent_read_limit_timeout_total`)
)

func initReadLimiter() {
	readSlots = make(chan struct{}, max(*maxConcurrentRequests, 1))
	readQueueTimeout = *maxQueueDuration
}

// acquireReadSlot waits for a free read slot; the caller must call releaseReadSlot after a
// nil return. When none frees up within -search.maxQueueDuration it answers 429 with
// Retry-After.
func acquireReadSlot(w http.ResponseWriter, r *http.Request) error {
	select {
	case readSlots <- struct{}{}:
		return nil
	default:
	}
	readLimitReached.Inc()
	t := time.NewTimer(readQueueTimeout)
	defer t.Stop()
	select {
	case readSlots <- struct{}{}:
		return nil
	case <-r.Context().Done():
		return apierror.New(http.StatusServiceUnavailable, apierror.TypeUnavailable, "request canceled while waiting for a free query slot")
	case <-t.C:
		readLimitTimeout.Inc()
		w.Header().Set("Retry-After", strconv.Itoa(int(readQueueTimeout.Seconds())+1))
		return apierror.New(http.StatusTooManyRequests, apierror.TypeLimitExceeded,
			"too many concurrent queries: all %d slots stayed busy for %s; raise -search.maxConcurrentRequests or -search.maxQueueDuration, or retry later",
			cap(readSlots), readQueueTimeout)
	}
}

func releaseReadSlot() { <-readSlots }

func durationFlag(name string, def time.Duration) time.Duration {
	if f := flag.Lookup(name); f != nil {
		if v, ok := f.Value.(flag.Getter).Get().(time.Duration); ok && v > 0 {
			return v
		}
	}
	return def
}
