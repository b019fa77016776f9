package remote

import (
	"context"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/prompb"
	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/app/ingest"
)

func TestTenantOf(t *testing.T) {
	m, err := parseAccountIDs([]string{"ws-1=42, ws-2=7", "ws-3=4294967295"})
	if err != nil {
		t.Fatalf("unexpected error: %s", err)
	}
	accountOverrides = m
	defer func() { accountOverrides = nil }()
	f := func(ws string, want string) {
		t.Helper()
		if got := TenantOf(ws).String(); got != want {
			t.Fatalf("TenantOf(%q) = %s; want %s", ws, got, want)
		}
	}
	f("ws-1", "42:0")
	f("ws-2", "7:0")
	f("ws-3", "4294967295:0")
	// A workspace id (a UUID): its first 8 bytes, which the backend keeps unique; the UUID's
	// version digit lies in the projectID, so it is never 0 and never meets an override.
	f("3f0e6c1a-8d5b-4a43-9c1e-2b7d9f0a1c22", "1057909786:2371570243")
	f("00000000-0001-4000-8000-000000000000", "0:81920")
	// Two ids differing only after the 8th byte share a tenant: the backend never makes both.
	if TenantOf("3f0e6c1a-8d5b-4a43-0000-000000000000") != TenantOf("3f0e6c1a-8d5b-4a43-9c1e-2b7d9f0a1c22") {
		t.Fatalf("the tenant must depend on the first 8 bytes only")
	}
	// Anything else (tests, internal workspaces, an upper-case id): FNV-1a 32-bit, projectID 0.
	f("a", "3826002220:0")
	f("vigil-usage", fmt.Sprintf("%d:0", fnv32("vigil-usage")))
	f("3F0E6C1A-8D5B-4A43-9C1E-2B7D9F0A1C22", fmt.Sprintf("%d:0", fnv32("3F0E6C1A-8D5B-4A43-9C1E-2B7D9F0A1C22")))
	// The scheme of earlier releases, for clusters they wrote.
	*legacyAccountIDs = true
	defer func() { *legacyAccountIDs = false }()
	f("3f0e6c1a-8d5b-4a43-9c1e-2b7d9f0a1c22", fmt.Sprintf("%d:0", 0x497e8438))
	*legacyAccountIDs = false

	for _, bad := range []string{"ws", "ws=-1", "ws=4294967296", "ws=x"} {
		if _, err := parseAccountIDs([]string{bad}); err == nil {
			t.Fatalf("expected an error for %q", bad)
		}
	}
}

func fnv32(s string) uint32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(s))
	return h.Sum32()
}

func TestInitRefusesTwoWorkspacesOnOneTenant(t *testing.T) {
	*vminsertURL, *vmselectURL = "http://vminsert:8480", "http://vmselect:8481"
	defer func() { *vminsertURL, *vmselectURL, accountOverrides = "", "", nil }()
	defer func(v []string) { *accountIDs = v }(*accountIDs)
	*accountIDs = []string{"ws-a=5,ws-b=5"}
	err := Init()
	if err == nil || !strings.Contains(err.Error(), "the same accountID 5") {
		t.Fatalf("got %v; want an error naming the shared accountID", err)
	}
}

func TestURLs(t *testing.T) {
	*vminsertURL, *vmselectURL = "http://vminsert:8480/", "http://vmselect:8481"
	defer func() { *vminsertURL, *vmselectURL, *clusterPaths = "", "", true }()
	accountOverrides = map[string]uint32{"ws": 5}
	defer func() { accountOverrides = nil }()
	f := func(got, want string) {
		t.Helper()
		if got != want {
			t.Fatalf("got %s; want %s", got, want)
		}
	}
	f(insertURL("ws", "/api/v1/import"), "http://vminsert:8480/insert/5:0/prometheus/api/v1/import")
	f(selectURL("ws", "/api/v1/export"), "http://vmselect:8481/select/5:0/prometheus/api/v1/export")
	f(deleteURL("ws", "/api/v1/admin/tsdb/delete_series"), "http://vmselect:8481/delete/5:0/prometheus/api/v1/admin/tsdb/delete_series")
	f(selectURL("3f0e6c1a-8d5b-4a43-9c1e-2b7d9f0a1c22", "/api/v1/labels"), "http://vmselect:8481/select/1057909786:2371570243/prometheus/api/v1/labels")
	*clusterPaths = false
	f(selectURL("ws", "/api/v1/export"), "http://vmselect:8481/prometheus/api/v1/export")
}

