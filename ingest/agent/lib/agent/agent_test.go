package agent

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"vigil/agent/lib/collector"
	"vigil/agent/lib/diskqueue"
	"vigil/agent/lib/lineproto"
	"vigil/agent/lib/push"
	"vigil/agent/lib/scrape"
)

var selfLine = regexp.MustCompile(`(?m)^vigil_agent,`)

func fixtureAgent(t *testing.T) *Agent {
	t.Helper()
	cs, err := collector.New([]string{"mem", "system", "net"}, collector.Options{ProcRoot: "../collector/testdata/proc"})
	if err != nil {
		t.Fatal(err)
	}
	return &Agent{
		Host: "web 1", Tags: []lineproto.Tag{{Key: "env", Value: "prod"}}, Version: "test",
		Interval: 50 * time.Millisecond, Precision: lineproto.PrecisionMS, Collectors: cs,
		MaxLines: 2, MaxBytes: 1 << 20, SendStats: &push.Stats{}, Logf: t.Logf,
	}
}

func TestCollectTagsEveryPoint(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "node_load1{host=\"other\"} 0.5\n")
	}))
	defer srv.Close()
	a := fixtureAgent(t)
	a.Scraper = &scrape.Scraper{}
	a.Targets, _ = scrape.ParseTargets([]string{srv.URL + "/metrics"})
	a.ScrapeTO = time.Second
	points := a.Collect(context.Background(), time.Unix(1700000000, 0))
	byName := map[string]lineproto.Point{}
	for _, p := range points {
		byName[p.Measurement] = p
		tags := fmt.Sprint(p.Tags)
		if !strings.Contains(tags, "{env prod}") || !strings.Contains(tags, "{host ") {
			t.Fatalf("%s lacks host or env tag: %v", p.Measurement, p.Tags)
		}
	}
	for _, m := range []string{"mem", "system", "net", "node", "vigil_scrape", "vigil_agent"} {
		if _, ok := byName[m]; !ok {
			t.Fatalf("no %s point in %v", m, byName)
		}
	}
	// A scraped host label is kept, not overwritten by the agent's host.
	if got := fmt.Sprint(byName["node"].Tags); !strings.Contains(got, "{host other}") || strings.Contains(got, "web 1") {
		t.Fatalf("scraped host label lost: %s", got)
	}
	if got := fmt.Sprint(byName["mem"].Tags); !strings.Contains(got, "{host web 1}") {
		t.Fatalf("host tag missing: %s", got)
	}
	if byName["vigil_scrape"].Fields[0] != lineproto.I("up", 1) {
		t.Fatalf("scrape not reported up: %v", byName["vigil_scrape"].Fields)
	}
}

func TestWriteOnce(t *testing.T) {
	a := fixtureAgent(t)
	var out bytes.Buffer
	if err := a.WriteOnce(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if !strings.Contains(s, `system,env=prod,host=web\ 1 load1=2.26,load5=0.78,load15=0.31,n_cpus=2i,uptime=400i `) ||
		!strings.Contains(s, "\nvigil_agent,version=test,env=prod,host=web\\ 1 points_collected=0i,") {
		t.Fatalf("unexpected output:\n%s", s)
	}
}

// TestRunDelivers runs the collection loop, the disk queue and the sender together
// against a test gateway.
func TestRunDelivers(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, "not gzip", 400)
			return
		}
		data, _ := io.ReadAll(zr)
		mu.Lock()
		bodies = append(bodies, string(data))
		auth = r.Header.Get("Authorization")
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()

	a := fixtureAgent(t)
	q, err := diskqueue.Open(t.TempDir(), diskqueue.Options{MaxBytes: 1 << 20, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	a.Queue = q
	c, _ := push.NewClient(push.ClientConfig{URL: srv.URL, Token: "vgi_test"})
	s := &push.Sender{Queue: q, Client: c, Backoff: push.DefaultBackoff, Stats: a.SendStats, Logf: t.Logf}
	rounds := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(selfLine.FindAllString(strings.Join(bodies, ""), -1))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	senderDone := make(chan struct{})
	go func() { _ = s.Run(ctx); close(senderDone) }()
	runDone := make(chan struct{})
	go func() { a.Run(ctx); close(runDone) }()
	for deadline := time.Now().Add(10 * time.Second); rounds() < 3 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-runDone
	<-senderDone

	mu.Lock()
	defer mu.Unlock()
	if n := len(selfLine.FindAllString(strings.Join(bodies, ""), -1)); n < 3 || auth != "Token vgi_test" {
		t.Fatalf("want >= 3 rounds delivered with the token, got %d rounds, auth %q:\n%s", n, auth, strings.Join(bodies, ""))
	}
	// MaxLines=2: each round's 5 lines arrive in batches of at most two.
	for _, b := range bodies {
		if n := strings.Count(b, "\n"); n > 2 || n == 0 {
			t.Fatalf("batch of %d lines: %q", n, b)
		}
	}
	// A request in flight when ctx ends reaches the server but is not counted (it stays
	// buffered and would be sent again): at most one body more than counted batches.
	if n := a.SendStats.BatchesSent.Load(); a.SendStats.PointsSent.Load() == 0 || n > int64(len(bodies)) || n < int64(len(bodies))-1 {
		t.Fatalf("stats: sent=%d batches=%d bodies=%d", a.SendStats.PointsSent.Load(), a.SendStats.BatchesSent.Load(), len(bodies))
	}
}
