package apptest

import (
	"bytes"
	"compress/gzip"
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

func TestWriteLine(t *testing.T) {
	dir := t.TempDir()
	vs := Start(t, Binary(t), dir)

	// A bad line rejects the whole batch: 400 naming the line, and nothing is written.
	now := time.Now().UnixNano()
	batch := fmt.Sprintf("rejected,host=x v=1 %d\nrejected,host=y v=oops %d\nrejected,host=z v=3 %d\n", now, now, now)
	resp := vs.Do(t, http.MethodPost, "/internal/v1/write/line", "ws-a", strings.NewReader(batch), nil)
	if resp.Status != 400 || resp.Body != `{"status":"error","errorType":"bad_data","error":"line 2: field \"v\": invalid number \"oops\" (strings must be double-quoted)"}`+"\n" {
		t.Fatalf("want 400 naming line 2; got %s", resp)
	}
	resp = vs.Do(t, http.MethodPost, "/internal/v1/write/line", "ws-a", strings.NewReader("ok v=1\nbad,vigil_workspace=ws-b v=1\n"), nil)
	if resp.Status != 400 || !strings.Contains(resp.Body, `line 2: tag \"vigil_workspace\" uses a reserved name`) {
		t.Fatalf("want 400 naming the reserved tag; got %s", resp)
	}
	resp = vs.Do(t, http.MethodPost, "/internal/v1/write/line?precision=h", "ws-a", strings.NewReader("ok v=1\n"), nil)
	if resp.Status != 400 || !strings.Contains(resp.Body, `unsupported precision \"h\"`) {
		t.Fatalf("want 400 for the precision; got %s", resp)
	}
	resp = vs.Do(t, http.MethodPost, "/internal/v1/write/line", "ws-a", strings.NewReader("ok v=1\n"), map[string]string{"Content-Encoding": "br"})
	if resp.Status != 415 {
		t.Fatalf("want 415 for brotli; got %s", resp)
	}

	// A point is queryable within 2 s of its write (gzip body, seconds precision).
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	fmt.Fprintf(zw, "fresh,host=h1 v=42 %d\n", time.Now().Unix())
	_ = zw.Close()
	start := time.Now()
	resp = vs.Do(t, http.MethodPost, "/internal/v1/write/line?precision=s", "ws-a", &gz, map[string]string{"Content-Encoding": "gzip"})
	if resp.Status != 204 {
		t.Fatalf("want 204; got %s", resp)
	}
	waitForQuery(t, vs, "ws-a", `fresh:v{host="h1"}`, `"42"]`)
	took := time.Since(start)
	t.Logf("point queryable %s after the write started", took)
	if took > 2*time.Second {
		t.Fatalf("the point became queryable only after %s; want <= 2s", took)
	}

	// Nothing of the rejected batches was written.
	waitForSeries(t, vs, "ws-a", `{__name__=~"rejected:.*|ok:.*|bad:.*"}`, 0)

	// (disk, io_read_bytes) and (disk_io, read_bytes) never merge.
	ts := time.Now().UnixMilli()
	vs.WriteLines(t, "ws-a", "ms", fmt.Sprintf("disk,host=h1 io_read_bytes=1 %d\ndisk_io,host=h1 read_bytes=2 %d\n", ts, ts))
	lines := waitForExport(t, vs, "ws-a", `{__measurement__=~"disk|disk_io"}`, 2)
	got := map[string]string{}
	for _, l := range lines {
		var e struct {
			Metric map[string]string
			Values []float64
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("bad export line %q: %s", l, err)
		}
		got[e.Metric["__measurement__"]+"."+e.Metric["__field__"]] = fmt.Sprint(e.Values)
	}
	if got["disk.io_read_bytes"] != "[1]" || got["disk_io.read_bytes"] != "[2]" {
		t.Fatalf("the two series merged or lost samples: %v", got)
	}

	// Replayed duplicates (same timestamp) collapse to one sample.
	vs.WriteLines(t, "ws-a", "ms", fmt.Sprintf("dup v=1 %d\n", ts))
	vs.WriteLines(t, "ws-a", "ms", fmt.Sprintf("dup v=1 %d\n", ts))
	lines = waitForExport(t, vs, "ws-a", `dup:v`, 1)
	if !strings.Contains(lines[0], `"values":[1],"timestamps":[`+fmt.Sprint(ts)+`]`) {
		t.Fatalf("want one deduplicated sample; got %s", lines[0])
	}
}

// waitForExport polls /api/v1/export until it returns n series and returns its lines.
func waitForExport(t *testing.T, vs *VigilStorage, ws, match string, n int) []string {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		resp := vs.Get(t, "/api/v1/export", ws, url.Values{"match[]": {match}})
		body := strings.TrimSpace(resp.Body)
		var lines []string
		if body != "" {
			lines = strings.Split(body, "\n")
		}
		if resp.Status == http.StatusOK && len(lines) == n {
			return lines
		}
		if time.Now().After(deadline) {
			t.Fatalf("workspace %s: want %d exported series for %s; last answer %s", ws, n, match, resp)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestWritePromRW(t *testing.T) {
	dir := t.TempDir()
	vs := Start(t, Binary(t), dir)
	ts := time.Now().UnixMilli()
	body := func(labels ...string) []byte {
		var ls []prompb.Label
		for i := 0; i < len(labels); i += 2 {
			ls = append(ls, prompb.Label{Name: labels[i], Value: labels[i+1]})
		}
		wr := prompb.WriteRequest{Timeseries: []prompb.TimeSeries{{Labels: ls, Samples: []prompb.Sample{{Value: 7, Timestamp: ts}}}}}
		return snappy.Encode(nil, wr.MarshalProtobuf(nil))
	}
	post := func(data []byte, headers map[string]string) Response {
		return vs.Do(t, http.MethodPost, "/internal/v1/write/promrw", "ws-a", bytes.NewReader(data), headers)
	}
	if resp := post(body("__name__", "node_cpu_seconds_total", "mode", "idle"), map[string]string{"Content-Encoding": "snappy"}); resp.Status != 204 {
		t.Fatalf("want 204; got %s", resp)
	}
	if resp := post(body("__name__", "up", "vigil_workspace", "ws-b"), nil); resp.Status != 400 || !strings.Contains(resp.Body, `label \"vigil_workspace\" uses a reserved name`) {
		t.Fatalf("want 400 for the tenant label; got %s", resp)
	}
	if resp := post(body("__name__", "up"), map[string]string{"Content-Encoding": "zstd"}); resp.Status != 415 {
		t.Fatalf("want 415 for zstd; got %s", resp)
	}
	if resp := post([]byte("not snappy"), nil); resp.Status != 400 || !strings.Contains(resp.Body, "cannot decode snappy body") {
		t.Fatalf("want 400 for garbage; got %s", resp)
	}
	waitForSeries(t, vs, "ws-a", `{__name__=~".+"}`, 1)
	resp := vs.Get(t, "/api/v1/series", "ws-a", url.Values{"match[]": {`{__measurement__="node",__field__="cpu_seconds_total"}`}})
	if resp.Body != `{"status":"success","data":[{"__field__":"cpu_seconds_total","__measurement__":"node","__name__":"node_cpu_seconds_total","mode":"idle"}]}`+"\n" {
		t.Fatalf("unexpected series: %s", resp)
	}
}

func TestWorkspaceDeleteAndUsage(t *testing.T) {
	dir := t.TempDir()
	vs := Start(t, Binary(t), dir)
	ts := time.Now().UnixMilli()
	vs.WriteLines(t, "ws-a", "ms", fmt.Sprintf("cpu,host=a u=1,i=2 %d\n", ts))
	vs.WriteLines(t, "ws-b", "ms", fmt.Sprintf("cpu,host=b u=1 %d\ncpu,host=b u=2 %d\n", ts-3*3600_000, ts))
	waitForSeries(t, vs, "ws-a", `{__name__=~".+"}`, 2)
	waitForSeries(t, vs, "ws-b", `{__name__=~".+"}`, 1)

	f := func(ws, want string) {
		t.Helper()
		resp := vs.Get(t, "/internal/v1/usage", ws, nil)
		if resp.Status != 200 || resp.Body != want+"\n" {
			t.Fatalf("usage of %s: want %s; got %s", ws, want, resp)
		}
	}
	f("ws-a", `{"active_series":2,"series_total":2,"series_limit_dropped_points":0}`)
	f("ws-b", `{"active_series":1,"series_total":1,"series_limit_dropped_points":0}`)

	resp := vs.Do(t, http.MethodDelete, "/internal/v1/workspace", "ws-a", nil, nil)
	if resp.Status != 200 || resp.Body != `{"deleted_series":2,"status":"success"}`+"\n" {
		t.Fatalf("unexpected delete answer: %s", resp)
	}
	f("ws-a", `{"active_series":0,"series_total":0,"series_limit_dropped_points":0}`)
	f("ws-b", `{"active_series":1,"series_total":1,"series_limit_dropped_points":0}`)
	waitForSeries(t, vs, "ws-a", `{__name__=~".+"}`, 0)
	waitForSeries(t, vs, "ws-b", `{__name__=~".+"}`, 1)
	if resp := vs.Do(t, http.MethodPost, "/internal/v1/workspace", "ws-a", nil, nil); resp.Status != 405 {
		t.Fatalf("want 405 for POST; got %s", resp)
	}

	// Series written just before the delete, not yet searchable, are deleted too: none of
	// them shows up once the writes would have become visible.
	vs.WriteLines(t, "ws-c", "ms", fmt.Sprintf("cpu,host=c u=1,i=2,s=3 %d\n", ts))
	resp = vs.Do(t, http.MethodDelete, "/internal/v1/workspace", "ws-c", nil, nil)
	if resp.Status != 200 || resp.Body != `{"deleted_series":3,"status":"success"}`+"\n" {
		t.Fatalf("delete right after a write: %s", resp)
	}
	time.Sleep(2 * time.Second)
	if got := vs.Get(t, "/api/v1/series", "ws-c", url.Values{"match[]": {`{__name__=~".+"}`}}); !strings.Contains(got.Body, `"data":[]`) {
		t.Fatalf("series written just before the delete survived it: %s", got)
	}
}
