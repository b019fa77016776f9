package main

import (
	"net/http/httptest"
	"testing"
	"time"
)

func TestAcquireReadSlot(t *testing.T) {
	readSlots = make(chan struct{}, 1)
	readQueueTimeout = 20 * time.Millisecond
	r := httptest.NewRequest("GET", "/api/v1/query", nil)

	w := httptest.NewRecorder()
	if err := acquireReadSlot(w, r); err != nil {
		t.Fatalf("unexpected error for a free slot: %s", err)
	}
	err := acquireReadSlot(w, r)
	want := "too many concurrent queries: all 1 slots stayed busy for 20ms; raise -search.maxConcurrentRequests or -search.maxQueueDuration, or retry later"
	if err == nil || err.Error() != want {
		t.Fatalf("unexpected error\ngot  %v\nwant %s", err, want)
	}
	if got := w.Header().Get("Retry-After"); got != "1" {
		t.Fatalf("unexpected Retry-After %q; want 1", got)
	}
	releaseReadSlot()
	if err := acquireReadSlot(httptest.NewRecorder(), r); err != nil {
		t.Fatalf("unexpected error after release: %s", err)
	}
	releaseReadSlot()
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
