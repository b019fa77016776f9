package ingest

import (
	"fmt"
	"testing"

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

// TestLimitRows: the series a workspace has pass; new ones beyond the limit do not (up to
// the Bloom filter's false positives), counted per workspace.
func TestLimitRows(t *testing.T) {
	mrs := limitTestRows(2000)
	kept, dropped := limitRows("ws-unit", 1000, append([]storage.MetricRow(nil), mrs[:1000]...))
	if len(kept) != 1000 || dropped != 0 {
		t.Fatalf("the first 1000 series under a limit of 1000: kept %d, dropped %d", len(kept), dropped)
	}
	kept, dropped = limitRows("ws-unit", 1000, append([]storage.MetricRow(nil), mrs...))
	if dropped < 950 || len(kept)+dropped != 2000 {
		t.Fatalf("1000 known and 1000 new series: kept %d, dropped %d; want ~1000 dropped", len(kept), dropped)
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

// BenchmarkLimitRows is what the active series limit adds to a write, per row, for a
// workspace under its limit (every series known).
// benchLimit is the default workspace limit.
var benchLimit = 500_000

func BenchmarkLimitRows(b *testing.B) {
	mrs := limitTestRows(10_000)
	limitRows("ws-bench", benchLimit, mrs)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		limitRows("ws-bench", benchLimit, mrs)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(mrs)), "ns/row")
}
