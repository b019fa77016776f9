package dql_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/apierror"
	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/dqltest"
	"vigil/storage/lib/dql/parser"
)

// now is a fixed "now" for relative time expressions: T0 + 10 min.
const now = dqltest.T0 + 600000

func runE(t *testing.T, q string, opts dql.Options) ([]dql.ResultSeries, error) {
	t.Helper()
	if opts.Now == 0 {
		opts.Now = now
	}
	res, err := dql.Query(context.Background(), dqltest.ExampleE(), q, opts)
	if err != nil {
		return nil, err
	}
	return res.Series, nil
}

func seriesJSON(t *testing.T, s []dql.ResultSeries) string {
	t.Helper()
	if s == nil {
		s = []dql.ResultSeries{}
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatalf("cannot marshal %v: %s", s, err)
	}
	return string(b)
}

func TestQuerySlice(t *testing.T) {
	f := func(q, want string) {
		t.Helper()
		got, err := runE(t, q, dql.Options{})
		if err != nil {
			t.Fatalf("%s: unexpected error: %s", q, err)
		}
		if s := seriesJSON(t, got); s != want {
			t.Fatalf("%s:\ngot  %s\nwant %s", q, s, want)
		}
	}
	// now = T0+10m: [15m::1m] covers [T0-5m, T0+10m); data at T0..T0+150s.
	f(`M::cpu:(avg(user)) [15m::1m] BY host`,
		`[{"name":"cpu","tags":{"host":"a"},"columns":["time","avg(user)"],"values":[[1699999200000,1.5],[1699999260000,3.5],[1699999320000,5.5]]},`+
			`{"name":"cpu","tags":{"host":"b"},"columns":["time","avg(user)"],"values":[[1699999200000,15],[1699999260000,35],[1699999320000,55]]}]`)
}

// errSource fails every call with err.
type errSource struct {
	*dqltest.Source
	err error
}

func (e errSource) LabelNames(context.Context, [][]metricsql.LabelFilter, int64, int64, int) ([]string, error) {
	return nil, e.err
}

func TestStorageErrors(t *testing.T) {
	f := func(err error, code, msg string) {
		t.Helper()
		_, got := dql.Query(context.Background(), errSource{dqltest.ExampleE(), err}, "M::cpu:(user)", dql.Options{Now: now})
		e, ok := parser.AsError(got)
		if !ok || e.Code != code || e.Error() != msg {
			t.Fatalf("%v: got %v, want %s %q", err, got, code, msg)
		}
	}
	f(context.DeadlineExceeded, dql.CodeTimeout, "query timed out: context deadline exceeded")
	f(&apierror.Error{StatusCode: 503, Type: apierror.TypeTimeout, Err: errors.New("timeout exceeded")}, dql.CodeTimeout, "query timed out: timeout exceeded")
	f(&apierror.Error{StatusCode: 422, Type: apierror.TypeLimitExceeded, Err: errors.New("the query selects more than 5 series")}, dql.CodeTooManySeries, "the query selects more than 5 series")
	f(&apierror.Error{StatusCode: 422, Type: apierror.TypeLimitExceeded, Err: errors.New("cannot select more than -search.maxSamplesPerQuery")}, dql.CodeTooManyPoints, "cannot select more than -search.maxSamplesPerQuery")
	f(&apierror.Error{StatusCode: 400, Type: apierror.TypeBadData, Err: errors.New("bad filter")}, parser.CodeInvalidArgument, "bad filter")
	f(errors.New("disk on fire"), dql.CodeStorageError, "storage: disk on fire")
	f(dql.NewLimitError("more than %d series", 3), dql.CodeTooManySeries, "more than 3 series")
}

func TestMaxPointWidening(t *testing.T) {
	f := func(q string, maxPoint int, wantBuckets int) {
		t.Helper()
		got, err := runE(t, q, dql.Options{MaxPoint: maxPoint, DisableSLimit: true})
		if err != nil {
			t.Fatalf("%s: %s", q, err)
		}
		if len(got) != 1 || len(got[0].Values) != wantBuckets {
			t.Fatalf("%s with max_point %d: got %s, want %d rows", q, maxPoint, seriesJSON(t, got), wantBuckets)
		}
	}
	// 10 buckets of 1 min; max_point 5 widens to 2 min.
	f("M::cpu:(fill(count(user), 0)) [1699999200000:1699999800000:1m]", 5, 5)
	f("M::cpu:(fill(count(user), 0)) [1699999200000:1699999800000:1m]", 10, 10)
	// A max_point above the hard cap never allows more than MaxBuckets (+1 edge) buckets.
	f("M::cpu:(fill(count(user), 0)) [1699999200000:1700085600000:1ms] LIMIT 10000", 1000000000, 10000)
}

func TestShowWithConditions(t *testing.T) {
	f := func(q, cond string, want string) {
		t.Helper()
		lim := int64(1)
		opts := dql.Options{Conditions: cond}
		if strings.Contains(q, "LIMIT") {
			opts.Offset = &lim
		}
		got, err := runE(t, q, opts)
		if err != nil {
			t.Fatalf("%s: %s", q, err)
		}
		if s := seriesJSON(t, got); s != want {
			t.Fatalf("%s with conditions %q:\ngot  %s\nwant %s", q, cond, s, want)
		}
	}
	f("show_tag_value(from=['cpu'], keyin=['host'])", "dc = 'west1'", `[{"name":"cpu","columns":["key","value"],"values":[["host","b"]]}]`)
	f("show_measurement()", "dc = 'west1'", `[{"name":"measurements","columns":["name"],"values":[["cpu"]]}]`)
	f("show_measurement() {host = 'a'} LIMIT 5", "", `[{"name":"measurements","columns":["name"],"values":[["net"]]}]`)
}

