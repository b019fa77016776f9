package promapi

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmselect/searchutil"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/storage"

	"vigil/storage/app/querylimits"
	"vigil/storage/lib/tenancy"
)

func TestVMError(t *testing.T) {
	f := func(msg string, wantStatus int, wantType string) {
		t.Helper()
		err := vmError(errString(msg))
		ae := asAPIError(err)
		if ae.StatusCode != wantStatus || ae.Type != wantType {
			t.Fatalf("vmError(%q) = %d %s; want %d %s", msg, ae.StatusCode, ae.Type, wantStatus, wantType)
		}
	}
	f("error when executing query: timeout exceeded during query execution", 503, "timeout")
	f("the number of matching timeseries exceeds 300000", 422, "limit_exceeded")
	f("cannot parse `start` arg", 400, "bad_data")
	f("unknown func foo", 422, "execution")
}

// VictoriaMetrics reads extra_label and extra_filters from the URL's query before the form:
// whatever a caller sends in either, the filters VictoriaMetrics sees are the workspace's alone.
func TestScopeFormLeavesOnlyTheWorkspaceFilter(t *testing.T) {
	f := func(target, body string) {
		t.Helper()
		r := httptest.NewRequest(http.MethodPost, target, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if err := r.ParseForm(); err != nil {
			t.Fatal(err)
		}
		scopeForm(r, "ws-a", querylimits.Limits{Timeout: time.Second})
		etfs, err := searchutil.GetExtraTagFilters(r)
		if err != nil {
			t.Fatal(err)
		}
		want := [][]storage.TagFilter{{{Key: []byte(tenancy.Label), Value: []byte("ws-a")}}}
		if !reflect.DeepEqual(etfs, want) {
			t.Fatalf("%s %s: extra filters %v; want only the workspace's", target, body, etfs)
		}
		if got := r.FormValue("trace"); got != "" {
			t.Fatalf("%s %s: trace=%q survived", target, body, got)
		}
	}
	f("/api/v1/query?query=up", "")
	f("/api/v1/query?query=up&extra_label=vigil_workspace%3Dws-b", "")
	f(`/api/v1/query?query=up&extra_filters[]={vigil_workspace="ws-b"}&extra_filters={a="b"}&trace=1`, "")
	f("/api/v1/query", "query=up&extra_label=vigil_workspace%3Dws-b&extra_filters[]=%7Bvigil_workspace%3D%22ws-b%22%7D")
	f("/api/v1/query?extra_label=vigil_workspace%3Dws-b", "query=up&extra_label=vigil_workspace%3Dws-c")
}

func TestFormatQuery(t *testing.T) {
	f := func(query string, wantStatus int, wantBody string) {
		t.Helper()
		r := httptest.NewRequest(http.MethodGet, "/api/v1/format_query?query="+url.QueryEscape(query), nil)
		if err := r.ParseForm(); err != nil {
			t.Fatal(err)
		}
		w := httptest.NewRecorder()
		err := formatQueryHandler(w, r, "ws-a", querylimits.Limits{})
		if wantStatus != http.StatusOK {
			if err == nil {
				t.Fatalf("%q: no error; want %d", query, wantStatus)
			}
			ae := asAPIError(err)
			if ae.StatusCode != wantStatus || ae.Error() != wantBody {
				t.Fatalf("%q: %d %q; want %d %q", query, ae.StatusCode, ae.Error(), wantStatus, wantBody)
			}
			return
		}
		if err != nil {
			t.Fatalf("%q: %s", query, err)
		}
		if got := strings.TrimSpace(w.Body.String()); got != wantBody {
			t.Fatalf("%q: %s; want %s", query, got, wantBody)
		}
	}
	f(`sum(rate(http_requests_total{job="api"}[5m]))by(code)`, 200,
		`{"data":"sum(rate(http_requests_total{job=\"api\"}[5m])) by(code)","status":"success"}`)
	f("up", 200, `{"data":"up","status":"success"}`)
	f("", 400, "missing `query` parameter")
	f(`up{vigil_workspace="ws-b"}`, 400, `the query must not reference the reserved label "vigil_workspace"`)
	f("sum(", 400, `cannot parse query "sum(": singleExpr: unexpected token ""; want "(", "{", "-", "+"; unparsed data: ""`)
}
