package ingest

import (
	"fmt"
	"testing"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/prompb"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/storage"
)

func limitTestRows(n int) []storage.MetricRow {
	mrs := make([]storage.MetricRow, n)
	for i := range mrs {
		labels := []prompb.Label{
			{Name: "__name__", Value: "cpu:usage_user"}, {Name: "__measurement__", Value: "cpu"}, {Name: "__field__", Value: "usage_user"},
			{Name: "cpu", Value: fmt.Sprintf("cpu%d", i%16)}, {Name: "host", Value: fmt.Sprintf("host-%05d", i/16)}, {Name: "vigil_workspace", Value: "ws"},
		}
		mrs[i].MetricNameRaw = storage.MarshalMetricNameRaw(nil, labels)
	}
	return mrs
}

// TestLimitRows: the series a workspace has pass; new ones beyond the limit do not, counted
// per workspace.
func TestLimitRows(t *testing.T) {
	mrs := limitTestRows(2000)
	kept, dropped := limitRows("ws-unit", 1000, append([]storage.MetricRow(nil), mrs[:1000]...))
	if len(kept) != 1000 || dropped != 0 {
		t.Fatalf("the first 1000 series under a limit of 1000: kept %d, dropped %d", len(kept), dropped)
	}
	kept, dropped = limitRows("ws-unit", 1000, append([]storage.MetricRow(nil), mrs...))
	if dropped != 1000 || len(kept) != 1000 {
		t.Fatalf("1000 known and 1000 new series: kept %d, dropped %d; want 1000 dropped", len(kept), dropped)
	}
	for i, mr := range kept[:1000] {
		if string(mr.MetricNameRaw) != string(mrs[i].MetricNameRaw) {
			t.Fatalf("row %d of the known series was not kept in order", i)
		}
	}
	if got := DroppedPoints("ws-unit"); got != uint64(dropped) {
		t.Fatalf("DroppedPoints: %d, want %d", got, dropped)
	}
	if kept, dropped := limitRows("ws-unit", 0, mrs); len(kept) != 2000 || dropped != 0 {
		t.Fatalf("no limit: kept %d, dropped %d", len(kept), dropped)
	}
	ForgetWorkspace("ws-unit")
	if got := DroppedPoints("ws-unit"); got != 0 {
		t.Fatalf("DroppedPoints after the workspace was forgotten: %d", got)
	}
}

// admitted counts the hashes from..to-1 that ws may write under max at now.
func admitted(ws string, limit int, now time.Time, from, to uint64) int {
	a := lockActive(ws, limit, now)
	defer a.mu.Unlock()
	n := 0
	for h := from; h < to; h++ {
		if a.add(h) {
			n++
		}
	}
	return n
}

func activeState(ws string) (exact int, bloom bool, bytes int, tracked bool) {
	activeMu.Lock()
	a := activeByWS[ws]
	activeMu.Unlock()
	if a == nil {
		return 0, false, 0, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.exact), a.bloom != nil, a.bytes(), true
}

