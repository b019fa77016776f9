// Package apptest starts the real vigil-storage binary and talks to it over HTTP, like
// VictoriaMetrics' own apptest: tests see exactly what callers see.
//
// The binary comes from $VIGIL_STORAGE_BIN (what `make test` builds); without it the tests
// build ./app/vigil-storage into a temporary directory first.
package apptest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// VigilStorage is a running vigil-storage process.
type VigilStorage struct {
	URL   string
	Token string
	cmd   *exec.Cmd
	log   *bytes.Buffer
}

// binDir holds binaries built for this test run; TestMain removes it.
var binDir string

var (
	buildMu sync.Mutex
	built   = map[string]string{}
)

// buildOnce builds the Go package pkg once per test run and returns the binary's path.
func buildOnce(t testing.TB, name, pkg string) string {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	if bin, ok := built[pkg]; ok {
		return bin
	}
	bin := filepath.Join(binDir, name)
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("cannot build %s: %s", pkg, err)
	}
	built[pkg] = bin
	return bin
}

// Binary returns the vigil-storage binary to test: $VIGIL_STORAGE_BIN, or one built from
// ../app/vigil-storage once per test run.
func Binary(t testing.TB) string {
	t.Helper()
	if bin := os.Getenv("VIGIL_STORAGE_BIN"); bin != "" {
		return bin
	}
	return buildOnce(t, "vigil-storage", "vigil/storage/app/vigil-storage")
}

func freePort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("cannot find a free port: %s", err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}

// Start starts vigil-storage with a fresh data directory under dir, on a free loopback
// port, with the flags the start script uses plus extra, and waits for /health.
func Start(t testing.TB, bin, dir string, extra ...string) *VigilStorage {
	t.Helper()
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	token := hex.EncodeToString(b)
	tokenFile := filepath.Join(dir, "internal_token")
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		t.Fatalf("cannot write the token file: %s", err)
	}
	addr := freePort(t)
	args := append([]string{
		"-httpListenAddr=" + addr,
		"-storageDataPath=" + filepath.Join(dir, "data"),
		"-retentionPeriod=100y",
		"-dedup.minScrapeInterval=1ms",
		"-search.latencyOffset=1s",
		"-tenancy.internalTokenFile=" + tokenFile,
		"-loggerLevel=WARN",
	}, extra...)
	log := &bytes.Buffer{}
	cmd := exec.Command(bin, args...)
	cmd.Stdout = log
	cmd.Stderr = log
	if err := cmd.Start(); err != nil {
		t.Fatalf("cannot start %s: %s", bin, err)
	}
	vs := &VigilStorage{URL: "http://" + addr, Token: token, cmd: cmd, log: log}
	t.Cleanup(vs.Stop)
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := http.Get(vs.URL + "/health")
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return vs
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("vigil-storage did not become healthy at %s; log:\n%s", vs.URL, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop stops the process with SIGTERM, as the stop script does.
func (vs *VigilStorage) Stop() {
	if vs.cmd.Process == nil || vs.cmd.ProcessState != nil {
		return
	}
	_ = vs.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = vs.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = vs.cmd.Process.Kill()
		<-done
	}
}

// Response is a finished HTTP exchange.
type Response struct {
	Status int
	Body   string
	Header http.Header
}

func (r Response) String() string { return fmt.Sprintf("%d %s", r.Status, r.Body) }

// Do sends a request as an internal caller for workspace ws ("" sends no workspace header).
func (vs *VigilStorage) Do(t testing.TB, method, path, ws string, body io.Reader, headers map[string]string) Response {
	t.Helper()
	req, err := http.NewRequest(method, vs.URL+path, body)
	if err != nil {
		t.Fatalf("cannot create request: %s", err)
	}
	req.Header.Set("Authorization", "Bearer "+vs.Token)
	if ws != "" {
		req.Header.Set("X-Vigil-Workspace", ws)
	}
	for k, v := range headers {
		if v == "" {
			req.Header.Del(k)
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %s", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("cannot read response of %s %s: %s", method, path, err)
	}
	return Response{Status: resp.StatusCode, Body: string(data), Header: resp.Header}
}

// Get sends GET path?args for workspace ws.
func (vs *VigilStorage) Get(t testing.TB, path, ws string, args url.Values) Response {
	t.Helper()
	if len(args) > 0 {
		path += "?" + args.Encode()
	}
	return vs.Do(t, http.MethodGet, path, ws, nil, nil)
}

// PostForm sends POST path with a form body for workspace ws, as Prometheus clients do.
func (vs *VigilStorage) PostForm(t testing.TB, path, ws string, args url.Values) Response {
	t.Helper()
	return vs.Do(t, http.MethodPost, path, ws, strings.NewReader(args.Encode()),
		map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
}

// WriteLines writes line protocol for workspace ws and fails the test unless it gets 204.
func (vs *VigilStorage) WriteLines(t testing.TB, ws, precision, lines string) {
	t.Helper()
	resp := vs.Do(t, http.MethodPost, "/internal/v1/write/line?precision="+precision, ws, strings.NewReader(lines), nil)
	if resp.Status != http.StatusNoContent {
		t.Fatalf("write for %s: want 204; got %s", ws, resp)
	}
}
