package dql_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/dqltest"
	"vigil/storage/lib/dql/parser"
)

// normalise prints MetricsQL through metricsql.Parse + AppendString.
func normalise(t *testing.T, q string) string {
	t.Helper()
	e, err := metricsql.Parse(q)
	if err != nil {
		t.Fatalf("metricsql.Parse(%q): %s", q, err)
	}
	return string(e.AppendString(nil))
}

func TestCompilePushDown(t *testing.T) {
	f := func(q string, want ...string) {
		t.Helper()
		src := dqltest.ExampleE()
		res, err := dql.Query(context.Background(), src, q, dql.Options{Now: now})
		if err != nil {
			t.Fatalf("%s: %s", q, err)
		}
		if src.Calls["Fetch"] != 0 {
			t.Fatalf("%s: fetched raw samples; want push-down only", q)
		}
		if len(src.Queries) != len(want) {
			t.Fatalf("%s: %d range queries %q, want %d", q, len(src.Queries), src.Queries, len(want))
		}
		lines := strings.Split(res.RawQuery, "\n")
		for i, w := range want {
			expr, params, _ := strings.Cut(w, " start=")
			if got, exp := normalise(t, src.Queries[i]), normalise(t, expr); got != exp {
				t.Fatalf("%s: query %d:\ngot  %s\nwant %s", q, i, got, exp)
			}
			if !strings.HasSuffix(lines[i], " start="+params) {
				t.Fatalf("%s: query %d runs as %q, want start=%s", q, i, lines[i], params)
			}
		}
	}
	// §14.6 table: count, sum/min/max, avg with the offset trick; the range is bucket-aligned.
	f(`M::cpu:(count(user)) [1699999200000:1699999380000:1m] BY host`,
		`sum by (host) (count_over_time({__measurement__="cpu",__field__="user"}[60000ms] offset -59999ms)) start=1699999200000 end=1699999320000 step=60000`)
	f(`M::cpu:(sum(user), min(user), max(user)) {host='a'} [1699999200000:1699999380000:1m]`,
		`sum(sum_over_time({__measurement__="cpu",__field__="user",host="a"}[60000ms] offset -59999ms)) start=1699999200000 end=1699999320000 step=60000`,
		`min(min_over_time({__measurement__="cpu",__field__="user",host="a"}[60000ms] offset -59999ms)) start=1699999200000 end=1699999320000 step=60000`,
		`max(max_over_time({__measurement__="cpu",__field__="user",host="a"}[60000ms] offset -59999ms)) start=1699999200000 end=1699999320000 step=60000`)
	f(`M::cpu:(avg(user)) [1699999200000:1699999380000:1m] BY host`,
		`sum by (host) (sum_over_time({__measurement__="cpu",__field__="user"}[60000ms] offset -59999ms)) / sum by (host) (count_over_time({__measurement__="cpu",__field__="user"}[60000ms] offset -59999ms)) start=1699999200000 end=1699999320000 step=60000`)
	f(`M::cpu:(spread(user)) [1699999200000:1699999380000:1m]`,
		`max(max_over_time({__measurement__="cpu",__field__="user"}[60000ms] offset -59999ms)) - min(min_over_time({__measurement__="cpu",__field__="user"}[60000ms] offset -59999ms)) start=1699999200000 end=1699999320000 step=60000`)
	// No interval: one window covering [start, end), stamped at start.
	f(`M::cpu:(count(user)) [1699999200000:1699999380000]`,
		`sum(count_over_time({__measurement__="cpu",__field__="user"}[180000ms] offset -179999ms)) start=1699999200000 end=1699999200000 step=1`)
	// Edge buckets cut by the range get their own shorter windows.
	f(`M::cpu:(sum(user)) [1699999230000:1699999350000:1m]`,
		`sum(sum_over_time({__measurement__="cpu",__field__="user"}[30000ms] offset -29999ms)) start=1699999230000 end=1699999230000 step=60000`,
		`sum(sum_over_time({__measurement__="cpu",__field__="user"}[30000ms] offset -29999ms)) start=1699999320000 end=1699999320000 step=60000`,
		`sum(sum_over_time({__measurement__="cpu",__field__="user"}[60000ms] offset -59999ms)) start=1699999260000 end=1699999260000 step=60000`)
	// Rollup R + aggregate A: A by (g) (R_over_time).
	f(`M::cpu:(sum(user) AS s) [1699999200000:1699999380000:1m:max]`,
		`sum(max_over_time({__measurement__="cpu",__field__="user"}[60000ms] offset -59999ms)) start=1699999200000 end=1699999320000 step=60000`)
	f(`M::cpu:(count(user)) [1699999200000:1699999380000:1m:p99.5] BY dc`,
		`count by (dc) (quantile_over_time(0.995, {__measurement__="cpu",__field__="user"}[60000ms] offset -59999ms)) start=1699999200000 end=1699999320000 step=60000`)
	// Raw rows with an interval: the implied last (or the rollup) per series.
	f(`M::cpu:(user, idle) {host = 'a'} [1699999200000:1699999380000:1m]`,
		`last_over_time({__measurement__="cpu",__field__="idle",host="a"}[60000ms] offset -59999ms) start=1699999200000 end=1699999320000 step=60000`,
		`last_over_time({__measurement__="cpu",__field__="user",host="a"}[60000ms] offset -59999ms) start=1699999200000 end=1699999320000 step=60000`)
	f(`M::cpu:(user) [1699999200000:1699999380000:1m:p50] BY host`,
		`quantile_over_time(0.5, {__measurement__="cpu",__field__="user"}[60000ms] offset -59999ms) start=1699999200000 end=1699999320000 step=60000`)
	// Tag filters: IN and regexes, OR across tags in DNF as MetricsQL "or" filters.
	f(`M::cpu:(max(user)) {host IN ['a', 'b.c'], dc != re'x.*' OR host NOT IN ['z']} [1699999200000:1699999380000]`,
		`max(max_over_time({__measurement__="cpu",__field__="user",host=~"a|b\\.c",dc!~"x.*" or __measurement__="cpu",__field__="user",host!~"z"}[180000ms] offset -179999ms)) start=1699999200000 end=1699999200000 step=1`)
}

