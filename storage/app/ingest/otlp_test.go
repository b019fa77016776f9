package ingest

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/decimal"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/protoparser/opentelemetry/pb"

	"vigil/storage/lib/tenancy"
)

// testNanos is testNow in nanoseconds, as OTLP carries it.
const testNanos = uint64(testNow) * 1e6

func str(k, v string) *pb.KeyValue { return &pb.KeyValue{Key: k, Value: &pb.AnyValue{StringValue: &v}} }

func f64(v float64) *float64 { return &v }

// otlpBody wraps metrics in one resource (service.name=checkout) and one scope.
func otlpBody(resource []*pb.KeyValue, metrics ...*pb.Metric) []byte {
	name, version := "shop", "1.2"
	md := &pb.MetricsData{ResourceMetrics: []*pb.ResourceMetrics{{
		Resource: &pb.Resource{Attributes: resource},
		ScopeMetrics: []*pb.ScopeMetrics{{
			Scope:   &pb.InstrumentationScope{Name: &name, Version: &version},
			Metrics: metrics,
		}},
	}}}
	return md.MarshalProtobuf(nil)
}

// otlpLabels is labels() for one OTLP series: name, measurement, field, the resource and
// scope labels of otlpBody, the extra tags (sorted by the caller) and the workspace.
func otlpLabels(name, measurement, field string, tags ...string) []string {
	kv := []string{"__name__", name, "__measurement__", measurement, "__field__", field}
	all := append([]string{"scope.name", "shop", "scope.version", "1.2", "service.name", "checkout"}, tags...)
	// sort the tag pairs by name
	type pair struct{ k, v string }
	var ps []pair
	for i := 0; i < len(all); i += 2 {
		ps = append(ps, pair{all[i], all[i+1]})
	}
	for i := range ps {
		for j := i + 1; j < len(ps); j++ {
			if ps[j].k < ps[i].k {
				ps[i], ps[j] = ps[j], ps[i]
			}
		}
	}
	for _, p := range ps {
		kv = append(kv, p.k, p.v)
	}
	return append(kv, tenancy.Label, "ws1")
}