// TestActiveSeriesMemory: a workspace far below its limit costs memory for its series, not
// for the limit; near it, the Bloom filter of the limit's size takes over and still knows
// every series seen before.
func TestActiveSeriesMemory(t *testing.T) {
	now := time.Now()
	defer ForgetWorkspace("ws-small")
	if n := admitted("ws-small", 500_000, now, 0, 100); n != 100 {
		t.Fatalf("admitted %d of 100 series", n)
	}
	if exact, bloom, bytes, _ := activeState("ws-small"); exact != 100 || bloom || bytes > 100*exactSeriesBytes {
		t.Fatalf("100 series under a limit of 500,000: exact %d, bloom %v, %d bytes", exact, bloom, bytes)
	}

	const limit = 40_000 // an eighth of it is above exactSeriesMin
	defer ForgetWorkspace("ws-big")
	if n := admitted("ws-big", limit, now, 0, 5_000); n != 5_000 {
		t.Fatalf("admitted %d of the first 5,000 series", n)
	}
	if _, bloom, _, _ := activeState("ws-big"); bloom {
		t.Fatal("the Bloom filter was made at 5,000 of 40,000 series")
	}
	if n := admitted("ws-big", limit, now, 5_000, 10_000); n != 5_000 {
		t.Fatalf("admitted %d of the next 5,000 series", n)
	}
	if exact, bloom, bytes, _ := activeState("ws-big"); !bloom || exact != 0 || bytes != 2*limit {
		t.Fatalf("past an eighth of the limit: exact %d, bloom %v, %d bytes; want the Bloom filter", exact, bloom, bytes)
	}
	if n := admitted("ws-big", limit, now, 0, 10_000); n != 10_000 {
		t.Fatalf("the Bloom filter knows %d of the 10,000 series seen before it", n)
	}
	admitted("ws-big", limit, now, 10_000, 60_000)
	// the limit holds (a Bloom filter takes a few new series for known ones)
	if n := admitted("ws-big", limit, now, 100_000, 110_000); n > 100 {
		t.Fatalf("at the limit, %d of 10,000 new series were admitted", n)
	}
}

// TestActiveSeriesWindow: a new window, or a new limit, starts the count afresh; a workspace
// that wrote nothing for a whole window is forgotten, one that wrote is not.
func TestActiveSeriesWindow(t *testing.T) {
	start := time.Now()
	window := *activeSeriesWindow
	defer ForgetWorkspace("ws-window")
	defer ForgetWorkspace("ws-busy")
	if n := admitted("ws-window", 10, start, 0, 20); n != 10 {
		t.Fatalf("admitted %d of 20 series under a limit of 10", n)
	}
	if n := admitted("ws-window", 10, start.Add(window/2), 100, 110); n != 0 {
		t.Fatalf("within the window, %d new series were admitted at the limit", n)
	}
	if n := admitted("ws-window", 20, start.Add(window/2), 100, 120); n != 20 {
		t.Fatalf("after the limit changed to 20, %d of 20 new series were admitted", n)
	}
	next := start.Add(window/2 + window)
	if n := admitted("ws-window", 20, next, 200, 220); n != 20 {
		t.Fatalf("in the next window, %d of 20 new series were admitted", n)
	}
	admitted("ws-busy", 10, next, 0, 1)

	sweepActiveSeries(next.Add(window - time.Second))
	if _, _, _, tracked := activeState("ws-window"); !tracked {
		t.Fatal("a workspace that wrote within the window was forgotten")
	}
	admitted("ws-busy", 10, next.Add(window-time.Second), 0, 1)
	sweepActiveSeries(next.Add(window))
	if _, _, _, tracked := activeState("ws-window"); tracked {
		t.Fatal("a workspace idle for a whole window is still tracked")
	}
	if _, _, _, tracked := activeState("ws-busy"); !tracked {
		t.Fatal("a workspace that kept writing was forgotten")
	}
	// its next write starts afresh
	if n := admitted("ws-window", 20, next.Add(window), 300, 320); n != 20 {
		t.Fatalf("after being forgotten, %d of 20 new series were admitted", n)
	}
}

// BenchmarkLimitRows is what the active series limit adds to a write, per row, for a
// workspace of 10,000 series under its limit (every series known): far below it (the default
// limit, exact set) and near it (the Bloom filter).
func BenchmarkLimitRows(b *testing.B) {
	mrs := limitTestRows(10_000)
	for _, bc := range []struct {
		name  string
		limit int
	}{{"exact", 500_000}, {"bloom", 20_000}} {
		b.Run(bc.name, func(b *testing.B) {
			ws := "ws-bench-" + bc.name
			defer ForgetWorkspace(ws)
			limitRows(ws, bc.limit, mrs)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				limitRows(ws, bc.limit, mrs)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(mrs)), "ns/row")
		})
	}
}
