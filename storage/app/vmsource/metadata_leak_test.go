package vmsource

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmstorage"
	"github.com/VictoriaMetrics/metricsql"
)

// TestMetadataOfHugeSelectionsNeverLeaks pins the guard of metadataSeriesCeiling: past 100k
// matching series VictoriaMetrics' label names/values scan ignores the filter and would answer
// with other workspaces' names and values. The call must fail instead, for every metadata call.
func TestMetadataOfHugeSelectionsNeverLeaks(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100k series")
	}
	var b strings.Builder
	for i := 0; i <= 100_000; i++ { // one more than VictoriaMetrics' 100k threshold
		fmt.Fprintf(&b, "big,id=%d f=1 %d\n", i, t0)
	}
	mustWrite("BIG", b.String())
	vmstorage.Storage.DebugFlush()

	src := New("BIG")
	ctx := context.Background()
	huge := [][]metricsql.LabelFilter{{lf("__measurement__", "big")}}
	if v, err := src.LabelValues(ctx, "__field__", huge, t0-3_600_000, t0+3_600_000, 0); err == nil {
		t.Fatalf("label values over %d+ series: want an error, got %q", metadataSeriesCeiling, v)
	}
	if v, err := src.LabelNames(ctx, huge, t0-3_600_000, t0+3_600_000, 0); err == nil {
		t.Fatalf("label names over %d+ series: want an error, got %q", metadataSeriesCeiling, v)
	}
	// A narrow filter in the same workspace still answers, and only with its own names.
	narrow := [][]metricsql.LabelFilter{{lf("__measurement__", "big"), lf("id", "7")}}
	v, err := src.LabelValues(ctx, "__field__", narrow, t0-3_600_000, t0+3_600_000, 0)
	if err != nil || len(v) != 1 || v[0] != "f" {
		t.Fatalf("narrow label values: got %q, %v; want [f]", v, err)
	}
}
