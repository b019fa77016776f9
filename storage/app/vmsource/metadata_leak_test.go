package vmsource

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmstorage"
	"github.com/VictoriaMetrics/metricsql"
)

// TestMetadataOfHugeSelectionsNeverLeaks pins the guard of metadataSeriesCeiling: past 100k
// matching series VictoriaMetrics' label names/values scan ignores the filter and answers with
// other workspaces' names and values; labelSearch must still return exactly the workspace's.
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
	v, err := src.LabelValues(ctx, "__field__", huge, t0-3_600_000, t0+3_600_000, 0)
	if err != nil || !reflect.DeepEqual(v, []string{"f"}) {
		t.Fatalf("label values over %d series: got %q, %v; want [f] (other workspaces' fields leaked?)", metadataSeriesCeiling, v, err)
	}
	names, err := src.LabelNames(ctx, huge, t0-3_600_000, t0+3_600_000, 0)
	if want := []string{"__field__", "__measurement__", "__name__", "id"}; err != nil || !reflect.DeepEqual(names, want) {
		t.Fatalf("label names over %d series: got %q, %v; want %q", metadataSeriesCeiling, names, err, want)
	}
	// A narrow filter in the same workspace still answers, and only with its own names.
	narrow := [][]metricsql.LabelFilter{{lf("__measurement__", "big"), lf("id", "7")}}
	v, err = src.LabelValues(ctx, "__field__", narrow, t0-3_600_000, t0+3_600_000, 0)
	if err != nil || len(v) != 1 || v[0] != "f" {
		t.Fatalf("narrow label values: got %q, %v; want [f]", v, err)
	}
}
