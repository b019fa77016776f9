// Package tombstones closes deleted workspaces to writes.
//
// Deleting a workspace's series is not enough on its own: points the gateway accepted a
// moment before the workspace was deleted, or that wait in Kafka, reach vigil-storage
// afterwards and would bring some of its series back. Once a workspace's data is deleted,
// every write for it is refused with 410 Gone (the consumer drops such batches), and the
// list of deleted workspaces is kept in a file so that it outlives restarts.
//
// A delete and the writes of its workspace exclude each other: writes already running finish
// before the delete starts, later ones are refused while it runs. If the delete fails, the
// workspace takes writes again, as before.
package tombstones

import (
	"bufio"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"vigil/storage/lib/apierror"
)

// shard holds the state of the workspaces that hash to it; a delete blocks the writes of its
// shard only.
type shard struct {
	mu       sync.RWMutex
	deleting map[string]int // deletes running
	deleted  map[string]struct{}
}

const shardCount = 64

var (
	shards [shardCount]shard

	fileMu sync.Mutex
	path   string // "" keeps the list in memory only
)

func init() { reset() }

func reset() {
	for i := range shards {
		shards[i] = shard{deleting: map[string]int{}, deleted: map[string]struct{}{}}
	}
}

func shardOf(ws string) *shard {
	h := fnv.New32a()
	_, _ = h.Write([]byte(ws))
	return &shards[h.Sum32()%shardCount]
}

// Open loads the deleted workspaces listed in file p, one per line, and appends the ones
// deleted from now on to it. The file and its folder are created when missing. An empty p
// keeps the list in memory only.
func Open(p string) error {
	fileMu.Lock()
	defer fileMu.Unlock()
	reset()
	path = p
	if p == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("cannot create the folder of %q: %w", p, err)
	}
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read the deleted workspaces from %q: %w", p, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if ws := strings.TrimSpace(sc.Text()); ws != "" {
			shardOf(ws).deleted[ws] = struct{}{}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("cannot read the deleted workspaces from %q: %w", p, err)
	}
	return nil
}

// Write runs write, which stores data of workspace ws, unless ws was deleted or is being
// deleted; then it returns a 410 error and write does not run. While ws is paused (Pause),
// write waits.
func Write(ws string, write func() error) error {
	g := gateOf(ws)
	g.RLock()
	defer g.RUnlock()
	s := shardOf(ws)
	s.mu.RLock()
	defer s.mu.RUnlock()
	if _, gone := s.deleted[ws]; gone || s.deleting[ws] > 0 {
		return apierror.New(http.StatusGone, apierror.TypeGone,
			"workspace %s was deleted; its data is no longer accepted", ws)
	}
	return write()
}

// gates make a workspace's writes wait while Pause runs. They are striped by workspace, so a
// pause also holds the writes of the few workspaces that share its stripe, for as long.
var gates [256]sync.RWMutex

func gateOf(ws string) *sync.RWMutex {
	h := fnv.New32a()
	_, _ = h.Write([]byte(ws))
	return &gates[h.Sum32()%uint32(len(gates))]
}

// Pause runs fn with the writes of workspace ws held: those already running finish first,
// later ones wait until fn returns (they are not refused).
func Pause(ws string, fn func() error) error {
	g := gateOf(ws)
	g.Lock()
	defer g.Unlock()
	return fn()
}

// Deleted reports whether workspace ws was deleted for good.
func Deleted(ws string) bool {
	s := shardOf(ws)
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, gone := s.deleted[ws]
	return gone
}

// Delete runs del, which deletes every series of workspace ws, with ws closed to writes:
// the writes of ws already running finish first, later ones are refused. When del succeeds
// ws stays closed for good (recorded in the file before Delete returns); when it fails, ws
// takes writes again.
func Delete(ws string, del func() error) error {
	s := shardOf(ws)
	s.mu.Lock()
	s.deleting[ws]++
	s.mu.Unlock()

	err := del()

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.deleting[ws]--; s.deleting[ws] == 0 {
		delete(s.deleting, ws)
	}
	if err != nil {
		return err
	}
	if _, done := s.deleted[ws]; done {
		return nil
	}
	if err := record(ws); err != nil {
		return apierror.New(http.StatusServiceUnavailable, apierror.TypeUnavailable,
			"the data of workspace %s was deleted, but the deletion could not be recorded: %s; retry", ws, err)
	}
	s.deleted[ws] = struct{}{}
	return nil
}

// record appends ws to the file and syncs it.
func record(ws string) error {
	fileMu.Lock()
	defer fileMu.Unlock()
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(ws + "\n"); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
