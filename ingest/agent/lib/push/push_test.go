package push

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"vigil/agent/lib/diskqueue"
	"vigil/agent/lib/lineproto"
)

func gz(s string) []byte {
	var b bytes.Buffer
	Gzip(&b, []byte(s))
	return b.Bytes()
}

// readBody returns the request body, gunzipped when the request says it is gzip.
func readBody(t *testing.T, r *http.Request) string {
	t.Helper()
	if r.Header.Get("Content-Encoding") == "gzip" {
		return gunzip(t, r.Body)
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func gunzip(t *testing.T, r io.Reader) string {
	t.Helper()
	zr, err := gzip.NewReader(r)
	if err != nil {
		t.Fatalf("body is not gzip: %s", err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("cannot gunzip body: %s", err)
	}
	return string(data)
}

var fastBackoff = Backoff{Initial: time.Millisecond, Max: 5 * time.Millisecond, MaxRetryAfter: 2 * time.Second}

func TestClientRequestShape(t *testing.T) {
	f := func(cfg ClientConfig, wantPath, wantQuery, wantAuth, wantWorkspace string) {
		t.Helper()
		var gotPath, gotQuery, gotAuth, gotWS, gotBody, gotEnc string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			gotPath, gotQuery = r.URL.Path, r.URL.RawQuery
			gotAuth, gotWS, gotEnc = r.Header.Get("Authorization"), r.Header.Get("X-Vigil-Workspace"), r.Header.Get("Content-Encoding")
			gotBody = gunzip(t, r.Body)
			w.WriteHeader(http.StatusNoContent)
		}))
		defer srv.Close()
		cfg.URL = srv.URL
		c, err := NewClient(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Send(context.Background(), gz("m v=1 1\n")); err != nil {
			t.Fatal(err)
		}
		if gotPath != wantPath || gotQuery != wantQuery || gotAuth != wantAuth || gotWS != wantWorkspace || gotEnc != "gzip" || gotBody != "m v=1 1\n" {
			t.Fatalf("unexpected request: path=%q query=%q auth=%q workspace=%q encoding=%q body=%q", gotPath, gotQuery, gotAuth, gotWS, gotEnc, gotBody)
		}
	}
	f(ClientConfig{Token: "vgi_abc"}, "/v1/write/metric", "precision=ms", "Token vgi_abc", "")
	f(ClientConfig{Target: TargetGateway, Token: "k", Precision: lineproto.PrecisionNS}, "/v1/write/metric", "precision=ns", "Token k", "")
	f(ClientConfig{Target: TargetStorage, Token: "internal", Workspace: "ws-1"}, "/internal/v1/write/line", "precision=ms", "Bearer internal", "ws-1")
	f(ClientConfig{Target: TargetVM}, "/influx/write", "precision=ms", "", "")
	f(ClientConfig{Target: TargetInflux, Precision: lineproto.PrecisionNS}, "/write", "db=vigil&precision=n", "", "")
	f(ClientConfig{Target: TargetInflux, Database: "bench"}, "/write", "db=bench&precision=ms", "", "")
}

func TestNewClientErrors(t *testing.T) {
	f := func(cfg ClientConfig, want string) {
		t.Helper()
		_, err := NewClient(cfg)
		if err == nil || err.Error() != want {
			t.Fatalf("want error %q, got %v", want, err)
		}
	}
	f(ClientConfig{}, `missing URL for target ""`)
	f(ClientConfig{URL: "127.0.0.1:8001"}, `invalid URL "127.0.0.1:8001": want http(s)://host[:port]`)
	f(ClientConfig{URL: "http://x", Target: "kafka"}, `unknown target "kafka"; want one of [gateway storage vm influx]`)
	f(ClientConfig{URL: "http://x", Target: TargetStorage}, `target "storage" needs a workspace id (X-Vigil-Workspace)`)
}

func TestDeliverRetriesWithRetryAfter(t *testing.T) {
	var mu sync.Mutex
	var times []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		times = append(times, time.Now())
		n := len(times)
		mu.Unlock()
		if n == 1 {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "kafka unavailable", http.StatusServiceUnavailable)
			return
		}
		if n == 2 {
			http.Error(w, "over ingest_points_per_second", http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	c, _ := NewClient(ClientConfig{URL: srv.URL, Token: "k"})
	var stats Stats
	var logs []string
	err := Deliver(context.Background(), c, fastBackoff, &stats, gz("m v=1 1\n"), 1, func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) })
	if err != nil {
		t.Fatal(err)
	}
	if len(times) != 3 {
		t.Fatalf("want 3 attempts, got %d", len(times))
	}
	// Retry-After: 1 is honoured even though the backoff would be milliseconds.
	if d := times[1].Sub(times[0]); d < 900*time.Millisecond {
		t.Fatalf("second attempt came %s after the first, want >= 1s (Retry-After)", d)
	}
	if d := times[2].Sub(times[1]); d > 500*time.Millisecond {
		t.Fatalf("third attempt came %s after the second, want the short backoff", d)
	}
	if stats.BatchesSent.Load() != 1 || stats.PointsSent.Load() != 1 || stats.SendErrors.Load() != 2 || stats.DroppedPoints.Load() != 0 {
		t.Fatalf("unexpected stats sent=%d errors=%d dropped=%d", stats.BatchesSent.Load(), stats.SendErrors.Load(), stats.DroppedPoints.Load())
	}
	if !strings.Contains(logs[0], "503 Service Unavailable: kafka unavailable") {
		t.Fatalf("log should name the status and reason: %q", logs[0])
	}
}

