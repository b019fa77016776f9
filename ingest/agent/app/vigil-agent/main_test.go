package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// binary builds vigil-agent once for the tests of this file.
var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "vigil-agent-test")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "vigil-agent")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = &buildError{out: string(out), err: err}
		}
	})
	if buildErr != nil {
		t.Fatalf("cannot build vigil-agent: %s", buildErr)
	}
	return binPath
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

func TestVersionOnceAndBadFlags(t *testing.T) {
	bin := binary(t)
	out, err := exec.Command(bin, "-version").Output()
	if err != nil || !strings.HasPrefix(string(out), "vigil-agent ") {
		t.Fatalf("-version: %q, %v", out, err)
	}
	out, err = exec.Command(bin, "-once", "-collectors=mem,system", "-host=h1", "-tags=env=ci").Output()
	if err != nil {
		t.Fatalf("-once: %v", err)
	}
	if !regexp.MustCompile(`(?m)^mem,env=ci,host=h1 total=\d+i,`).Match(out) || !regexp.MustCompile(`(?m)^system,env=ci,host=h1 load1=`).Match(out) {
		t.Fatalf("-once output:\n%s", out)
	}
	cmd := exec.Command(bin, "-collectors=gpu")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), `unknown collector "gpu"`) {
		t.Fatalf("want exit 2 naming the collector, got %v: %s", err, stderr.String())
	}
}

// gateway records the vigil_agent timestamps of everything it accepts.
type gateway struct {
	mu    sync.Mutex
	stamp []int64
	auth  string
}

var selfLine = regexp.MustCompile(`(?m)^vigil_agent,.* (\d+)$`)

func (g *gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	zr, err := gzip.NewReader(r.Body)
	if err != nil {
		http.Error(w, "body is not gzip", http.StatusBadRequest)
		return
	}
	data, _ := io.ReadAll(zr)
	g.mu.Lock()
	defer g.mu.Unlock()
	g.auth = r.Header.Get("Authorization")
	for _, m := range selfLine.FindAllSubmatch(data, -1) {
		ts, _ := strconv.ParseInt(string(m[1]), 10, 64)
		g.stamp = append(g.stamp, ts)
	}
	w.WriteHeader(http.StatusNoContent)
}

func (g *gateway) stamps() []int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]int64(nil), g.stamp...)
}

// TestBufferSurvivesKill: with the gateway down the agent buffers on disk; after a
// kill -9 and a restart, everything buffered is delivered, oldest first.
func TestBufferSurvivesKill(t *testing.T) {
	bin := binary(t)
	bufDir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadURL := "http://" + ln.Addr().String()
	ln.Close()

	args := func(url string) []string {
		return []string{"-gateway.url=" + url, "-token=vgi_test", "-interval=200ms", "-collectors=mem",
			"-buffer.path=" + bufDir, "-host=kill-test", "-send.retryMinInterval=50ms", "-send.retryMaxInterval=100ms"}
	}
	var log1 bytes.Buffer
	cmd := exec.Command(bin, args(deadURL)...)
	cmd.Stderr = &log1
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	killedAt := time.Now().UnixMilli()
	if !strings.Contains(log1.String(), "cannot send a batch") {
		t.Fatalf("expected send failures while the gateway is down; log:\n%s", log1.String())
	}

	g := &gateway{}
	srv := httptest.NewServer(g)
	defer srv.Close()
	var log2 bytes.Buffer
	cmd = exec.Command(bin, args(srv.URL)...)
	cmd.Stderr = &log2
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := g.stamps()
		if len(st) > 0 && st[len(st)-1] > killedAt {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no post-restart data delivered; got %v\nlog:\n%s", st, log2.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("agent did not stop cleanly on SIGTERM: %v\n%s", err, log2.String())
	}
	st := g.stamps()
	var before int
	for _, ts := range st {
		if ts < killedAt {
			before++
		}
	}
	// ~7 rounds ran before the kill (200 ms apart, 1.5 s).
	if before < 4 {
		t.Fatalf("want the rounds buffered before kill -9 delivered, got %d of %v\nlog:\n%s", before, st, log2.String())
	}
	if !sort.SliceIsSorted(st, func(i, j int) bool { return st[i] < st[j] }) {
		t.Fatalf("batches delivered out of order: %v", st)
	}
	if !strings.Contains(log2.String(), "from a previous run; sending them first") || g.auth != "Token vgi_test" {
		t.Fatalf("auth %q, log:\n%s", g.auth, log2.String())
	}
}

func TestSimulateBoundedRun(t *testing.T) {
	bin := binary(t)
	g := &gateway{}
	srv := httptest.NewServer(g)
	defer srv.Close()
	out, err := exec.Command(bin, "-simulate=20", "-simulate.maxPoints=100000", "-simulate.backfill=1h",
		"-target=vm", "-gateway.url="+srv.URL).Output()
	if err != nil {
		t.Fatalf("simulate: %v\n%s", err, out)
	}
	// 100000 points = 72.3 hosts' worth; the run ends with the 73rd host (73 x 1383).
	if !regexp.MustCompile(`generated 100959 points .* points/s.*sent 100959 points in \d+ batches, 0 send errors`).Match(out) {
		t.Fatalf("unexpected summary: %s", out)
	}
}
