package ingest

import (
	"net/http"
	"sync"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/bytesutil"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/prompb"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/storage"

	"vigil/storage/lib/apierror"
	"vigil/storage/lib/lineproto"
	"vigil/storage/lib/tenancy"
)

// lineSink receives the series of a line-protocol batch from parseLines: point once per
// line, then field once per numeric field of that line.
type lineSink interface {
	// point starts a line: its tags sorted by name, then the tenant label. tags is reused
	// for the next line.
	point(tags []prompb.Label, ts int64)
	// field adds one sample of the current line. The strings may point into the body.
	field(measurement, field string, value float64)
}

// parseLines parses and validates a line-protocol batch of workspace ws and hands its
// series to dst: one per (timeline, numeric field), labelled __measurement__, __field__,
// __name__="<measurement>:<field>", the tags and the tenant label. Points without a
// timestamp get nowMillis.
//
// The whole batch is parsed before any error about a point is returned, so that a batch
// with a syntax error anywhere gets that error first; after an error dst may have received
// part of the batch and must be discarded.
func parseLines(body, precision, ws string, nowMillis int64, dst lineSink) error {
	if err := lineproto.ValidatePrecision(precision); err != nil {
		return apierror.BadData("%s", err)
	}
	var tags []prompb.Label
	n := 0
	var invalid error // the first point that cannot be stored
	err := lineproto.Each(body, func(p *lineproto.Point) error {
		n += len(p.Fields)
		if invalid != nil || n > *maxRowsPerBatch {
			return nil
		}
		ts, err := checkPoint(p, precision, nowMillis)
		if err != nil {
			invalid = err
			return nil
		}
		// A canonical tag order keeps the raw metric name of a series stable across
		// batches, which VictoriaMetrics' TSID cache is keyed by.
		tags = tags[:0]
		for _, t := range p.Tags {
			tags = append(tags, prompb.Label{Name: t.Key, Value: t.Value})
			for i := len(tags) - 1; i > 0 && tags[i].Name < tags[i-1].Name; i-- {
				tags[i], tags[i-1] = tags[i-1], tags[i]
			}
		}
		tags = append(tags, prompb.Label{Name: tenancy.Label, Value: ws})
		dst.point(tags, ts)
		for _, f := range p.Fields {
			dst.field(p.Measurement, f.Key, f.Value)
		}
		return nil
	})
	if err != nil {
		return apierror.BadData("%s", err)
	}
	if n > *maxRowsPerBatch {
		return apierror.New(http.StatusRequestEntityTooLarge, apierror.TypeTooLarge, "the batch has %d samples; -ingest.maxRowsPerBatch=%d", n, *maxRowsPerBatch)
	}
	return invalid
}

// checkPoint returns the timestamp of p in milliseconds, or why p cannot be stored.
func checkPoint(p *lineproto.Point, precision string, nowMillis int64) (int64, error) {
	for _, t := range p.Tags {
		if tenancy.IsReserved(t.Key) {
			return 0, apierror.BadData("line %d: tag %q uses a reserved name (reserved: %s, vm_account_id, vm_project_id and names starting with __)", p.Line, t.Key, tenancy.Label)
		}
	}
	msg := checkLabelCount(len(p.Tags))
	for i := 0; i < len(p.Tags) && msg == ""; i++ {
		msg = checkLabel(p.Tags[i].Key, p.Tags[i].Value)
	}
	if msg != "" {
		return 0, apierror.BadData("line %d: %s", p.Line, msg)
	}
	for _, f := range p.Fields {
		// a field so named could be stored but never asked for: DQL refuses the name
		if tenancy.IsReserved(f.Key) {
			return 0, apierror.BadData("line %d: field %q uses a reserved name (reserved: %s, vm_account_id, vm_project_id and names starting with __)", p.Line, f.Key, tenancy.Label)
		}
		if n := len(p.Measurement) + 1 + len(f.Key); n > *maxLabelValueLen {
			return 0, apierror.BadData("line %d: measurement and field name %.40q… are %d bytes long together; -ingest.maxLabelValueLen=%d",
				p.Line, p.Measurement+":"+f.Key, n, *maxLabelValueLen)
		}
	}
	if !p.HasTimestamp {
		return nowMillis, nil
	}
	ts, _ := lineproto.TimestampToMillis(p.Timestamp, precision)
	if msg := checkTimestamp(ts, nowMillis); msg != "" {
		return 0, apierror.BadData("line %d: %s (precision %q)", p.Line, msg, precisionName(precision))
	}
	return ts, nil
}

