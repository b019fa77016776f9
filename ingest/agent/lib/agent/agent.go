// Package agent runs vigil-agent's collection loop: every interval it runs the
// collectors and scrapes, tags the points, cuts them into gzipped batches and pushes
// them into the on-disk queue, from which push.Sender delivers them.
package agent

import (
	"context"
	"io"
	"log"
	"sync"
	"sync/atomic"
	"time"

	"vigil/agent/lib/collector"
	"vigil/agent/lib/diskqueue"
	"vigil/agent/lib/lineproto"
	"vigil/agent/lib/push"
	"vigil/agent/lib/scrape"
)

// Agent holds what one collection round needs.
type Agent struct {
	Host       string
	Tags       []lineproto.Tag // extra tags, added to every point that lacks them
	Version    string
	Interval   time.Duration
	Precision  lineproto.Precision
	Collectors []collector.Collector
	Scraper    *scrape.Scraper
	Targets    []scrape.Target
	ScrapeTO   time.Duration
	MaxLines   int
	MaxBytes   int
	// Raw sends line protocol uncompressed (-send.gzip=false).
	Raw bool
	// Queue receives the batches; nil in -once mode.
	Queue *diskqueue.Queue
	// SendStats are the sender's counters, reported in the vigil_agent measurement.
	SendStats *push.Stats
	Logf      func(string, ...any)

	pointsCollected atomic.Int64
	collectErrors   atomic.Int64
	scrapeErrors    atomic.Int64
	rounds          atomic.Int64
	lastDuration    atomic.Int64
	logged          map[string]bool
}

// Collect runs every collector and scrape target once and returns the points of the round,
// tagged and stamped now. Collector errors are logged (the first time each collector
// fails) and counted, and do not stop the others.
func (a *Agent) Collect(ctx context.Context, now time.Time) []lineproto.Point {
	start := time.Now()
	if a.Logf == nil {
		a.Logf = log.Printf
	}
	if a.logged == nil {
		a.logged = map[string]bool{}
	}
	acc := &collector.Accumulator{Now: now}
	for _, c := range a.Collectors {
		if err := c.Collect(acc); err != nil {
			a.collectErrors.Add(1)
			if !a.logged[c.Name()] {
				a.logged[c.Name()] = true
				a.Logf("collector %s failed (further failures are only counted): %s", c.Name(), err)
			}
		}
	}
	points := acc.Points
	if len(a.Targets) > 0 {
		points = append(points, a.scrapeAll(ctx, now)...)
	}
	points = append(points, a.selfPoint(now))
	for i := range points {
		points[i].Tags = a.addTags(points[i].Tags)
	}
	a.pointsCollected.Add(int64(len(points)))
	a.rounds.Add(1)
	a.lastDuration.Store(int64(time.Since(start)))
	return points
}

// scrapeAll scrapes the targets concurrently, each bounded by the scrape timeout.
func (a *Agent) scrapeAll(ctx context.Context, now time.Time) []lineproto.Point {
	ctx, cancel := context.WithTimeout(ctx, a.ScrapeTO)
	defer cancel()
	var mu sync.Mutex
	var wg sync.WaitGroup
	var out []lineproto.Point
	for _, t := range a.Targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := a.Scraper.Scrape(ctx, t, now)
			up := int64(1)
			if err != nil {
				up = 0
				a.scrapeErrors.Add(1)
				a.Logf("%s", err)
			}
			mu.Lock()
			defer mu.Unlock()
			out = append(out, res.Points...)
			out = append(out, lineproto.Point{
				Measurement: "vigil_scrape",
				Tags:        []lineproto.Tag{{Key: "instance", Value: t.Instance}, {Key: "url", Value: t.URL}},
				Fields: []lineproto.Field{
					lineproto.I("up", up),
					lineproto.I("samples", int64(res.Samples)),
					lineproto.I("samples_skipped", int64(res.Skipped)),
					lineproto.F("duration_seconds", res.Duration.Seconds()),
				},
				Time: now,
			})
		}()
	}
	wg.Wait()
	return out
}

