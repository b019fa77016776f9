package apptest

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startVictoriaMetrics starts a stock single-node VictoriaMetrics from the pinned module
// ($VIGIL_VM_BIN, or built once per test run) and returns its URL.
func startVictoriaMetrics(t *testing.T, dir string) string {
	t.Helper()
	bin := os.Getenv("VIGIL_VM_BIN")
	if bin == "" {
		bin = buildOnce(t, "victoria-metrics", "github.com/VictoriaMetrics/VictoriaMetrics/app/victoria-metrics")
	}
	addr := freePort(t)
	log := &bytes.Buffer{}
	cmd := exec.Command(bin, "-httpListenAddr="+addr, "-storageDataPath="+filepath.Join(dir, "vm-data"), "-retentionPeriod=100y",
		"-dedup.minScrapeInterval=1ms", "-search.latencyOffset=1s", "-loggerLevel=WARN")
	cmd.Stdout = log
	cmd.Stderr = log
	if err := cmd.Start(); err != nil {
		t.Fatalf("cannot start %s: %s", bin, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	url := "http://" + addr
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := http.Get(url + "/health")
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return url
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("victoria-metrics did not become healthy; log:\n%s", log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// startRemote starts vigil-storage in remote mode against a stock single-node
// VictoriaMetrics. Single-node has no /insert/<accountID> paths, so this covers everything
// but the accountID routing (-remote.clusterPaths=false); tenancy rests on the label alone.
func startRemote(t *testing.T) *VigilStorage {
	if testing.Short() {
		t.Skip("remote-mode tests start a second server; skipped with -short")
	}
	dir := t.TempDir()
	vmURL := startVictoriaMetrics(t, dir)
	return Start(t, Binary(t), dir, "-remote.vminsertURL="+vmURL, "-remote.vmselectURL="+vmURL, "-remote.clusterPaths=false")
}

func TestRemoteIsolation(t *testing.T) {
	vs := startRemote(t)
	checkIsolation(t, vs)
	checkDQLIsolation(t, vs)
}

func TestRemoteWriteAndAdmin(t *testing.T) {
	vs := startRemote(t)
	ts := time.Now().UnixMilli()
	vs.WriteLines(t, "ws-a", "ms", fmt.Sprintf("disk,host=h1 io_read_bytes=1 %d\ndisk_io,host=h1 read_bytes=2 %d\n", ts, ts))
	vs.WriteLines(t, "ws-b", "ms", fmt.Sprintf("disk,host=h2 io_read_bytes=3 %d\n", ts))
	lines := waitForExport(t, vs, "ws-a", `{__measurement__=~"disk|disk_io"}`, 2)
	for _, l := range lines {
		if bytes.Contains([]byte(l), []byte("vigil_workspace")) || bytes.Contains([]byte(l), []byte("h2")) {
			t.Fatalf("export leaks: %s", l)
		}
	}
	resp := vs.Do(t, http.MethodPost, "/internal/v1/write/line", "ws-a", bytes.NewBufferString("x v=oops\n"), nil)
	if resp.Status != 400 {
		t.Fatalf("want 400; got %s", resp)
	}
	resp = vs.Get(t, "/internal/v1/usage", "ws-a", nil)
	if resp.Body != `{"active_series":2,"series_total":2,"series_limit_dropped_points":0}`+"\n" {
		t.Fatalf("unexpected usage: %s", resp)
	}
	resp = vs.Do(t, http.MethodDelete, "/internal/v1/workspace", "ws-a", nil, nil)
	if resp.Status != 200 || resp.Body != `{"deleted_series":2,"status":"success"}`+"\n" {
		t.Fatalf("unexpected delete answer: %s", resp)
	}
	waitForSeries(t, vs, "ws-a", `{__name__=~".+"}`, 0)
	waitForSeries(t, vs, "ws-b", `{__name__=~".+"}`, 1)
}

// Against single-node VictoriaMetrics, series written just before a workspace delete (not yet
// searchable there) are deleted too: vigil-storage asks it to flush first.
func TestRemoteDeleteRightAfterWrite(t *testing.T) {
	vs := startRemote(t)
	ts := time.Now().UnixMilli()
	vs.WriteLines(t, "ws-c", "ms", fmt.Sprintf("cpu,host=c u=1,i=2,s=3 %d\n", ts))
	resp := vs.Do(t, http.MethodDelete, "/internal/v1/workspace", "ws-c", nil, nil)
	if resp.Status != 200 || resp.Body != `{"deleted_series":3,"status":"success"}`+"\n" {
		t.Fatalf("delete right after a write: %s", resp)
	}
	time.Sleep(2 * time.Second)
	if got := vs.Get(t, "/api/v1/series", "ws-c", url.Values{"match[]": {`{__name__=~".+"}`}}); !strings.Contains(got.Body, `"data":[]`) {
		t.Fatalf("series written just before the delete survived it: %s", got)
	}
}

// In remote mode too, a label search over more than 100k series answers from the workspace's
// own series only. Against a single-node VictoriaMetrics every workspace shares one tenant,
// and its label API, past 100k matching series, ignores the selection and answers with every
// workspace's names and values: before, BIG was told OTHER's field names.
func TestRemoteLabelSearchesOfHugeSelectionsNeverLeak(t *testing.T) {
	vs := startRemote(t)
	ts := time.Now().UnixMilli()
	var b strings.Builder
	for i := 0; i <= 100_000; i++ {
		fmt.Fprintf(&b, "big,id=%d f=1 %d\n", i, ts)
	}
	vs.WriteLines(t, "BIG", "ms", b.String())
	vs.WriteLines(t, "OTHER", "ms", fmt.Sprintf("other,secret_tag=x g1=1,g2=2,g3=3 %d\n", ts))
	waitForSeries(t, vs, "OTHER", `{__measurement__="other"}`, 3)
	waitForQuery(t, vs, "BIG", `count({__measurement__="big"})`, `"100001"`)

	args := url.Values{"match[]": {`{__measurement__="big"}`}, "start": {fmt.Sprint(ts/1000 - 3600)}}
	values := vs.Get(t, "/api/v1/label/__field__/values", "BIG", args)
	if values.Status != http.StatusOK || !strings.Contains(values.Body, `"data":["f"]`) {
		t.Fatalf("label values over 100k series: %s; want only f (another workspace's fields leaked?)", values)
	}
	names := vs.Get(t, "/api/v1/labels", "BIG", args)
	if names.Status != http.StatusOK || !strings.Contains(names.Body, `"data":["__field__","__measurement__","__name__","id"]`) {
		t.Fatalf("label names over 100k series: %s", names)
	}
	// a small selection is read from its series, exactly
	small := vs.Get(t, "/api/v1/label/__field__/values", "OTHER", url.Values{"start": {fmt.Sprint(ts/1000 - 3600)}})
	if small.Status != http.StatusOK || !strings.Contains(small.Body, `"data":["g1","g2","g3"]`) {
		t.Fatalf("label values of a small workspace: %s", small)
	}
}
