package vmsource

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmselect/netstorage"
	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmselect/promql"
	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmstorage"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/logger"
	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/app/ingest"
	"vigil/storage/lib/dql"
)

// t0 is a fixed, minute-aligned base time (2023-11-14T22:13:00Z) in milliseconds.
const t0 = int64(1_699_999_980_000)

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "vmsource-test-")
	if err != nil {
		panic(err)
	}
	for k, v := range map[string]string{"storageDataPath": dir, "retentionPeriod": "100y", "loggerLevel": "ERROR"} {
		if err := flag.Set(k, v); err != nil {
			panic(err)
		}
	}
	logger.Init()
	vmstorage.Init(8, 10*time.Second, promql.ResetRollupResultCacheIfNeeded)
	netstorage.InitTmpBlocksDir(dir + "/tmp")
	promql.InitRollupResultCache("")

	mustWrite("A", fmt.Sprintf(`cpu,host=a usage_user=1,usage_idle=99 %d
cpu,host=b usage_user=3,usage_idle=97 %d
cpu,host=a usage_user=5,usage_idle=95 %d
cpu,host=a usage_user=7,usage_idle=93 %d
disk,host=a io_read_bytes=10 %d
disk_io,host=a read_bytes=20 %d`, t0, t0, t0+30_000, t0+60_000, t0, t0))
	mustWrite("B", fmt.Sprintf(`cpu,host=a usage_user=100,usage_idle=0 %d
cpu,host=secret usage_user=200 %d`, t0, t0))
	mustWrite("C", fmt.Sprintf("cpu,host=c usage_user=1 %d", t0))
	vmstorage.DebugFlush()

	code := m.Run()
	promql.StopRollupResultCache()
	vmstorage.Stop()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

func mustWrite(ws, lines string) {
	samples, err := ingest.LineRows([]byte(lines), "ms", ws, time.Now().UnixMilli())
	if err != nil {
		panic(err)
	}
	if err := ingest.Write(samples); err != nil {
		panic(err)
	}
}

func lf(label, value string) metricsql.LabelFilter {
	return metricsql.LabelFilter{Label: label, Value: value}
}

