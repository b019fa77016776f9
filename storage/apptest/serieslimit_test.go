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

	// 250 new series against a limit of 100: about 150 points are left out (a few more series
	// may pass: the limiter is a Bloom filter, which can take a new series for a known one).
	dropped := write("ws-lim", 0, 250, now-60_000, limited)
	if dropped < 140 || dropped > 150 {
		t.Fatalf("250 new series under a limit of %d: want ~150 points left out; got %d", limit, dropped)
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
