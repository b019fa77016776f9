package vmcheck

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmselect/netstorage"
	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmselect/promql"
	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmstorage"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/logger"
	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/app/ingest"
	"vigil/storage/app/vmsource"
	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/dqltest"
	"vigil/storage/lib/dql/parser"
)

// now matches lib/dql's golden tests: T0 + 10 min.
const now = dqltest.T0 + 600000

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "dql-vmcheck-")
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

	// Dataset E (DQL.md §4) for workspace "e", and the same names with other values in
	// workspace "other", which no query of "e" may see.
	var e, other strings.Builder
	for n := 0; n < 6; n++ {
		t := dqltest.T0 + int64(n)*30000
		fmt.Fprintf(&e, "cpu,host=a,dc=east1 user=%d,idle=%d %d\n", n+1, 100-(n+1), t)
		fmt.Fprintf(&e, "cpu,host=b,dc=west1 user=%d,idle=%d %d\n", 10*(n+1), 100-10*(n+1), t)
		fmt.Fprintf(&e, "net,host=a rx=%d %d\n", []int{0, 300, 600, 900, 100, 400}[n], t)
		fmt.Fprintf(&other, "cpu,host=a,dc=east1 user=1000,idle=5 %d\n", t)
		fmt.Fprintf(&other, "secret,host=z user=1 %d\n", t)
	}
	mustWrite("e", e.String())
	mustWrite("other", other.String())
	mustWrite("rnd", randomLines())
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

// randomLines returns 5 hosts x 2 fields over one hour on 5 s marks, some 1 ms early.
func randomLines() string {
	rng := rand.New(rand.NewSource(1))
	var b strings.Builder
	for h := 0; h < 5; h++ {
		for t := dqltest.T0; t < dqltest.T0+3600000; t += 5000 * (1 + rng.Int63n(4)) {
			ts := t
			if rng.Intn(4) == 0 {
				ts--
			}
			fmt.Fprintf(&b, "m,host=h%d,dc=d%d x=%d,y=%d %d\n", h, h%2, rng.Intn(100), rng.Intn(100), ts)
		}
	}
	return b.String()
}

// counting counts the push-down calls of a Source; it keeps the source's name cache.
type counting struct {
	*vmsource.Source
	ranges *int
}

func (c counting) QueryRange(ctx context.Context, expr metricsql.Expr, start, end, step int64) ([]dql.Series, error) {
	*c.ranges++
	return c.Source.QueryRange(ctx, expr, start, end, step)
}

// pushed counts QueryRange calls made by render.
var pushed int

