package ingest

import (
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/prompb"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/storage"

	"vigil/storage/lib/apierror"
	"vigil/storage/lib/lineproto"
	"vigil/storage/lib/tenancy"
)

// refLineRows is LineRows as it was before batches were parsed in one pass into pooled
// rows: parse everything, count, then check point by point. The current code must give the
// same samples and the same first error.
func refLineRows(body []byte, precision, ws string, nowMillis int64) ([]Sample, error) {
	if err := lineproto.ValidatePrecision(precision); err != nil {
		return nil, apierror.BadData("%s", err)
	}
	points, err := lineproto.Parse(string(body))
	if err != nil {
		return nil, apierror.BadData("%s", err)
	}
	n := 0
	for i := range points {
		n += len(points[i].Fields)
	}
	if n > *maxRowsPerBatch {
		return nil, apierror.New(http.StatusRequestEntityTooLarge, apierror.TypeTooLarge, "the batch has %d samples; -ingest.maxRowsPerBatch=%d", n, *maxRowsPerBatch)
	}
	samples := make([]Sample, 0, n)
	for i := range points {
		p := &points[i]
		for _, t := range p.Tags {
			if tenancy.IsReserved(t.Key) {
				return nil, apierror.BadData("line %d: tag %q uses a reserved name (reserved: %s, vm_account_id, vm_project_id and names starting with __)", p.Line, t.Key, tenancy.Label)
			}
		}
		msg := checkLabelCount(len(p.Tags))
		for j := 0; j < len(p.Tags) && msg == ""; j++ {
			msg = checkLabel(p.Tags[j].Key, p.Tags[j].Value)
		}
		if msg != "" {
			return nil, apierror.BadData("line %d: %s", p.Line, msg)
		}
		for _, f := range p.Fields {
			if tenancy.IsReserved(f.Key) {
				return nil, apierror.BadData("line %d: field %q uses a reserved name (reserved: %s, vm_account_id, vm_project_id and names starting with __)", p.Line, f.Key, tenancy.Label)
			}
			if n := len(p.Measurement) + 1 + len(f.Key); n > *maxLabelValueLen {
				return nil, apierror.BadData("line %d: measurement and field name %.40q… are %d bytes long together; -ingest.maxLabelValueLen=%d",
					p.Line, p.Measurement+":"+f.Key, n, *maxLabelValueLen)
			}
		}
		sort.Slice(p.Tags, func(i, j int) bool { return p.Tags[i].Key < p.Tags[j].Key })
		ts := nowMillis
		if p.HasTimestamp {
			ts, _ = lineproto.TimestampToMillis(p.Timestamp, precision)
			if msg := checkTimestamp(ts, nowMillis); msg != "" {
				return nil, apierror.BadData("line %d: %s (precision %q)", p.Line, msg, precisionName(precision))
			}
		}
		for _, f := range p.Fields {
			labels := []prompb.Label{
				{Name: tenancy.MetricNameLabel, Value: p.Measurement + ":" + f.Key},
				{Name: tenancy.MeasurementLabel, Value: p.Measurement},
				{Name: tenancy.FieldLabel, Value: f.Key},
			}
			for _, t := range p.Tags {
				labels = append(labels, prompb.Label{Name: t.Key, Value: t.Value})
			}
			labels = append(labels, prompb.Label{Name: tenancy.Label, Value: ws})
			samples = append(samples, Sample{Labels: labels, Timestamp: ts, Value: f.Value})
		}
	}
	return samples, nil
}

// canonicalName is the metric name the storage derives from a raw one, as a string.
func canonicalName(t *testing.T, raw []byte) string {
	t.Helper()
	var mn storage.MetricName
	if err := mn.UnmarshalRaw(raw); err != nil {
		t.Fatalf("cannot unmarshal raw metric name %q: %s", raw, err)
	}
	kv := make([]string, 0, len(mn.Tags))
	for _, tag := range mn.Tags {
		kv = append(kv, string(tag.Key)+"="+string(tag.Value))
	}
	sort.Strings(kv)
	return string(mn.MetricGroup) + "{" + strings.Join(kv, ",") + "}"
}

