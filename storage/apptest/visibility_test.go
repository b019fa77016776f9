package apptest

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// A query that found no such series must not keep answering so once the series exists.
// VictoriaMetrics caches tag-filter lookups, empty answers included, and refreshes that cache
// at once only when a forced flush meets the new index entries; when its own background flush
// (every second) meets them first, the refresh waits for a 10 s timer. The visibility flush
// runs every 1.5 s here, so the background flush usually wins and the cache refresh is ours.
func TestNewSeriesVisibleAfterNegativeLookup(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for several flush cycles")
	}
	const interval = 1500 * time.Millisecond
	vs := Start(t, Binary(t), t.TempDir(), "-ingest.visibilityInterval="+interval.String())
	vs.WriteLines(t, "ws-a", "ms", fmt.Sprintf("fresh,host=seed v=1 %d\n", time.Now().UnixMilli()))
	waitForQuery(t, vs, "ws-a", `fresh:v{host="seed"}`, `"seed"`)

	for i := range 3 {
		host := fmt.Sprintf("new-%d", i)
		q := fmt.Sprintf(`fresh:v{host=%q}`, host)
		// ask first, so that "no such series" is what the cache holds
		if resp := vs.Get(t, "/api/v1/query", "ws-a", url.Values{"query": {q}}); resp.Status != 200 || strings.Contains(resp.Body, host) {
			t.Fatalf("series %s before it was written: %s", host, resp)
		}
		vs.WriteLines(t, "ws-a", "ms", fmt.Sprintf("fresh,host=%s v=%d %d\n", host, i, time.Now().UnixMilli()))
		took := waitForQuery(t, vs, "ws-a", q, `"`+host+`"`)
		// one visibility interval, plus a query's own time on a loaded machine
		if limit := interval + 1500*time.Millisecond; took > limit {
			t.Fatalf("series %s became queryable %s after it was written; want within %s", host, took, limit)
		}
		t.Logf("series %s queryable after %s", host, took.Round(10*time.Millisecond))
	}
}
