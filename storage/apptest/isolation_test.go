package apptest

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// waitTimeout bounds every wait for written data to show up. The embedded storage needs
// about a second; a stock VictoriaMetrics behind remote mode may need up to ~10 s for new
// series (its tag-filter cache refresh).
const waitTimeout = 15 * time.Second

// B's data carries markers that must never appear in an answer to A. The value is one no
// timing ("cost") or timestamp in an answer is likely to contain; costs are ignored anyway.
const (
	markerHost  = "b-secret-host"
	markerValue = "8675309.25"
)

// costField matches the DQL answers' "cost" (a duration that may contain any digits).
var costField = regexp.MustCompile(`"cost":"[^"]*"`)

func writeAB(t *testing.T, vs *VigilStorage) int64 {
	t.Helper()
	now := time.Now().UnixMilli()
	vs.WriteLines(t, "ws-a", "ms", fmt.Sprintf("cpu,host=a1 usage_user=1,usage_idle=99 %d\ncpu,host=a2 usage_user=2,usage_idle=98 %d\n", now, now))
	vs.WriteLines(t, "ws-b", "ms", fmt.Sprintf("cpu,host=%s usage_user=%s,usage_idle=%s %d\nbonly,host=%s v=%s %d\n",
		markerHost, markerValue, markerValue, now, markerHost, markerValue, now))
	return now
}

// waitForSeries polls until workspace ws has n series matching match.
func waitForSeries(t *testing.T, vs *VigilStorage, ws, match string, n int) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		resp := vs.Get(t, "/api/v1/series", ws, url.Values{"match[]": {match}})
		var r struct{ Data []map[string]string }
		if resp.Status == http.StatusOK && json.Unmarshal([]byte(resp.Body), &r) == nil && len(r.Data) == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("workspace %s: want %d series for %s; last answer %s", ws, n, match, resp)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitForQuery polls the instant query q in workspace ws until its answer contains want.