// sameRows checks that LineRows and the rows written by LineHandler's embedded path carry
// what refLineRows says, or fail with its error.
func sameRows(t *testing.T, body, precision string) {
	t.Helper()
	want, wantErr := refLineRows([]byte(body), precision, "ws1", testNow)
	got, gotErr := LineRows([]byte(body), precision, "ws1", testNow)
	rb := getRowsBuilder()
	defer putRowsBuilder(rb)
	rowsErr := parseLines(body, precision, "ws1", testNow, rb)
	for _, err := range []error{gotErr, rowsErr} {
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("%q: error %v; before it was %v", body, err, wantErr)
		}
	}
	if wantErr != nil {
		return
	}
	if len(want) == 0 && len(got) == 0 {
		got = want
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: LineRows\ngot  %+v\nwant %+v", body, got, want)
	}
	if len(rb.mrs) != len(want) {
		t.Fatalf("%q: %d rows; want %d", body, len(rb.mrs), len(want))
	}
	for i, s := range want {
		mr := rb.mrs[i]
		wantName := canonicalName(t, storage.MarshalMetricNameRaw(nil, append([]prompb.Label(nil), s.Labels...)))
		if gotName := canonicalName(t, mr.MetricNameRaw); gotName != wantName || mr.Timestamp != s.Timestamp || mr.Value != s.Value {
			t.Fatalf("%q: row %d is %s %d %v; want %s %d %v", body, i, gotName, mr.Timestamp, mr.Value, wantName, s.Timestamp, s.Value)
		}
	}
}

var lineCorpus = []string{
	"",
	"cpu,host=a usage_user=1,usage_idle=99 1700000000000000000",
	"cpu,host=b,dc=x,az=1 u=1i,s=2u,b=true,t=\"text\" 1700000000000000000\n# c\n\nmem,host=b used=5\r\n",
	"m,z=1,a=2,m=3 f=1,g=2,f=3 1700000000000000000",
	`m\ x,t\,k=v\=1 f\ k=1`,
	"0 __=0", // a field with a reserved name
	"rt a=1,vigil_workspace=2 1700000000000000000",
	"cpu v=1\ncpu,vigil_workspace=B v=1",
	"cpu,vigil_workspace=B v=1\ncpu v=oops",
	"cpu,__name__=x v=1",
	"cpu,vm_account_id=1 v=1",
	"cpu v=1 1\ncpu v=1 999999999999999999",
	"cpu v=1 -5",
	"cpu,host=" + strings.Repeat("x", 4097) + " v=1",
	strings.Repeat("x", 4000) + " " + strings.Repeat("y", 100) + "=1",
	"cpu,vigil_workspace=B v=1\ncpu,host=" + strings.Repeat("x", 4097) + " v=1",
	"cpu,host=" + strings.Repeat("x", 4097) + " v=1\ncpu,vigil_workspace=B v=1",
}

func TestLineRowsMatchReference(t *testing.T) {
	var many strings.Builder
	many.WriteString("cpu")
	for i := 0; i < 65; i++ {
		fmt.Fprintf(&many, ",t%d=v", i)
	}
	wide := "wide,host=a "
	for i := 0; i < 60; i++ {
		wide += fmt.Sprintf("f%d=%d,", i, i)
	}
	wide += "f7=70,f9=\"s\" 1700000000000000000"
	for _, body := range append(lineCorpus, many.String()+" v=1", wide, wide+"\n"+wide) {
		for _, precision := range []string{"", "ms", "s", "h"} {
			sameRows(t, body, precision)
		}
	}
	// Too many samples: 413, whatever else is wrong after the syntax.
	old := *maxRowsPerBatch
	*maxRowsPerBatch = 3
	defer func() { *maxRowsPerBatch = old }()
	sameRows(t, "cpu a=1,b=2\ncpu,vigil_workspace=x c=3,d=4", "")
	sameRows(t, "cpu a=1,b=2\ncpu c=3,d=4\ncpu oops", "")
	sameRows(t, "cpu a=1,b=2,c=3", "")
}

// FuzzLineRows checks that LineRows and the embedded write path agree with refLineRows on
// any batch.
//
//	go test -run=^$ -fuzz=FuzzLineRows -fuzztime=20s ./app/ingest/
func FuzzLineRows(f *testing.F) {
	for _, s := range lineCorpus {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		sameRows(t, body, "ms")
	})
}
