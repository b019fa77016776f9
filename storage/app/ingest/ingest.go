// Package ingest writes batches into the embedded VictoriaMetrics storage for one workspace.
//
// A batch is parsed and validated completely before any of it is written, so a 400 means
// nothing from the batch was stored and the caller may fix or dead-letter it as a whole.
package ingest

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"sort"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmstorage"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/bytesutil"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/encoding/snappy"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/flagutil"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/prompb"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/protoparser/protoparserutil"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/storage"
	"github.com/VictoriaMetrics/metrics"

	"vigil/storage/app/tombstones"
	"vigil/storage/lib/apierror"
	"vigil/storage/lib/tenancy"
)

var (
	maxRequestSize = flagutil.NewBytes("ingest.maxRequestSize", 64*1024*1024, "The maximum size of a write request body after decompression. "+
		"Bigger requests get 413. See also -maxInsertRequestSize for remote_write bodies before decompression")
	maxRowsPerBatch    = flag.Int("ingest.maxRowsPerBatch", 1_000_000, "The maximum number of samples (point x numeric field) in one write request; bigger batches get 413")
	maxLabelNameLen    = flag.Int("ingest.maxLabelNameLen", 256, "The maximum length in bytes of a tag or label name; longer ones get 400")
	maxLabelValueLen   = flag.Int("ingest.maxLabelValueLen", 4096, "The maximum length in bytes of a tag or label value, a measurement name and <measurement>:<field>; longer ones get 400")
	maxLabelsPerSeries = flag.Int("ingest.maxLabelsPerSeries", 64, "The maximum number of tags or labels of one series, not counting the ones vigil-storage adds; more get 400")
)

var (
	rowsWritten  = metrics.NewCounter(`vigil_ingest_rows_total`)
	batchesOK    = metrics.NewCounter(`vigil_ingest_batches_total{result="ok"}`)
	batchesError = metrics.NewCounter(`vigil_ingest_batches_total{result="rejected"}`)
)

// maxFuture is how far ahead of the server's clock a timestamp may be; VictoriaMetrics drops
// anything later.
const maxFuture = 2 * 24 * time.Hour

// retention is the storage's retention; samples older than it are refused rather than
// silently dropped by the storage. Zero (remote mode) disables the check.
var retention time.Duration

// SetRetention sets the retention the write path checks timestamps against.
func SetRetention(d time.Duration) { retention = d }

// checkTimestamp returns why ts (milliseconds) cannot be stored, or "".
func checkTimestamp(ts, nowMillis int64) string {
	if ts > nowMillis+maxFuture.Milliseconds() {
		return fmt.Sprintf("timestamp %s is more than %s in the future", time.UnixMilli(ts).UTC().Format(time.RFC3339), maxFuture)
	}
	if ts < 0 {
		return fmt.Sprintf("timestamp %d is before 1970", ts)
	}
	if retention > 0 && ts < nowMillis-retention.Milliseconds() {
		return fmt.Sprintf("timestamp %s is older than the retention period (%s)", time.UnixMilli(ts).UTC().Format(time.RFC3339), retention)
	}
	return ""
}

// checkLabelCount returns why a series with n user-supplied labels cannot be stored, or "".
func checkLabelCount(n int) string {
	if n > *maxLabelsPerSeries {
		return fmt.Sprintf("%d tags exceed -ingest.maxLabelsPerSeries=%d", n, *maxLabelsPerSeries)
	}
	return ""
}

// checkLabel returns why a user-supplied label k=v cannot be stored, or "". The storage
// encodes lengths in 16 bits, so the limits also guard it.
func checkLabel(k, v string) string {
	if len(k) > *maxLabelNameLen {
		return fmt.Sprintf("tag name %.40q… is %d bytes long; -ingest.maxLabelNameLen=%d", k, len(k), *maxLabelNameLen)
	}
	if len(v) > *maxLabelValueLen {
		return fmt.Sprintf("value of tag %q is %d bytes long; -ingest.maxLabelValueLen=%d", k, len(v), *maxLabelValueLen)
	}
	return ""
}