func TestDeliverDropsPermanentErrors(t *testing.T) {
	for _, code := range []int{400, 401, 403, 404, 413} {
		attempts := 0
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			attempts++
			http.Error(w, "line 1: missing field", code)
		}))
		c, _ := NewClient(ClientConfig{URL: srv.URL})
		var stats Stats
		err := Deliver(context.Background(), c, fastBackoff, &stats, gz("bad\n"), 5, t.Logf)
		srv.Close()
		var pe *PermanentError
		if !errors.As(err, &pe) || pe.StatusCode != code || pe.Body != "line 1: missing field" {
			t.Fatalf("%d: want a PermanentError, got %v", code, err)
		}
		if attempts != 1 || stats.DroppedPoints.Load() != 5 || stats.DroppedBatch.Load() != 1 || stats.BatchesSent.Load() != 0 {
			t.Fatalf("%d: attempts=%d dropped=%d", code, attempts, stats.DroppedPoints.Load())
		}
	}
}

func TestDeliverStopsOnCancel(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "down", http.StatusBadGateway)
	}))
	defer srv.Close()
	c, _ := NewClient(ClientConfig{URL: srv.URL})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	var stats Stats
	err := Deliver(ctx, c, Backoff{Initial: 10 * time.Millisecond, Max: 20 * time.Millisecond}, &stats, gz("m v=1\n"), 1, func(string, ...any) {})
	if !errors.Is(err, context.DeadlineExceeded) || stats.SendErrors.Load() < 2 {
		t.Fatalf("err=%v errors=%d", err, stats.SendErrors.Load())
	}
}