func TestCompileEngineSide(t *testing.T) {
	f := func(q string) {
		t.Helper()
		src := dqltest.ExampleE()
		if _, err := dql.Query(context.Background(), src, q, dql.Options{Now: now}); err != nil {
			t.Fatalf("%s: %s", q, err)
		}
		if src.Calls["QueryRange"] != 0 || src.Calls["Fetch"] != 1 {
			t.Fatalf("%s: calls %v; want one raw fetch and no push-down", q, src.Calls)
		}
	}
	f(`M::cpu:(user) [1699999200000:1699999380000]`)                                 // raw rows, no interval
	f(`M::net:(difference(rx)) [1699999200000:1699999380000:1m]`)                    // transform before the rollup
	f(`M::cpu:(user) {idle > 50} [1699999200000:1699999380000:1m]`)                  // field predicate before the rollup
	f(`M::cpu:(count(user)) {user > 2} [1699999200000:1699999380000:1m]`)            // field predicate
	f(`M::cpu:(count(user)) {host = 'a' OR user > 2} [1699999200000:1699999380000]`) // mixed predicate
	f(`M::cpu:(first(user)) [1699999200000:1699999380000:1m]`)                       // first across timelines
	f(`M::cpu:(percentile(user, 50)) [1699999200000:1699999380000:1m]`)              // nearest rank
	f(`M::net:(sum(rx)) [1699999200000:1699999380000:1m:deriv]`)                     // deriv uses the sample before the window in VictoriaMetrics
	f(`M::net:(sum(rx)) [1699999200000:1699999380000:1m:rate]`)
}