// Sample is one value of one series before it is written.
type Sample struct {
	Labels    []prompb.Label
	Timestamp int64 // milliseconds
	Value     float64
}

// bodyPool holds request bodies between requests.
var bodyPool bytesutil.ByteBufferPool

// readBody reads the request body into a buffer of bodyPool, undoing Content-Encoding gzip
// (VictoriaMetrics' pooled readers), up to -ingest.maxRequestSize. Return the buffer with
// bodyPool.Put when done with it.
func readBody(r *http.Request) (*bytesutil.ByteBuffer, error) {
	var body io.Reader = r.Body
	switch ce := r.Header.Get("Content-Encoding"); ce {
	case "", "identity":
	case "gzip", "x-gzip":
		zr, err := protoparserutil.GetUncompressedReader(r.Body, "gzip")
		if err != nil {
			return nil, apierror.BadData("cannot read gzip body: %s", err)
		}
		defer protoparserutil.PutUncompressedReader(zr)
		body = zr
	default:
		return nil, apierror.New(http.StatusUnsupportedMediaType, apierror.TypeUnsupportedMediaType, "unsupported Content-Encoding %q; want gzip or none", ce)
	}
	bb := bodyPool.Get()
	if err := readLimited(bb, body); err != nil {
		bodyPool.Put(bb)
		return nil, err
	}
	return bb, nil
}

// readLimited reads body into bb, up to -ingest.maxRequestSize.
func readLimited(bb *bytesutil.ByteBuffer, body io.Reader) error {
	limit := maxRequestSize.N
	if _, err := bb.ReadFrom(io.LimitReader(body, limit+1)); err != nil {
		return apierror.BadData("cannot read request body: %s", err)
	}
	if int64(len(bb.B)) > limit {
		return apierror.New(http.StatusRequestEntityTooLarge, apierror.TypeTooLarge, "request body exceeds -ingest.maxRequestSize=%d bytes", limit)
	}
	return nil
}

func precisionName(p string) string {
	if p == "" {
		return "ns"
	}
	return p
}

// PromRWRows turns remote_write series into the samples to write for workspace ws. Each
// series keeps its __name__; __measurement__ and __field__ are derived from it with
// tenancy.SplitMetricName. Incoming labels with reserved names other than __name__ are
// refused.
func PromRWRows(tss []prompb.TimeSeries, ws string, nowMillis int64) ([]Sample, error) {
	n := 0
	for i := range tss {
		n += len(tss[i].Samples)
	}
	if n > *maxRowsPerBatch {
		return nil, apierror.New(http.StatusRequestEntityTooLarge, apierror.TypeTooLarge, "the batch has %d samples; -ingest.maxRowsPerBatch=%d", n, *maxRowsPerBatch)
	}
	samples := make([]Sample, 0, n)
	for i := range tss {
		ts := &tss[i]
		name := ""
		for _, l := range ts.Labels {
			if l.Name == tenancy.MetricNameLabel {
				name = l.Value
			}
		}
		if name == "" {
			return nil, apierror.BadData("series %d (%s): missing __name__ label", i, prompb.LabelsToString(ts.Labels))
		}
		if len(name) > *maxLabelValueLen {
			return nil, apierror.BadData("series %d: metric name %.40q… is %d bytes long; -ingest.maxLabelValueLen=%d", i, name, len(name), *maxLabelValueLen)
		}
		msg := checkLabelCount(len(ts.Labels))
		for j := 0; j < len(ts.Labels) && msg == ""; j++ {
			msg = checkLabel(ts.Labels[j].Name, ts.Labels[j].Value)
		}
		if msg != "" {
			return nil, apierror.BadData("series %d (%s): %s", i, name, msg)
		}
		labels := make([]prompb.Label, 0, len(ts.Labels)+3)
		m, f := tenancy.SplitMetricName(name)
		labels = append(labels,
			prompb.Label{Name: tenancy.MetricNameLabel, Value: name},
			prompb.Label{Name: tenancy.MeasurementLabel, Value: m},
			prompb.Label{Name: tenancy.FieldLabel, Value: f},
		)
		seen := map[string]bool{}
		for _, l := range ts.Labels {
			if l.Name == tenancy.MetricNameLabel {
				continue
			}
			if tenancy.IsReserved(l.Name) {
				return nil, apierror.BadData("series %d (%s): label %q uses a reserved name (reserved: %s, vm_account_id, vm_project_id and names starting with __)",
					i, name, l.Name, tenancy.Label)
			}
			if l.Name == "" {
				return nil, apierror.BadData("series %d (%s): empty label name", i, name)
			}
			if seen[l.Name] {
				return nil, apierror.BadData("series %d (%s): duplicate label %q", i, name, l.Name)
			}
			seen[l.Name] = true
			labels = append(labels, prompb.Label{Name: l.Name, Value: l.Value})
		}
		sort.Slice(labels[3:], func(i, j int) bool { return labels[3+i].Name < labels[3+j].Name })
		labels = append(labels, prompb.Label{Name: tenancy.Label, Value: ws})
		for _, s := range ts.Samples {
			if msg := checkTimestamp(s.Timestamp, nowMillis); msg != "" {
				return nil, apierror.BadData("series %d (%s): %s", i, name, msg)
			}
			samples = append(samples, Sample{Labels: labels, Timestamp: s.Timestamp, Value: s.Value})
		}
	}
	return samples, nil
}

