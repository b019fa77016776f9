package simulate

import (
	"bufio"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"vigil/agent/lib/push"
)

// sink counts the lines and field values it receives.
type sink struct {
	mu       sync.Mutex
	requests int
	plain    int
	lines    int64
	fields   int64
	hosts    map[string]bool
}

func (s *sink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, "body is not gzip", http.StatusBadRequest)
			return
		}
		body = zr
	}
	s.mu.Lock()
	s.requests++
	if r.Header.Get("Content-Encoding") == "" {
		s.plain++
	}
	s.mu.Unlock()
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var lines, fields int64
	hosts := map[string]bool{}
	for sc.Scan() {
		line := sc.Text()
		lines++
		fields += int64(countFields(line))
		i := strings.Index(line, ",host=")
		j := strings.IndexByte(line[i:], ' ')
		hosts[line[i+6:i+j]] = true
	}
	s.mu.Lock()
	s.lines += lines
	s.fields += fields
	for h := range hosts {
		s.hosts[h] = true
	}
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func TestRunMaxPoints(t *testing.T) {
	s := &sink{hosts: map[string]bool{}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	c, err := push.NewClient(push.ClientConfig{URL: srv.URL, Target: push.TargetVM})
	if err != nil {
		t.Fatal(err)
	}
	g := New(Options{Hosts: 10, Seed: 1})
	// 3 ticks' worth of points, back-filled so the run does not wait for the clock.
	res, err := Run(context.Background(), g, RunOptions{
		Interval: 10 * time.Second, Backfill: time.Hour, MaxPoints: 3 * 10 * SeriesPerHost,
		BatchMaxBytes: 64 << 10, Client: c, Backoff: push.DefaultBackoff, Logf: t.Logf,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Points != 3*10*SeriesPerHost || res.Ticks != 3 || res.PointsSent != res.Points || res.SendErrors != 0 {
		t.Fatalf("unexpected result: %s", res)
	}
	if s.fields != res.Points || s.lines != res.Lines || len(s.hosts) != 10 {
		t.Fatalf("sink saw %d fields, %d lines, %d hosts; run reported %s", s.fields, s.lines, len(s.hosts), res)
	}
	if res.LastTS.Sub(res.FirstTS) != 20*time.Second {
		t.Fatalf("timestamps must advance by the interval: %s .. %s", res.FirstTS, res.LastTS)
	}
	if !strings.Contains(res.String(), "generated 41490 points") {
		t.Fatalf("summary: %s", res)
	}
}

func TestRunDurationRealTime(t *testing.T) {
	s := &sink{hosts: map[string]bool{}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	c, _ := push.NewClient(push.ClientConfig{URL: srv.URL})
	g := New(Options{Hosts: 2, Seed: 1})
	start := time.Now()
	res, err := Run(context.Background(), g, RunOptions{Interval: 100 * time.Millisecond, Duration: 350 * time.Millisecond, Client: c, Backoff: push.DefaultBackoff})
	if err != nil {
		t.Fatal(err)
	}
	// Real time: about one tick per interval elapsed, not as fast as possible.
	maxTicks := int64(res.Elapsed/(100*time.Millisecond)) + 2
	if res.Ticks < 2 || res.Ticks > maxTicks || time.Since(start) > 5*time.Second {
		t.Fatalf("unexpected pacing: %s", res)
	}
	if s.fields != res.Points {
		t.Fatalf("sink saw %d fields, run generated %d", s.fields, res.Points)
	}
}

// countFields counts the fields of a line: unescaped commas between the first two
// unescaped spaces, plus one.
func countFields(line string) int {
	spaces, n := 0, 1
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case ' ':
			spaces++
		case ',':
			if spaces == 1 {
				n++
			}
		}
	}
	return n
}

// TestRunEndsWithTargetDown: an unreachable target must not hold a bounded run forever.
func TestRunEndsWithTargetDown(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "60")
		http.Error(w, "kafka unavailable", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	c, _ := push.NewClient(push.ClientConfig{URL: srv.URL})
	g := New(Options{Hosts: 50, Seed: 1})
	start := time.Now()
	res, err := Run(context.Background(), g, RunOptions{
		Interval: time.Second, Backfill: time.Hour, Duration: 200 * time.Millisecond, DrainTimeout: 200 * time.Millisecond,
		BatchMaxBytes: 64 << 10, Senders: 2, Client: c, Backoff: push.DefaultBackoff,
	})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("run took %s with the target down", took)
	}
	if res.PointsSent != 0 || res.SendErrors == 0 || res.Points == 0 {
		t.Fatalf("unexpected result: %s", res)
	}
}

func TestRunRaw(t *testing.T) {
	s := &sink{hosts: map[string]bool{}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	c, _ := push.NewClient(push.ClientConfig{URL: srv.URL, Target: push.TargetVM})
	g := New(Options{Hosts: 4, Seed: 1})
	res, err := Run(context.Background(), g, RunOptions{Interval: time.Second, Backfill: time.Hour, MaxPoints: 8 * SeriesPerHost,
		BatchMaxBytes: 64 << 10, Raw: true, Client: c, Backoff: push.DefaultBackoff})
	if err != nil {
		t.Fatal(err)
	}
	if s.fields != res.Points || s.plain != s.requests || s.requests == 0 || res.WireBytes != res.Bytes {
		t.Fatalf("sink: %d fields, %d of %d requests plain; run: %s", s.fields, s.plain, s.requests, res)
	}
}