func TestOTLPRowsSuccess(t *testing.T) {
	f := func(m *pb.Metric, want ...Sample) {
		t.Helper()
		got, err := OTLPRows(otlpBody([]*pb.KeyValue{str("service.name", "checkout")}, m), "ws1", testNow)
		if err != nil {
			t.Fatalf("unexpected error: %s", err)
		}
		if len(got) != len(want) {
			t.Fatalf("got %d samples, want %d:\n%+v", len(got), len(want), got)
		}
		for i := range want {
			g, w := got[i], want[i]
			if !reflect.DeepEqual(g.Labels, w.Labels) || g.Timestamp != w.Timestamp || !(g.Value == w.Value || math.IsNaN(g.Value) && math.IsNaN(w.Value)) {
				t.Fatalf("sample %d of %s\ngot  %+v\nwant %+v", i, m.Name, g, w)
			}
		}
	}
	s := func(name, measurement, field string, v float64, tags ...string) Sample {
		return Sample{Labels: labels(otlpLabels(name, measurement, field, tags...)...), Timestamp: testNow, Value: v}
	}
	iv := int64(7)
	// Gauge: the data point's attributes are tags; the innermost value of a name wins.
	f(&pb.Metric{Name: "queue.depth", Gauge: &pb.Gauge{DataPoints: []*pb.NumberDataPoint{
		{Attributes: []*pb.KeyValue{str("queue", "orders"), str("service.name", "override")}, TimeUnixNano: testNanos, DoubleValue: f64(3.5)},
		{TimeUnixNano: testNanos, IntValue: &iv},
	}}},
		Sample{Labels: labels("__name__", "queue.depth", "__measurement__", "queue.depth", "__field__", "value", "queue", "orders", "scope.name", "shop", "scope.version", "1.2", "service.name", "override", tenancy.Label, "ws1"), Timestamp: testNow, Value: 3.5},
		s("queue.depth", "queue.depth", "value", 7),
	)
	// Sum (cumulative or delta alike); flag 1 (no recorded value) is a staleness marker.
	f(&pb.Metric{Name: "http.requests", Sum: &pb.Sum{IsMonotonic: true, DataPoints: []*pb.NumberDataPoint{
		{TimeUnixNano: testNanos, DoubleValue: f64(12)},
		{TimeUnixNano: testNanos, DoubleValue: f64(1), Flags: 1},
	}}}, s("http.requests", "http.requests", "value", 12), s("http.requests", "http.requests", "value", decimal.StaleNaN))
	// Classic histogram: count, sum and cumulative buckets with le.
	f(&pb.Metric{Name: "latency", Histogram: &pb.Histogram{DataPoints: []*pb.HistogramDataPoint{{
		TimeUnixNano: testNanos, Count: 5, Sum: f64(2.5), BucketCounts: []uint64{1, 3, 1}, ExplicitBounds: []float64{0.1, 1},
	}}}},
		s("latency_count", "latency", "count", 5),
		s("latency_sum", "latency", "sum", 2.5),
		s("latency_bucket", "latency", "bucket", 1, "le", "0.1"),
		s("latency_bucket", "latency", "bucket", 4, "le", "1"),
		s("latency_bucket", "latency", "bucket", 5, "le", "+Inf"),
	)
	// Exponential histogram: buckets with vmrange (scale 0: powers of two).
	f(&pb.Metric{Name: "size", ExponentialHistogram: &pb.ExponentialHistogram{DataPoints: []*pb.ExponentialHistogramDataPoint{{
		TimeUnixNano: testNanos, Count: 3, Sum: f64(6), Positive: &pb.Buckets{Offset: 1, BucketCounts: []uint64{2, 1}},
	}}}},
		s("size_count", "size", "count", 3),
		s("size_sum", "size", "sum", 6),
		s("size_bucket", "size", "bucket", 2, "vmrange", "2.000e+00...4.000e+00"),
		s("size_bucket", "size", "bucket", 1, "vmrange", "4.000e+00...8.000e+00"),
	)
	// Summary: count, sum, and the quantiles as values with a quantile tag.
	f(&pb.Metric{Name: "rpc.duration", Summary: &pb.Summary{DataPoints: []*pb.SummaryDataPoint{{
		TimeUnixNano: testNanos, Count: 4, Sum: 10, QuantileValues: []*pb.ValueAtQuantile{{Quantile: 0.5, Value: 2}, {Quantile: 0.99, Value: 4}},
	}}}},
		s("rpc.duration_count", "rpc.duration", "count", 4),
		s("rpc.duration_sum", "rpc.duration", "sum", 10),
		s("rpc.duration", "rpc.duration", "value", 2, "quantile", "0.5"),
		s("rpc.duration", "rpc.duration", "value", 4, "quantile", "0.99"),
	)
}

