package apptest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/prompb"
	"github.com/golang/snappy"
)

// TestActiveSeriesLimit: with X-Vigil-Max-Active-Series (the workspace's limit, passed on by
// the consumer), points of new series beyond the limit are left out and counted
// (X-Vigil-Dropped-Points, /internal/v1/usage), while the series the workspace has keep
// taking points, and other workspaces are not affected.
func TestActiveSeriesLimit(t *testing.T) {
	vs := Start(t, Binary(t), t.TempDir())
	now := time.Now().UnixMilli()
	const limit = 100
	limited := map[string]string{"X-Vigil-Max-Active-Series": strconv.Itoa(limit)}
	write := func(ws string, first, n int, ts int64, headers map[string]string) int {
		t.Helper()
		var b strings.Builder
		for i := first; i < first+n; i++ {
			fmt.Fprintf(&b, "lim,host=h%03d v=1 %d\n", i, ts)
		}
		resp := vs.Do(t, http.MethodPost, "/internal/v1/write/line?precision=ms", ws, strings.NewReader(b.String()), headers)
		if resp.Status != http.StatusNoContent {
			t.Fatalf("write to %s: want 204; got %s", ws, resp)
		}
		dropped, _ := strconv.Atoi(resp.Header.Get("X-Vigil-Dropped-Points"))
		return dropped
	}
	stored := func(ws string) int {
		t.Helper()
		time.Sleep(2 * time.Second) // > the visibility interval
		resp := vs.Get(t, "/api/v1/series", ws, map[string][]string{"match[]": {"lim:v"}})
		var r struct{ Data []map[string]string }
		if err := json.Unmarshal([]byte(resp.Body), &r); err != nil || resp.Status != http.StatusOK {
			t.Fatalf("series of %s: %s", ws, resp)
		}
		return len(r.Data)
	}

	// 250 new series against a limit of 100: 150 points are left out (a set this small is
	// exact; near a big limit it becomes a Bloom filter, which lets a few more in).
	dropped := write("ws-lim", 0, 250, now-60_000, limited)
	if dropped != 150 {
		t.Fatalf("250 new series under a limit of %d: want 150 points left out; got %d", limit, dropped)
	}
	kept := 250 - dropped
	if n := stored("ws-lim"); n != kept {
		t.Fatalf("ws-lim: want the %d series kept stored; got %d", kept, n)
	}
	// The series it has keep taking points, new ones are still left out.
	if d := write("ws-lim", 0, 250, now, limited); d != dropped {
		t.Fatalf("the same series again: want the same %d left out; got %d", dropped, d)
	}
	// remote_write is limited alike
	wr := prompb.WriteRequest{Timeseries: []prompb.TimeSeries{{
		Labels:  []prompb.Label{{Name: "__name__", Value: "lim_new"}},
		Samples: []prompb.Sample{{Value: 1, Timestamp: now}},
	}}}
	resp := vs.Do(t, http.MethodPost, "/internal/v1/write/promrw", "ws-lim", bytes.NewReader(snappy.Encode(nil, wr.MarshalProtobuf(nil))),
		map[string]string{"Content-Encoding": "snappy", "X-Vigil-Max-Active-Series": strconv.Itoa(limit)})
	if resp.Status != http.StatusNoContent || resp.Header.Get("X-Vigil-Dropped-Points") != "1" {
		t.Fatalf("remote_write of a new series over the limit: want 204 with 1 point left out; got %s %v", resp, resp.Header)
	}
	// The workspace's usage counts them.
	resp = vs.Get(t, "/internal/v1/usage", "ws-lim", nil)
	var usage struct {
		Dropped int `json:"series_limit_dropped_points"`
	}
	if err := json.Unmarshal([]byte(resp.Body), &usage); err != nil || usage.Dropped != 2*dropped+1 {
		t.Fatalf("usage of ws-lim: want %d points left out; got %s", 2*dropped+1, resp)
	}

	// Another workspace has its own count, and without the header no limit.
	if d := write("ws-other", 0, limit, now, limited); d != 0 {
		t.Fatalf("another workspace with the same limit: want nothing left out; got %d", d)
	}
	if d := write("ws-free", 0, 250, now, nil); d != 0 {
		t.Fatalf("a write without a limit: want nothing left out; got %d", d)
	}
	// A higher limit lets new series in again.
	if d := write("ws-lim", 250, 10, now, map[string]string{"X-Vigil-Max-Active-Series": "1000"}); d != 0 {
		t.Fatalf("new series after the limit was raised: want nothing left out; got %d", d)
	}
	if resp := vs.Do(t, http.MethodPost, "/internal/v1/write/line", "ws-lim", strings.NewReader("lim v=1\n"),
		map[string]string{"X-Vigil-Max-Active-Series": "many"}); resp.Status != 400 || !strings.Contains(resp.Body, "X-Vigil-Max-Active-Series") {
		t.Fatalf("a malformed limit: want 400 naming the header; got %s", resp)
	}
}