func waitForQuery(t *testing.T, vs *VigilStorage, ws, q, want string) time.Duration {
	t.Helper()
	start := time.Now()
	deadline := start.Add(waitTimeout)
	for {
		resp := vs.Get(t, "/api/v1/query", ws, url.Values{"query": {q}})
		if resp.Status == http.StatusOK && strings.Contains(resp.Body, want) {
			return time.Since(start)
		}
		if time.Now().After(deadline) {
			t.Fatalf("workspace %s: query %s never answered with %s; last answer %s", ws, q, want, resp)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func assertClean(t *testing.T, what string, resp Response) {
	t.Helper()
	bads := []string{markerHost, markerValue, "bonly", "vigil_workspace", "ws-b"}
	if resp.Status >= 400 {
		// Errors may quote the refused query; they must still carry none of B's data.
		bads = bads[:3]
	}
	body := costField.ReplaceAllString(resp.Body, `"cost":""`)
	for _, bad := range bads {
		if strings.Contains(body, bad) {
			t.Fatalf("%s: the answer to workspace A contains %q: %s", what, bad, resp)
		}
	}
}

func TestIsolation(t *testing.T) {
	dir := t.TempDir()
	vs := Start(t, Binary(t), dir)
	checkIsolation(t, vs)
}

// checkIsolation writes A's and B's data and proves that every read endpoint answers A's
// requests, hostile or not, with A's data only or a 400.
func checkIsolation(t *testing.T, vs *VigilStorage) {
	writeAB(t, vs)
	waitForSeries(t, vs, "ws-a", `{__name__=~".+"}`, 4)
	waitForSeries(t, vs, "ws-b", `{__name__=~".+"}`, 3)
	// Instant queries default to now - latencyOffset (1s): wait until the points are in view.
	waitForQuery(t, vs, "ws-a", `count({__name__=~".+"})`, `"4"]`)
	waitForQuery(t, vs, "ws-b", `count({__name__=~".+"})`, `"3"]`)

	type call struct {
		path string
		args url.Values
	}
	q := func(query string) url.Values { return url.Values{"query": {query}} }
	qr := func(query string) url.Values {
		now := time.Now().Unix()
		return url.Values{"query": {query}, "start": {fmt.Sprint(now - 600)}, "end": {fmt.Sprint(now + 60)}, "step": {"15"}}
	}
	m := func(match ...string) url.Values { return url.Values{"match[]": match} }

	// Hostile requests are refused outright.
	refused := []call{
		{"/api/v1/query", q(`cpu:usage_user{vigil_workspace="ws-b"}`)},
		{"/api/v1/query", q(`{vigil_workspace=~".+"}`)},
		{"/api/v1/query", q(`{__name__=~".+", vigil_workspace!="ws-a"}`)},
		{"/api/v1/query", q(`cpu:usage_user or {vigil_workspace="ws-b"}`)},
		{"/api/v1/query", q(`cpu:usage_user unless on (vigil_workspace) cpu:usage_idle`)},
		{"/api/v1/query", q(`cpu:usage_user{host="a1" or vigil_workspace="ws-b"}`)},
		{"/api/v1/query", q(`sum by (vigil_workspace) (cpu:usage_user)`)},
		{"/api/v1/query", q(`label_replace(cpu:usage_user, "vigil_workspace", "ws-b", "", "")`)},
		{"/api/v1/query", q(`with (x = {vigil_workspace="ws-b"}) x`)},
		{"/api/v1/query", q(`{vm_account_id="1"}`)},
		{"/api/v1/query_range", qr(`{vigil_workspace="ws-b"}`)},
		{"/api/v1/series", m(`{vigil_workspace="ws-b"}`)},
		{"/api/v1/series", m(`{host="a1"}`, `{vigil_workspace=~"ws-.*"}`)},
		{"/api/v1/labels", m(`{vigil_workspace="ws-b"}`)},
		{"/api/v1/label/host/values", m(`{vigil_workspace="ws-b"}`)},
		{"/api/v1/label/vigil_workspace/values", nil},
		{"/api/v1/export", m(`{vigil_workspace="ws-b"}`)},
		{"/api/v1/export", m(`sum(cpu:usage_user)`)},
	}
	for _, c := range refused {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			var resp Response
			if method == http.MethodGet {
				resp = vs.Get(t, c.path, "ws-a", c.args)
			} else {
				resp = vs.PostForm(t, c.path, "ws-a", c.args)
			}
			if resp.Status != http.StatusBadRequest || !strings.Contains(resp.Body, `"errorType":"bad_data"`) {
				t.Fatalf("%s %s %v: want 400 bad_data; got %s", method, c.path, c.args, resp)
			}
		}
	}

	// Everything else answers with A's data only.
	extra := url.Values{"query": {`{__name__=~".+"}`}, "extra_label": {"vigil_workspace=ws-b"}, "extra_filters[]": {`{vigil_workspace="ws-b"}`}}
	allowed := []call{
		{"/api/v1/query", q(`{__name__=~".+"}`)},
		{"/api/v1/query", q(`{__name__=~".+"} or {host="` + markerHost + `"}`)},
		{"/api/v1/query", q(`{host=~".+"} unless {host="a1"}`)},
		{"/api/v1/query", q(`count({__name__=~".+"})`)},
		{"/api/v1/query", q(`{__name__=~".+"}[5m]`)},
		{"/api/v1/query", q(`max(max_over_time({__name__=~".*"}[10m]))`)},
		{"/api/v1/query", extra},
		{"/api/v1/query_range", qr(`{__name__=~".+"}`)},
		{"/api/v1/query_range", qr(`bonly:v or cpu:usage_user`)},
		{"/api/v1/series", m(`{__name__=~".+"}`)},
		{"/api/v1/series", m(`{host="` + markerHost + `"}`)},
		{"/api/v1/labels", nil},
		{"/api/v1/labels", m(`{__name__=~".+"}`)},
		{"/api/v1/label/host/values", nil},
		{"/api/v1/label/__name__/values", nil},
		{"/api/v1/label/__measurement__/values", nil},
		{"/api/v1/export", m(`{__name__=~".+"}`)},
		{"/api/v1/export", m(`{host="` + markerHost + `"}`)},
	}
	for _, c := range allowed {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			var resp Response
			if method == http.MethodGet {
				resp = vs.Get(t, c.path, "ws-a", c.args)
			} else {
				resp = vs.PostForm(t, c.path, "ws-a", c.args)
			}
			if resp.Status != http.StatusOK {
				t.Fatalf("%s %s %v: want 200; got %s", method, c.path, c.args, resp)
			}
			assertClean(t, method+" "+c.path+" "+c.args.Encode(), resp)
		}
	}

	// A does see its own data.
	resp := vs.Get(t, "/api/v1/query", "ws-a", q(`count({__name__=~".+"})`))
	if !strings.Contains(resp.Body, `"4"]`) {
		t.Fatalf("want 4 series for A; got %s", resp)
	}
	resp = vs.Get(t, "/api/v1/label/host/values", "ws-a", nil)
	if resp.Body != `{"status":"success","data":["a1","a2"]}`+"\n" {
		t.Fatalf("unexpected host values for A: %s", resp)
	}
	resp = vs.Get(t, "/api/v1/labels", "ws-a", nil)
	if resp.Body != `{"status":"success","data":["__field__","__measurement__","__name__","host"]}`+"\n" {
		t.Fatalf("unexpected labels for A: %s", resp)
	}
	// And B sees its own.
	resp = vs.Get(t, "/api/v1/label/host/values", "ws-b", nil)
	if resp.Body != `{"status":"success","data":["`+markerHost+`"]}`+"\n" {
		t.Fatalf("unexpected host values for B: %s", resp)
	}
	resp = vs.Get(t, "/api/v1/export", "ws-b", m(`{__name__="bonly:v"}`))
	var line struct {
		Metric map[string]string
		Values []float64
	}
	if err := json.Unmarshal([]byte(resp.Body), &line); err != nil || line.Metric["host"] != markerHost || len(line.Values) != 1 || strconv.FormatFloat(line.Values[0], 'f', -1, 64) != markerValue {
		t.Fatalf("unexpected export for B: %s", resp)
	}
	if _, ok := line.Metric["vigil_workspace"]; ok {
		t.Fatalf("export leaks the tenant label: %s", resp)
	}
}

func TestAuthAndRouting(t *testing.T) {
	dir := t.TempDir()
	vs := Start(t, Binary(t), dir)

	resp, err := http.Get(vs.URL + "/health")
	if err != nil {
		t.Fatalf("GET /health: %s", err)
	}
	var health struct{ Status, Version string }
	if err := json.NewDecoder(resp.Body).Decode(&health); err != nil || resp.StatusCode != 200 || health.Status != "ok" {
		t.Fatalf("unexpected /health: %d %+v %v", resp.StatusCode, health, err)
	}
	_ = resp.Body.Close()

	f := func(method, path, ws string, headers map[string]string, wantStatus int, wantBody string) {
		t.Helper()
		resp := vs.Do(t, method, path, ws, nil, headers)
		if resp.Status != wantStatus || !strings.Contains(resp.Body, wantBody) {
			t.Fatalf("%s %s: want %d with %q; got %s", method, path, wantStatus, wantBody, resp)
		}
	}
	noToken := map[string]string{"Authorization": ""}
	f("GET", "/api/v1/labels", "ws-a", noToken, 401, `{"status":"error","errorType":"unauthorized","error":"missing 'Authorization: Bearer \u003cinternal token\u003e' header"}`)
	f("GET", "/api/v1/labels", "ws-a", map[string]string{"Authorization": "Bearer wrong-token-wrong-token"}, 401, `"error":"invalid internal token"`)
	f("POST", "/internal/v1/write/line", "ws-a", noToken, 401, `"errorType":"unauthorized"`)
	f("GET", "/metrics", "", noToken, 401, `"errorType":"unauthorized"`)
	f("GET", "/metrics", "", nil, 200, "vm_")
	f("GET", "/api/v1/labels", "", nil, 400, `"error":"missing X-Vigil-Workspace header"`)
	f("GET", "/api/v1/labels", "ws a", nil, 400, `"error":"X-Vigil-Workspace: invalid workspace id \"ws a\"`)
	f("GET", "/api/v1/labels", "-x", nil, 400, `invalid workspace id`)
	// VictoriaMetrics' own endpoints are not reachable, even with the token.
	for _, p := range []string{"/api/v1/import", "/api/v1/write", "/influx/write", "/write", "/vmui/", "/flags",
		"/api/v1/admin/tsdb/delete_series", "/api/v1/status/tsdb", "/debug/pprof/", "/prometheus/api/v1/query", "/"} {
		f("POST", p, "ws-a", nil, 404, `"errorType":"not_found"`)
	}
	f("GET", "/debug/pprof/", "", nil, 404, `"errorType":"not_found"`) // only with -pprof
	f("GET", "/api/v1/query", "ws-a", nil, 400, "missing `query` parameter")
	f("GET", "/api/v1/series", "ws-a", nil, 400, "missing `match[]` parameter")
	f("GET", "/api/v1/query?query=up&time=yesterday", "ws-a", nil, 400, "bad_data")
	f("GET", "/api/v1/query_range?query=up&start=0&end=100000000&step=1", "ws-a", nil, 422, "limit_exceeded")
	f("GET", "/api/v1/query?query=up", "ws-a", map[string]string{"X-Vigil-Query-Timeout": "soon"}, 400, "X-Vigil-Query-Timeout")
	f("GET", "/api/v1/query_range?query=up", "ws-a", nil, 200, `"resultType":"matrix"`)
	f("GET", "/api/v1/query_range?query=up&start=-2h", "ws-a", map[string]string{"X-Vigil-Max-Duration": "1h"}, 422,
		`; the max duration limit is 1h0m0s"}`)
	f("GET", "/api/v1/query_range?query=up&start=1700000000&end=2611-01-01T00:00:00Z&step=1d", "ws-a", nil, 422, "the max duration limit is 8760h")
	f("GET", "/api/v1/query_range?query=up&start=1700000000&end=1600000000&step=1m", "ws-a", nil, 400,
		`start 2023-11-14T22:13:20Z is after end 2020-09-13T12:26:40Z`)
	// the workspace's max points per query holds for PromQL too: points per series before it
	// runs, the answer's points after
	f("GET", "/api/v1/query_range?query=up&start=-1h&step=1s", "ws-a", map[string]string{"X-Vigil-Max-Points": "100"}, 422,
		"points per series; the max points limit is 100 per query")
	f("GET", "/api/v1/query_range?query=vector(1)&start=-1h&step=1m", "ws-a", map[string]string{"X-Vigil-Max-Points": "100"}, 200, `"status":"success"`)
	twoSeries := url.QueryEscape(`vector(1) or label_set(vector(2), "a", "b")`)
	f("GET", "/api/v1/query_range?query="+twoSeries+"&start=-1h&step=1m", "ws-a", map[string]string{"X-Vigil-Max-Points": "100"}, 422,
		"points; the max points limit is 100 per query")
	f("GET", "/api/v1/query?query="+twoSeries, "ws-a", map[string]string{"X-Vigil-Max-Points": "1"}, 422, "the answer has 2 points")
	f("GET", "/internal/v1/write/line", "ws-a", nil, 405, "use POST")

	// A query too long for -search.maxQueryLen is refused before it is parsed: half a megabyte
	// of nested unary minus once exhausted the parser's stack and took the process down.
	nested := strings.Repeat("-", 500_000) + "1"
	for path, args := range map[string]url.Values{
		"/api/v1/query":       {"query": {nested}},
		"/api/v1/query_range": {"query": {nested}},
		"/api/v1/series":      {"match[]": {nested}},
		"/api/v1/labels":      {"match[]": {nested}},
	} {
		resp := vs.PostForm(t, path, "ws-a", args)
		if resp.Status != 400 || !strings.Contains(resp.Body, "500001 bytes long; the maximum is 16384 bytes") {
			t.Fatalf("POST %s with a 500 kB query: want 400 saying it is too long; got %.300s", path, resp)
		}
	}
	f("GET", "/api/v1/labels", "ws-a", nil, 200, `"status":"success"`) // still up

	// Answers of 1 KiB and more are gzip'd for callers that accept it, plain for the others.
	zipped := vs.Do(t, "GET", "/metrics", "", nil, map[string]string{"Accept-Encoding": "gzip"})
	if zipped.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(zipped.Header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("/metrics with Accept-Encoding: gzip: headers %v", zipped.Header)
	}
	zr, err := gzip.NewReader(strings.NewReader(zipped.Body))
	if err != nil {
		t.Fatalf("/metrics answer is not gzip: %s", err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil || !strings.Contains(string(unzipped), "vm_") {
		t.Fatalf("cannot read the gzip'd /metrics answer: %v %.200q", err, unzipped)
	}
	plain := vs.Do(t, "GET", "/metrics", "", nil, map[string]string{"Accept-Encoding": "identity"})
	if plain.Header.Get("Content-Encoding") != "" || !strings.Contains(plain.Body, "vm_") {
		t.Fatalf("/metrics without gzip: headers %v, body %.200q", plain.Header, plain.Body)
	}
	small := vs.Do(t, "GET", "/api/v1/labels", "ws-a", nil, map[string]string{"Accept-Encoding": "gzip"})
	if small.Header.Get("Content-Encoding") != "" || !strings.Contains(small.Body, `"status":"success"`) {
		t.Fatalf("a small answer is sent as it is: %v %s", small.Header, small)
	}
}

func TestDQLIsolation(t *testing.T) {
	dir := t.TempDir()
	vs := Start(t, Binary(t), dir)
	checkDQLIsolation(t, vs)
}

func checkDQLIsolation(t *testing.T, vs *VigilStorage) {
	writeAB(t, vs)
	waitForQuery(t, vs, "ws-a", `count({__name__=~".+"})`, `"4"]`)
	waitForQuery(t, vs, "ws-b", `count({__name__=~".+"})`, `"3"]`)

	dqlq := func(ws, q string) Response {
		body, _ := json.Marshal(map[string]any{"queries": []map[string]any{{"query": q}}})
		return vs.Do(t, http.MethodPost, "/v1/query/raw", ws, strings.NewReader(string(body)), map[string]string{"Content-Type": "application/json"})
	}
	for _, q := range []string{
		"M::cpu:(avg(usage_user)) [15m::1m] BY host",
		"M::cpu:(usage_user) [15m]",
		"M::cpu:(max(usage_user)) [15m]",
		"M::`*`:(last(`*`)) [15m] BY host",
		"show_tag_value(from=['cpu'], keyin=['host'])",
		"show_measurement()",
	} {
		resp := dqlq("ws-a", q)
		if resp.Status != http.StatusOK {
			// Not every statement form may be supported; none may leak.
			if resp.Status < 400 || resp.Status >= 500 {
				t.Fatalf("DQL %q: want 200 or 4xx; got %s", q, resp)
			}
		}
		assertClean(t, "DQL "+q, resp)
	}
	resp := dqlq("ws-a", "M::cpu:(avg(usage_user)) [15m::1m] BY host")
	if resp.Status != http.StatusOK || !strings.Contains(resp.Body, `"a1"`) || !strings.Contains(resp.Body, `"a2"`) {
		t.Fatalf("A does not see its own data: %s", resp)
	}
	resp = dqlq("ws-b", "M::cpu:(max(usage_user)) [15m]")
	if resp.Status != http.StatusOK || !strings.Contains(resp.Body, markerValue) {
		t.Fatalf("B does not see its own data: %s", resp)
	}
	for _, q := range []string{
		"M::cpu:(usage_user) {vigil_workspace='ws-b'} [15m]",
		"M::cpu:(usage_user) {vm_account_id='1'} [15m]",
		"M::cpu:(avg(usage_user)) [15m] BY vigil_workspace",
	} {
		resp := dqlq("ws-a", q)
		if resp.Status < 400 || resp.Status >= 500 {
			t.Fatalf("DQL %q: want 4xx; got %s", q, resp)
		}
		assertClean(t, "DQL "+q, resp)
	}
}

// With -pprof, Go's profiling endpoints answer holders of the internal token, and only them.
func TestPprofBehindToken(t *testing.T) {
	vs := Start(t, Binary(t), t.TempDir(), "-pprof")
	if resp := vs.Do(t, "GET", "/debug/pprof/", "", nil, map[string]string{"Authorization": ""}); resp.Status != 401 {
		t.Fatalf("/debug/pprof/ without the token: %s", resp)
	}
	if resp := vs.Do(t, "GET", "/debug/pprof/goroutine?debug=1", "", nil, nil); resp.Status != 200 || !strings.Contains(resp.Body, "goroutine profile:") {
		t.Fatalf("/debug/pprof/goroutine with the token: %s", resp)
	}
	if resp := vs.Do(t, "GET", "/debug/pprof/cmdline", "", nil, nil); resp.Status != 200 || !strings.Contains(resp.Body, "-pprof") {
		t.Fatalf("/debug/pprof/cmdline with the token: %s", resp)
	}
}
