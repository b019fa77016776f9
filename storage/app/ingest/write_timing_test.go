package ingest

import (
	"bytes"
	"compress/gzip"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	vminflux "github.com/VictoriaMetrics/VictoriaMetrics/app/vminsert/influx"
	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmstorage"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/protoparser/protoparserutil"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/storage"
)

var (
	storageOnce sync.Once
	storageDir  string // set once initStorage opened a storage
)

// TestMain closes and removes the storage a benchmark opened.
func TestMain(m *testing.M) {
	code := m.Run()
	if storageDir != "" {
		vmstorage.Stop()
		_ = os.RemoveAll(storageDir)
	}
	os.Exit(code)
}

// initStorage opens an embedded storage in a temporary directory for the write benchmarks.
func initStorage(b *testing.B) {
	storageOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ingest-bench-")
		if err != nil {
			b.Fatal(err)
		}
		storageDir = dir
		for k, v := range map[string]string{"storageDataPath": dir, "retentionPeriod": "100y", "loggerLevel": "ERROR"} {
			if err := flag.Set(k, v); err != nil {
				b.Fatal(err)
			}
		}
		vmstorage.Init(8, 10*time.Second, func([]storage.MetricRow) {})
		protoparserutil.StartUnmarshalWorkers()
	})
}

// gzipBodies returns n gzip'd agent batches of consecutive ticks.
func gzipBodies(n int) [][]byte {
	base := string(agentBody())
	out := make([][]byte, n)
	for i := range out {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		// Shift every timestamp by i seconds: same series, new samples.
		_, _ = zw.Write([]byte(strings.ReplaceAll(base, " 1700000000000\n", " "+itoa(1700000000000+int64(i)*1000)+"\n")))
		_ = zw.Close()
		out[i] = buf.Bytes()
	}
	return out
}

// BenchmarkWriteVsVictoriaMetrics writes the same gzip'd line protocol through LineHandler
// and through VictoriaMetrics' own influx handler into one embedded storage, from four
// concurrent writers, and reports the CPU-bound cost per sample of each.
func BenchmarkWriteVsVictoriaMetrics(b *testing.B) {
	initStorage(b)
	bodies := gzipBodies(64)
	const samples = 2360
	run := func(b *testing.B, write func(body []byte) error) {
		var next atomic.Int64
		b.SetParallelism(2)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := write(bodies[next.Add(1)%int64(len(bodies))]); err != nil {
					panic(err)
				}
			}
		})
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/samples, "ns/sample")
	}
	b.Run("vigil", func(b *testing.B) {
		run(b, func(body []byte) error {
			r := httptest.NewRequest(http.MethodPost, "/internal/v1/write/line?precision=ms", bytes.NewReader(body))
			r.Header.Set("Content-Encoding", "gzip")
			w := httptest.NewRecorder()
			if err := LineHandler(w, r, "bench"); err != nil {
				return err
			}
			return nil
		})
	})
	b.Run("victoriametrics", func(b *testing.B) {
		run(b, func(body []byte) error {
			r := httptest.NewRequest(http.MethodPost, "/influx/write?precision=ms&db=bench", bytes.NewReader(body))
			r.Header.Set("Content-Encoding", "gzip")
			return vminflux.InsertHandlerForHTTP(r)
		})
	})
}

func itoa(n int64) string {
	var b [20]byte
	i := len(b)
	for n >= 10 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	i--
	b[i] = byte('0' + n)
	return string(b[i:])
}