func TestOTLPRowsFailure(t *testing.T) {
	f := func(body []byte, wantErr string) {
		t.Helper()
		_, err := OTLPRows(body, "ws1", testNow)
		if err == nil || err.Error() != wantErr {
			t.Fatalf("unexpected error\ngot  %v\nwant %s", err, wantErr)
		}
	}
	gauge := func(name string, ts uint64, attrs ...*pb.KeyValue) *pb.Metric {
		return &pb.Metric{Name: name, Gauge: &pb.Gauge{DataPoints: []*pb.NumberDataPoint{{Attributes: attrs, TimeUnixNano: ts, DoubleValue: f64(1)}}}}
	}
	const reserved = " uses a reserved name (reserved: vigil_workspace, vm_account_id, vm_project_id and names starting with __)"
	f([]byte{0xff}, `cannot decode OTLP metrics protobuf of 1 bytes: cannot read the next field: cannot unmarshal field tag from uvarint`)
	f(otlpBody(nil, gauge("m", testNanos, str("vigil_workspace", "other"))), `metric "m": attribute "vigil_workspace"`+reserved)
	f(otlpBody([]*pb.KeyValue{str("__name__", "x")}, gauge("m", testNanos)), `metric "m": attribute "__name__"`+reserved)
	f(otlpBody(nil, gauge("m", testNanos, str("vm_account_id", "1"))), `metric "m": attribute "vm_account_id"`+reserved)
	f(otlpBody(nil, gauge("", testNanos)), `a metric has an empty name`)
	SetRetention(time.Hour)
	defer SetRetention(0)
	f(otlpBody(nil, gauge("m", 0)), `metric "m": timestamp 1970-01-01T00:00:00Z is older than the retention period (1h0m0s)`)
	f(otlpBody(nil, gauge("m", testNanos+3*24*3600*1e9)), `metric "m": timestamp 2027-01-18T07:59:59Z is more than 48h0m0s in the future`)
	f(otlpBody(nil, gauge("m", testNanos, str("k", strings.Repeat("v", 4097)))), `metric "m": value of tag "k" is 4097 bytes long; -ingest.maxLabelValueLen=4096`)
	f(otlpBody(nil, gauge(strings.Repeat("m", 4097), testNanos)), `metric name "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm"… is 4097 bytes long; -ingest.maxLabelValueLen=4096`)
	var many []*pb.KeyValue
	for i := 0; i < 62; i++ {
		many = append(many, str("k"+strings.Repeat("x", i), "v"))
	}
	// 62 + scope.name + scope.version + __name__ = 65 labels
	f(otlpBody(nil, gauge("m", testNanos, many...)), `metric "m": 65 tags exceed -ingest.maxLabelsPerSeries=64`)
}

func TestOTLPRowsBatchLimit(t *testing.T) {
	old := *maxRowsPerBatch
	*maxRowsPerBatch = 2
	defer func() { *maxRowsPerBatch = old }()
	m := &pb.Metric{Name: "latency", Histogram: &pb.Histogram{DataPoints: []*pb.HistogramDataPoint{{
		TimeUnixNano: testNanos, Count: 1, BucketCounts: []uint64{1},
	}}}}
	if _, err := OTLPRows(otlpBody(nil, m), "ws1", testNow); err != nil {
		t.Fatalf("2 samples: %s", err)
	}
	m.Histogram.DataPoints[0].Sum = f64(1)
	_, err := OTLPRows(otlpBody(nil, m), "ws1", testNow)
	if want := "the batch has more than 2 samples; -ingest.maxRowsPerBatch=2"; err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

// FuzzOTLPRows feeds arbitrary bytes to the OTLP write path: it never panics, and whatever
// it accepts carries the workspace label last and no reserved name of the sender's.
//
//	go test -run=^$ -fuzz=FuzzOTLPRows -fuzztime=20s ./app/ingest/
func FuzzOTLPRows(f *testing.F) {
	f.Add(otlpBody([]*pb.KeyValue{str("service.name", "checkout")}, &pb.Metric{Name: "m", Gauge: &pb.Gauge{DataPoints: []*pb.NumberDataPoint{{TimeUnixNano: testNanos, DoubleValue: f64(1)}}}}))
	f.Add(otlpBody(nil, &pb.Metric{Name: "h", Histogram: &pb.Histogram{DataPoints: []*pb.HistogramDataPoint{{TimeUnixNano: testNanos, Count: 2, BucketCounts: []uint64{1, 1}, ExplicitBounds: []float64{1}}}}}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, body []byte) {
		samples, err := OTLPRows(body, "ws1", testNow)
		if err != nil {
			return
		}
		for _, s := range samples {
			last := s.Labels[len(s.Labels)-1]
			if last.Name != tenancy.Label || last.Value != "ws1" {
				t.Fatalf("sample without the workspace label last: %+v", s.Labels)
			}
			for _, l := range s.Labels[3 : len(s.Labels)-1] {
				if tenancy.IsReserved(l.Name) {
					t.Fatalf("reserved label %q accepted", l.Name)
				}
			}
		}
	})
}
