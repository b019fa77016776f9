package simulate

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"vigil/agent/lib/push"
)

// RunOptions bound and pace a Run.
type RunOptions struct {
	// Interval is the time between two samples of a series (the timestamp step).
	Interval time.Duration
	// Duration stops the run after this long (0: until ctx ends or MaxPoints).
	Duration time.Duration
	// MaxPoints stops the run once this many field values were generated (0: no limit).
	// Hosts are generated whole: the run ends with the host that reaches MaxPoints.
	MaxPoints int64
	// Backfill starts the timestamps this far in the past and generates as fast as the
	// target accepts until they catch up with the clock; then the run paces itself.
	// 0 means real time from the start.
	Backfill time.Duration
	// BatchMaxBytes is the uncompressed size of one request body.
	BatchMaxBytes int
	// Raw sends bodies uncompressed, leaving more CPU to a server on the same machine.
	Raw bool
	// Workers generate and gzip batches (default GOMAXPROCS); Senders post them (default 4).
	Workers int
	Senders int
	// DrainTimeout bounds the wait for batches still being sent when generation ends (default 30s).
	DrainTimeout time.Duration
	Client       *push.Client
	Backoff      push.Backoff
	Logf         func(string, ...any)
}

// Result is what a run did.
type Result struct {
	Ticks       int64
	Lines       int64
	Points      int64 // field values: one per series per tick
	Bytes       int64 // uncompressed line protocol
	WireBytes   int64 // bytes sent as request bodies (gzipped unless Raw)
	Batches     int64
	PointsSent  int64
	SendErrors  int64
	DroppedPts  int64
	Elapsed     time.Duration
	FirstTS     time.Time
	LastTS      time.Time
	HostsActive int
}

// String is the summary printed at the end of a bounded run.
func (r Result) String() string {
	secs := r.Elapsed.Seconds()
	if secs <= 0 {
		secs = 1e-9
	}
	return fmt.Sprintf("simulate: %d hosts x %d series, %d ticks (%s .. %s) in %.2fs: generated %d points (%d lines, %.1f MB raw, %.1f MB on the wire) = %.0f points/s, %.0f lines/s, %.1f MB/s raw; sent %d points in %d batches, %d send errors, %d points dropped",
		r.HostsActive, SeriesPerHost, r.Ticks, r.FirstTS.UTC().Format(time.RFC3339), r.LastTS.UTC().Format(time.RFC3339), secs,
		r.Points, r.Lines, float64(r.Bytes)/1e6, float64(r.WireBytes)/1e6,
		float64(r.Points)/secs, float64(r.Lines)/secs, float64(r.Bytes)/1e6/secs,
		r.PointsSent, r.Batches, r.SendErrors, r.DroppedPts)
}

type batch struct {
	gz     *bytes.Buffer
	points int
}

