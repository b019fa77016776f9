package vmsource

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmselect/netstorage"
	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmstorage"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/storage"
	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/app/tenancy"
)

// TestMetadataOfHugeSelectionsNeverLeaks pins labelSearch past metadataSeriesCeiling (100k
// matching series): it returns exactly the workspace's names and values, also when more
// series match than -vmsource.maxMetadataSeries, and refuses past
// -vmsource.maxMetadataCandidates. VictoriaMetrics before v1.134.0 answered such a label
// search from every series in the database (a shadowed filter in index_db.go); the last
// check pins that the embedded version no longer does.
func TestMetadataOfHugeSelectionsNeverLeaks(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100k series")
	}
	var b strings.Builder
	for i := 0; i <= 100_000; i++ { // one more than VictoriaMetrics' 100k threshold
		fmt.Fprintf(&b, "big,id=%d f=1 %d\n", i, t0)
	}
	mustWrite("BIG", b.String())
	vmstorage.DebugFlush()

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
	// The candidates are listed without a filter, so the workspace's own series count does not
	// bound them (before, a selection of more than -vmsource.maxMetadataSeries failed) ...
	defer func(series, candidates int) { *maxMetadataSeries, *maxMetadataCandidates = series, candidates }(*maxMetadataSeries, *maxMetadataCandidates)
	*maxMetadataSeries = 50_000
	v, err = src.LabelValues(ctx, "__field__", huge, t0-3_600_000, t0+3_600_000, 0)
	if err != nil || !reflect.DeepEqual(v, []string{"f"}) {
		t.Fatalf("label values over more than -vmsource.maxMetadataSeries: got %q, %v; want [f]", v, err)
	}
	// ... but how many of them are checked one by one is.
	mustWrite("OTHER", fmt.Sprintf("other g1=1,g2=2,g3=3 %d\n", t0))
	vmstorage.DebugFlush()
	*maxMetadataCandidates = 2
	if _, err := src.LabelValues(ctx, "__field__", huge, t0-3_600_000, t0+3_600_000, 0); err == nil || !strings.Contains(err.Error(), "-vmsource.maxMetadataCandidates") {
		t.Fatalf("label values with more candidates than -vmsource.maxMetadataCandidates: got %v, want the limit's error", err)
	}
	*maxMetadataCandidates = 10
	v, err = src.LabelValues(ctx, "__field__", huge, t0-3_600_000, t0+3_600_000, 0)
	if err != nil || !reflect.DeepEqual(v, []string{"f"}) {
		t.Fatalf("label values next to another workspace's fields: got %q, %v; want [f]", v, err)
	}
	// VictoriaMetrics' own label search over more than 100k series applies the filter.
	sq := storage.NewSearchQuery(t0-3_600_000, t0+3_600_000, tenancy.ScopeFilterss("BIG", huge), 1_000_000)
	v, err = netstorage.LabelValues(nil, "__field__", sq, 0, deadlineFor(ctx))
	if err != nil || !reflect.DeepEqual(v, []string{"f"}) {
		t.Fatalf("VictoriaMetrics' label values over %d series: got %q, %v; want [f] (the filter is ignored again)", metadataSeriesCeiling, v, err)
	}
	// A narrow filter in the same workspace still answers, and only with its own names.
	narrow := [][]metricsql.LabelFilter{{lf("__measurement__", "big"), lf("id", "7")}}
	v, err = src.LabelValues(ctx, "__field__", narrow, t0-3_600_000, t0+3_600_000, 0)
	if err != nil || len(v) != 1 || v[0] != "f" {
		t.Fatalf("narrow label values: got %q, %v; want [f]", v, err)
	}
}