func TestSelectors(t *testing.T) {
	got, err := selectors([][]metricsql.LabelFilter{
		{{Label: "__measurement__", Value: "cpu"}, {Label: "host", Value: `a"b`, IsNegative: true}},
		{{Label: "__name__", Value: "disk:.*", IsRegexp: true}},
	})
	if err != nil {
		t.Fatalf("unexpected error: %s", err)
	}
	want := []string{`{__measurement__="cpu",host!="a\"b"}`, `{__name__=~"disk:.*"}`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q; want %q", got, want)
	}
	if _, err := selectors([][]metricsql.LabelFilter{{{Label: "vigil_workspace", Value: "x"}}}); err == nil {
		t.Fatalf("expected an error for the tenant label")
	}
}

func TestSecs(t *testing.T) {
	f := func(ms int64, want string) {
		t.Helper()
		if got := secs(ms); got != want {
			t.Fatalf("secs(%d) = %s; want %s", ms, got, want)
		}
	}
	f(1700000000123, "1700000000.123")
	f(5, "0.005")
	f(0, "0.000")
	f(-1500, "-1.500")
}

func TestImportBody(t *testing.T) {
	l := func(kv ...string) []prompb.Label {
		var ls []prompb.Label
		for i := 0; i < len(kv); i += 2 {
			ls = append(ls, prompb.Label{Name: kv[i], Value: kv[i+1]})
		}
		return ls
	}
	a := l("__name__", "cpu:u", "host", "a", "vigil_workspace", "ws")
	b := l("__name__", "cpu:u", "host", "b", "vigil_workspace", "ws")
	body, err := importBody("ws", []ingest.Sample{{Labels: a, Timestamp: 1, Value: 1.5}, {Labels: b, Timestamp: 1, Value: 2}, {Labels: a, Timestamp: 2, Value: 3}})
	if err != nil {
		t.Fatalf("unexpected error: %s", err)
	}
	want := `{"metric":{"__name__":"cpu:u","host":"a","vigil_workspace":"ws"},"values":[1.5,3],"timestamps":[1,2]}
{"metric":{"__name__":"cpu:u","host":"b","vigil_workspace":"ws"},"values":[2],"timestamps":[1]}
`
	if string(body) != want {
		t.Fatalf("unexpected body\ngot  %s\nwant %s", body, want)
	}
	if _, err := importBody("other", []ingest.Sample{{Labels: a, Timestamp: 1, Value: 1}}); err == nil {
		t.Fatalf("expected an error for a sample of another workspace")
	}
}

// TestDeleteAllOnClusterDeletesAgainAfterSettling: against a cluster, series that become
// searchable after the first delete (written just before it) are deleted by a second one.
func TestDeleteAllOnClusterDeletesAgainAfterSettling(t *testing.T) {
	for _, c := range []struct {
		late      int
		want      int
		wantCalls string
	}{
		{late: 1, want: 4, wantCalls: "series delete series delete"},
		{late: 0, want: 3, wantCalls: "series delete series"},
	} {
		var calls []string
		searchable, late := 3, c.late
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case strings.HasSuffix(r.URL.Path, "/api/v1/series"):
				calls = append(calls, "series")
				data := make([]string, searchable)
				for i := range data {
					data[i] = fmt.Sprintf(`{"__name__":"s%d"}`, i)
				}
				fmt.Fprintf(w, `{"status":"success","data":[%s]}`, strings.Join(data, ","))
			case strings.HasSuffix(r.URL.Path, "/api/v1/admin/tsdb/delete_series"):
				calls = append(calls, "delete")
				// what was still pending at this delete becomes searchable after it
				searchable, late = late, 0
			default:
				t.Errorf("unexpected call %s", r.URL.Path)
			}
		}))
		*vminsertURL, *vmselectURL, *deleteSettle = srv.URL, srv.URL, 10*time.Millisecond
		n, err := NewSource("ws").DeleteAll(context.Background())
		srv.Close()
		*vminsertURL, *vmselectURL, *deleteSettle = "", "", 5*time.Second
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(calls, " "); got != c.wantCalls || n != c.want {
			t.Fatalf("late %d: deleted %d series with calls %q; want %d with %q", c.late, n, got, c.want, c.wantCalls)
		}
	}
}