func render(t *testing.T, ws, q string, opts dql.Options) string {
	t.Helper()
	res, err := dql.Query(context.Background(), counting{vmsource.New(ws), &pushed}, q, opts)
	if err != nil {
		e, ok := parser.AsError(err)
		if !ok {
			t.Fatalf("%s: error %T is not *parser.Error: %s", q, err, err)
		}
		return "error " + e.Code + ": " + e.Error()
	}
	b, err := json.Marshal(res.Series)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// metadataWindow lists corpus queries whose answer depends on the metadata time window:
// VictoriaMetrics' index has a granularity of one day, the fake is exact.
var metadataWindow = map[string]bool{
	"show_measurement() [1s]": true,
}

// TestGoldenOnVictoriaMetrics runs lib/dql's corpus against the embedded storage and
// compares with lib/dql/testdata/queries.golden, with push-down and engine-side.
func TestGoldenOnVictoriaMetrics(t *testing.T) {
	b, err := os.ReadFile("../../../lib/dql/testdata/queries.golden")
	if err != nil {
		t.Fatal(err)
	}
	entries := strings.Split(strings.TrimRight(string(b), "\n"), "\n\n")
	if len(entries) < 100 {
		t.Fatalf("only %d golden entries", len(entries))
	}
	pushed = 0
	for _, entry := range entries {
		q, want, ok := strings.Cut(entry, "\n=> ")
		if !ok {
			t.Fatalf("malformed golden entry %q", entry)
		}
		if metadataWindow[q] {
			continue
		}
		for _, engineOnly := range []bool{false, true} {
			got := render(t, "e", q, dql.Options{Now: now, EngineOnly: engineOnly})
			if got != want {
				t.Errorf("%s (engine only: %v):\ngot  %s\nwant %s", q, engineOnly, got, want)
			}
		}
	}
	if pushed < 40 {
		t.Fatalf("only %d range queries were pushed down to VictoriaMetrics", pushed)
	}
}

// TestPushDownOnVictoriaMetrics compares push-down with engine-side evaluation on random
// data in VictoriaMetrics, over random ranges, intervals, rollups, groupings and zones.
func TestPushDownOnVictoriaMetrics(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	base := dqltest.T0
	aggs := []string{"count(x)", "sum(x)", "min(x)", "max(x)", "avg(x)", "spread(x)", "avg(x) - sum(y) / 2", "x", "x, y, host", ""}
	rollups := []string{"", ":avg", ":sum", ":min", ":max", ":count", ":first", ":last", ":median", ":stddev", ":p90", ":p12.5"}
	bys := []string{"", " BY host", " BY dc", " BY dc, host"}
	tzs := []string{"", "", " tz(+5.75)", " tz('America/New_York')"}
	filters := []string{"", " {host != 'h1'}", " {dc = 'd0' OR host IN ['h3', 'h4']}"}
	intervals := []string{"", "10s", "1m", "7m", "1h"}
	pushed = 0
	nonEmpty := 0
	for i := 0; i < 150; i++ {
		start := base - 60000 + rng.Int63n(1800000)
		end := start + 1 + rng.Int63n(2400000)
		switch rng.Intn(3) {
		case 0:
			start -= start % 60000
		case 1:
			start -= start % 5000
			end -= end % 5000
		}
		if end <= start {
			end = start + 5000
		}
		timeExpr := fmt.Sprintf("[%d:%d]", start, end)
		if iv := intervals[rng.Intn(len(intervals))]; iv != "" {
			timeExpr = fmt.Sprintf("[%d:%d:%s%s]", start, end, iv, rollups[rng.Intn(len(rollups))])
		}
		q := fmt.Sprintf("M::m:(%s)%s %s%s LIMIT 10000%s", aggs[rng.Intn(len(aggs))], filters[rng.Intn(len(filters))], timeExpr, bys[rng.Intn(len(bys))], tzs[rng.Intn(len(tzs))])
		opts := dql.Options{Now: base + 7200000, DisableSLimit: true}
		got := render(t, "rnd", q, opts)
		opts.EngineOnly = true
		want := render(t, "rnd", q, opts)
		if !approxEqualJSON(got, want) {
			t.Fatalf("%s:\npush-down %s\nengine    %s", q, got, want)
		}
		if strings.HasPrefix(got, "error") {
			t.Fatalf("%s: %s", q, got)
		}
		if got != "[]" {
			nonEmpty++
		}
	}
	if pushed < 120 || nonEmpty < 120 {
		t.Fatalf("%d range queries pushed down, %d non-empty results of 150; the test lost its teeth", pushed, nonEmpty)
	}
}

// TestWorkspaceIsolation checks that another workspace's data never shows, whatever the
// query names.
func TestWorkspaceIsolation(t *testing.T) {
	f := func(q, want string) {
		t.Helper()
		for _, engineOnly := range []bool{false, true} {
			if got := render(t, "e", q, dql.Options{Now: now, EngineOnly: engineOnly}); got != want {
				t.Fatalf("%s (engine only: %v):\ngot  %s\nwant %s", q, engineOnly, got, want)
			}
		}
	}
	f("M::cpu:(max(user)) [1699999200000:1699999380000]", `[{"name":"cpu","columns":["time","max(user)"],"values":[[1699999200000,60]]}]`)
	f("M::secret:(user) [1699999200000:1699999380000]", `[]`)
	f("show_measurement()", `[{"name":"measurements","columns":["name"],"values":[["cpu"],["net"]]}]`)
	f("M::cpu:(user) {vigil_workspace = 'other'}", `error dql.forbidden_label: line 1:16: label "vigil_workspace" may not be used in the filter: names starting with "__" and tenancy labels are reserved`)
}

func approxEqualJSON(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return a == b
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
		d, m := xv-yv, max(abs(xv), abs(yv), 1)
		return abs(d) <= 1e-9*m
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