// Sink stores the validated samples of workspace ws.
type Sink func(ctx context.Context, ws string, samples []Sample) error

// sink replaces the embedded storage when set (remote mode).
var sink Sink

// SetSink replaces the embedded storage as the destination of writes (remote mode).
func SetSink(s Sink) { sink = s }

// Write stores samples in the embedded storage.
func Write(samples []Sample) error {
	if len(samples) == 0 {
		return nil
	}
	mrs := make([]storage.MetricRow, len(samples))
	ends := make([]int, len(samples))
	var buf []byte
	for i := range samples {
		s := &samples[i]
		buf = storage.MarshalMetricNameRaw(buf, s.Labels)
		ends[i] = len(buf)
		mrs[i].Timestamp = s.Timestamp
		mrs[i].Value = s.Value
	}
	start := 0
	for i := range mrs {
		mrs[i].MetricNameRaw = buf[start:ends[i]:ends[i]]
		start = ends[i]
	}
	return addRows(mrs)
}

// writeLines stores line protocol (millisecond timestamps) that vigil-storage writes itself
// for workspace ws, in the embedded storage or through the sink.
func writeLines(ctx context.Context, ws string, lines []byte, nowMillis int64) error {
	if sink != nil {
		samples, err := LineRows(lines, "ms", ws, nowMillis)
		if err != nil {
			return err
		}
		return sink(ctx, ws, samples)
	}
	rb := getRowsBuilder()
	defer putRowsBuilder(rb)
	if err := parseLines(bytesutil.ToUnsafeString(lines), "ms", ws, nowMillis, rb); err != nil {
		return err
	}
	return addRows(rb.mrs)
}

// addRows stores rows in the embedded storage, as VictoriaMetrics' own insert handlers do.
func addRows(mrs []storage.MetricRow) error {
	if len(mrs) == 0 {
		return nil
	}
	if err := vmstorage.VMInsertAPI.WriteRows(mrs); err != nil {
		return apierror.New(http.StatusServiceUnavailable, apierror.TypeUnavailable, "cannot store %d samples: %s", len(mrs), err)
	}
	rowsWritten.Add(len(mrs))
	markWritten()
	return nil
}

