package dql_test

import (
	"context"
	"fmt"
	"testing"

	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/dqltest"
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
		if _, err := dql.Parse(q); err != nil {
			b.Fatal(err)
		}
	}
}