func TestBackoffDelay(t *testing.T) {
	b := Backoff{Initial: time.Second, Max: 8 * time.Second, MaxRetryAfter: time.Minute}
	for attempt, want := range []time.Duration{1, 2, 4, 8, 8, 8} {
		want *= time.Second
		for i := 0; i < 20; i++ {
			d := b.Delay(attempt, errors.New("x"))
			if d < want/2 || d > want {
				t.Fatalf("attempt %d: delay %s outside [%s, %s]", attempt, d, want/2, want)
			}
		}
	}
	if d := b.Delay(0, &RetryableError{StatusCode: 429, RetryAfter: 30 * time.Second}); d != 30*time.Second {
		t.Fatalf("Retry-After must win, got %s", d)
	}
	if d := b.Delay(0, &RetryableError{StatusCode: 429, RetryAfter: time.Hour}); d != time.Minute {
		t.Fatalf("Retry-After must be capped, got %s", d)
	}
	// A zero Backoff behaves like DefaultBackoff, never a busy loop.
	if d := (Backoff{}).Delay(0, errors.New("x")); d < 500*time.Millisecond || d > time.Second {
		t.Fatalf("zero Backoff: delay %s", d)
	}
	if d := (Backoff{}).Delay(0, &RetryableError{RetryAfter: 7 * time.Second}); d != 7*time.Second {
		t.Fatalf("zero Backoff must honour Retry-After, got %s", d)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f := func(v string, want time.Duration) {
		t.Helper()
		if got := parseRetryAfter(v, now); got != want {
			t.Fatalf("parseRetryAfter(%q) = %s, want %s", v, got, want)
		}
	}
	f("", 0)
	f("5", 5*time.Second)
	f("0.5", 500*time.Millisecond)
	f("-1", 0)
	f("soon", 0)
	f("Thu, 01 Jan 2026 00:00:10 GMT", 10*time.Second)
	f("Wed, 31 Dec 2025 23:00:00 GMT", 0)
}

func TestBatcher(t *testing.T) {
	var batches []string
	var counts []int
	b := &Batcher{MaxLines: 3, MaxBytes: 30, Flush: func(gzipped []byte, n int) error {
		batches = append(batches, gunzip(t, bytes.NewReader(gzipped)))
		counts = append(counts, n)
		return nil
	}}
	for i := 0; i < 7; i++ {
		if err := b.Add([]byte(fmt.Sprintf("m v=%d\n", i)), 1); err != nil {
			t.Fatal(err)
		}
	}
	// 30 bytes allow four 6-byte lines, but MaxLines cuts at 3.
	if err := b.Add([]byte("long_measurement_name value=12345678\n"), 1); err != nil {
		t.Fatal(err)
	}
	if err := b.Add([]byte("a v=1\nb v=2\n"), 2); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	want := []string{"m v=0\nm v=1\nm v=2\n", "m v=3\nm v=4\nm v=5\n", "m v=6\n", "long_measurement_name value=12345678\n", "a v=1\nb v=2\n"}
	if fmt.Sprint(batches) != fmt.Sprint(want) || fmt.Sprint(counts) != "[3 3 1 1 2]" {
		t.Fatalf("got %q %v", batches, counts)
	}
}

// TestSenderBuffersWhileGatewayDown queues batches while nothing listens, then
// delivers them in order once the server appears on the same address.
func TestSenderBuffersWhileGatewayDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	q, err := diskqueue.Open(t.TempDir(), diskqueue.Options{MaxBytes: 1 << 20, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	c, _ := NewClient(ClientConfig{URL: "http://" + addr, Token: "k"})
	stats := &Stats{}
	s := &Sender{Queue: q, Client: c, Backoff: Backoff{Initial: 20 * time.Millisecond, Max: 50 * time.Millisecond}, Stats: stats, Logf: func(string, ...any) {}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.Run(ctx) }()

	for i := 0; i < 5; i++ {
		if err := q.Push(gz(fmt.Sprintf("m v=%d\n", i)), 1); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(5 * time.Second); stats.SendErrors.Load() < 2 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if st := q.Stats(); st.PendingBlocks != 5 || stats.SendErrors.Load() < 2 {
		t.Fatalf("want 5 batches buffered and failed attempts, got %+v errors=%d", st, stats.SendErrors.Load())
	}

	var mu sync.Mutex
	var got []string
	all := make(chan struct{})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := gunzip(t, r.Body)
		mu.Lock()
		// The first attempt at batch 2 is rejected as malformed: it is dropped, not retried.
		if body == "m v=2\n" {
			mu.Unlock()
			http.Error(w, "line 1: bad", http.StatusBadRequest)
			return
		}
		got = append(got, body)
		if len(got) == 4 {
			close(all)
		}
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})}
	ln, err = net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	select {
	case <-all:
	case <-time.After(5 * time.Second):
		t.Fatalf("batches not delivered; got %q", got)
	}
	// The last response may still be on its way back; wait for its Ack.
	for deadline := time.Now().Add(2 * time.Second); q.Stats().PendingBlocks > 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "") != "m v=0\nm v=1\nm v=3\nm v=4\n" {
		t.Fatalf("want batches in order, got %q", got)
	}
	if st := q.Stats(); st.PendingBlocks != 0 || stats.PointsSent.Load() != 4 || stats.DroppedPoints.Load() != 1 {
		t.Fatalf("unexpected final state %+v sent=%d dropped=%d", st, stats.PointsSent.Load(), stats.DroppedPoints.Load())
	}
}