// filterSource records the selections show_tag_value asks label values for.
type filterSource struct {
	*dqltest.Source
	valueFilters []string
}

func (f *filterSource) LabelValues(ctx context.Context, name string, fss [][]metricsql.LabelFilter, start, end int64, limit int) ([]string, error) {
	for _, fs := range fss {
		for _, lf := range fs {
			f.valueFilters = append(f.valueFilters, fmt.Sprintf("%s:%s", name, lf.AppendString(nil)))
		}
	}
	return f.Source.LabelValues(ctx, name, fss, start, end, limit)
}

// show_tag_value asks storage only what it needs: for keyin names, their values (no lookup
// of which keys exist), and never with a `key != ""` filter, which makes VictoriaMetrics
// visit every value of the key in its index (seconds for a key with thousands of values).
func TestShowTagValueSelections(t *testing.T) {
	f := func(q string, wantNames int, want string) {
		t.Helper()
		src := &filterSource{Source: dqltest.ExampleE()}
		res, err := dql.Query(context.Background(), src, q, dql.Options{Now: now})
		if err != nil {
			t.Fatalf("%s: %s", q, err)
		}
		if s := seriesJSON(t, res.Series); s != want {
			t.Fatalf("%s:\ngot  %s\nwant %s", q, s, want)
		}
		if got := src.Calls["LabelNames"]; got != wantNames {
			t.Fatalf("%s: %d LabelNames calls, want %d", q, got, wantNames)
		}
		for _, lf := range src.valueFilters {
			if strings.HasSuffix(lf, `!=""`) {
				t.Fatalf("%s: label values asked with the filter %s", q, lf)
			}
		}
	}
	f("show_tag_value(from=['cpu'], keyin=['host'])", 0, `[{"name":"cpu","columns":["key","value"],"values":[["host","a"],["host","b"]]}]`)
	// names that are no tag, or reserved, list nothing
	f("show_tag_value(from=['cpu'], keyin=['nosuch', 'host', '__name__', 'host'])", 0, `[{"name":"cpu","columns":["key","value"],"values":[["host","a"],["host","b"]]}]`)
	f("show_tag_value(from=['cpu'], keyin=re('h.*'))", 1, `[{"name":"cpu","columns":["key","value"],"values":[["host","a"],["host","b"]]}]`)
}

func TestTooManyMeasurements(t *testing.T) {
	var series []dql.Series
	for i := 0; i <= dql.MaxMeasurements; i++ {
		m := fmt.Sprintf("m%04d", i)
		series = append(series, dql.Series{Labels: map[string]string{"__measurement__": m, "__field__": "x", "__name__": m + ":x"},
			Timestamps: []int64{dqltest.T0}, Values: []float64{1}})
	}
	_, err := dql.Query(context.Background(), dqltest.NewSource(series...), "M::re('m.*'):(x) [1699999200000:1699999260000]", dql.Options{Now: now})
	if e, ok := parser.AsError(err); !ok || e.Code != parser.CodeLimitTooLarge || e.Error() != "the query selects 1001 measurements, more than the maximum 1000; narrow the measurement regex" {
		t.Fatalf("got %v", err)
	}
	res, err := dql.Query(context.Background(), dqltest.NewSource(series...), "M::re('m000.*'):(x) [1699999200000:1699999260000]", dql.Options{Now: now})
	if err != nil || len(res.Series) != 10 {
		t.Fatalf("m000.*: %v, %d series", err, len(res.Series))
	}
}

// TestNotBeforeHidesOlderData: with the workspace's retention, nothing older than NotBefore
// is read, and a range that ends before it is refused with a reason.
func TestNotBeforeHidesOlderData(t *testing.T) {
	opts := dql.Options{NotBefore: dqltest.T0 + 60000}
	got, err := runE(t, `M::cpu:(avg(user)) [15m::1m] BY host`, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"cpu","tags":{"host":"a"},"columns":["time","avg(user)"],"values":[[1699999260000,3.5],[1699999320000,5.5]]},` +
		`{"name":"cpu","tags":{"host":"b"},"columns":["time","avg(user)"],"values":[[1699999260000,35],[1699999320000,55]]}]`
	if s := seriesJSON(t, got); s != want {
		t.Fatalf("\ngot  %s\nwant %s", s, want)
	}
	// engine-side evaluation (a raw read) is bounded the same way
	got, err = runE(t, `M::cpu:(user) {host = 'a'} [15m]`, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got {
		for _, row := range s.Values {
			if ts := row[0].(int64); ts < opts.NotBefore {
				t.Fatalf("a row from before NotBefore: %v", row)
			}
		}
	}
	if len(got) != 1 || len(got[0].Values) != 4 {
		t.Fatalf("want host a's 4 samples from T0+60s on; got %s", seriesJSON(t, got))
	}

	opts.TimeRange = []int64{dqltest.T0 - 600000, dqltest.T0}
	_, err = runE(t, `M::cpu:(avg(user))`, opts)
	var e *parser.Error
	if !errors.As(err, &e) || e.Code != parser.CodeInvalidArgument || !strings.Contains(e.Msg, "before the workspace's retention starts") {
		t.Fatalf("a range ending before the retention: want invalid_argument naming it; got %v", err)
	}
}
