package apptest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestStoredSize: GET /internal/v1/usage/storage counts the samples and series of the
// workspace of the request only, and estimates its bytes from them.
func TestStoredSize(t *testing.T) {
	vs := Start(t, Binary(t), t.TempDir())
	now := time.Now().UnixMilli()
	write := func(ws string, series, points int) {
		t.Helper()
		var b strings.Builder
		for p := 0; p < points; p++ {
			for s := 0; s < series; s++ {
				fmt.Fprintf(&b, "size,host=h%03d v=%d %d\n", s, p, now-int64(points-p)*10_000)
			}
		}
		vs.WriteLines(t, ws, "ms", b.String())
	}
	type stored struct {
		Samples int64 `json:"samples"`
		Series  int   `json:"series"`
		Bytes   int64 `json:"bytes"`
	}
	size := func(ws string) stored {
		t.Helper()
		resp := vs.Get(t, "/internal/v1/usage/storage", ws, nil)
		var s stored
		if err := json.Unmarshal([]byte(resp.Body), &s); err != nil || resp.Status != http.StatusOK {
			t.Fatalf("stored size of %s: %s", ws, resp)
		}
		return s
	}

	if got := size("ws-empty"); got != (stored{}) {
		t.Fatalf("a workspace without data: want zeros; got %+v", got)
	}
	write("ws-small", 3, 20)
	write("ws-big", 30, 40)
	time.Sleep(2 * time.Second) // > the visibility interval

	small, big := size("ws-small"), size("ws-big")
	if small.Samples != 60 || small.Series != 3 {
		t.Fatalf("ws-small: want 60 samples in 3 series; got %+v", small)
	}
	if big.Samples != 1200 || big.Series != 30 {
		t.Fatalf("ws-big: want 1200 samples in 30 series; got %+v", big)
	}
	// Both are the same bytes per sample (the whole storage's) times their samples.
	if small.Bytes <= 0 || big.Bytes < 19*small.Bytes || big.Bytes > 21*small.Bytes {
		t.Fatalf("bytes should follow the samples (60 and 1200): %d and %d", small.Bytes, big.Bytes)
	}
	if resp := vs.Do(t, http.MethodPost, "/internal/v1/usage/storage", "ws-big", nil, nil); resp.Status != http.StatusMethodNotAllowed {
		t.Fatalf("POST: want 405; got %s", resp)
	}
	if resp := vs.Do(t, http.MethodGet, "/internal/v1/usage/storage", "", nil, nil); resp.Status != http.StatusBadRequest {
		t.Fatalf("no workspace: want 400; got %s", resp)
	}
}
