package vmcheck

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmstorage"

	"vigil/storage/app/vmsource"
	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/dqltest"
)

var benchOnce sync.Once

// benchData writes 200 hosts x 2 fields, one sample every 10 s for 6 h (864 000 samples)
// into workspace "bench".
func benchData() {
	benchOnce.Do(func() {
		for h := 0; h < 200; h++ {
			var b strings.Builder
			for i := 0; i < 6*360; i++ {
				fmt.Fprintf(&b, "cpu,host=h%03d,dc=dc%d user=%d,idle=%d %d\n", h, h%4, (h*i)%100, 100-(h*i)%100, dqltest.T0+int64(i)*10000)
			}
			mustWrite("bench", b.String())
		}
		vmstorage.DebugFlush()
	})
}

func BenchmarkVMQuery(b *testing.B) {
	benchData()
	for _, q := range []string{
		"M::cpu:(avg(user)) [1699999200000:1700020800000:1m] BY host",
		"M::cpu:(max(user)) [1699999200000:1700020800000:5m:avg] BY dc",
		"M::cpu:(percentile(user, 99)) [1699999200000:1700020800000:5m] BY dc",
		"M::cpu:(user) [1699999200000:1700020800000:1m] BY host LIMIT 10000",
	} {
		for _, engineOnly := range []bool{false, true} {
			name := q + " push-down"
			if engineOnly {
				name = q + " engine"
			}
			b.Run(name, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					res, err := dql.Query(context.Background(), vmsource.New("bench"), q, dql.Options{Now: dqltest.T0, EngineOnly: engineOnly, DisableSLimit: true})
					if err != nil {
						b.Fatal(err)
					}
					if len(res.Series) == 0 {
						b.Fatal("no series")
					}
				}
			})
		}
	}
}