// TestUsageOfAWorkspaceTooBigToCount: past -vmsource.maxMetadataSeries the series counts are
// null with the reason, and the rest of the usage is still answered.
func TestUsageOfAWorkspaceTooBigToCount(t *testing.T) {
	vs := Start(t, Binary(t), t.TempDir(), "-vmsource.maxMetadataSeries=5")
	now := time.Now().UnixMilli()
	var b strings.Builder
	for i := 0; i < 10; i++ {
		fmt.Fprintf(&b, "big,host=h%d v=1 %d\n", i, now)
	}
	vs.WriteLines(t, "ws-big", "ms", b.String())
	waitForExport(t, vs, "ws-big", "big:v", 10)
	resp := vs.Get(t, "/internal/v1/usage", "ws-big", nil)
	var u map[string]any
	if err := json.Unmarshal([]byte(resp.Body), &u); err != nil || resp.Status != 200 {
		t.Fatalf("usage of a workspace with more series than can be counted: want 200; got %s", resp)
	}
	if u["active_series"] != nil || u["series_total"] != nil || u["series_limit_dropped_points"] != float64(0) ||
		!strings.Contains(fmt.Sprint(u["error"]), "active series not counted: too many series") {
		t.Fatalf("want null counts with the reason, and the rest; got %s", resp)
	}
}

// TestActiveSeriesOverTime: storage writes each limited workspace's number of active series
// into its own usage workspace, and each workspace reads only its own figures; no caller can
// name the usage workspace.
func TestActiveSeriesOverTime(t *testing.T) {
	vs := Start(t, Binary(t), t.TempDir(), "-ingest.activeSeriesReportInterval=500ms")
	start := time.Now()
	write := func(ws string, n int) {
		t.Helper()
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "cpu,host=h%03d usage=1 %d\n", i, time.Now().UnixMilli())
		}
		resp := vs.Do(t, http.MethodPost, "/internal/v1/write/line?precision=ms", ws, strings.NewReader(b.String()),
			map[string]string{"X-Vigil-Max-Active-Series": "1000"})
		if resp.Status != http.StatusNoContent {
			t.Fatalf("write to %s: want 204; got %s", ws, resp)
		}
	}
	history := func(ws string) []float64 {
		t.Helper()
		end := time.Now().Add(time.Minute)
		resp := vs.Get(t, "/internal/v1/usage/active_series", ws, map[string][]string{
			"start": {strconv.FormatInt(start.Add(-time.Minute).Unix(), 10)},
			"end":   {strconv.FormatInt(end.Unix(), 10)},
			"step":  {"15s"},
		})
		var r struct {
			Data struct {
				Result []struct {
					Metric map[string]string
					Values [][2]any
				}
			}
		}
		if err := json.Unmarshal([]byte(resp.Body), &r); err != nil || resp.Status != http.StatusOK {
			t.Fatalf("active series of %s: %s", ws, resp)
		}
		if len(r.Data.Result) > 1 {
			t.Fatalf("active series of %s: want one series; got %s", ws, resp)
		}
		var out []float64
		for _, res := range r.Data.Result {
			if res.Metric["workspace"] != ws {
				t.Fatalf("active series of %s: the answer is about %q", ws, res.Metric["workspace"])
			}
			for _, v := range res.Values {
				f, _ := strconv.ParseFloat(fmt.Sprint(v[1]), 64)
				out = append(out, f)
			}
		}
		return out
	}
	write("ws-a", 30)
	write("ws-b", 5)
	deadline := time.Now().Add(15 * time.Second)
	for {
		a, b := history("ws-a"), history("ws-b")
		if len(a) > 0 && a[len(a)-1] == 30 && len(b) > 0 && b[len(b)-1] == 5 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("want the last points 30 (ws-a) and 5 (ws-b); got %v and %v", a, b)
		}
		time.Sleep(500 * time.Millisecond)
	}
	if c := history("ws-c"); len(c) != 0 {
		t.Fatalf("a workspace that never wrote: want no points; got %v", c)
	}
	// the usage workspace is no caller's
	for path, args := range map[string]map[string][]string{
		"/api/v1/series":                   {"match[]": {`{__name__=~".+"}`}},
		"/internal/v1/usage/active_series": {"start": {"0"}, "end": {"1"}, "step": {"1s"}},
	} {
		if resp := vs.Get(t, path, "vigil-usage", args); resp.Status != http.StatusBadRequest || !strings.Contains(resp.Body, "reserved") {
			t.Fatalf("GET %s as the usage workspace: want 400 reserved; got %s", path, resp)
		}
	}
	if resp := vs.Get(t, "/internal/v1/usage/active_series", "ws-a", map[string][]string{"start": {"0"}, "end": {"1"}}); resp.Status != http.StatusBadRequest ||
		!strings.Contains(resp.Body, `missing \"step\" parameter`) {
		t.Fatalf("without step: want 400 naming it; got %s", resp)
	}
}
