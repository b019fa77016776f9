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
// matching series): it returns exactly the workspace's names and values, its answers and
// errors do not depend on what other workspaces hold, and how much of its own data it may
// read is -vmsource.maxMetadataSeries. VictoriaMetrics before v1.134.0 answered such a label
// search from every series in the database (a shadowed filter in index_db.go); a check pins
// that the embedded version no longer does.
func TestMetadataOfHugeSelectionsNeverLeaks(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100k series")
	}
	var b strings.Builder
	for i := 0; i <= 100_000; i++ { // one more than VictoriaMetrics' 100k threshold
		fmt.Fprintf(&b, "big,id=%d f=1 %d\n", i, t0)
	}
	mustWrite("BIG", b.String())
	mustWrite("OTHER", fmt.Sprintf("other g1=1,g2=2,g3=3 %d\n", t0))
	vmstorage.DebugFlush()

	src := New("BIG")
	ctx := context.Background()
	huge := [][]metricsql.LabelFilter{{lf("__measurement__", "big")}}
	from, to := t0-3_600_000, t0+3_600_000
	answers := func() ([]string, error, []string, error) {
		t.Helper()
		v, verr := src.LabelValues(ctx, "__field__", huge, from, to, 0)
		n, nerr := src.LabelNames(ctx, huge, from, to, 0)
		return v, verr, n, nerr
	}
	v, verr, names, nerr := answers()
	if verr != nil || !reflect.DeepEqual(v, []string{"f"}) {
		t.Fatalf("label values over %d series: got %q, %v; want [f] (other workspaces' fields leaked?)", metadataSeriesCeiling, v, verr)
	}
	if want := []string{"__field__", "__measurement__", "__name__", "id"}; nerr != nil || !reflect.DeepEqual(names, want) {
		t.Fatalf("label names over %d series: got %q, %v; want %q", metadataSeriesCeiling, names, nerr, want)
	}
	ids, err := src.LabelValues(ctx, "id", huge, from, to, 3)
	if err != nil || len(ids) != 3 {
		t.Fatalf("three ids of the huge selection: got %q, %v", ids, err)
	}

	// Another workspace writes 20,000 field names. Before, the candidates were the names or
	// values of the whole database, so BIG got a 422 (more than 10,000 candidates to check)
	// or took longer because of it; now BIG's answers stay exactly the same.
	var noise strings.Builder
	for line := 0; line < 2_000; line++ {
		fmt.Fprintf(&noise, "noise")
		for f := 0; f < 10; f++ {
			sep := ","
			if f == 0 {
				sep = " "
			}
			fmt.Fprintf(&noise, "%sn%d_%d=1", sep, line, f)
		}
		fmt.Fprintf(&noise, " %d\n", t0)
	}
	mustWrite("NOISE", noise.String())
	vmstorage.DebugFlush()
	v2, verr2, names2, nerr2 := answers()
	if verr2 != nil || nerr2 != nil || !reflect.DeepEqual(v2, v) || !reflect.DeepEqual(names2, names) {
		t.Fatalf("after another workspace wrote 20,000 fields: values %q, %v; names %q, %v; want the same answers as before", v2, verr2, names2, nerr2)
	}

	// VictoriaMetrics' own label search over more than 100k series applies the filter.
	sq := storage.NewSearchQuery(from, to, tenancy.ScopeFilterss("BIG", huge), 1_000_000)
	v, err = netstorage.LabelValues(nil, "__field__", sq, 0, deadlineFor(ctx))
	if err != nil || !reflect.DeepEqual(v, []string{"f"}) {
		t.Fatalf("VictoriaMetrics' label values over %d series: got %q, %v; want [f] (the filter is ignored again)", metadataSeriesCeiling, v, err)
	}

	// How much of its own data a workspace may read is its own limit ...
	defer func(series int) { *maxMetadataSeries = series }(*maxMetadataSeries)
	*maxMetadataSeries = 50_000
	_, err = src.LabelValues(ctx, "__field__", huge, from, to, 0)
	if err == nil || !strings.Contains(err.Error(), "more than 50000 series (-vmsource.maxMetadataSeries)") {
		t.Fatalf("label values over more than -vmsource.maxMetadataSeries: got %v, want the limit's error", err)
	}
	// ... and a narrow filter in the same workspace still answers, with only its own names.
	narrow := [][]metricsql.LabelFilter{{lf("__measurement__", "big"), lf("id", "7")}}
	v, err = src.LabelValues(ctx, "__field__", narrow, from, to, 0)
	if err != nil || len(v) != 1 || v[0] != "f" {
		t.Fatalf("narrow label values: got %q, %v; want [f]", v, err)
	}
	// A small workspace is never held back by the big ones.
	small, err := New("OTHER").LabelValues(ctx, "__field__", nil, from, to, 0)
	if err != nil || !reflect.DeepEqual(small, []string{"g1", "g2", "g3"}) {
		t.Fatalf("a small workspace's fields: got %q, %v", small, err)
	}
}
