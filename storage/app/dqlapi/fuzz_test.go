package dqlapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"vigil/storage/lib/dql/dqltest"
)

// FuzzHandleQueryRaw checks that no request body makes the handler fail with anything but
// a 200 or a 4xx carrying an error code (the fake storage never fails).
//
//	go test -run='^$' -fuzz=FuzzHandleQueryRaw -fuzztime=20s -fuzzminimizetime=1s ./app/dqlapi/
//
// Part of this target's coverage does not repeat from run to run (sync.Pool misses after a GC
// in encoding/json and net/http, the "cost" string in µs or ms), so Go's default minimization
// of 60 s per new input can hold the workers for the whole run; scripts/fuzz.sh bounds it.
func FuzzHandleQueryRaw(f *testing.F) {
	for _, s := range []string{
		`{"queries":[{"query":"M::cpu:(avg(user)) [15m::1m] BY host"}]}`,
		`{"queries":[{"query":"M::cpu:(user) {host='a'} [1699999200000:1699999290000]","time_range":[1699999200000],"conditions":"dc='east1'","limit":1,"offset":1,"slimit":1,"soffset":0,"disable_slimit":true,"max_point":3,"max_duration":"1d","timeout":"1s"}],"echo_explain":true}`,
		`{"queries":[{"query":"show_tag_value(from=['cpu'], keyin=['host'])"}]}`,
		`{"queries":[{"qtype":"promql","query":"sum(rate(cpu:user[1m]))","step":"1m"}]}`,
		`{"queries":[{"query":"difference('M::net:(rx) [1h]').cumsum()"}]}`,
		`{"queries":[{"query":1}]}`, `[]`, `null`, `{"queries":null}`, ``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		// A Source per input: a shared one would carry state from input to input (it records
		// every query it answers, so it grows for the whole run).
		src := dqltest.ExampleE()
		req := httptest.NewRequest(http.MethodPost, "/v1/query/raw", strings.NewReader(body))
		rec := httptest.NewRecorder()
		HandleQueryRaw(rec, req, src, Limits{MaxPoints: 100000})
		switch rec.Code {
		case http.StatusOK:
			var v struct {
				Content []json.RawMessage `json:"content"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil || len(v.Content) == 0 {
				t.Fatalf("%q: 200 with body %s", body, rec.Body.String())
			}
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusGatewayTimeout:
			var e errorBody
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.ErrorCode == "" || e.Message == "" {
				t.Fatalf("%q: %d with body %s", body, rec.Code, rec.Body.String())
			}
		case http.StatusInternalServerError:
			// The fake evaluates only the MetricsQL the DQL compiler emits; other pass-through
			// queries are a storage error there (VictoriaMetrics evaluates them).
			if !strings.Contains(rec.Body.String(), `"storage: dqltest: `) {
				t.Fatalf("%q: status 500, body %s", body, rec.Body.String())
			}
		default:
			t.Fatalf("%q: status %d, body %s", body, rec.Code, rec.Body.String())
		}
	})
}
