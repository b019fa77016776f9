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

// The answer of /api/v1/query leaves without the tenant label; one over the max points limit
// is refused with 422 before any of it is written. Arrays of answers already sent serve the
// next ones, which come out whole all the same.
func TestQueryAnswerIsStrippedAndLimited(t *testing.T) {
	const answer = `{"status":"success","isPartial":false,"data":{"resultType":"matrix","result":[` +
		`{"metric":{"__name__":"m","vigil_workspace":"ws-a"},"values":[[1,"1"],[2,"2"]]},` +
		`{"metric":{"vigil_workspace":"ws-a","h":"x"},"values":[[1,"3"]]}]},"stats":{"seriesFetched": "2","executionTimeMsec":0}}`
	const want = `{"status":"success","isPartial":false,"data":{"resultType":"matrix","result":[` +
		`{"metric":{"__name__":"m"},"values":[[1,"1"],[2,"2"]]},` +
		`{"metric":{"h":"x"},"values":[[1,"3"]]}]},"stats":{"seriesFetched": "2","executionTimeMsec":0}}`
	saved := backend
	t.Cleanup(func() { backend = saved })
	SetBackend(Backend{Source: saved.Source, Release: putAnswerBuffer, Query: func(r *http.Request, ws string, isRange bool) (int, []byte, error) {
		if ws != "ws-a" || isRange || r.Form.Get("extra_label") != tenancy.Label+"=ws-a" {
			t.Errorf("query for %q (range %v) with extra_label %q", ws, isRange, r.Form.Get("extra_label"))
		}
		// as the embedded backend does: the array of an answer already sent, when there is one
		return http.StatusOK, append(getAnswerBuffer(), answer...), nil
	}})
	f := func(maxPoints string, wantErr string) {
		t.Helper()
		r := httptest.NewRequest(http.MethodGet, "/api/v1/query?query="+url.QueryEscape("m[1m]")+"&time=100", nil)
		if maxPoints != "" {
			r.Header.Set(querylimits.HeaderMaxPoints, maxPoints)
		}
		w := httptest.NewRecorder()
		served, err := Handler(w, r, "/api/v1/query", "ws-a")
		if !served {
			t.Fatalf("not served")
		}
		if wantErr != "" {
			if err == nil {
				t.Fatalf("max points %s: answered %d %s; want an error", maxPoints, w.Code, w.Body)
			}
			ae := asAPIError(err)
			if ae.StatusCode != http.StatusUnprocessableEntity || ae.Type != "limit_exceeded" || ae.Error() != wantErr {
				t.Fatalf("max points %s: %d %s %q; want 422 limit_exceeded %q", maxPoints, ae.StatusCode, ae.Type, ae.Error(), wantErr)
			}
			if w.Body.Len() != 0 || len(w.Header()) != 0 {
				t.Fatalf("max points %s: %v %q written before the error", maxPoints, w.Header(), w.Body)
			}
			return
		}
		if err != nil {
			t.Fatalf("max points %s: %s", maxPoints, err)
		}
		if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "application/json" || w.Body.String() != want {
			t.Fatalf("max points %s: %d %q\n%s\nwant 200\n%s", maxPoints, w.Code, w.Header().Get("Content-Type"), w.Body, want)
		}
	}
	for range 3 {
		f("", "")
		f("3", "")
		f("2", "the answer has 3 points; the max points limit is 2 per query: narrow the selection, shorten the range or raise the step")
	}
}

// A pooled array comes back empty: an answer written into it holds nothing of the one before.
func TestAnswerBuffersComeBackEmpty(t *testing.T) {
	for i := range 5 {
		b := newBufferedResponse()
		if len(b.buf) != 0 {
			t.Fatalf("round %d: the buffer starts with %q", i, b.buf)
		}
		text := strings.Repeat(string(rune('a'+i)), 1000*(5-i))
		for j := 0; j < len(text); j += 300 {
			_, _ = b.Write([]byte(text[j:min(j+300, len(text))]))
		}
		if string(b.buf) != text {
			t.Fatalf("round %d: %d bytes written, %d held", i, len(text), len(b.buf))
		}
		putAnswerBuffer(b.buf)
	}
	putAnswerBuffer(make([]byte, 0, maxPooledAnswer+1)) // left to the garbage collector
	if b := getAnswerBuffer(); cap(b) > maxPooledAnswer {
		t.Fatalf("an array of %d bytes was kept", cap(b))
	}
}
