package querylimits

import (
	"net/http/httptest"
	"testing"
	"time"
)

func TestFromRequest(t *testing.T) {
	f := func(headers map[string]string, want Limits, wantErr string) {
		t.Helper()
		r := httptest.NewRequest("POST", "/v1/query/raw", nil)
		for k, v := range headers {
			r.Header.Set(k, v)
		}
		got, err := FromRequest(r)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if gotErr != wantErr {
			t.Fatalf("unexpected error\ngot  %q\nwant %q", gotErr, wantErr)
		}
		if err == nil && got != want {
			t.Fatalf("unexpected limits\ngot  %+v\nwant %+v", got, want)
		}
	}
	def := Defaults()
	f(nil, def, "")
	f(map[string]string{HeaderTimeout: "5s", HeaderMaxPoints: "100", HeaderMaxDuration: "1h", HeaderMaxSeries: "7"},
		Limits{Timeout: 5 * time.Second, MaxPoints: 100, MaxDuration: time.Hour, MaxSeries: 7}, "")
	f(map[string]string{HeaderTimeout: "5"}, def, `invalid X-Vigil-Query-Timeout header "5": want a positive Go duration such as 30s`)
	f(map[string]string{HeaderMaxDuration: "-1h"}, def, `invalid X-Vigil-Max-Duration header "-1h": want a positive Go duration such as 30s`)
	f(map[string]string{HeaderMaxPoints: "ten"}, def, `invalid X-Vigil-Max-Points header "ten": want a positive integer`)
	f(map[string]string{HeaderMaxSeries: "0"}, def, `invalid X-Vigil-Max-Series header "0": want a positive integer`)
}
