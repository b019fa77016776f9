package dql_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/dqltest"
	"vigil/storage/lib/dql/parser"
)

// benchSource holds 200 hosts x 2 fields, one sample every 10 s for 6 h (864 000 samples).
func benchSource() *dqltest.Source {
	var series []dql.Series
	for h := 0; h < 200; h++ {
		for _, f := range []string{"user", "idle"} {
			s := dql.Series{Labels: map[string]string{"__measurement__": "cpu", "__field__": f, "__name__": "cpu:" + f, "host": fmt.Sprintf("h%03d", h), "dc": fmt.Sprintf("dc%d", h%4)}}
			for i := 0; i < 6*360; i++ {
				s.Timestamps = append(s.Timestamps, dqltest.T0+int64(i)*10000)
				s.Values = append(s.Values, float64((h*i)%100))
			}
			series = append(series, s)
		}
	}
	return dqltest.NewSource(series...)
}

func BenchmarkQuery(b *testing.B) {
	src := benchSource()
	for _, q := range []string{
		"M::cpu:(avg(user)) [1699999200000:1700020800000:1m] BY host",
		"M::cpu:(percentile(user, 99)) [1699999200000:1700020800000:5m] BY dc",
		"M::cpu:(user, idle) {user > 50} [1699999200000:1700020800000] BY host LIMIT 100",
		"M::cpu:(max(user)) [1699999200000:1700020800000:1m:avg] BY dc",
	} {
		b.Run(q, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := dql.Query(context.Background(), src, q, dql.Options{Now: dqltest.T0, EngineOnly: true, DisableSLimit: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParse(b *testing.B) {
	q := "M::cpu:(avg(usage_user) AS u, percentile(x, 99)) {host IN ['a', 'b'], dc = re'east.*' OR idle < 50} [1h::1m] BY host, dc ORDER BY time DESC LIMIT 100 SLIMIT 10"
	for i := 0; i < b.N; i++ {
		if _, err := parser.Parse(q); err != nil {
			b.Fatal(err)
		}
	}
}

// replaySource answers each distinct QueryRange call once from a dqltest.Source and then
// from memory, so that push-down benchmarks measure the DQL layer rather than the fake's
// MetricsQL evaluation (app/dqlapi/vmcheck measures both on VictoriaMetrics).
type replaySource struct {
	*dqltest.Source
	answers map[string][]dql.Series
}

func (r *replaySource) QueryRange(ctx context.Context, expr metricsql.Expr, start, end, step int64) ([]dql.Series, error) {
	key := fmt.Sprintf("%s %d %d %d", expr.AppendString(nil), start, end, step)
	if s, ok := r.answers[key]; ok {
		return s, nil
	}
	s, err := r.Source.QueryRange(ctx, expr, start, end, step)
	if err == nil {
		r.answers[key] = s
	}
	return s, err
}

// dashboardSource holds the shape of a dashboard panel's data: measurement uibench, 100
// hosts x 10 fields f0 ... f9, one sample a minute for 61 minutes from dqltest.T0.
func dashboardSource() *replaySource {
	var series []dql.Series
	for h := 0; h < 100; h++ {
		for f := 0; f < 10; f++ {
			name := fmt.Sprintf("f%d", f)
			s := dql.Series{Labels: map[string]string{"__measurement__": "uibench", "__field__": name, "__name__": "uibench:" + name, "host": fmt.Sprintf("host-%03d", h)}}
			for i := 0; i <= 61; i++ {
				s.Timestamps = append(s.Timestamps, dqltest.T0+int64(i)*60000)
				s.Values = append(s.Values, float64((h*7+f*3+i)%100)+0.25)
			}
			series = append(series, s)
		}
	}
	return &replaySource{Source: dqltest.NewSource(series...), answers: map[string][]dql.Series{}}
}

// BenchmarkPushDown runs a dashboard's pushed-down queries over one hour that does not start
// on a bucket edge (the cut first and last buckets are queried on their own): 100 series x
// 61 buckets, of which the first holds no sample.
func BenchmarkPushDown(b *testing.B) {
	src := dashboardSource()
	start := dqltest.T0 + 30500
	end := start + 3600000
	for _, q := range []string{
		fmt.Sprintf("M::uibench:(avg(f3)) [%d:%d:1m] BY host SLIMIT 100", start, end),
		fmt.Sprintf("M::uibench:(f3) [%d:%d:1m] BY host SLIMIT 100", start, end),
	} {
		b.Run(q, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				res, err := dql.Query(context.Background(), src, q, dql.Options{Now: end})
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Series) != 100 || len(res.Series[0].Values) != 60 {
					b.Fatalf("%d series of %d rows, want 100 of 60", len(res.Series), len(res.Series[0].Values))
				}
			}
		})
	}
}
