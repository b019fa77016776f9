package ingest

import (
	"fmt"
	"strings"
	"testing"
)

func BenchmarkLineRows(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&sb, "cpu,host=h%d,dc=dc%d usage_user=%d.5,usage_system=3.2,usage_idle=90i,usage_iowait=0.1,up=true %d\n", i%200, i%4, i%100, 1700000000000000000+i*1000)
	}
	body := []byte(sb.String())
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := LineRows(body, "ns", "bench", 0); err != nil {
			b.Fatal(err)
		}
	}
}
