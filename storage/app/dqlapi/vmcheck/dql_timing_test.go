package vmcheck

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmstorage"

	"vigil/storage/app/dqlapi"
	"vigil/storage/app/promapi"
	"vigil/storage/app/vmsource"
	"vigil/storage/lib/dql/dqltest"
)

var fleetOnce sync.Once

const fleetHosts = 73

// fleetData writes, into workspace "fleet", 73 hosts x (17 cpus x 10 cpu fields + 1,213
// other series) = 100,959 series, 30 one-minute samples each: the shape of vigil-bench dql.
func fleetData() {
	fleetOnce.Do(func() {
		for h := 0; h < fleetHosts; h++ {
			var b strings.Builder
			for i := 0; i < 30; i++ {
				ts := dqltest.T0 + int64(i)*60000 + 1000
				for c := 0; c < 17; c++ {
					cpu := fmt.Sprintf("cpu%d", c)
					if c == 16 {
						cpu = "cpu-total"
					}
					fmt.Fprintf(&b, "cpu,host=h%03d,cpu=%s usage_user=%d,usage_system=1,usage_idle=2,usage_nice=3,usage_iowait=4,usage_irq=5,"+
						"usage_softirq=6,usage_steal=7,usage_guest=8,usage_guest_nice=9 %d\n", h, cpu, (h*i+c)%100, ts)
				}
				for s := 0; s < 1213; s++ {
					fmt.Fprintf(&b, "other,host=h%03d,n=s%d v=%d %d\n", h, s, i, ts)
				}
			}
			mustWrite("fleet", b.String())
		}
		vmstorage.DebugFlush()
	})
}

// BenchmarkDQLOverMetricsQL asks vigil-bench dql's questions over HTTP handlers in-process,
// as DQL and as the hand-written MetricsQL, so that the cost of the DQL layer can be
// profiled: go test -run=^$ -bench=DQLOverMetricsQL -cpuprofile=cpu.out ./app/dqlapi/vmcheck/
func BenchmarkDQLOverMetricsQL(b *testing.B) {
	fleetData()
	const start, end = dqltest.T0 + 15*60000, dqltest.T0 + 30*60000
	dqlQ := map[string]string{
		"raw":       fmt.Sprintf("M::cpu:(usage_user) {host='h000', cpu='cpu-total'} [%d:%d]", start, end),
		"host_avg":  fmt.Sprintf("M::cpu:(avg(usage_user)) {host='h000'} [%d:%d:15s]", start, end),
		"fleet_max": fmt.Sprintf("M::cpu:(max(usage_user)) [%d:%d:15s] BY cpu", start, end),
	}
	promQ := map[string]url.Values{
		"raw":       {"query": {`cpu:usage_user{host="h000",cpu="cpu-total"}[900s]`}, "time": {fmt.Sprint(end / 1000)}},
		"host_avg":  {"query": {`sum(sum_over_time(cpu:usage_user{host="h000"}[15s])) / sum(count_over_time(cpu:usage_user{host="h000"}[15s]))`}},
		"fleet_max": {"query": {`max(max_over_time(cpu:usage_user[15s])) by (cpu)`}},
	}
	for _, name := range []string{"raw", "host_avg", "fleet_max"} {
		path := "/api/v1/query"
		if name != "raw" {
			promQ[name].Set("start", fmt.Sprint((start+15000)/1000))
			promQ[name].Set("end", fmt.Sprint(end/1000))
			promQ[name].Set("step", "15s")
			path = "/api/v1/query_range"
		}
		promQ[name].Set("nocache", "1")
		b.Run(name+"/dql", func(b *testing.B) {
			body := fmt.Sprintf(`{"queries":[{"query":%q}]}`, dqlQ[name])
			for i := 0; i < b.N; i++ {
				w := httptest.NewRecorder()
				r := httptest.NewRequest(http.MethodPost, "/v1/query/raw", strings.NewReader(body))
				dqlapi.HandleQueryRaw(w, r, vmsource.New("fleet"), dqlapi.Limits{})
				if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"values"`) {
					b.Fatalf("%d %s", w.Code, w.Body.String())
				}
			}
		})
		b.Run(name+"/metricsql", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				w := httptest.NewRecorder()
				r := httptest.NewRequest(http.MethodGet, path+"?"+promQ[name].Encode(), nil)
				if _, err := promapi.Handler(w, r, path, "fleet"); err != nil || w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"values"`) {
					b.Fatalf("%v %d %s", err, w.Code, w.Body.String())
				}
			}
		})
	}
}

var dashboardOnce sync.Once

// dashboardData writes, into workspace "uibench", 100 hosts x 10 fields f0 ... f9, one
// sample a minute for 61 minutes from dqltest.T0: the data of a dashboard's panels.
func dashboardData() {
	dashboardOnce.Do(func() {
		var b strings.Builder
		for h := 0; h < 100; h++ {
			for i := 0; i <= 60; i++ {
				fmt.Fprintf(&b, "uibench,host=host-%03d ", h)
				for f := 0; f < 10; f++ {
					if f > 0 {
						b.WriteByte(',')
					}
					fmt.Fprintf(&b, "f%d=%g", f, float64((h*7+f*3+i)%100)+0.25)
				}
				fmt.Fprintf(&b, " %d\n", dqltest.T0+int64(i)*60000)
			}
		}
		mustWrite("uibench", b.String())
		vmstorage.DebugFlush()
	})
}

// BenchmarkDashboard answers one POST /v1/query/raw of 12 pushed-down queries over one hour
// (10 x avg by host, 100 series x 60 buckets each; one avg over all hosts; one last by
// host), as a dashboard sends them, against VictoriaMetrics in-process.
func BenchmarkDashboard(b *testing.B) {
	dashboardData()
	const start, end = dqltest.T0 + 30500, dqltest.T0 + 30500 + 3600000
	var qs []string
	for f := 0; f < 10; f++ {
		qs = append(qs, fmt.Sprintf(`{"query":"M::uibench:(avg(f%d)) [::1m] BY host SLIMIT 100","time_range":[%d,%d]}`, f, start, end))
	}
	qs = append(qs, fmt.Sprintf(`{"query":"M::uibench:(avg(f0)) [::1m]","time_range":[%d,%d]}`, start, end),
		fmt.Sprintf(`{"query":"M::uibench:(last(f1)) BY host SLIMIT 100","time_range":[%d,%d]}`, start, end))
	body := `{"queries":[` + strings.Join(qs, ",") + `]}`
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodPost, "/v1/query/raw", strings.NewReader(body))
		dqlapi.HandleQueryRaw(w, r, vmsource.New("uibench"), dqlapi.Limits{})
		if w.Code != http.StatusOK || strings.Count(w.Body.String(), `"host":"host-`) != 1100 {
			b.Fatalf("%d %.500s", w.Code, w.Body.String())
		}
	}
}
