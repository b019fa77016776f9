package ingest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/prompb"
)

// testNow is the server time the tests pretend it is: 2027-01-15T08:00:00Z.
const testNow = int64(1_799_999_999_000)

func labels(kv ...string) []prompb.Label {
	var ls []prompb.Label
	for i := 0; i < len(kv); i += 2 {
		ls = append(ls, prompb.Label{Name: kv[i], Value: kv[i+1]})
	}
	return ls
}

func TestLineRowsSuccess(t *testing.T) {
	f := func(body, precision string, want []Sample) {
		t.Helper()
		got, err := LineRows([]byte(body), precision, "ws1", testNow)
		if err != nil {
			t.Fatalf("unexpected error: %s", err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("unexpected samples for %q\ngot  %+v\nwant %+v", body, got, want)
		}
	}
	f("cpu,host=a usage_user=1,usage_idle=99 1700000000000000000", "", []Sample{
		{Labels: labels("__name__", "cpu:usage_user", "__measurement__", "cpu", "__field__", "usage_user", "host", "a", "vigil_workspace", "ws1"), Timestamp: 1700000000000, Value: 1},
		{Labels: labels("__name__", "cpu:usage_idle", "__measurement__", "cpu", "__field__", "usage_idle", "host", "a", "vigil_workspace", "ws1"), Timestamp: 1700000000000, Value: 99},
	})
	// No timestamp: the server's time. Strings are skipped, booleans are 1/0.
	f(`proc,host=a name="nginx",up=true`, "s", []Sample{
		{Labels: labels("__name__", "proc:up", "__measurement__", "proc", "__field__", "up", "host", "a", "vigil_workspace", "ws1"), Timestamp: testNow, Value: 1},
	})
	f("m v=1 1700000000", "s", []Sample{
		{Labels: labels("__name__", "m:v", "__measurement__", "m", "__field__", "v", "vigil_workspace", "ws1"), Timestamp: 1700000000000, Value: 1},
	})
	f("m v=1 1700000000123456", "us", []Sample{
		{Labels: labels("__name__", "m:v", "__measurement__", "m", "__field__", "v", "vigil_workspace", "ws1"), Timestamp: 1700000000123, Value: 1},
	})
	f("", "ms", []Sample{})
}

func TestLineRowsFailure(t *testing.T) {
	f := func(body, precision, wantErr string) {
		t.Helper()
		_, err := LineRows([]byte(body), precision, "ws1", testNow)
		if err == nil || err.Error() != wantErr {
			t.Fatalf("unexpected error for %q\ngot  %v\nwant %s", body, err, wantErr)
		}
	}
	const reserved = " uses a reserved name (reserved: vigil_workspace, vm_account_id, vm_project_id and names starting with __)"
	f("cpu v=1\ncpu,vigil_workspace=B v=1", "", `line 2: tag "vigil_workspace"`+reserved)
	f("cpu,__name__=x v=1", "", `line 1: tag "__name__"`+reserved)
	f("cpu,vm_account_id=1 v=1", "", `line 1: tag "vm_account_id"`+reserved)
	f("rt vigil_workspace=1", "", `line 1: field "vigil_workspace"`+reserved)
	f("rt a=1,__field__=1", "", `line 1: field "__field__"`+reserved)
	f("cpu v=1\n\ncpu v=oops", "", `line 3: field "v": invalid number "oops" (strings must be double-quoted)`)
	f("cpu v=1", "h", `unsupported precision "h": want ns, us, ms or s`)
	f("cpu v=1 1\ncpu v=1 999999999999", "s", `line 2: timestamp 33658-09-27T01:46:39Z is more than 48h0m0s in the future (precision "s")`)
	f("cpu v=1 -5", "ms", `line 1: timestamp -5 is before 1970 (precision "ms")`)
	long := strings.Repeat("x", 4097)
	f("cpu,host="+long+" v=1", "", `line 1: value of tag "host" is 4097 bytes long; -ingest.maxLabelValueLen=4096`)
	f("cpu,"+long[:257]+"=1 v=1", "", `line 1: tag name "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… is 257 bytes long; -ingest.maxLabelNameLen=256`)
	f(long[:4000]+" "+long[:100]+"=1", "", `line 1: measurement and field name "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… are 4101 bytes long together; -ingest.maxLabelValueLen=4096`)
	var many strings.Builder
	many.WriteString("cpu")
	for i := 0; i < 65; i++ {
		fmt.Fprintf(&many, ",t%d=v", i)
	}
	f(many.String()+" v=1", "", `line 1: 65 tags exceed -ingest.maxLabelsPerSeries=64`)
	SetRetention(time.Hour)
	defer SetRetention(0)
	f("cpu v=1 0", "ms", `line 1: timestamp 1970-01-01T00:00:00Z is older than the retention period (1h0m0s) (precision "ms")`)
}

func TestPromRWRowsTimestamps(t *testing.T) {
	SetRetention(time.Hour)
	defer SetRetention(0)
	tss := []prompb.TimeSeries{{Labels: labels("__name__", "up"), Samples: []prompb.Sample{{Value: 1, Timestamp: 1700000000000}}}}
	_, err := PromRWRows(tss, "ws1", 1700000000000+2*3600_000)
	if err == nil || err.Error() != "series 0 (up): timestamp 2023-11-14T22:13:20Z is older than the retention period (1h0m0s)" {
		t.Fatalf("unexpected error: %v", err)
	}
}

func TestPromRWRows(t *testing.T) {
	tss := []prompb.TimeSeries{{
		Labels:  labels("__name__", "node_cpu_seconds_total", "cpu", "0", "mode", "idle"),
		Samples: []prompb.Sample{{Value: 1, Timestamp: 1000}, {Value: 2, Timestamp: 2000}},
	}}
	got, err := PromRWRows(tss, "ws1", 3000)
	if err != nil {
		t.Fatalf("unexpected error: %s", err)
	}
	l := labels("__name__", "node_cpu_seconds_total", "__measurement__", "node", "__field__", "cpu_seconds_total", "cpu", "0", "mode", "idle", "vigil_workspace", "ws1")
	want := []Sample{{Labels: l, Timestamp: 1000, Value: 1}, {Labels: l, Timestamp: 2000, Value: 2}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("unexpected samples\ngot  %+v\nwant %+v", got, want)
	}

	f := func(ls []prompb.Label, wantErr string) {
		t.Helper()
		_, err := PromRWRows([]prompb.TimeSeries{{Labels: ls, Samples: []prompb.Sample{{Value: 1, Timestamp: 1}}}}, "ws1", 3000)
		if err == nil || err.Error() != wantErr {
			t.Fatalf("unexpected error\ngot  %v\nwant %s", err, wantErr)
		}
	}
	const reserved = " uses a reserved name (reserved: vigil_workspace, vm_account_id, vm_project_id and names starting with __)"
	f(labels("__name__", "up", "vigil_workspace", "B"), `series 0 (up): label "vigil_workspace"`+reserved)
	f(labels("__name__", "up", "__measurement__", "x"), `series 0 (up): label "__measurement__"`+reserved)
	f(labels("job", "x"), `series 0 ({job="x"}): missing __name__ label`)
	f(labels("__name__", "up", "job", "a", "job", "b"), `series 0 (up): duplicate label "job"`)
}
