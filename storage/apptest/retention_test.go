package apptest

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestWorkspaceRetention: with X-Vigil-Retention (the workspace's retention, set by the
// backend), nothing older is read through DQL or the Prometheus API, and a question only
// about older times is a 400 that says why.
func TestWorkspaceRetention(t *testing.T) {
	vs := Start(t, Binary(t), t.TempDir())
	now := time.Now().UnixMilli()
	old, recent := now-3*3600_000, now-60_000
	vs.WriteLines(t, "ws-r", "ms", fmt.Sprintf("ret,host=a v=1 %d\nret,host=a v=2 %d\n", old, recent))
	waitForExport(t, vs, "ws-r", `{__name__=~".+"}`, 1)
	hdr := map[string]string{"X-Vigil-Retention": "1h"}
	get := func(path string, args url.Values) Response {
		t.Helper()
		return vs.Do(t, http.MethodGet, path+"?"+args.Encode(), "ws-r", nil, hdr)
	}
	secs := func(ms int64) string { return strconv.FormatFloat(float64(ms)/1000, 'f', 3, 64) }

	// without the header all of it is there
	if resp := vs.Get(t, "/api/v1/export", "ws-r", url.Values{"match[]": {"ret:v"}}); !strings.Contains(resp.Body, fmt.Sprint(old)) {
		t.Fatalf("export without a retention: %s", resp)
	}
	resp := get("/api/v1/export", url.Values{"match[]": {"ret:v"}})
	if resp.Status != 200 || strings.Contains(resp.Body, fmt.Sprint(old)) || !strings.Contains(resp.Body, fmt.Sprint(recent)) {
		t.Fatalf("export with a 1h retention: want only the recent sample; got %s", resp)
	}
	// an export without a start, under a retention longer than the max duration (a year)
	resp = vs.Do(t, http.MethodGet, "/api/v1/export?match[]=ret:v", "ws-r", nil, map[string]string{"X-Vigil-Retention": "9600h"})
	if resp.Status != 200 || !strings.Contains(resp.Body, fmt.Sprint(old)) {
		t.Fatalf("export without a start under a 400-day retention: want both samples; got %s", resp)
	}
	resp = get("/api/v1/query_range", url.Values{"query": {"ret:v"}, "start": {secs(now - 4*3600_000)}, "end": {secs(now)}, "step": {"60"}})
	if resp.Status != 400 || !strings.Contains(resp.Body, "before the workspace's retention starts") {
		t.Fatalf("query_range from before the retention: want 400 naming it; got %s", resp)
	}
	resp = get("/api/v1/query_range", url.Values{"query": {"ret:v"}, "start": {secs(now - 1800_000)}, "end": {secs(now)}, "step": {"60"}})
	if resp.Status != 200 || !strings.Contains(resp.Body, `"2"]`) {
		t.Fatalf("query_range within the retention: %s", resp)
	}
	resp = get("/api/v1/query", url.Values{"query": {"ret:v"}, "time": {secs(old)}})
	if resp.Status != 400 || !strings.Contains(resp.Body, "before the workspace's retention starts") {
		t.Fatalf("instant query at a time before the retention: want 400 naming it; got %s", resp)
	}
	resp = vs.Do(t, http.MethodPost, "/v1/query/raw", "ws-r",
		strings.NewReader(`{"queries":[{"query":"M::ret:(v) [4h]"}]}`), hdr)
	if resp.Status != 200 || strings.Contains(resp.Body, fmt.Sprint(old)) || !strings.Contains(resp.Body, fmt.Sprint(recent)) {
		t.Fatalf("DQL over 4h with a 1h retention: want only the recent sample; got %s", resp)
	}
	if resp := vs.Do(t, http.MethodGet, "/api/v1/query?query=1", "ws-r", nil, map[string]string{"X-Vigil-Retention": "a week"}); resp.Status != 400 ||
		!strings.Contains(resp.Body, "X-Vigil-Retention") {
		t.Fatalf("a malformed retention header: want 400 naming it; got %s", resp)
	}
}
