package apptest

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/prompb"
	"github.com/golang/snappy"
)

// TestDeletedWorkspaceRefusesWrites: once a workspace is deleted, its writes get 410 Gone
// (line protocol and remote_write), other workspaces are untouched, and a restart keeps it so.
func TestDeletedWorkspaceRefusesWrites(t *testing.T) {
	dir := t.TempDir()
	vs := Start(t, Binary(t), dir)
	ts := time.Now().UnixMilli()
	vs.WriteLines(t, "ws-a", "ms", fmt.Sprintf("cpu,host=a u=1 %d\n", ts))
	vs.WriteLines(t, "ws-b", "ms", fmt.Sprintf("cpu,host=b u=1 %d\n", ts))
	if resp := vs.Do(t, http.MethodDelete, "/internal/v1/workspace", "ws-a", nil, nil); resp.Status != 200 {
		t.Fatalf("delete: %s", resp)
	}
	checkRefused(t, vs, "ws-a", ts)
	vs.WriteLines(t, "ws-b", "ms", fmt.Sprintf("cpu,host=b2 u=1 %d\n", ts))

	vs.Stop()
	vs = Start(t, Binary(t), dir)
	checkRefused(t, vs, "ws-a", ts)
	vs.WriteLines(t, "ws-b", "ms", fmt.Sprintf("cpu,host=b3 u=1 %d\n", ts))
	waitForSeries(t, vs, "ws-a", `{__name__=~".+"}`, 0)
	waitForSeries(t, vs, "ws-b", `{__name__=~".+"}`, 3)
	// deleting it again (the backend retrying) still succeeds
	if resp := vs.Do(t, http.MethodDelete, "/internal/v1/workspace", "ws-a", nil, nil); resp.Status != 200 {
		t.Fatalf("second delete: %s", resp)
	}
}

func checkRefused(t *testing.T, vs *VigilStorage, ws string, ts int64) {
	t.Helper()
	want := fmt.Sprintf(`{"status":"error","errorType":"gone","error":"workspace %s was deleted; its data is no longer accepted"}`, ws)
	resp := vs.Do(t, http.MethodPost, "/internal/v1/write/line?precision=ms", ws, strings.NewReader(fmt.Sprintf("cpu,host=late u=1 %d\n", ts)), nil)
	if resp.Status != http.StatusGone || strings.TrimSpace(resp.Body) != want {
		t.Fatalf("line protocol for a deleted workspace: want 410 %s; got %s", want, resp)
	}
	wr := prompb.WriteRequest{Timeseries: []prompb.TimeSeries{{
		Labels:  []prompb.Label{{Name: "__name__", Value: "late"}},
		Samples: []prompb.Sample{{Value: 1, Timestamp: ts}},
	}}}
	resp = vs.Do(t, http.MethodPost, "/internal/v1/write/promrw", ws, bytes.NewReader(snappy.Encode(nil, wr.MarshalProtobuf(nil))),
		map[string]string{"Content-Encoding": "snappy"})
	if resp.Status != http.StatusGone || strings.TrimSpace(resp.Body) != want {
		t.Fatalf("remote_write for a deleted workspace: want 410 %s; got %s", want, resp)
	}
}

// TestDeleteWhileWriting: a workspace deleted while its writes keep coming (an agent still
// pushing, a backlog in Kafka) keeps none of its series, however the writes and the delete
// interleave.
func TestDeleteWhileWriting(t *testing.T) {
	vs := Start(t, Binary(t), t.TempDir())
	checkDeleteWhileWriting(t, vs)
}

func TestRemoteDeleteWhileWriting(t *testing.T) {
	checkDeleteWhileWriting(t, startRemote(t))
}

func checkDeleteWhileWriting(t *testing.T, vs *VigilStorage) {
	var accepted, refused atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				// every write creates new series: the ones that would outlive the delete
				body := fmt.Sprintf("busy,writer=%d,n=%d v=1 %d\n", w, i, time.Now().UnixMilli())
				resp := vs.Do(t, http.MethodPost, "/internal/v1/write/line?precision=ms", "ws-busy", strings.NewReader(body), nil)
				switch resp.Status {
				case http.StatusNoContent:
					accepted.Add(1)
				case http.StatusGone:
					refused.Add(1)
				default:
					t.Errorf("write: %s", resp)
					return
				}
			}
		}()
	}
	time.Sleep(500 * time.Millisecond)
	resp := vs.Do(t, http.MethodDelete, "/internal/v1/workspace", "ws-busy", nil, nil)
	time.Sleep(300 * time.Millisecond)
	close(stop)
	wg.Wait()
	if resp.Status != 200 {
		t.Fatalf("delete: %s", resp)
	}
	// past the visibility delay nothing of the workspace is left
	time.Sleep(2 * time.Second)
	if got := vs.Get(t, "/internal/v1/usage", "ws-busy", nil); got.Body != `{"active_series":0,"series_total":0,"series_limit_dropped_points":0}`+"\n" {
		t.Fatalf("series outlived the delete (%d writes accepted, %d refused): usage %s", accepted.Load(), refused.Load(), got)
	}
	if accepted.Load() == 0 || refused.Load() == 0 {
		t.Fatalf("the writes did not straddle the delete: %d accepted, %d refused", accepted.Load(), refused.Load())
	}
}
