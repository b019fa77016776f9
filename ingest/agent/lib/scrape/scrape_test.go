package scrape

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"vigil/agent/lib/lineproto"
)

const nodeExporterText = `# HELP node_cpu_seconds_total Seconds the CPUs spent in each mode.
# TYPE node_cpu_seconds_total counter
node_cpu_seconds_total{cpu="0",mode="idle"} 12345.67
node_cpu_seconds_total{cpu="0",mode="user"} 89.5
# HELP node_load1 1m load average.
node_load1 0.42
node_filesystem_avail_bytes{device="/dev/vda",fstype="ext4",mountpoint="/my disk"} 1.2e+10
http_requests_total{path="/a \"b\"\\c",code=""} 7 1700000000000
process_start_time_seconds NaN
up 1
job:requests:rate5m{job="api",vigil_workspace="other",__tenant="x"} 3
`

func TestScrape(t *testing.T) {
	var gotAccept string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAccept = r.Header.Get("Accept")
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, nodeExporterText)
	}))
	defer srv.Close()
	targets, err := ParseTargets([]string{srv.URL + "/metrics"})
	if err != nil {
		t.Fatal(err)
	}
	s := &Scraper{}
	res, err := s.Scrape(context.Background(), targets[0], time.Unix(1700000100, 0))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(gotAccept, "text/plain;version=0.0.4") {
		t.Fatalf("unexpected Accept header %q", gotAccept)
	}
	var lines []string
	for i := range res.Points {
		lines = append(lines, strings.TrimSuffix(string(lineproto.AppendPoint(nil, &res.Points[i], lineproto.PrecisionMS)), "\n"))
	}
	sort.Strings(lines)
	inst := targets[0].Instance
	want := []string{
		`http,path=/a\ "b"\c,instance=` + inst + ` requests_total=7 1700000000000`,
		`job,job=api,instance=` + inst + ` requests:rate5m=3 1700000100000`,
		`node,cpu=0,mode=idle,instance=` + inst + ` cpu_seconds_total=12345.67 1700000100000`,
		`node,cpu=0,mode=user,instance=` + inst + ` cpu_seconds_total=89.5 1700000100000`,
		`node,device=/dev/vda,fstype=ext4,mountpoint=/my\ disk,instance=` + inst + ` filesystem_avail_bytes=1.2e+10 1700000100000`,
		`node,instance=` + inst + ` load1=0.42 1700000100000`,
		`up,instance=` + inst + ` value=1 1700000100000`,
	}
	sort.Strings(want)
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("unexpected lines\ngot:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if res.Samples != 8 || res.Skipped != 1 {
		t.Fatalf("samples=%d skipped=%d", res.Samples, res.Skipped)
	}

	// Errors name the target and the reason.
	bad, _ := ParseTargets([]string{srv.URL + "/nope"})
	if _, err := s.Scrape(context.Background(), bad[0], time.Now()); err == nil || !strings.Contains(err.Error(), "/nope: 404 Not Found") {
		t.Fatalf("want a 404 error, got %v", err)
	}
}

func TestScrapeMalformed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "ok 1\nbroken{a=\"b\" 1\n")
	}))
	defer srv.Close()
	targets, _ := ParseTargets([]string{srv.URL})
	_, err := (&Scraper{}).Scrape(context.Background(), targets[0], time.Now())
	if err == nil || !strings.Contains(err.Error(), `line 2: expected ',' or '}' after label "a"`) {
		t.Fatalf("want a parse error naming line 2, got %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	f := func(text, want string) {
		t.Helper()
		_, err := Parse(text)
		if err == nil || err.Error() != want {
			t.Fatalf("Parse(%q): want error %q, got %v", text, want, err)
		}
	}
	f("m\n", `line 1: missing value: "m"`)
	f("1m 2\n", `line 1: invalid metric name "1m": "1m 2"`)
	f("m{a=b} 1\n", `line 1: value of label "a" must be quoted: "m{a=b} 1"`)
	f(`m{a="b} 1`, `line 1: unterminated value of label "a": "m{a=\"b} 1"`)
	f("m{1a=\"b\"} 1\n", `line 1: invalid label name "1a": "m{1a=\"b\"} 1"`)
	f("# c\nm x\n", `line 2: invalid value "x": "m x"`)
	f("m 1 abc\n", `line 1: invalid timestamp "abc": "m 1 abc"`)
	f("m 1 2 3\n", `line 1: unexpected text after the timestamp: "m 1 2 3"`)
}

func TestParseValues(t *testing.T) {
	ss, err := Parse("a +Inf\nb -Inf\nc 1e3\nd{x=\"1\",} -2.5 123\ne{} 0\n")
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(ss)
	want := "[{a [] +Inf 0} {b [] -Inf 0} {c [] 1000 0} {d [{x 1}] -2.5 123} {e [] 0 0}]"
	if got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
}

// TestToPointDropsReservedLabels: labels the gateway refuses (the tenant labels and "__"
// names) are dropped from a scraped sample, and its name splits as storage splits it.
func TestToPointDropsReservedLabels(t *testing.T) {
	s := Sample{Name: "job:rate_5m", Value: 2, TimestampMs: 1700000000000, Labels: []Label{
		{"vigil_workspace", "other"}, {"vm_account_id", "1"}, {"vm_project_id", "2"}, {"__tenant", "x"},
		{"_job", "a"}, {"vigil_workspace_x", "b"}, {"instance", "h:1"},
	}}
	p := ToPoint(s, "ignored:9100", time.Unix(0, 0))
	got := strings.TrimSuffix(string(lineproto.AppendPoint(nil, &p, lineproto.PrecisionMS)), "\n")
	want := "job,_job=a,vigil_workspace_x=b,instance=h:1 rate_5m=2 1700000000000"
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestScrapeBearerToken(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Header.Get("Authorization"))
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, "missing internal token", http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, "up 1\n")
	}))
	defer srv.Close()
	targets, err := ParseTargets([]string{srv.URL + "/metrics"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&Scraper{}).Scrape(context.Background(), targets[0], time.Now()); err == nil || !strings.Contains(err.Error(), "401 Unauthorized: missing internal token") {
		t.Fatalf("without a token: want the 401, got %v", err)
	}
	res, err := (&Scraper{BearerToken: "s3cret"}).Scrape(context.Background(), targets[0], time.Now())
	if err != nil || res.Samples != 1 {
		t.Fatalf("with the token: samples=%d err=%v", res.Samples, err)
	}
	if got[0] != "" || got[1] != "Bearer s3cret" {
		t.Fatalf("Authorization headers sent: %q", got)
	}
}
