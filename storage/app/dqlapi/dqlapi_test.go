package dqlapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/dqltest"
	"vigil/storage/lib/dql/parser"
)

const t0 = dqltest.T0

func post(t *testing.T, src dql.Source, lim Limits, body string) (int, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/v1/query/raw", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	HandleQueryRaw(rec, req, src, lim)
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type = %q, want application/json", ct)
	}
	return rec.Code, strings.TrimSpace(rec.Body.String())
}

// stripCost replaces the measured cost so bodies compare exactly.
func stripCost(t *testing.T, body string) string {
	t.Helper()
	var v map[string][]map[string]any
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("invalid JSON %s: %s", body, err)
	}
	for _, c := range v["content"] {
		cost, _ := c["cost"].(string)
		if _, err := time.ParseDuration(cost); err != nil {
			t.Fatalf("cost %q is not a duration", cost)
		}
		c["cost"] = "X"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func TestHandleQueryRawSuccess(t *testing.T) {
	f := func(body, want string) {
		t.Helper()
		code, got := post(t, dqltest.ExampleE(), Limits{}, body)
		if code != http.StatusOK {
			t.Fatalf("%s: status %d, body %s", body, code, got)
		}
		if got = stripCost(t, got); got != want {
			t.Fatalf("%s:\ngot  %s\nwant %s", body, got, want)
		}
	}
	wrap := func(series string) string {
		return `{"content":[{"cost":"X","query_type":"guancedb","raw_query":"","series":` + series + `}]}`
	}
	// The DQL.md §4 example.
	f(`{"queries":[{"query":"M::cpu:(user) {host='a'} [1699999200000:1699999290000]"}]}`,
		wrap(`[{"columns":["time","user"],"name":"cpu","values":[[1699999200000,1],[1699999230000,2],[1699999260000,3]]}]`))
	// time_range replaces the statement's range.
	f(`{"queries":[{"query":"M::cpu:(user) {host='a'} [1h]","time_range":[1699999200000,1699999260000]}]}`,
		wrap(`[{"columns":["time","user"],"name":"cpu","values":[[1699999200000,1],[1699999230000,2]]}]`))
	// conditions are ANDed with the statement's filter.
	f(`{"queries":[{"query":"M::cpu:(max(user) AS m) [1699999200000:1699999380000] BY host","conditions":"dc = 'west1'"}]}`,
		wrap(`[{"columns":["time","m"],"name":"cpu","tags":{"host":"b"},"values":[[1699999200000,60]]}]`))
	// limit/offset and slimit/soffset override the statement's clauses.
	f(`{"queries":[{"query":"M::cpu:(user) [1699999200000:1699999380000] BY host LIMIT 5","limit":1,"offset":2,"slimit":1,"soffset":1}]}`,
		wrap(`[{"columns":["time","user"],"name":"cpu","tags":{"host":"b"},"values":[[1699999260000,30]]}]`))
	// Zero limit/offset fields mean "not set" (SDK zero values).
	f(`{"queries":[{"query":"M::cpu:(user) {host='a'} [1699999200000:1699999380000] LIMIT 2 OFFSET 1","limit":0,"offset":0,"slimit":0,"soffset":0}]}`,
		wrap(`[{"columns":["time","user"],"name":"cpu","values":[[1699999230000,2],[1699999260000,3]]}]`))
	// max_point widens the interval: 180 s / 2 points = 90 s buckets (T0 is a multiple of 90 s).
	f(`{"queries":[{"query":"M::cpu:(count(user) AS c) {host='a'} [1699999200000:1699999380000:30s]","max_point":2}]}`,
		wrap(`[{"columns":["time","c"],"name":"cpu","values":[[1699999200000,3],[1699999290000,3]]}]`))
	// interval buckets a statement written without one; a written interval is kept.
	f(`{"queries":[{"query":"M::cpu:(count(user) AS c) {host='a'} [1699999200000:1699999380000]","interval":"90s"}]}`,
		wrap(`[{"columns":["time","c"],"name":"cpu","values":[[1699999200000,3],[1699999290000,3]]}]`))
	f(`{"queries":[{"query":"M::cpu:(count(user) AS c) {host='a'} [1699999200000:1699999380000:3m]","interval":"90s"}]}`,
		wrap(`[{"columns":["time","c"],"name":"cpu","values":[[1699999200000,6]]}]`))
	// MetricsQL pass-through.
	code, got := post(t, dqltest.ExampleE(), Limits{}, `{"queries":[{"qtype":"promql","query":"sum(max_over_time({__measurement__=\"cpu\",__field__=\"user\"}[1m]))","time_range":[1699999200000,1699999320000],"step":"1m"}]}`)
	if want := `{"content":[{"cost":"X","query_type":"promql","raw_query":"","series":[{"columns":["time","value"],"name":"","values":[[1699999200000,11],[1699999260000,33],[1699999320000,55]]}]}]}`; code != 200 || stripCost(t, got) != want {
		t.Fatalf("promql: %d %s\nwant %s", code, got, want)
	}
	// Two queries, two contents, in order; an empty result is [] not an error.
	code, got = post(t, dqltest.ExampleE(), Limits{}, `{"queries":[{"query":"M::nosuch:(x)"},{"query":"M::net:(last(rx)) [1699999200000:1699999380000]"}],"unknown":1}`)
	if code != 200 || !strings.Contains(got, `"series":[]`) || !strings.Contains(got, `"values":[[1699999200000,400]]`) {
		t.Fatalf("two queries: %d %s", code, got)
	}
}

func TestHandleQueryRawExplain(t *testing.T) {
	code, got := post(t, dqltest.ExampleE(), Limits{}, `{"queries":[{"query":"M::cpu:(user) {host='a'} [1699999200000:1699999290000]"}],"echo_explain":true}`)
	if code != 200 {
		t.Fatalf("status %d: %s", code, got)
	}
	var resp struct {
		Content []struct {
			RawQuery string `json:"raw_query"`
		} `json:"content"`
	}
	if err := json.Unmarshal([]byte(got), &resp); err != nil {
		t.Fatal(err)
	}
	want := `{__measurement__="cpu",__field__="user",host="a"} [1699999200000, 1699999290000)`
	if resp.Content[0].RawQuery != want {
		t.Fatalf("raw_query = %q, want %q", resp.Content[0].RawQuery, want)
	}
}

func TestHandleQueryRawDefaultSLimit(t *testing.T) {
	var series []dql.Series
	for i := 0; i < 25; i++ {
		series = append(series, dql.Series{
			Labels:     map[string]string{"__measurement__": "m", "__field__": "f", "__name__": "m:f", "host": fmt.Sprintf("h%02d", i)},
			Timestamps: []int64{t0}, Values: []float64{float64(i)},
		})
	}
	src := dqltest.NewSource(series...)
	count := func(body string) int {
		t.Helper()
		code, got := post(t, src, Limits{}, body)
		if code != 200 {
			t.Fatalf("status %d: %s", code, got)
		}
		var resp struct {
			Content []struct {
				Series []json.RawMessage `json:"series"`
			} `json:"content"`
		}
		if err := json.Unmarshal([]byte(got), &resp); err != nil {
			t.Fatal(err)
		}
		return len(resp.Content[0].Series)
	}
	q := `"query":"M::m:(last(f)) [1699999200000:1699999260000] BY host"`
	if n := count(`{"queries":[{` + q + `}]}`); n != 20 {
		t.Fatalf("default SLIMIT: %d series, want 20", n)
	}
	if n := count(`{"queries":[{` + q + `,"disable_slimit":true}]}`); n != 25 {
		t.Fatalf("disable_slimit: %d series, want 25", n)
	}
	if n := count(`{"queries":[{` + q + `,"slimit":3}]}`); n != 3 {
		t.Fatalf("slimit 3: %d series, want 3", n)
	}
}

// blockingSource answers nothing until the request's deadline passes.
type blockingSource struct{ *dqltest.Source }

func (b blockingSource) LabelNames(ctx context.Context, _ [][]metricsql.LabelFilter, _, _ int64, _ int) ([]string, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// slowSource takes 400 ms to list label names: long enough that a loaded machine's
// scheduling delays stay well inside the margins of the timeout test below.
type slowSource struct{ *dqltest.Source }

func (s slowSource) LabelNames(ctx context.Context, fss [][]metricsql.LabelFilter, start, end int64, limit int) ([]string, error) {
	select {
	case <-time.After(400 * time.Millisecond):
		return s.Source.LabelNames(ctx, fss, start, end, limit)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func TestHandleQueryRawErrors(t *testing.T) {
	f := func(src dql.Source, lim Limits, body string, wantStatus int, wantCode, wantMsg string) {
		t.Helper()
		if src == nil {
			src = dqltest.ExampleE()
		}
		code, got := post(t, src, lim, body)
		if code != wantStatus {
			t.Fatalf("%s: status %d, want %d; body %s", body, code, wantStatus, got)
		}
		var e struct {
			ErrorCode string          `json:"error_code"`
			Message   string          `json:"message"`
			Content   json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal([]byte(got), &e); err != nil {
			t.Fatalf("invalid JSON %s", got)
		}
		if e.ErrorCode != wantCode || !strings.Contains(e.Message, wantMsg) || e.Content != nil {
			t.Fatalf("%s:\ngot  %s\nwant code %s, message containing %q", body, got, wantCode, wantMsg)
		}
	}
	f(nil, Limits{}, `{`, 400, parser.CodeInvalidArgument, "invalid JSON request body")
	f(nil, Limits{}, `{"queries":[]}`, 400, parser.CodeInvalidArgument, `"queries" must hold at least one query`)
	f(nil, Limits{}, `{"queries":[{"query":""}]}`, 400, parser.CodeParseError, `"query" is empty`)
	f(nil, Limits{}, `{"queries":[{"query":"M::cpu:(user) [1699999200000:1699999290000] {host='a'}"}]}`, 400, parser.CodeParseError,
		"line 1:45: filter clause out of order: it must come before the time expression clause")
	f(nil, Limits{}, `{"queries":[{"query":"L::cpu"}]}`, 400, parser.CodeUnsupportedNamespce, `namespace "L" is not supported`)
	f(nil, Limits{}, `{"queries":[{"query":"M::cpu:(user) {__name__='x'}"}]}`, 400, parser.CodeForbiddenLabel, `label "__name__" may not be used`)
	f(nil, Limits{}, `{"queries":[{"query":"M::cpu:(user)","conditions":"vigil_workspace = 'other'"}]}`, 400, parser.CodeForbiddenLabel, `label "vigil_workspace" may not be used in conditions`)
	f(nil, Limits{}, `{"queries":[{"query":"M::cpu:(user)","conditions":"host = "}]}`, 400, parser.CodeParseError, "conditions: line 1:8: unexpected end of query, expected an expression")
	f(nil, Limits{}, `{"queries":[{"query":"M::cpu:(user) [2y]"}]}`, 400, dql.CodeTimeRangeTooLarge, "longer than the maximum 8760h0m0s")
	f(nil, Limits{MaxDuration: time.Hour}, `{"queries":[{"query":"M::cpu:(user) [2h]"}]}`, 400, dql.CodeTimeRangeTooLarge, "longer than the maximum 1h0m0s")
	f(nil, Limits{}, `{"queries":[{"query":"M::cpu:(user) [2h]","max_duration":"1h"}]}`, 400, dql.CodeTimeRangeTooLarge, "longer than the maximum 1h0m0s")
	// a span of centuries overflows nanoseconds: still too large
	f(nil, Limits{}, `{"queries":[{"query":"M::cpu:(user)","time_range":[1700000000000,18446744073710],"max_duration":"10m"}]}`, 400, dql.CodeTimeRangeTooLarge, "longer than the maximum 10m")
	f(nil, Limits{}, `{"queries":[{"query":"M::cpu:(user) [1700000000000:18446744073710]","max_duration":"10m"}]}`, 400, dql.CodeTimeRangeTooLarge, "longer than the maximum 10m")
	f(nil, Limits{}, `{"queries":[{"query":"M::cpu:(user) [2h]","max_duration":"soon"}]}`, 400, parser.CodeInvalidArgument, `max_duration: invalid duration "soon"`)
	f(nil, Limits{}, `{"queries":[{"query":"M::cpu:(avg(user)) [1d::1s]"}]}`, 400, dql.CodeTooManyPoints, "buckets of 1s in 24h0m0s is more than the maximum 10000 per series")
	f(nil, Limits{}, `{"queries":[{"query":"M::cpu:(user)","limit":20000}]}`, 400, parser.CodeLimitTooLarge, "LIMIT 20000 is larger than the maximum 10000")
	f(nil, Limits{}, `{"queries":[{"query":"M::cpu:(user)","limit":-1}]}`, 400, parser.CodeInvalidArgument, "limit must not be negative")
	f(nil, Limits{MaxSeries: 1}, `{"queries":[{"query":"M::cpu:(user) [1699999200000:1699999290000]"}]}`, 400, dql.CodeTooManySeries, "more than 1 series")
	f(nil, Limits{MaxPoints: 5}, `{"queries":[{"query":"M::cpu:(user) [1699999200000:1699999290000]"}]}`, 400, dql.CodeTooManyPoints, "reads 6 samples, more than the maximum 5")
	f(blockingSource{dqltest.ExampleE()}, Limits{}, `{"queries":[{"query":"M::cpu:(user)","timeout":"20ms"}]}`, 504, dql.CodeTimeout, "query exceeded the timeout of 20ms")
	f(blockingSource{dqltest.ExampleE()}, Limits{Timeout: 20 * time.Millisecond}, `{"queries":[{"query":"M::cpu:(user)","timeout":"1h"}]}`, 504, dql.CodeTimeout, "timeout of 20ms")
	// The workspace's timeout bounds the whole request, not each query: with one query per
	// CPU at a time, the queries after the first CPU-count need a second 400 ms round,
	// which ends at 800 ms, past the 600 ms timeout; the first round ends 200 ms before it.
	procs := runtime.GOMAXPROCS(0)
	slow := make([]string, 2*procs)
	for i := range slow {
		slow[i] = `{"query":"M::cpu:(user)"}`
	}
	f(slowSource{dqltest.ExampleE()}, Limits{Timeout: 600 * time.Millisecond}, `{"queries":[`+strings.Join(slow, ",")+`]}`, 504, dql.CodeTimeout,
		fmt.Sprintf("query %d: query exceeded the timeout of 600ms", procs+1))
	// The first failing query, by position, is the one reported.
	f(nil, Limits{}, `{"queries":[{"query":"M::cpu:(user)"},{"query":"M::cpu:(a(user))"},{"query":"M::cpu:(b(user))"}]}`, 400, parser.CodeUnknownFunction, "query 2: line 1:9: unknown function a()")
	f(nil, Limits{}, `{"queries":[{"query":"M::cpu:(user)"},{"query":"M::cpu:(nosuch(user))"}]}`, 400, parser.CodeUnknownFunction, "query 2: line 1:9: unknown function nosuch()")
	f(nil, Limits{}, `{"queries":[{"query":"x","qtype":"sql"}]}`, 400, parser.CodeInvalidArgument, `qtype must be "dql" or "promql", got "sql"`)
	f(nil, Limits{}, `{"queries":[{"query":"x","qtype":"promql","step":"-1m"}]}`, 400, parser.CodeInvalidArgument, `step: invalid duration "-1m"`)
	f(nil, Limits{}, `{"queries":[{"query":"M::cpu:(count(user))","interval":"0s"}]}`, 400, parser.CodeInvalidArgument, `interval: invalid duration "0s"`)
	f(nil, Limits{}, `{"queries":[{"query":"sum(x)","qtype":"promql","conditions":"host = 'a'"}]}`, 400, parser.CodeInvalidArgument, `conditions cannot be combined with qtype "promql"; use DQL to apply them`)
	f(nil, Limits{}, `{"queries":[{"query":"x{vigil_workspace=\"b\"}","qtype":"promql"}]}`, 400, parser.CodeForbiddenLabel, `label "vigil_workspace" may not be used`)

	bad := dqltest.ExampleE()
	bad.Err = fmt.Errorf("vmselect is down")
	f(bad, Limits{}, `{"queries":[{"query":"M::cpu:(user)"}]}`, 500, dql.CodeStorageError, "vmselect is down")
}

func TestHandleQueryRawPosition(t *testing.T) {
	code, got := post(t, dqltest.ExampleE(), Limits{}, `{"queries":[{"query":"M::cpu:(user)\n  {host = }"}]}`)
	want := `{"error_code":"dql.parse_error","message":"line 2:11: unexpected '}', expected an expression","position":{"line":2,"column":11,"start":24,"end":25}}`
	if code != 400 || got != want {
		t.Fatalf("got %d %s\nwant %s", code, got, want)
	}
}

func TestHandleQueryRawMethod(t *testing.T) {
	req := httptest.NewRequest(http.MethodGet, "/v1/query/raw", nil)
	rec := httptest.NewRecorder()
	HandleQueryRaw(rec, req, dqltest.ExampleE(), Limits{})
	if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "POST" {
		t.Fatalf("GET: %d %s", rec.Code, rec.Body.String())
	}
}

// meetingSource lets a query list label names only once `want` queries are doing so at the
// same time (or fails after a second).
type meetingSource struct {
	*dqltest.Source
	arrived chan struct{}
	want    int
}

func (m meetingSource) LabelNames(ctx context.Context, fss [][]metricsql.LabelFilter, start, end int64, limit int) ([]string, error) {
	m.arrived <- struct{}{}
	deadline := time.After(time.Second)
	for len(m.arrived) < m.want {
		select {
		case <-deadline:
			return nil, fmt.Errorf("only %d of %d queries ran at the same time", len(m.arrived), m.want)
		case <-time.After(time.Millisecond):
		}
	}
	return m.Source.LabelNames(ctx, fss, start, end, limit)
}

func TestHandleQueryRawRunsQueriesTogether(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	if procs < 2 {
		t.Skip("one CPU: queries run one after the other")
	}
	src := meetingSource{Source: dqltest.ExampleE(), arrived: make(chan struct{}, 64), want: 2}
	body := `{"queries":[{"query":"M::cpu:(user) {host='a'} [1699999200000:1699999290000]"},` +
		`{"query":"M::cpu:(idle) {host='b'} [1699999200000:1699999290000]"},` +
		`{"query":"M::cpu:(user) {host='b'} [1699999200000:1699999230000]"}]}`
	code, got := post(t, src, Limits{}, body)
	if code != http.StatusOK {
		t.Fatalf("status %d: %s", code, got)
	}
	// answers come back in the order of the queries
	var resp struct {
		Content []struct {
			Series []struct {
				Columns []string `json:"columns"`
				Values  [][]any  `json:"values"`
			} `json:"series"`
		} `json:"content"`
	}
	if err := json.Unmarshal([]byte(got), &resp); err != nil {
		t.Fatalf("invalid JSON %s", got)
	}
	if len(resp.Content) != 3 {
		t.Fatalf("want 3 answers, got %s", got)
	}
	if n := len(src.arrived); n != 3 {
		t.Fatalf("%d of 3 queries listed label names; the test needs all of them to", n)
	}
	want := []struct {
		column string
		first  float64
		rows   int
	}{{"user", 1, 3}, {"idle", 90, 3}, {"user", 10, 1}}
	for i, w := range want {
		s := resp.Content[i].Series
		if len(s) != 1 || s[0].Columns[1] != w.column || len(s[0].Values) != w.rows || s[0].Values[0][1] != w.first {
			t.Fatalf("answer %d: got %+v, want column %s, %d rows starting at %v", i+1, s, w.column, w.rows, w.first)
		}
	}
}