// TestSenderCombinesBacklog: a backlog goes out in few requests of concatenated gzip
// members; when such a request is refused, the batches are retried one by one and only
// the bad one is dropped.
func TestSenderCombinesBacklog(t *testing.T) {
	q, err := diskqueue.Open(t.TempDir(), diskqueue.Options{MaxBytes: 1 << 20, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	for i := 0; i < 10; i++ {
		if err := q.Push(gz(fmt.Sprintf("m v=%d\n", i)), 1); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var requests []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := gunzip(t, r.Body)
		mu.Lock()
		requests = append(requests, body)
		mu.Unlock()
		if strings.Contains(body, "m v=7\n") {
			http.Error(w, "line 1: bad", http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	c, _ := NewClient(ClientConfig{URL: srv.URL})
	stats := &Stats{}
	s := &Sender{Queue: q, Client: c, Backoff: fastBackoff, Stats: stats, Logf: t.Logf, MaxLines: 4, MaxBytes: 1 << 20}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.Run(ctx) }()
	for deadline := time.Now().Add(5 * time.Second); q.Stats().PendingBlocks > 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	want := []string{
		"m v=0\nm v=1\nm v=2\nm v=3\n",
		"m v=4\nm v=5\nm v=6\nm v=7\n", // refused: retried one by one
		"m v=4\n", "m v=5\n", "m v=6\n", "m v=7\n",
		"m v=8\nm v=9\n",
	}
	if fmt.Sprint(requests) != fmt.Sprint(want) {
		t.Fatalf("unexpected requests:\n%q\nwant:\n%q", requests, want)
	}
	if stats.PointsSent.Load() != 9 || stats.DroppedPoints.Load() != 1 || stats.DroppedBatch.Load() != 1 || stats.BatchesSent.Load() != 5 {
		t.Fatalf("sent=%d dropped=%d droppedBatches=%d batches=%d", stats.PointsSent.Load(), stats.DroppedPoints.Load(), stats.DroppedBatch.Load(), stats.BatchesSent.Load())
	}
}

// TestSenderMixedEncodings: a buffer holding gzipped and plain batches (the agent was
// restarted with another -send.gzip) is delivered with the right Content-Encoding each,
// never concatenating the two kinds.
func TestSenderMixedEncodings(t *testing.T) {
	q, err := diskqueue.Open(t.TempDir(), diskqueue.Options{MaxBytes: 1 << 20, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	for i, body := range [][]byte{gz("m v=0\n"), gz("m v=1\n"), []byte("m v=2\n"), []byte("m v=3\n"), gz("m v=4\n")} {
		if err := q.Push(body, 1); err != nil {
			t.Fatalf("push %d: %s", i, err)
		}
	}
	var mu sync.Mutex
	var requests []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := readBody(t, r)
		mu.Lock()
		requests = append(requests, r.Header.Get("Content-Encoding")+":"+body)
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	c, _ := NewClient(ClientConfig{URL: srv.URL})
	s := &Sender{Queue: q, Client: c, Backoff: fastBackoff, Stats: &Stats{}, Logf: t.Logf, MaxLines: 100, MaxBytes: 1 << 20}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.Run(ctx) }()
	for deadline := time.Now().Add(5 * time.Second); q.Stats().PendingBlocks > 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	want := []string{"gzip:m v=0\nm v=1\n", ":m v=2\nm v=3\n", "gzip:m v=4\n"}
	if fmt.Sprint(requests) != fmt.Sprint(want) {
		t.Fatalf("got %q, want %q", requests, want)
	}
}

func TestBatcherRaw(t *testing.T) {
	var got []string
	b := &Batcher{MaxLines: 2, MaxBytes: 1 << 20, Raw: true, Flush: func(body []byte, _ int) error {
		if IsGzip(body) {
			t.Fatalf("raw batch is gzipped")
		}
		got = append(got, string(body))
		return nil
	}}
	for _, l := range []string{"a v=1\n", "b v=2\n", "c v=3\n"} {
		if err := b.Add([]byte(l), 1); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint([]string{"a v=1\nb v=2\n", "c v=3\n"}) {
		t.Fatalf("got %q", got)
	}
}
