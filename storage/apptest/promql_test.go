package apptest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/prompb"
	"github.com/golang/snappy"
)

// TestPromQLMatchesSeriesOfTwoMetrics: an operation between two metrics matches their series
// on the labels other than the name, as in Prometheus, although storage derives
// __measurement__ and __field__ from each name; through the Prometheus API and DQL's qtype
// promql alike.
func TestPromQLMatchesSeriesOfTwoMetrics(t *testing.T) {
	vs := Start(t, Binary(t), t.TempDir())
	ts := time.Now().UnixMilli()
	var series []prompb.TimeSeries
	for _, s := range []struct {
		name string
		v    float64
	}{{"node_memory_MemAvailable_bytes", 2}, {"node_memory_MemTotal_bytes", 8}, {"node_load5", 3}} {
		for _, instance := range []string{"a:9100", "b:9100"} {
			series = append(series, prompb.TimeSeries{
				Labels:  []prompb.Label{{Name: "__name__", Value: s.name}, {Name: "instance", Value: instance}},
				Samples: []prompb.Sample{{Value: s.v, Timestamp: ts}},
			})
		}
	}
	wr := prompb.WriteRequest{Timeseries: series}
	body := snappy.Encode(nil, wr.MarshalProtobuf(nil))
	if resp := vs.Do(t, http.MethodPost, "/internal/v1/write/promrw", "ws-m", bytes.NewReader(body), nil); resp.Status != 204 {
		t.Fatalf("want 204; got %s", resp)
	}
	vs.WriteLines(t, "ws-m", "ms", fmt.Sprintf("cpu,host=h1 usage_user=3,usage_system=1 %d\n", ts))
	waitForQuery(t, vs, "ws-m", `count(node_load5) + count(cpu:usage_user)`, `"3"]`)

	for _, tc := range []struct{ query, want string }{
		{`node_memory_MemAvailable_bytes / node_memory_MemTotal_bytes`, `{"instance":"a:9100"},"value":[`},
		{`node_memory_MemAvailable_bytes{instance="b:9100"} / node_memory_MemTotal_bytes * 100`, `"25"]`},
		{`cpu:usage_user / cpu:usage_system`, `{"host":"h1"},"value":[`},
		{`node_load5 > bool node_memory_MemAvailable_bytes`, `"1"]`},
		// what already matched still does: a number, a labelless aggregation, on(...)
		{`node_load5 * on(instance) group_left node_memory_MemTotal_bytes`, `"24"]`},
		{`sum(node_memory_MemAvailable_bytes) / sum(node_memory_MemTotal_bytes)`, `"0.25"]`},
		{`node_load5 * 100 / count(node_load5)`, `"150"]`},
	} {
		resp := vs.Get(t, "/api/v1/query", "ws-m", url.Values{"query": {tc.query}, "time": {fmt.Sprint(ts/1000 + 1)}})
		if resp.Status != 200 || !strings.Contains(resp.Body, tc.want) {
			t.Fatalf("%s: want %s in the answer; got %s", tc.query, tc.want, resp)
		}
		q, _ := json.Marshal(map[string]any{"queries": []map[string]any{
			{"query": tc.query, "qtype": "promql", "time_range": []int64{ts - 1000, ts + 1000}, "step": "1s"},
		}})
		resp = vs.Do(t, http.MethodPost, "/v1/query/raw", "ws-m", bytes.NewReader(q), nil)
		if resp.Status != 200 || !strings.Contains(resp.Body, `"values":[[`) {
			t.Fatalf("qtype promql %s: want a series; got %s", tc.query, resp)
		}
	}
}
