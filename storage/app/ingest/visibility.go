package ingest

import (
	"flag"
	"sync"
	"sync/atomic"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmstorage"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/logger"
)

var visibilityInterval = flag.Duration("ingest.visibilityInterval", 500*time.Millisecond, "How soon written samples and new series become searchable. "+
	"VictoriaMetrics keeps new rows and index entries in memory for up to 2s and refreshes its tag-filter cache only every ~10s, "+
	"so a query that runs just after a write could miss a new series for up to 10s. vigil-storage makes writes searchable "+
	"and, when new series were created, refreshes that cache at this interval instead (only when something was written). Zero disables it")

var (
	written    atomic.Bool
	flusherWG  sync.WaitGroup
	flusherCh  chan struct{}
	flushCount atomic.Uint64
)

// markWritten records that data was written since the last visibility flush.
func markWritten() { written.Store(true) }

// StartVisibilityFlusher starts making writes searchable every -ingest.visibilityInterval.
// Call it after vmstorage.Init and StopVisibilityFlusher before vmstorage.Stop.
func StartVisibilityFlusher() {
	if *visibilityInterval <= 0 {
		return
	}
	s, err := checkStorageInternals()
	if err != nil {
		logger.Fatalf("BUG: -ingest.visibilityInterval cannot refresh VictoriaMetrics' tag-filter caches: %s", err)
	}
	flusherCh = make(chan struct{})
	flusherWG.Add(1)
	go func() {
		defer flusherWG.Done()
		t := time.NewTicker(*visibilityInterval)
		defer t.Stop()
		var created uint64
		for {
			select {
			case <-flusherCh:
				return
			case <-t.C:
				if written.Swap(false) {
					// read before the flush: series created meanwhile count at the next tick
					n := seriesCreated(s)
					vmstorage.DebugFlush()
					if n != created {
						// new series are searchable now; forget cached "no such series" answers
						if err := invalidateTagFiltersCaches(s); err != nil {
							logger.Panicf("BUG: %s", err)
						}
						created = n
					}
					flushCount.Add(1)
				}
			}
		}
	}()
}

// StopVisibilityFlusher stops the flusher started by StartVisibilityFlusher.
func StopVisibilityFlusher() {
	if flusherCh == nil {
		return
	}
	close(flusherCh)
	flusherWG.Wait()
	flusherCh = nil
}