// TestPushDownEqualsEngine compares push-down with engine-side evaluation on random data,
// random ranges (aligned or not) and every pushable aggregate and rollup.
func TestPushDownEqualsEngine(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	base := dqltest.T0
	var series []dql.Series
	for h := 0; h < 5; h++ {
		for _, field := range []string{"x", "y"} {
			s := dql.Series{Labels: map[string]string{"__measurement__": "m", "__field__": field, "__name__": "m:" + field,
				"host": fmt.Sprintf("h%d", h), "dc": fmt.Sprintf("d%d", h%2)}}
			if h == 4 {
				delete(s.Labels, "dc")
			}
			// Samples on 5 s marks, some 1 ms before one, so that bucket edges are hit.
			for t := base; t < base+3600000; t += 5000 * (1 + rng.Int63n(4)) {
				ts := t
				if rng.Intn(4) == 0 {
					ts--
				}
				s.Timestamps = append(s.Timestamps, ts)
				s.Values = append(s.Values, float64(rng.Intn(100)))
			}
			series = append(series, s)
		}
	}
	aggs := []string{"count(x)", "sum(x)", "min(x)", "max(x)", "avg(x)", "spread(x)", "avg(x) - sum(y) / 2, 7", "x", "x, y, host", "x + y", ""}
	rollups := []string{"", ":avg", ":sum", ":min", ":max", ":count", ":first", ":last", ":median", ":stddev", ":p90", ":p12.5"}
	bys := []string{"", " BY host", " BY dc", " BY dc, host"}
	tzs := []string{"", "", " tz(+5.75)", " tz('America/New_York')"}
	filters := []string{"", " {host != 'h1'}", " {dc = 'd0' OR host IN ['h3', 'h4']}"}
	intervals := []string{"", "10s", "1m", "7m", "1h"}
	runs, pushed := 0, 0
	for i := 0; i < 400; i++ {
		start := base - 60000 + rng.Int63n(1800000)
		end := start + 1 + rng.Int63n(2400000)
		switch rng.Intn(4) {
		case 0:
			start -= start % 60000
		case 1:
			start -= start % 5000
			end -= end % 5000
		}
		if end <= start {
			end = start + 5000
		}
		iv := intervals[rng.Intn(len(intervals))]
		rollup := ""
		if iv != "" {
			rollup = rollups[rng.Intn(len(rollups))]
		}
		timeExpr := fmt.Sprintf("[%d:%d]", start, end)
		if iv != "" {
			timeExpr = fmt.Sprintf("[%d:%d:%s%s]", start, end, iv, rollup)
		}
		q := fmt.Sprintf("M::m:(%s)%s %s%s LIMIT 10000%s", aggs[rng.Intn(len(aggs))], filters[rng.Intn(len(filters))], timeExpr, bys[rng.Intn(len(bys))], tzs[rng.Intn(len(tzs))])
		pd := dqltest.NewSource(series...)
		got, err := dql.Query(context.Background(), pd, q, dql.Options{Now: base + 7200000, DisableSLimit: true})
		if err != nil {
			t.Fatalf("%s: %s", q, err)
		}
		want, err := dql.Query(context.Background(), dqltest.NewSource(series...), q, dql.Options{Now: base + 7200000, DisableSLimit: true, EngineOnly: true})
		if err != nil {
			t.Fatalf("%s (engine): %s", q, err)
		}
		if pd.Calls["QueryRange"] > 0 {
			pushed++
		}
		a, _ := json.Marshal(got.Series)
		b, _ := json.Marshal(want.Series)
		if !approxEqualJSON(string(a), string(b)) {
			t.Fatalf("%s:\npush-down %s\nengine    %s\nqueries:\n%s", q, a, b, got.RawQuery)
		}
		runs++
	}
	if pushed < runs/2 {
		t.Fatalf("only %d of %d queries were pushed down", pushed, runs)
	}
}

// approxEqualJSON compares two results allowing a relative difference of 1e-9 in numbers
// (push-down sums in another order than the engine).
func approxEqualJSON(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return approxEqual(x, y)
}