// Run generates ticks for every host and sends them through ro.Client until a bound is hit.
func Run(ctx context.Context, g *Generator, ro RunOptions) (Result, error) {
	if ro.Interval <= 0 {
		return Result{}, fmt.Errorf("simulate interval must be positive, got %s", ro.Interval)
	}
	if ro.BatchMaxBytes <= 0 {
		ro.BatchMaxBytes = 1 << 20
	}
	if ro.Workers <= 0 {
		ro.Workers = runtime.GOMAXPROCS(0)
	}
	if ro.Senders <= 0 {
		ro.Senders = 4
	}
	if ro.Logf == nil {
		ro.Logf = func(string, ...any) {}
	}
	if ro.DrainTimeout <= 0 {
		ro.DrainTimeout = 30 * time.Second
	}
	genCtx := ctx
	if ro.Duration > 0 {
		var cancel context.CancelFunc
		genCtx, cancel = context.WithTimeout(ctx, ro.Duration)
		defer cancel()
	}

	var res Result
	var stats push.Stats
	var points, lines, raw, gzBytes atomic.Int64
	pool := sync.Pool{New: func() any { return new(bytes.Buffer) }}
	batches := make(chan batch, 2*ro.Senders)

	sendCtx, cancelSend := context.WithCancel(ctx)
	defer cancelSend()
	var sendWG sync.WaitGroup
	for i := 0; i < ro.Senders; i++ {
		sendWG.Add(1)
		go func() {
			defer sendWG.Done()
			for b := range batches {
				_ = push.Deliver(sendCtx, ro.Client, ro.Backoff, &stats, b.gz.Bytes(), b.points, ro.Logf)
				pool.Put(b.gz)
			}
		}()
	}

	prec := g.opts.Precision
	step := ro.Interval
	start := time.Now()
	ts := start.Add(-ro.Backfill).Truncate(step)
	res.FirstTS = ts
	limitHit := func() bool { return ro.MaxPoints > 0 && points.Load() >= ro.MaxPoints }

	// Once generation is over (duration, MaxPoints or ctx), batches already generated
	// still go out, but for at most DrainTimeout, so an unreachable target cannot hold
	// the run forever.
	genDone := make(chan struct{})
	var genDoneOnce sync.Once
	finishGen := func() { genDoneOnce.Do(func() { close(genDone) }) }
	drained := make(chan struct{})
	go func() {
		select {
		case <-genCtx.Done():
		case <-genDone:
		}
		select {
		case <-drained:
		case <-time.After(ro.DrainTimeout):
			ro.Logf("simulate: the target did not take the last batches within %s; giving up on them", ro.DrainTimeout)
			cancelSend()
		}
	}()

	// Each worker owns a contiguous range of hosts for the whole run.
	nw := min(ro.Workers, max(g.Hosts(), 1))
	perWorker := (g.Hosts() + nw - 1) / nw
	bufs := make([][]byte, nw)
	for i := range bufs {
		bufs[i] = make([]byte, 0, ro.BatchMaxBytes+64<<10)
	}
	var runErr error
loop:
	for !limitHit() {
		if d := time.Until(ts); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-genCtx.Done():
				t.Stop()
				break loop
			case <-t.C:
			}
		}
		if genCtx.Err() != nil {
			break
		}
		tsInt := prec.Timestamp(ts)
		var wg sync.WaitGroup
		for w := 0; w < nw; w++ {
			lo, hi := w*perWorker, min((w+1)*perWorker, g.Hosts())
			if lo >= hi {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				buf := bufs[w][:0]
				defer func() { bufs[w] = buf }()
				n := 0
				flush := func() {
					if len(buf) == 0 {
						return
					}
					gz := pool.Get().(*bytes.Buffer)
					gz.Reset()
					if ro.Raw {
						gz.Write(buf)
					} else {
						push.Gzip(gz, buf)
					}
					raw.Add(int64(len(buf)))
					gzBytes.Add(int64(gz.Len()))
					select {
					case batches <- batch{gz: gz, points: n}:
					case <-sendCtx.Done():
					}
					buf, n = buf[:0], 0
				}
				for h := lo; h < hi; h++ {
					if genCtx.Err() != nil {
						break
					}
					// Reserve the host's points first, so concurrent workers never overshoot
					// MaxPoints by more than the one host that crosses it.
					if total := points.Add(SeriesPerHost); ro.MaxPoints > 0 && total-SeriesPerHost >= ro.MaxPoints {
						points.Add(-SeriesPerHost)
						finishGen()
						break
					}
					buf = g.AppendHost(buf, h, tsInt)
					n += SeriesPerHost
					lines.Add(int64(g.LinesPerHost()))
					if len(buf) >= ro.BatchMaxBytes {
						flush()
					}
				}
				flush()
			}()
		}
		wg.Wait()
		res.Ticks++
		res.LastTS = ts
		ts = ts.Add(step)
	}
	finishGen()
	close(batches)
	sendWG.Wait()
	close(drained)
	if ctx.Err() != nil {
		runErr = ctx.Err()
	}
	res.Elapsed = time.Since(start)
	res.Points, res.Lines, res.Bytes, res.WireBytes = points.Load(), lines.Load(), raw.Load(), gzBytes.Load()
	res.Batches, res.PointsSent = stats.BatchesSent.Load(), stats.PointsSent.Load()
	res.SendErrors, res.DroppedPts = stats.SendErrors.Load(), stats.DroppedPoints.Load()
	res.HostsActive = g.Hosts()
	return res, runErr
}
