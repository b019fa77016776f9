package simulate

import (
	"bytes"
	"testing"

	"vigil/agent/lib/push"
)

func BenchmarkAppendHost(b *testing.B) {
	g := New(Options{Hosts: 100, Seed: 1})
	buf := make([]byte, 0, 1<<20)
	b.ReportAllocs()
	b.SetBytes(int64(len(g.AppendHost(nil, 0, 1))))
	for i := 0; b.Loop(); i++ {
		buf = g.AppendHost(buf[:0], i%100, int64(i))
	}
	b.ReportMetric(float64(b.N*SeriesPerHost)/b.Elapsed().Seconds(), "points/s")
}

func BenchmarkAppendHostGzip(b *testing.B) {
	g := New(Options{Hosts: 100, Seed: 1})
	buf := make([]byte, 0, 1<<20)
	var gz bytes.Buffer
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf = buf[:0]
		for h := 0; h < 20; h++ {
			buf = g.AppendHost(buf, h, int64(i))
		}
		gz.Reset()
		push.Gzip(&gz, buf)
	}
	b.ReportMetric(float64(b.N*20*SeriesPerHost)/b.Elapsed().Seconds(), "points/s")
}
