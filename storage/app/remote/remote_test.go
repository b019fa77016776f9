package remote

import (
	"context"
	"fmt"
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

func TestAccountID(t *testing.T) {
	m, err := parseAccountIDs([]string{"ws-1=42, ws-2=7", "ws-3=4294967295"})
	if err != nil {
		t.Fatalf("unexpected error: %s", err)
	}
	accountOverrides = m
	defer func() { accountOverrides = nil }()
	f := func(ws string, want uint32) {
		t.Helper()
		if got := AccountID(ws); got != want {
			t.Fatalf("AccountID(%q) = %d; want %d", ws, got, want)
		}
	}
	f("ws-1", 42)
	f("ws-2", 7)
	f("ws-3", 4294967295)
	// FNV-1a 32-bit of the id.
	f("a", 0xe40c292c)
	f("3f0e6c1a-8d5b-4a43-9c1e-2b7d9f0a1c22", 0x497e8438)

	for _, bad := range []string{"ws", "ws=-1", "ws=4294967296", "ws=x"} {
		if _, err := parseAccountIDs([]string{bad}); err == nil {
			t.Fatalf("expected an error for %q", bad)
		}
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
	f(insertURL("ws", "/api/v1/import"), "http://vminsert:8480/insert/5/prometheus/api/v1/import")
	f(selectURL("ws", "/api/v1/export"), "http://vmselect:8481/select/5/prometheus/api/v1/export")
	f(deleteURL("ws", "/api/v1/admin/tsdb/delete_series"), "http://vmselect:8481/delete/5/prometheus/api/v1/admin/tsdb/delete_series")
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