func TestFetch(t *testing.T) {
	f := func(ws string, req dql.FetchRequest, want []dql.Series) {
		t.Helper()
		got, err := New(ws).Fetch(context.Background(), req)
		if err != nil {
			t.Fatalf("unexpected error: %s", err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("unexpected series for %s\ngot  %+v\nwant %+v", ws, got, want)
		}
	}
	userA := func(host string) map[string]string {
		return map[string]string{"__name__": "cpu:usage_user", "__measurement__": "cpu", "__field__": "usage_user", "host": host}
	}
	cpuUser := [][]metricsql.LabelFilter{{lf("__measurement__", "cpu"), lf("__field__", "usage_user")}}

	// Half-open range: the sample at t0+60s is excluded.
	f("A", dql.FetchRequest{Filterss: cpuUser, Start: t0, End: t0 + 60_000}, []dql.Series{
		{Labels: userA("a"), Timestamps: []int64{t0, t0 + 30_000}, Values: []float64{1, 5}},
		{Labels: userA("b"), Timestamps: []int64{t0}, Values: []float64{3}},
	})
	f("A", dql.FetchRequest{Filterss: cpuUser, Start: t0 + 1, End: t0 + 60_001}, []dql.Series{
		{Labels: userA("a"), Timestamps: []int64{t0 + 30_000, t0 + 60_000}, Values: []float64{5, 7}},
	})
	// The same selector in workspace B sees only B's data.
	f("B", dql.FetchRequest{Filterss: cpuUser, Start: t0, End: t0 + 1}, []dql.Series{
		{Labels: userA("a"), Timestamps: []int64{t0}, Values: []float64{100}},
		{Labels: userA("secret"), Timestamps: []int64{t0}, Values: []float64{200}},
	})
	// OR of filter lists, each scoped.
	f("A", dql.FetchRequest{Filterss: [][]metricsql.LabelFilter{{lf("host", "b")}, {lf("__name__", "disk:io_read_bytes")}}, Start: t0, End: t0 + 1}, []dql.Series{
		// Sorted by label set: __field__ sorts first.
		{Labels: map[string]string{"__name__": "disk:io_read_bytes", "__measurement__": "disk", "__field__": "io_read_bytes", "host": "a"}, Timestamps: []int64{t0}, Values: []float64{10}},
		{Labels: map[string]string{"__name__": "cpu:usage_idle", "__measurement__": "cpu", "__field__": "usage_idle", "host": "b"}, Timestamps: []int64{t0}, Values: []float64{97}},
		{Labels: userA("b"), Timestamps: []int64{t0}, Values: []float64{3}},
	})
	// Empty and inverted ranges return nothing.
	f("A", dql.FetchRequest{Filterss: cpuUser, Start: t0, End: t0}, nil)
	// A workspace without data.
	f("D", dql.FetchRequest{Filterss: cpuUser, Start: t0, End: t0 + 1}, []dql.Series{})
}

func TestFetchCollision(t *testing.T) {
	// disk.io_read_bytes and disk_io.read_bytes would both be disk_io_read_bytes in stock
	// VictoriaMetrics; here they stay two series.
	got, err := New("A").Fetch(context.Background(), dql.FetchRequest{
		Filterss: [][]metricsql.LabelFilter{{{Label: "__measurement__", Value: "disk.*", IsRegexp: true}}},
		Start:    t0, End: t0 + 1,
	})
	if err != nil {
		t.Fatalf("unexpected error: %s", err)
	}
	want := []dql.Series{
		{Labels: map[string]string{"__name__": "disk:io_read_bytes", "__measurement__": "disk", "__field__": "io_read_bytes", "host": "a"}, Timestamps: []int64{t0}, Values: []float64{10}},
		{Labels: map[string]string{"__name__": "disk_io:read_bytes", "__measurement__": "disk_io", "__field__": "read_bytes", "host": "a"}, Timestamps: []int64{t0}, Values: []float64{20}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("unexpected series\ngot  %+v\nwant %+v", got, want)
	}
}

func TestFetchErrors(t *testing.T) {
	f := func(req dql.FetchRequest, wantErr string) {
		t.Helper()
		_, err := New("A").Fetch(context.Background(), req)
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("unexpected error\ngot  %v\nwant one containing %q", err, wantErr)
		}
	}
	f(dql.FetchRequest{Filterss: [][]metricsql.LabelFilter{{lf("vigil_workspace", "B")}}, Start: t0, End: t0 + 1},
		`label filters must not reference the reserved label "vigil_workspace"`)
	f(dql.FetchRequest{Filterss: [][]metricsql.LabelFilter{{lf("host", "a")}, {lf("vm_account_id", "1")}}, Start: t0, End: t0 + 1},
		`label filters must not reference the reserved label "vm_account_id"`)
	f(dql.FetchRequest{Filterss: [][]metricsql.LabelFilter{{lf("__measurement__", "cpu")}}, Start: t0, End: t0 + 1, MaxSeries: 3},
		"the query selects more than 3 series (max series limit)")

	_, err := New("A").Fetch(context.Background(), dql.FetchRequest{Filterss: [][]metricsql.LabelFilter{{lf("__measurement__", "cpu")}}, Start: t0, End: t0 + 1, MaxSeries: 3})
	if !errors.Is(err, ErrTooManySeries) {
		t.Fatalf("expected ErrTooManySeries; got %v", err)
	}
	src := New("A")
	src.MaxSeries = 2
	if _, err := src.Fetch(context.Background(), dql.FetchRequest{Filterss: [][]metricsql.LabelFilter{{lf("__measurement__", "cpu")}}, Start: t0, End: t0 + 1}); !errors.Is(err, ErrTooManySeries) {
		t.Fatalf("expected ErrTooManySeries from Source.MaxSeries; got %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := New("A").Fetch(ctx, dql.FetchRequest{Start: t0, End: t0 + 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("expected context.Canceled; got %v", err)
	}
}

func TestQueryRange(t *testing.T) {
	f := func(ws, q string, start, end, step int64, want []dql.Series) {
		t.Helper()
		e, err := metricsql.Parse(q)
		if err != nil {
			t.Fatalf("cannot parse %q: %s", q, err)
		}
		got, err := New(ws).QueryRange(context.Background(), e, start, end, step)
		if err != nil {
			t.Fatalf("unexpected error for %q: %s", q, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("unexpected result for %q in %s\ngot  %+v\nwant %+v", q, ws, got, want)
		}
	}
	// DQL's push-down shape: bucket [b, b+1m) evaluated at b.
	f("A", `sum by (host) (sum_over_time({__measurement__="cpu",__field__="usage_user"}[1m] offset -59999ms))`, t0, t0+60_000, 60_000, []dql.Series{
		{Labels: map[string]string{"host": "a"}, Timestamps: []int64{t0, t0 + 60_000}, Values: []float64{6, 7}},
		{Labels: map[string]string{"host": "b"}, Timestamps: []int64{t0}, Values: []float64{3}},
	})
	// Every series of the workspace, and nothing of B's: B's values are 100 and 200.
	f("A", `max(max_over_time({__name__=~".+"}[1m] offset -59999ms))`, t0, t0, 60_000, []dql.Series{
		{Labels: map[string]string{}, Timestamps: []int64{t0}, Values: []float64{99}},
	})
	f("B", `max(max_over_time({__name__=~".+"}[1m] offset -59999ms))`, t0, t0, 60_000, []dql.Series{
		{Labels: map[string]string{}, Timestamps: []int64{t0}, Values: []float64{200}},
	})
	// Series keep their labels, without the tenant label.
	f("B", `last_over_time(cpu:usage_user{host="secret"}[1m] offset -59999ms)`, t0, t0, 60_000, []dql.Series{
		{Labels: map[string]string{"__name__": "cpu:usage_user", "__measurement__": "cpu", "__field__": "usage_user", "host": "secret"}, Timestamps: []int64{t0}, Values: []float64{200}},
	})
	f("A", `cpu:usage_user{host="secret"}`, t0, t0+60_000, 60_000, []dql.Series{})
}

func TestQueryRangeErrors(t *testing.T) {
	f := func(q string, start, end, step int64, wantErr string) {
		t.Helper()
		e, err := metricsql.Parse(q)
		if err != nil {
			t.Fatalf("cannot parse %q: %s", q, err)
		}
		_, err = New("A").QueryRange(context.Background(), e, start, end, step)
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("unexpected error for %q\ngot  %v\nwant one containing %q", q, err, wantErr)
		}
	}
	f(`cpu:usage_user{vigil_workspace="B"}`, t0, t0, 60_000, `must not reference the reserved label "vigil_workspace"`)
	f(`sum by (vigil_workspace) (cpu:usage_user)`, t0, t0, 60_000, `must not reference the reserved label "vigil_workspace"`)
	f(`cpu:usage_user`, t0, t0, 0, "step must be positive")
	f(`cpu:usage_user`, t0+1, t0, 1000, "must not be after end")
	f(`cpu:usage_user`, t0, t0+100_000_000, 1, "too many points")
}

func TestLabels(t *testing.T) {
	ctx := context.Background()
	names, err := New("A").LabelNames(ctx, nil, 0, t0+3_600_000, 0)
	if err != nil {
		t.Fatalf("unexpected error: %s", err)
	}
	if want := []string{"__field__", "__measurement__", "__name__", "host"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("unexpected label names\ngot  %q\nwant %q", names, want)
	}
	f := func(ws, name string, filterss [][]metricsql.LabelFilter, want []string) {
		t.Helper()
		got, err := New(ws).LabelValues(ctx, name, filterss, 0, t0+3_600_000, 0)
		if err != nil {
			t.Fatalf("unexpected error: %s", err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("unexpected values of %s in %s\ngot  %q\nwant %q", name, ws, got, want)
		}
	}
	f("A", "host", nil, []string{"a", "b"})
	f("B", "host", nil, []string{"a", "secret"})
	f("A", "__measurement__", nil, []string{"cpu", "disk", "disk_io"})
	f("A", "__field__", [][]metricsql.LabelFilter{{lf("__measurement__", "cpu")}}, []string{"usage_idle", "usage_user"})

	if _, err := New("A").LabelValues(ctx, "vigil_workspace", nil, 0, t0+3_600_000, 0); err == nil || err.Error() != `label "vigil_workspace" is reserved` {
		t.Fatalf("unexpected error: %v", err)
	}
	series, err := New("B").Series(ctx, [][]metricsql.LabelFilter{{lf("host", "secret")}}, 0, t0+3_600_000, 0)
	if err != nil {
		t.Fatalf("unexpected error: %s", err)
	}
	if want := []map[string]string{{"__name__": "cpu:usage_user", "__measurement__": "cpu", "__field__": "usage_user", "host": "secret"}}; !reflect.DeepEqual(series, want) {
		t.Fatalf("unexpected series\ngot  %v\nwant %v", series, want)
	}
}

func TestDeleteAll(t *testing.T) {
	ctx := context.Background()
	n, err := New("C").DeleteAll(ctx)
	if err != nil || n != 1 {
		t.Fatalf("DeleteAll = %d, %v; want 1 series deleted", n, err)
	}
	if c, err := New("C").SeriesCount(ctx, 0, t0+3_600_000); err != nil || c != 0 {
		t.Fatalf("SeriesCount(C) after delete = %d, %v; want 0", c, err)
	}
	if c, err := New("B").SeriesCount(ctx, 0, t0+3_600_000); err != nil || c != 3 {
		t.Fatalf("SeriesCount(B) = %d, %v; want 3", c, err)
	}
}