// LineRows parses an Influx line-protocol batch and returns the samples to write for
// workspace ws (see parseLines). Their labels are __name__, __measurement__, __field__, the
// tags sorted by name, then the tenant label.
func LineRows(body []byte, precision, ws string, nowMillis int64) ([]Sample, error) {
	var sb samplesBuilder
	if err := parseLines(string(body), precision, ws, nowMillis, &sb); err != nil {
		return nil, err
	}
	if sb.samples == nil {
		sb.samples = []Sample{}
	}
	return sb.samples, nil
}

// samplesBuilder collects the samples of a batch for a Sink.
type samplesBuilder struct {
	samples []Sample
	tags    []prompb.Label
	ts      int64
}

func (sb *samplesBuilder) point(tags []prompb.Label, ts int64) {
	sb.tags = append([]prompb.Label(nil), tags...)
	sb.ts = ts
}

func (sb *samplesBuilder) field(measurement, field string, value float64) {
	labels := make([]prompb.Label, 0, len(sb.tags)+3)
	labels = append(labels,
		prompb.Label{Name: tenancy.MetricNameLabel, Value: measurement + ":" + field},
		prompb.Label{Name: tenancy.MeasurementLabel, Value: measurement},
		prompb.Label{Name: tenancy.FieldLabel, Value: field},
	)
	labels = append(labels, sb.tags...)
	sb.samples = append(sb.samples, Sample{Labels: labels, Timestamp: sb.ts, Value: value})
}

// rowsBuilder turns a batch into the rows of vmstorage.VMInsertAPI.WriteRows, the way VictoriaMetrics'
// influx handler does: the tags of a line are marshaled once, and each field's row is that
// prefix plus its own three labels. Builders are pooled, so a write allocates almost nothing.
type rowsBuilder struct {
	mrs    []storage.MetricRow
	buf    []byte // the raw metric names of mrs
	prefix []byte // the current line's tags, marshaled
	name   []byte // <measurement>:<field>
	ts     int64
}

func (rb *rowsBuilder) point(tags []prompb.Label, ts int64) {
	rb.prefix = storage.MarshalMetricNameRaw(rb.prefix[:0], tags)
	rb.ts = ts
}

func (rb *rowsBuilder) field(measurement, field string, value float64) {
	rb.name = append(append(append(rb.name[:0], measurement...), ':'), field...)
	labels := [3]prompb.Label{
		{Name: tenancy.MetricNameLabel, Value: bytesutil.ToUnsafeString(rb.name)}, // copied by the marshaling below
		{Name: tenancy.MeasurementLabel, Value: measurement},
		{Name: tenancy.FieldLabel, Value: field},
	}
	start := len(rb.buf)
	rb.buf = append(rb.buf, rb.prefix...)
	rb.buf = storage.MarshalMetricNameRaw(rb.buf, labels[:])
	// Earlier rows keep pointing into the previous array when buf grows; it is never
	// written again, so their names stay intact.
	raw := rb.buf[start:len(rb.buf):len(rb.buf)]
	rb.mrs = append(rb.mrs, storage.MetricRow{MetricNameRaw: raw, Timestamp: rb.ts, Value: value})
}

var rowsBuilderPool sync.Pool

func getRowsBuilder() *rowsBuilder {
	if v := rowsBuilderPool.Get(); v != nil {
		return v.(*rowsBuilder)
	}
	return &rowsBuilder{}
}

// maxPooledRowsBuf keeps the buffers of one huge batch from staying allocated.
const maxPooledRowsBuf = 64 << 20

func putRowsBuilder(rb *rowsBuilder) {
	if cap(rb.buf) > maxPooledRowsBuf {
		return
	}
	clear(rb.mrs)
	rb.mrs, rb.buf = rb.mrs[:0], rb.buf[:0]
	rowsBuilderPool.Put(rb)
}
