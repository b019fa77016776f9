package ingest

import (
	"fmt"
	"strings"
	"testing"
)

// agentBody returns a batch shaped like vigil-agent's: per host, cpu lines of 10 fields,
// disk and net lines of a few, and one kernel line of 150 fields; 2,360 samples.
func agentBody() []byte {
	var sb strings.Builder
	ts := int64(1700000000000)
	for h := 0; h < 5; h++ {
		for c := 0; c < 17; c++ {
			fmt.Fprintf(&sb, "cpu,cpu=cpu%d,host=sim-%05d usage_user=%d.38,usage_system=3.79,usage_idle=64.15,usage_nice=0.51,usage_iowait=0.48,"+
				"usage_irq=0.60,usage_softirq=0.50,usage_steal=0.89,usage_guest=0.32,usage_guest_nice=1.15 %d\n", c, h, c, ts)
		}
		for d := 0; d < 8; d++ {
			fmt.Fprintf(&sb, "diskio,host=sim-%05d,name=sd%c reads=%di,writes=1234i,read_bytes=9876543i,write_bytes=1234567i,read_time=12i,"+
				"write_time=34i,io_time=56i,weighted_io_time=78i,iops_in_progress=0i,merged_reads=3i,merged_writes=4i %d\n", h, 'a'+d, d, ts)
			fmt.Fprintf(&sb, "net,host=sim-%05d,interface=eth%d bytes_sent=%di,bytes_recv=2i,packets_sent=3i,packets_recv=4i,err_in=0i,err_out=0i,drop_in=0i,drop_out=0i %d\n", h, d, d, ts)
		}
		fmt.Fprintf(&sb, "kernel_vmstat,host=sim-%05d ", h)
		for f := 0; f < 150; f++ {
			if f > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, "counter_%d=%di", f, f*1000+h)
		}
		fmt.Fprintf(&sb, " %d\n", ts)
	}
	return []byte(sb.String())
}

// BenchmarkLineWrite measures what the embedded write path adds per sample before
// vmstorage.VMInsertAPI.WriteRows: parsing, validation and the raw metric names.
func BenchmarkLineWrite(b *testing.B) {
	body := string(agentBody())
	rb := getRowsBuilder()
	if err := parseLines(body, "ms", "bench", 1700000000000, rb); err != nil {
		b.Fatal(err)
	}
	samples := len(rb.mrs)
	putRowsBuilder(rb)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			rb := getRowsBuilder()
			if err := parseLines(body, "ms", "bench", 1700000000000, rb); err != nil {
				panic(err)
			}
			putRowsBuilder(rb)
		}
	})
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(samples), "ns/sample")
}

// BenchmarkLineRows measures the path of remote mode, which builds []Sample for its sink.
func BenchmarkLineRows(b *testing.B) {
	body := agentBody()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := LineRows(body, "ms", "bench", 1700000000000); err != nil {
			b.Fatal(err)
		}
	}
}
