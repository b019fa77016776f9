package tombstones

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"vigil/storage/lib/apierror"
)

const ws = "6f1c2a34-0000-4000-8000-000000000001"

func written(t *testing.T, w string) bool {
	t.Helper()
	ran := false
	err := Write(w, func() error { ran = true; return nil })
	if err == nil {
		return ran
	}
	var e *apierror.Error
	if !errors.As(err, &e) || e.StatusCode != http.StatusGone || e.Type != apierror.TypeGone {
		t.Fatalf("write refused with %v, want 410 gone", err)
	}
	if ran {
		t.Fatal("a refused write ran")
	}
	return false
}

func TestDeletedWorkspaceRefusesWritesForGood(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sub", "deleted")
	if err := Open(p); err != nil {
		t.Fatal(err)
	}
	other := "6f1c2a34-0000-4000-8000-000000000002"
	if !written(t, ws) || !written(t, other) {
		t.Fatal("writes refused before any delete")
	}
	if err := Delete(ws, func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	if written(t, ws) {
		t.Fatal("a write of the deleted workspace ran")
	}
	if !Deleted(ws) || Deleted(other) || !written(t, other) {
		t.Fatal("the delete reached another workspace")
	}
	// a second delete of the same workspace (the backend retrying) succeeds
	if err := Delete(ws, func() error { return nil }); err != nil {
		t.Fatal(err)
	}

	// after a restart the list is read back
	if err := Open(p); err != nil {
		t.Fatal(err)
	}
	if written(t, ws) || !written(t, other) {
		t.Fatal("the list of deleted workspaces did not survive a restart")
	}
	b, err := os.ReadFile(p)
	if err != nil || string(b) != ws+"\n" {
		t.Fatalf("file holds %q (%v), want the workspace once", b, err)
	}
}

func TestFailedDeleteReopensTheWorkspace(t *testing.T) {
	p := filepath.Join(t.TempDir(), "deleted")
	if err := Open(p); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("storage unavailable")
	err := Delete(ws, func() error {
		if written(t, ws) {
			t.Error("a write ran while the workspace was being deleted")
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Delete returned %v, want the delete's own error", err)
	}
	if Deleted(ws) || !written(t, ws) {
		t.Fatal("a workspace whose delete failed refuses writes")
	}
	if b, _ := os.ReadFile(p); len(b) != 0 {
		t.Fatalf("a failed delete was recorded: %q", b)
	}
}

func TestDeleteWaitsForTheWritesInProgress(t *testing.T) {
	if err := Open(""); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	writing := make(chan struct{})
	writeDone := make(chan error)
	go func() {
		writeDone <- Write(ws, func() error {
			close(writing)
			<-release
			return nil
		})
	}()
	<-writing
	deleting := make(chan struct{})
	deleteDone := make(chan error)
	go func() {
		deleteDone <- Delete(ws, func() error { close(deleting); return nil })
	}()
	select {
	case <-deleting:
		t.Fatal("the delete started while a write of its workspace was still running")
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if err := <-writeDone; err != nil {
		t.Fatalf("the write in progress failed: %v", err)
	}
	<-deleting
	if err := <-deleteDone; err != nil {
		t.Fatal(err)
	}
	if written(t, ws) {
		t.Fatal("a write after the delete ran")
	}
}

func TestMemoryOnlyListIsForgottenOnRestart(t *testing.T) {
	if err := Open(""); err != nil {
		t.Fatal(err)
	}
	if err := Delete(ws, func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	if written(t, ws) {
		t.Fatal("write ran after delete")
	}
	if err := Open(""); err != nil {
		t.Fatal(err)
	}
	if !written(t, ws) {
		t.Fatal("an in-memory list survived Open")
	}
}

func TestPauseHoldsWritesUntilItReturns(t *testing.T) {
	if err := Open(""); err != nil {
		t.Fatal(err)
	}
	paused := make(chan struct{})
	resume := make(chan struct{})
	pauseDone := make(chan error)
	go func() {
		pauseDone <- Pause(ws, func() error { close(paused); <-resume; return nil })
	}()
	<-paused
	wrote := make(chan struct{})
	writeDone := make(chan error)
	go func() {
		writeDone <- Write(ws, func() error { close(wrote); return nil })
	}()
	select {
	case <-wrote:
		t.Fatal("a write ran while its workspace was paused")
	case <-time.After(100 * time.Millisecond):
	}
	close(resume)
	if err := <-pauseDone; err != nil {
		t.Fatal(err)
	}
	if err := <-writeDone; err != nil {
		t.Fatalf("the held write failed: %v; want it to run after the pause", err)
	}
	<-wrote
}