func approxEqual(x, y any) bool {
	switch xv := x.(type) {
	case float64:
		yv, ok := y.(float64)
		if !ok {
			return false
		}
		d := xv - yv
		if d < 0 {
			d = -d
		}
		m := max(abs(xv), abs(yv), 1)
		return d <= 1e-9*m
	case []any:
		yv, ok := y.([]any)
		if !ok || len(xv) != len(yv) {
			return false
		}
		for i := range xv {
			if !approxEqual(xv[i], yv[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		yv, ok := y.(map[string]any)
		if !ok || len(xv) != len(yv) {
			return false
		}
		for k := range xv {
			if !approxEqual(xv[k], yv[k]) {
				return false
			}
		}
		return true
	}
	return x == y
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

func TestPushDownMaxPoints(t *testing.T) {
	q := `M::cpu:(avg(user)) [1699999200000:1699999380000:1m] BY host`
	// 2 hosts x 3 buckets = 6 points from one range query (sum/count).
	if _, err := dql.Query(context.Background(), dqltest.ExampleE(), q, dql.Options{Now: now, MaxPoints: 6}); err != nil {
		t.Fatalf("6 points allowed: %s", err)
	}
	_, err := dql.Query(context.Background(), dqltest.ExampleE(), q, dql.Options{Now: now, MaxPoints: 5})
	if e, ok := parser.AsError(err); !ok || e.Code != dql.CodeTooManyPoints || e.Error() != "the query returns more than 5 points, the maximum; narrow the time range or the filter, or widen the interval" {
		t.Fatalf("got %v", err)
	}
}

// TestPushDownLargeFilter: a tag filter whose DNF is too large is evaluated engine-side,
// and both paths agree.
func TestPushDownLargeFilter(t *testing.T) {
	var conj []string
	for i := 0; i < 70; i++ {
		conj = append(conj, fmt.Sprintf("(host = 'a' OR dc = 'x%d')", i))
	}
	q := "M::cpu:(count(user)) {" + strings.Join(conj, " AND ") + "} [1699999200000:1699999380000]"
	src := dqltest.ExampleE()
	res, err := dql.Query(context.Background(), src, q, dql.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if src.Calls["QueryRange"] != 0 {
		t.Fatalf("a filter with a DNF of 2^70 terms was pushed down")
	}
	if got, want := seriesJSON(t, res.Series), `[{"name":"cpu","columns":["time","count(user)"],"values":[[1699999200000,6]]}]`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// TestSelectors pins the label selectors of DQL.md §14.4, as sent to Source.Fetch.
func TestSelectors(t *testing.T) {
	var series []dql.Series
	for _, f := range []string{"usage_idle", "usage_user"} {
		series = append(series, dql.Series{Labels: map[string]string{"__measurement__": "cpu", "__field__": f, "__name__": "cpu:" + f, "host": "h1", "dc": "d"},
			Timestamps: []int64{dqltest.T0}, Values: []float64{1}})
	}
	f := func(q, want string) {
		t.Helper()
		res, err := dql.Query(context.Background(), dqltest.NewSource(series...), q+" [1699999200000:1699999260000]", dql.Options{Now: now, EngineOnly: true})
		if err != nil {
			t.Fatalf("%s: %s", q, err)
		}
		sel, _, _ := strings.Cut(res.RawQuery, " [")
		if got, exp := normalise(t, sel), normalise(t, want); got != exp {
			t.Fatalf("%s:\ngot  %s\nwant %s", q, got, exp)
		}
	}
	f(`M::cpu:(usage_idle) {host='h1'}`, `{__measurement__="cpu",__field__="usage_idle",host="h1"}`)
	f(`M::cpu:(usage_idle, usage_user)`, `{__measurement__="cpu",__field__=~"usage_idle|usage_user"}`)
	f(`M::cpu:(usage_idle) {host != 'h1'}`, `{__measurement__="cpu",__field__="usage_idle",host!="h1"}`)
	f(`M::cpu:(usage_idle) {host = re'h.*'}`, `{__measurement__="cpu",__field__="usage_idle",host=~"h.*"}`)
	f(`M::cpu:(usage_idle) {host != re('h.*')}`, `{__measurement__="cpu",__field__="usage_idle",host!~"h.*"}`)
	f(`M::cpu:(usage_idle) {host IN ['a.b', 'c|d', "e\"f"]}`, `{__measurement__="cpu",__field__="usage_idle",host=~"a\\.b|c\\|d|e\"f"}`)
	f(`M::cpu:(usage_idle) {host NOT IN ['a']}`, `{__measurement__="cpu",__field__="usage_idle",host!~"a"}`)
	f(`M::cpu:(usage_idle) {host = 'h1' OR dc = 'd'}`, `{__measurement__="cpu",__field__="usage_idle",host="h1" or __measurement__="cpu",__field__="usage_idle",dc="d"}`)
	f(`M::cpu:(usage_idle) {host = 'h1' OR usage_user > 1}`, `{__measurement__="cpu",__field__=~"usage_idle|usage_user"}`)
	f(`M::cpu:(usage_idle) {host = 'x"y\\z'}`, `{__measurement__="cpu",__field__="usage_idle",host="x\"y\\z"}`)
}

// rangeSource records the time range of the metadata lookup every data query starts with.
type rangeSource struct {
	*dqltest.Source
	start, end int64
}

func (r *rangeSource) LabelNames(ctx context.Context, fss [][]metricsql.LabelFilter, start, end int64, limit int) ([]string, error) {
	r.start, r.end = start, end
	return r.Source.LabelNames(ctx, fss, start, end, limit)
}

// TestTimeExpressions pins the ranges of DQL.md §8's examples (now = T0 + 10 min).
func TestTimeExpressions(t *testing.T) {
	f := func(te string, start, end int64) {
		t.Helper()
		src := &rangeSource{Source: dqltest.ExampleE()}
		if _, err := dql.Query(context.Background(), src, "M::cpu:(user) "+te, dql.Options{Now: now}); err != nil {
			t.Fatalf("%s: %s", te, err)
		}
		// LabelNames takes an inclusive range: [start, end-1].
		if src.start != start || src.end != end-1 {
			t.Fatalf("%s: range [%d, %d], want [%d, %d)", te, src.start, src.end, start, end)
		}
	}
	f(`[5m]`, now-300000, now)
	f(`[10m:5m]`, now-600000, now-300000)
	f(`[10m:5m:1m]`, now-600000, now-300000)
	f(`[1h::5m]`, now-3600000, now)
	f(`[::1m]`, now-900000, now)
	f(`[1h::5m:max]`, now-3600000, now)
	f(`[1672502400:1672588800]`, 1672502400000, 1672588800000)
	f(`[1672502400000:1672588800000]`, 1672502400000, 1672588800000)
	f(`[2023-01-01:2023-01-02]`, 1672531200000, 1672617600000)
	f(``, now-900000, now)
}

// TestPushDownRows pins push-down answers whose rows are assembled from several range
// queries: calls with values in different buckets (a row holds nil for a call without a
// value), expressions over calls and tags, the cut edge buckets, and BY tags missing from
// some series. Values are integers, so push-down and engine-side must agree exactly.
func TestPushDownRows(t *testing.T) {
	var series []dql.Series
	add := func(field string, tags map[string]string, every int64, from, to int64) {
		labels := map[string]string{"__measurement__": "m", "__field__": field, "__name__": "m:" + field}
		for k, v := range tags {
			labels[k] = v
		}
		s := dql.Series{Labels: labels}
		for ts := dqltest.T0 + from; ts < dqltest.T0+to; ts += every {
			s.Timestamps = append(s.Timestamps, ts)
			s.Values = append(s.Values, float64((ts/1000)%17))
		}
		series = append(series, s)
	}
	add("x", map[string]string{"host": "a", "dc": "d1"}, 20000, 0, 600000)
	add("y", map[string]string{"host": "a", "dc": "d1"}, 90000, 240000, 600000) // y only from minute 4
	add("x", map[string]string{"host": "b"}, 45000, 60000, 400000)              // no dc
	add("y", map[string]string{"host": "c", "dc": "d2"}, 30000, 0, 200000)      // no x
	f := func(q, want string) {
		t.Helper()
		src := dqltest.NewSource(series...)
		got, err := dql.Query(context.Background(), src, q, dql.Options{Now: now, DisableSLimit: true})
		if err != nil {
			t.Fatalf("%s: %s", q, err)
		}
		if src.Calls["QueryRange"] == 0 || src.Calls["Fetch"] != 0 {
			t.Fatalf("%s: calls %v; want push-down only", q, src.Calls)
		}
		engine, err := dql.Query(context.Background(), dqltest.NewSource(series...), q, dql.Options{Now: now, DisableSLimit: true, EngineOnly: true})
		if err != nil {
			t.Fatalf("%s (engine): %s", q, err)
		}
		a, _ := json.Marshal(got.Series)
		b, _ := json.Marshal(engine.Series)
		if string(a) != string(b) {
			t.Fatalf("%s:\npush-down %s\nengine    %s", q, a, b)
		}
		if string(a) != want {
			t.Fatalf("%s:\ngot  %s\nwant %s", q, a, want)
		}
	}
	// Cut first and last buckets ([T0+30s, T0+1m) and [T0+5m, T0+5m30s)); y has no value
	// before minute 4, c has no x, b has no dc.
	f(`M::m:(sum(x), max(y) AS my, count(x) + count(y) AS n, host, 3) [1699999230000:1699999530000:1m] BY host, dc`,
		`[{"name":"m","tags":{"dc":"d1","host":"a"},"columns":["time","sum(x)","my","n","host","3"],"values":[[1699999200000,5,null,null,"a",3],[1699999260000,33,null,null,"a",3],[1699999320000,9,null,null,"a",3],[1699999380000,36,null,null,"a",3],[1699999440000,12,1,4,"a",3],[1699999500000,23,null,null,"a",3]]},`+
			`{"name":"m","tags":{"dc":"","host":"b"},"columns":["time","sum(x)","my","n","host","3"],"values":[[1699999260000,10,null,null,"b",3],[1699999320000,13,null,null,"b",3],[1699999380000,7,null,null,"b",3],[1699999440000,13,null,null,"b",3]]},`+
			`{"name":"m","tags":{"dc":"d2","host":"c"},"columns":["time","sum(x)","my","n","host","3"],"values":[[1699999200000,null,12,null,"c",3],[1699999260000,null,8,null,"c",3],[1699999320000,null,13,null,"c",3],[1699999380000,null,9,null,"c",3]]}]`)
	// One bucket over the whole range, ordered and paged in finish.
	f(`M::m:(min(x), spread(y)) [1699999200000:1699999800000] BY dc SORDER BY dc DESC SLIMIT 2`,
		`[{"name":"m","tags":{"dc":"d2"},"columns":["time","min(x)","spread(y)"],"values":[[1699999200000,null,16]]},{"name":"m","tags":{"dc":"d1"},"columns":["time","min(x)","spread(y)"],"values":[[1699999200000,0,15]]}]`)
}
