package apptest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// exported returns, per series of the export (labels without __name__ and the tenant), its
// timestamps; read without a retention header, so it shows what storage holds.
func exported(t *testing.T, vs *VigilStorage, ws, match string) map[string][]int64 {
	t.Helper()
	resp := vs.Get(t, "/api/v1/export", ws, url.Values{"match[]": {match}, "start": {"0"}})
	if resp.Status != http.StatusOK {
		t.Fatalf("export: %s", resp)
	}
	out := map[string][]int64{}
	for _, line := range strings.Split(strings.TrimSpace(resp.Body), "\n") {
		if line == "" {
			continue
		}
		var e struct {
			Metric     map[string]string `json:"metric"`
			Timestamps []int64           `json:"timestamps"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("cannot parse export line %q: %s", line, err)
		}
		var keys []string
		for k, v := range e.Metric {
			if !strings.HasPrefix(k, "__") {
				keys = append(keys, k+"="+v)
			}
		}
		sort.Strings(keys)
		name := e.Metric["__name__"] + "{" + strings.Join(keys, ",") + "}"
		out[name] = e.Timestamps
	}
	return out
}

// TestRetentionDeletesOlderPoints: POST /internal/v1/retention?before=T deletes the
// workspace's points older than T from storage — whole series that hold nothing newer, the
// old part of series that go on, series with more labels than another — keeps everything at
// or after T, leaves other workspaces alone, and a series it rewrote takes new points.
// The cut-off comes from the caller's clock (the backend's sweep); here the test picks it.
func TestRetentionDeletesOlderPoints(t *testing.T) {
	vs := Start(t, Binary(t), t.TempDir())
	now := time.Now().UnixMilli()
	old1, old2 := now-50*3600_000, now-49*3600_000
	recent := now - 60_000
	lines := fmt.Sprintf(
		"keep,host=a v=1 %[1]d\nkeep,host=a v=2 %[2]d\nkeep,host=a v=3 %[3]d\n"+ // old part and recent part
			"keep,host=a,rack=r1 v=4 %[1]d\nkeep,host=a,rack=r1 v=5 %[3]d\n"+ // more labels than keep{host=a}
			"gone,host=b v=6 %[1]d\n"+ // nothing newer
			"fresh,host=c v=7 %[3]d\n", // nothing older
		old1, old2, recent)
	vs.WriteLines(t, "ws-del", "ms", lines)
	vs.WriteLines(t, "ws-other", "ms", fmt.Sprintf("keep,host=a v=1 %d\n", old1))
	waitForExport(t, vs, "ws-del", `{__name__=~".+"}`, 4)
	waitForExport(t, vs, "ws-other", `{__name__=~".+"}`, 1)

	cut := now - 24*3600_000
	post := func(args url.Values) Response {
		t.Helper()
		return vs.Do(t, http.MethodPost, "/internal/v1/retention?"+args.Encode(), "ws-del", nil, nil)
	}
	secs := func(ms int64) string { return strconv.FormatFloat(float64(ms)/1000, 'f', 3, 64) }
	// Only series with a point older than older_than are touched: none here.
	resp := post(url.Values{"before": {secs(cut)}, "older_than": {secs(old1)}})
	if resp.Status != 200 || !strings.Contains(resp.Body, `"series":0`) {
		t.Fatalf("retention with older_than before every point: want nothing rewritten; got %s", resp)
	}
	resp = post(url.Values{"before": {secs(cut)}})
	if resp.Status != 200 || !strings.Contains(resp.Body, `"status":"success"`) {
		t.Fatalf("retention run: %s", resp)
	}
	got := exported(t, vs, "ws-del", `{__name__=~".+"}`)
	want := map[string][]int64{
		"keep:v{host=a}":         {recent},
		"keep:v{host=a,rack=r1}": {recent},
		"fresh:v{host=c}":        {recent},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after deleting points before %d\ngot  %v\nwant %v", cut, got, want)
	}
	// The other workspace keeps its old point.
	if got := exported(t, vs, "ws-other", `{__name__=~".+"}`); len(got["keep:v{host=a}"]) != 1 {
		t.Fatalf("the other workspace lost data: %v", got)
	}
	// Values survive the rewrite.
	q := vs.Get(t, "/api/v1/query", "ws-del", url.Values{"query": {`keep:v{rack=""}`}, "time": {secs(recent)}})
	if q.Status != 200 || !strings.Contains(q.Body, `"3"]`) {
		t.Fatalf("the kept point's value: %s", q)
	}
	// A second run finds nothing to do.
	resp = post(url.Values{"before": {secs(cut)}})
	if resp.Status != 200 || !strings.Contains(resp.Body, `"series":0`) {
		t.Fatalf("second retention run: want nothing left to delete; got %s", resp)
	}
	// The rewritten series takes new points.
	vs.WriteLines(t, "ws-del", "ms", fmt.Sprintf("keep,host=a v=9 %d\n", now))
	deadline := time.Now().Add(waitTimeout)
	for len(exported(t, vs, "ws-del", `keep:v{rack=""}`)["keep:v{host=a}"]) != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("a new point of a rewritten series never showed: %v", exported(t, vs, "ws-del", `keep:v`))
		}
		time.Sleep(50 * time.Millisecond)
	}

	// Bad input is a 400 that names the problem.
	for args, msg := range map[string]string{
		"":                             `missing \"before\" parameter`,
		"before=yesterday":             `cannot parse before=yesterday`,
		"before=" + secs(now+3600_000): "is in the future",
	} {
		resp := vs.Do(t, http.MethodPost, "/internal/v1/retention?"+args, "ws-del", nil, nil)
		if resp.Status != 400 || !strings.Contains(resp.Body, msg) {
			t.Fatalf("POST /internal/v1/retention?%s: want 400 with %q; got %s", args, msg, resp)
		}
	}
	if resp := vs.Do(t, http.MethodGet, "/internal/v1/retention?before=1", "ws-del", nil, nil); resp.Status != 405 {
		t.Fatalf("GET: want 405; got %s", resp)
	}
}