// LineHandler serves POST /internal/v1/write/line for workspace ws.
func LineHandler(w http.ResponseWriter, r *http.Request, ws string) error {
	if r.Method != http.MethodPost {
		return apierror.New(http.StatusMethodNotAllowed, apierror.TypeMethodNotAllowed, "method %s not allowed; use POST", r.Method)
	}
	bb, err := readBody(r)
	if err != nil {
		batchesError.Inc()
		return err
	}
	defer bodyPool.Put(bb)
	maxSeries, err := maxActiveSeries(r)
	if err != nil {
		batchesError.Inc()
		return err
	}
	precision, now := r.URL.Query().Get("precision"), time.Now().UnixMilli()
	var dropped int
	if sink != nil {
		samples, err := LineRows(bb.B, precision, ws, now)
		if err != nil {
			batchesError.Inc()
			return err
		}
		samples, dropped = limitSamples(ws, maxSeries, samples)
		if err := tombstones.Write(ws, func() error { return sink(r.Context(), ws, samples) }); err != nil {
			return err
		}
	} else {
		rb := getRowsBuilder()
		defer putRowsBuilder(rb)
		// The body outlives every use of the strings parsed from it: rows copy them.
		if err := parseLines(bytesutil.ToUnsafeString(bb.B), precision, ws, now, rb); err != nil {
			batchesError.Inc()
			return err
		}
		rb.mrs, dropped = limitRows(ws, maxSeries, rb.mrs)
		if err := tombstones.Write(ws, func() error { return addRows(rb.mrs) }); err != nil {
			return err
		}
	}
	batchesOK.Inc()
	setDropped(w, dropped)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// PromRWHandler serves POST /internal/v1/write/promrw for workspace ws.
func PromRWHandler(w http.ResponseWriter, r *http.Request, ws string) error {
	if r.Method != http.MethodPost {
		return apierror.New(http.StatusMethodNotAllowed, apierror.TypeMethodNotAllowed, "method %s not allowed; use POST", r.Method)
	}
	switch ce := r.Header.Get("Content-Encoding"); ce {
	case "", "snappy":
	default:
		return apierror.New(http.StatusUnsupportedMediaType, apierror.TypeUnsupportedMediaType,
			"unsupported Content-Encoding %q; remote_write 1.0 bodies must be snappy-compressed", ce)
	}
	bb := bodyPool.Get()
	defer bodyPool.Put(bb)
	if err := readLimited(bb, r.Body); err != nil {
		batchesError.Inc()
		return err
	}
	tss, err := decodeRemoteWrite(bb.B)
	if err != nil {
		batchesError.Inc()
		return err
	}
	samples, err := PromRWRows(tss, ws, time.Now().UnixMilli())
	if err != nil {
		batchesError.Inc()
		return err
	}
	return writeSamples(w, r, ws, samples)
}

// writeSamples stores a validated batch of workspace ws, within the active series limit the
// request carries, in the embedded storage or through the sink, and answers 204.
func writeSamples(w http.ResponseWriter, r *http.Request, ws string, samples []Sample) error {
	maxSeries, err := maxActiveSeries(r)
	if err != nil {
		batchesError.Inc()
		return err
	}
	samples, dropped := limitSamples(ws, maxSeries, samples)
	write := Write
	if sink != nil {
		write = func(samples []Sample) error { return sink(r.Context(), ws, samples) }
	}
	if err := tombstones.Write(ws, func() error { return write(samples) }); err != nil {
		return err
	}
	batchesOK.Inc()
	setDropped(w, dropped)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func decodeRemoteWrite(compressed []byte) ([]prompb.TimeSeries, error) {
	data, err := snappyDecode(compressed)
	if err != nil {
		return nil, apierror.BadData("cannot decode snappy body of %d bytes: %s", len(compressed), err)
	}
	var wru prompb.WriteRequestUnmarshaler
	wr, err := wru.UnmarshalProtobuf(data)
	if err != nil {
		return nil, apierror.BadData("cannot unmarshal remote_write protobuf of %d bytes: %s", len(data), err)
	}
	// The unmarshaler's result points into its own buffers; copy what we keep.
	tss := make([]prompb.TimeSeries, len(wr.Timeseries))
	for i, ts := range wr.Timeseries {
		tss[i].Labels = append([]prompb.Label(nil), ts.Labels...)
		tss[i].Samples = append([]prompb.Sample(nil), ts.Samples...)
	}
	return tss, nil
}

func snappyDecode(src []byte) ([]byte, error) {
	return snappy.Decode(nil, src, int(maxRequestSize.N))
}