// addTags appends host and the extra tags unless the point already has them.
func (a *Agent) addTags(tags []lineproto.Tag) []lineproto.Tag {
	has := func(k string) bool {
		for _, t := range tags {
			if t.Key == k {
				return true
			}
		}
		return false
	}
	for _, t := range a.Tags {
		if !has(t.Key) {
			tags = append(tags, t)
		}
	}
	if !has("host") {
		tags = append(tags, lineproto.Tag{Key: "host", Value: a.Host})
	}
	return tags
}

// selfPoint is the agent's own vigil_agent measurement.
func (a *Agent) selfPoint(now time.Time) lineproto.Point {
	var qs diskqueue.Stats
	if a.Queue != nil {
		qs = a.Queue.Stats()
	}
	var s push.Stats
	if a.SendStats != nil {
		s.BatchesSent.Store(a.SendStats.BatchesSent.Load())
		s.PointsSent.Store(a.SendStats.PointsSent.Load())
		s.SendErrors.Store(a.SendStats.SendErrors.Load())
		s.DroppedPoints.Store(a.SendStats.DroppedPoints.Load())
	}
	return lineproto.Point{
		Measurement: "vigil_agent",
		Tags:        []lineproto.Tag{{Key: "version", Value: a.Version}},
		Fields: []lineproto.Field{
			lineproto.I("points_collected", a.pointsCollected.Load()),
			lineproto.I("batches_sent", s.BatchesSent.Load()),
			lineproto.I("points_sent", s.PointsSent.Load()),
			lineproto.I("send_errors", s.SendErrors.Load()),
			lineproto.I("buffered_bytes", qs.PendingBytes),
			lineproto.I("buffered_batches", qs.PendingBlocks),
			lineproto.I("dropped_points", qs.DroppedPoints+s.DroppedPoints.Load()),
			lineproto.I("dropped_points_buffer_full", qs.DroppedPoints),
			lineproto.I("dropped_points_rejected", s.DroppedPoints.Load()),
			lineproto.I("collect_errors", a.collectErrors.Load()),
			lineproto.I("scrape_errors", a.scrapeErrors.Load()),
			lineproto.F("collect_duration_seconds", time.Duration(a.lastDuration.Load()).Seconds()),
		},
		Time: now,
	}
}

// Encode writes points as line protocol, one batch per MaxLines/MaxBytes, to flush.
func (a *Agent) Encode(points []lineproto.Point, flush func(body []byte, lines int) error) error {
	b := &push.Batcher{MaxLines: a.MaxLines, MaxBytes: a.MaxBytes, Raw: a.Raw, Flush: flush}
	var line []byte
	for i := range points {
		line = lineproto.AppendPoint(line[:0], &points[i], a.Precision)
		if len(line) == 0 {
			continue
		}
		if err := b.Add(line, 1); err != nil {
			return err
		}
	}
	return b.Close()
}

// WriteOnce prints one round as plain line protocol, for -once. When the cpu collector
// is enabled, a priming round runs a second earlier so CPU percentages have a delta.
func (a *Agent) WriteOnce(ctx context.Context, w io.Writer) error {
	for _, c := range a.Collectors {
		if c.Name() == "cpu" {
			_ = c.Collect(&collector.Accumulator{Now: time.Now()})
			time.Sleep(time.Second)
		}
	}
	points := a.Collect(ctx, time.Now())
	var buf []byte
	for i := range points {
		buf = lineproto.AppendPoint(buf, &points[i], a.Precision)
	}
	_, err := w.Write(buf)
	return err
}

// Run collects every Interval, aligned to multiples of it, until ctx ends.
func (a *Agent) Run(ctx context.Context) {
	for {
		next := time.Now().Truncate(a.Interval).Add(a.Interval)
		t := time.NewTimer(time.Until(next))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		points := a.Collect(ctx, next)
		err := a.Encode(points, func(body []byte, lines int) error {
			if err := a.Queue.Push(body, lines); err != nil {
				a.Logf("cannot buffer a batch of %d points: %s", lines, err)
			}
			return nil
		})
		if err != nil {
			a.Logf("cannot encode points: %s", err)
		}
	}
}
