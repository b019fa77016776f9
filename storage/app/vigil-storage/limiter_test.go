package main

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"vigil/storage/app/fairqueue"
	"vigil/storage/lib/apierror"
)

func TestAcquireReadSlot(t *testing.T) {
	readQueue = fairqueue.New(fairqueue.Config{Slots: 2, PerWorkspace: 1, MaxQueued: 1, MaxWait: 20 * time.Millisecond})
	req := func(limit string) *http.Request {
		r := httptest.NewRequest("GET", "/api/v1/query", nil)
		if limit != "" {
			r.Header.Set("X-Vigil-Max-Concurrent-Queries", limit)
		}
		return r
	}

	w := httptest.NewRecorder()
	a, err := acquireReadSlot(w, req("1"), "a")
	if err != nil {
		t.Fatalf("unexpected error for a free slot: %s", err)
	}
	// a is at its limit of 1: its next search waits, then gets 429 naming the limit.
	_, err = acquireReadSlot(w, req("1"), "a")
	var ae *apierror.Error
	if !errors.As(err, &ae) || ae.StatusCode != http.StatusTooManyRequests || ae.Type != apierror.TypeLimitExceeded {
		t.Fatalf("unexpected error %v; want 429 limit_exceeded", err)
	}
	// the time waited depends on the machine's load: the rest of the message does not
	if msg := err.Error(); !strings.HasPrefix(msg, "workspace limit concurrent_queries=1 reached: the query waited ") ||
		!strings.HasSuffix(msg, " while the workspace's 1 running queries took every slot it may use; retry later") {
		t.Fatalf("unexpected message %q", msg)
	}
	if got := w.Header().Get("Retry-After"); got != "1" {
		t.Fatalf("unexpected Retry-After %q; want 1", got)
	}
	// b has its own share of the node.
	b, err := acquireReadSlot(httptest.NewRecorder(), req("1"), "b")
	if err != nil {
		t.Fatalf("unexpected error for another workspace: %s", err)
	}
	releaseReadSlot(a)
	releaseReadSlot(b)

	// A malformed header is the caller's mistake.
	_, err = acquireReadSlot(httptest.NewRecorder(), req("many"), "a")
	if !errors.As(err, &ae) || ae.StatusCode != http.StatusBadRequest {
		t.Fatalf("unexpected error %v; want 400", err)
	}
	want := `invalid X-Vigil-Max-Concurrent-Queries header "many": want a positive integer`
	if err.Error() != want {
		t.Fatalf("unexpected message\ngot  %s\nwant %s", err, want)
	}
}

func TestIsRead(t *testing.T) {
	f := func(path string, want bool) {
		t.Helper()
		if got := isRead(path); got != want {
			t.Fatalf("isRead(%q) = %v; want %v", path, got, want)
		}
	}
	f("/api/v1/query", true)
	f("/api/v1/label/host/values", true)
	f("/v1/query/raw", true)
	f("/internal/v1/usage", true)
	f("/internal/v1/usage/storage", true)
	f("/internal/v1/write/line", false)
	f("/internal/v1/workspace", false)
}
