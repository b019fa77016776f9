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
	// a range from before the retention is answered from where nothing it reads is older
	resp = get("/api/v1/query_range", url.Values{"query": {"ret:v"}, "start": {secs(now - 4*3600_000)}, "end": {secs(now)}, "step": {"60"}})
	if resp.Status != 200 || strings.Contains(resp.Body, `"1"]`) || !strings.Contains(resp.Body, `"2"]`) {
		t.Fatalf("query_range from before the retention: want only the recent value; got %s", resp)
	}
	resp = get("/api/v1/query_range", url.Values{"query": {"ret:v"}, "start": {secs(now - 4*3600_000)}, "end": {secs(now - 2*3600_000)}, "step": {"60"}})
	if resp.Status != 400 || !strings.Contains(resp.Body, "the workspace's retention starts at") {
		t.Fatalf("query_range ending before the retention: want 400 naming it; got %s", resp)
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

// TestRetentionEveryQueryForm: under a 1h retention, no form of query reads the sample of
// 3 h ago, while the same query without the retention does (so each case would catch a leak):
// PromQL offsets, long range windows, subqueries and @ modifiers, instant and range, and DQL.
func TestRetentionEveryQueryForm(t *testing.T) {
	vs := Start(t, Binary(t), t.TempDir())
	now := time.Now().UnixMilli()
	old, recent := now-3*3600_000, now-60_000
	// the old point is the minimum: any answer that read it shows "1"
	vs.WriteLines(t, "ws-f", "ms", fmt.Sprintf("ret,host=a v=1 %d\nret,host=a v=5 %d\n", old, recent))
	waitForExport(t, vs, "ws-f", `{__name__=~".+"}`, 1)
	secs := func(ms int64) string { return strconv.FormatFloat(float64(ms)/1000, 'f', 3, 64) }
	run := func(retention bool, path string, args url.Values) Response {
		t.Helper()
		hdr := map[string]string{}
		if retention {
			hdr["X-Vigil-Retention"] = "1h"
		}
		return vs.Do(t, http.MethodGet, path+"?"+args.Encode(), "ws-f", nil, hdr)
	}
	leaks := func(resp Response) bool { return strings.Contains(resp.Body, `"1"]`) }
	instant := func(q string) url.Values { return url.Values{"query": {q}, "time": {secs(now)}} }
	rng := func(q string, start int64) url.Values {
		return url.Values{"query": {q}, "start": {secs(start)}, "end": {secs(now)}, "step": {"60"}}
	}
	cases := []struct {
		name  string
		path  string
		args  url.Values
		want4 bool // true: refused with 400 under the retention; false: answered without the old point
	}{
		{"offset, instant", "/api/v1/query", instant(`min_over_time(ret:v[20m] offset 170m)`), true},
		{"offset, range", "/api/v1/query_range", rng(`min_over_time(ret:v[10m] offset 170m)`, now-30*60_000), true},
		{"long window, instant", "/api/v1/query", instant(`min_over_time(ret:v[4h])`), true},
		{"long window, range", "/api/v1/query_range", rng(`min_over_time(ret:v[4h])`, now-30*60_000), true},
		{"window within, range from before", "/api/v1/query_range", rng(`min_over_time(ret:v[20m])`, now-4*3600_000), false},
		{"subquery, instant", "/api/v1/query", instant(`min_over_time(ret:v[4h:1m])`), true},
		{"subquery, range", "/api/v1/query_range", rng(`min_over_time(min_over_time(ret:v[5m])[3h:5m])`, now-30*60_000), true},
		{"subquery with offset", "/api/v1/query", instant(`min_over_time(ret:v[30m:1m] offset 150m)`), true},
		{"@ timestamp", "/api/v1/query", instant(fmt.Sprintf(`min_over_time(ret:v[10m] @ %s)`, secs(old+60_000))), true},
		{"@ end() minus", "/api/v1/query_range", rng(`min_over_time(ret:v[10m] @ (end() - 10740))`, now-30*60_000), true},
		{"@ start()", "/api/v1/query_range", rng(`min_over_time(ret:v[4h] @ start())`, now-30*60_000), true},
	}
	for _, c := range cases {
		without := run(false, c.path, c.args)
		if without.Status != 200 || !leaks(without) {
			t.Fatalf("%s without a retention: want the old sample in the answer (the case must be able to fail); got %s", c.name, without)
		}
		with := run(true, c.path, c.args)
		if leaks(with) {
			t.Fatalf("%s: the answer under a 1h retention holds the sample of 3 h ago: %s", c.name, with)
		}
		if c.want4 && (with.Status != 400 || !strings.Contains(with.Body, "retention starts")) {
			t.Fatalf("%s: want 400 naming the retention; got %s", c.name, with)
		}
		if !c.want4 && (with.Status != 200 || !strings.Contains(with.Body, `"5"]`)) {
			t.Fatalf("%s: want 200 with the recent value only; got %s", c.name, with)
		}
	}
	// DQL: raw points, an aggregate over buckets, and a rolling window pushed down to MetricsQL.
	for _, q := range []string{
		"M::ret:(v) [4h]",
		"M::ret:(min(v)) [4h::1h]",
		"M::ret:(min(v)) [4h::10m] BY host",
	} {
		body := fmt.Sprintf(`{"queries":[{"query":%q}]}`, q)
		without := vs.Do(t, http.MethodPost, "/v1/query/raw", "ws-f", strings.NewReader(body), nil)
		if without.Status != 200 || !strings.Contains(without.Body, fmt.Sprint(old)) && !strings.Contains(without.Body, ",1]") {
			t.Fatalf("DQL %s without a retention: want the old point; got %s", q, without)
		}
		with := vs.Do(t, http.MethodPost, "/v1/query/raw", "ws-f", strings.NewReader(body), map[string]string{"X-Vigil-Retention": "1h"})
		if with.Status != 200 || strings.Contains(with.Body, fmt.Sprint(old)) || strings.Contains(with.Body, ",1]") {
			t.Fatalf("DQL %s under a 1h retention: want only the recent point; got %s", q, with)
		}
	}
}
