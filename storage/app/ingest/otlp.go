package ingest

import (
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/decimal"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/prompb"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/promutil"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/protoparser/opentelemetry/pb"

	"vigil/storage/lib/apierror"
	"vigil/storage/lib/tenancy"
)

// otlpOptions are VictoriaMetrics' defaults: every resource attribute and the scope's name,
// version and attributes become labels.
var otlpOptions = pb.DecodeMetricsOptions{}

// OTLPRows turns an OTLP ExportMetricsServiceRequest (protobuf) into the samples to write
// for workspace ws, decoded by VictoriaMetrics' OTLP parser. Each sample keeps the name that
// parser gives it (the metric's name plus _count, _sum or _bucket for histograms and
// summaries) as __name__; __measurement__ is the metric's name and __field__ "value" or
// count, sum, bucket. Labels are the resource attributes, the scope's (scope.name,
// scope.version, scope.attributes.*) and the data point's; a name set at more than one of
// these levels keeps the innermost value. Reserved names, oversized labels and timestamps
// storage cannot keep are refused, and nothing is written then.
func OTLPRows(data []byte, ws string, nowMillis int64) ([]Sample, error) {
	p := &otlpPusher{ws: ws, now: nowMillis, idx: map[string]int{}}
	if err := pb.DecodeMetricsData(data, p, otlpOptions); err != nil {
		return nil, apierror.BadData("cannot decode OTLP metrics protobuf of %d bytes: %s", len(data), err)
	}
	if p.err != nil {
		return nil, p.err
	}
	return p.samples, nil
}

// otlpPusher receives the parser's samples; the first problem stops the collection.
type otlpPusher struct {
	ws      string
	now     int64
	samples []Sample
	err     error
	idx     map[string]int // label name -> index in the labels being built
}

func (p *otlpPusher) PushMetricMetadata(*pb.MetricMetadata) {}

func (p *otlpPusher) PushSample(mm *pb.MetricMetadata, suffix string, ls *promutil.Labels, tsNanos uint64, value float64, flags uint32) {
	if p.err != nil {
		return
	}
	if len(p.samples) >= *maxRowsPerBatch {
		p.err = apierror.New(http.StatusRequestEntityTooLarge, apierror.TypeTooLarge, "the batch has more than %d samples; -ingest.maxRowsPerBatch=%d", len(p.samples), *maxRowsPerBatch)
		return
	}
	name := mm.Name + suffix
	fail := func(format string, args ...any) {
		p.err = apierror.BadData("metric %.80q: "+format, append([]any{name}, args...)...)
	}
	if mm.Name == "" {
		p.err = apierror.BadData("a metric has an empty name")
		return
	}
	if len(name) > *maxLabelValueLen {
		p.err = apierror.BadData("metric name %.40q… is %d bytes long; -ingest.maxLabelValueLen=%d", name, len(name), *maxLabelValueLen)
		return
	}
	field := "value"
	if suffix != "" {
		field = strings.TrimPrefix(suffix, "_")
	}
	labels := make([]prompb.Label, 3, len(ls.Labels)+4)
	labels[0] = prompb.Label{Name: tenancy.MetricNameLabel, Value: name}
	labels[1] = prompb.Label{Name: tenancy.MeasurementLabel, Value: strings.Clone(mm.Name)}
	labels[2] = prompb.Label{Name: tenancy.FieldLabel, Value: field}
	// The parser adds resource, scope, then data point labels; the innermost one wins.
	clear(p.idx)
	for _, l := range ls.Labels {
		if tenancy.IsReserved(l.Name) {
			fail("attribute %q uses a reserved name (reserved: %s, vm_account_id, vm_project_id and names starting with __)", l.Name, tenancy.Label)
			return
		}
		if l.Name == "" {
			fail("empty attribute name")
			return
		}
		if msg := checkLabel(l.Name, l.Value); msg != "" {
			fail("%s", msg)
			return
		}
		if i, ok := p.idx[l.Name]; ok {
			labels[i].Value = strings.Clone(l.Value)
			continue
		}
		p.idx[l.Name] = len(labels)
		labels = append(labels, prompb.Label{Name: strings.Clone(l.Name), Value: strings.Clone(l.Value)})
	}
	if msg := checkLabelCount(len(labels) - 2); msg != "" {
		fail("%s", msg)
		return
	}
	sort.Slice(labels[3:], func(i, j int) bool { return labels[3+i].Name < labels[3+j].Name })
	labels = append(labels, prompb.Label{Name: tenancy.Label, Value: p.ws})
	ts := int64(tsNanos / uint64(time.Millisecond))
	if msg := checkTimestamp(ts, p.now); msg != "" {
		fail("%s", msg)
		return
	}
	if flags&1 != 0 {
		value = decimal.StaleNaN // the data point says it has no recorded value
	}
	p.samples = append(p.samples, Sample{Labels: labels, Timestamp: ts, Value: value})
}

// OTLPHandler serves POST /internal/v1/write/otlp for workspace ws: an OTLP/HTTP metrics
// export in protobuf (the gateway turns JSON into protobuf), gzip or not.
func OTLPHandler(w http.ResponseWriter, r *http.Request, ws string) error {
	if r.Method != http.MethodPost {
		return apierror.New(http.StatusMethodNotAllowed, apierror.TypeMethodNotAllowed, "method %s not allowed; use POST", r.Method)
	}
	switch ct := r.Header.Get("Content-Type"); ct {
	case "", "application/x-protobuf", "application/protobuf":
	default:
		return apierror.New(http.StatusUnsupportedMediaType, apierror.TypeUnsupportedMediaType,
			"unsupported Content-Type %q; OTLP metrics must be protobuf (application/x-protobuf)", ct)
	}
	bb, err := readBody(r)
	if err != nil {
		batchesError.Inc()
		return err
	}
	defer bodyPool.Put(bb)
	samples, err := OTLPRows(bb.B, ws, time.Now().UnixMilli())
	if err != nil {
		batchesError.Inc()
		return err
	}
	return writeSamples(w, r, ws, samples)
}
