package diskqueue

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

func open(t *testing.T, dir string, opts Options) *Queue {
	t.Helper()
	if opts.Logf == nil {
		opts.Logf = t.Logf
	}
	q, err := Open(dir, opts)
	if err != nil {
		t.Fatalf("cannot open queue: %s", err)
	}
	return q
}

func push(t *testing.T, q *Queue, data string, points int) {
	t.Helper()
	if err := q.Push([]byte(data), points); err != nil {
		t.Fatalf("cannot push %q: %s", data, err)
	}
}

// drain pops everything pending and returns the payloads in order.
func drain(t *testing.T, q *Queue) []string {
	t.Helper()
	var got []string
	for q.Stats().PendingBytes > 0 {
		b, err := q.Peek(nil)
		if err != nil {
			t.Fatalf("peek: %s", err)
		}
		got = append(got, string(b.Data))
		if err := q.Ack(b); err != nil {
			t.Fatalf("ack: %s", err)
		}
	}
	return got
}

func blocks(n int) []string {
	var s []string
	for i := 0; i < n; i++ {
		s = append(s, fmt.Sprintf("block-%03d %s", i, strings.Repeat("x", 100)))
	}
	return s
}

func TestWriteReadInOrder(t *testing.T) {
	q := open(t, t.TempDir(), Options{MaxBytes: 1 << 20, ChunkSize: 1000})
	defer q.Close()
	want := blocks(50)
	for _, b := range want {
		push(t, q, b, 3)
	}
	st := q.Stats()
	if st.PendingBlocks != 50 || st.PendingBytes != int64(50*(headerSize+len(want[0]))) {
		t.Fatalf("unexpected stats after push: %+v", st)
	}
	// Peek without Ack returns the same block again.
	b1, _ := q.Peek(nil)
	b2, _ := q.Peek(nil)
	if string(b1.Data) != want[0] || string(b2.Data) != want[0] || b1.Points != 3 {
		t.Fatalf("peek must not consume: %q, %q", b1.Data, b2.Data)
	}
	got := drain(t, q)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("blocks out of order or missing: got %d blocks", len(got))
	}
	if st := q.Stats(); st.PendingBlocks != 0 || st.PendingBytes != 0 || st.DroppedBlocks != 0 {
		t.Fatalf("unexpected stats after drain: %+v", st)
	}
	// Consumed chunks are deleted; only the writer's chunk remains.
	if n := countChunks(t, q.dir); n != 1 {
		t.Fatalf("want 1 chunk file left, got %d", n)
	}
}

func TestPeekWaitsForPush(t *testing.T) {
	q := open(t, t.TempDir(), Options{MaxBytes: 1 << 20})
	defer q.Close()
	got := make(chan string)
	go func() {
		b, err := q.Peek(nil)
		if err != nil {
			got <- err.Error()
			return
		}
		got <- string(b.Data)
	}()
	time.Sleep(20 * time.Millisecond)
	push(t, q, "late", 1)
	if s := <-got; s != "late" {
		t.Fatalf("got %q", s)
	}
	// A closed done channel unblocks a waiting Peek.
	done := make(chan struct{})
	errc := make(chan error)
	b, _ := q.Peek(nil)
	_ = q.Ack(b)
	go func() { _, err := q.Peek(done); errc <- err }()
	time.Sleep(20 * time.Millisecond)
	close(done)
	if err := <-errc; !errors.Is(err, ErrClosed) {
		t.Fatalf("want ErrClosed, got %v", err)
	}
}

func TestBoundDropsOldest(t *testing.T) {
	dir := t.TempDir()
	rec := headerSize + len(blocks(1)[0])
	// Room for 20 records, chunks of 5 records each.
	q := open(t, dir, Options{MaxBytes: int64(20 * rec), ChunkSize: int64(5 * rec)})
	defer q.Close()
	all := blocks(23)
	for _, b := range all {
		push(t, q, b, 2)
	}
	st := q.Stats()
	// The 21st push dropped the oldest chunk (5 blocks, 10 points).
	if st.DroppedBlocks != 5 || st.DroppedPoints != 10 || st.PendingBlocks != 18 || st.PendingBytes > int64(20*rec) {
		t.Fatalf("unexpected stats: %+v", st)
	}
	got := drain(t, q)
	if strings.Join(got, "|") != strings.Join(all[5:], "|") {
		t.Fatalf("want the newest 18 blocks in order, got %d starting with %q", len(got), got[0][:9])
	}

	// A block larger than the whole bound is refused and counted.
	err := q.Push(make([]byte, 20*rec), 7)
	if err == nil || !strings.Contains(err.Error(), "exceeds the buffer size limit") {
		t.Fatalf("want a size error, got %v", err)
	}
	if st := q.Stats(); st.DroppedPoints != 17 {
		t.Fatalf("want 17 dropped points, got %+v", st)
	}
}

func TestBoundWithinOneChunk(t *testing.T) {
	rec := headerSize + len(blocks(1)[0])
	// The chunk is larger than the bound: the writer's chunk must be sealed and dropped.
	q := open(t, t.TempDir(), Options{MaxBytes: int64(4 * rec), ChunkSize: 1 << 20})
	defer q.Close()
	all := blocks(6)
	for _, b := range all {
		push(t, q, b, 1)
	}
	got := drain(t, q)
	if strings.Join(got, "|") != strings.Join(all[4:], "|") {
		t.Fatalf("got %d blocks", len(got))
	}
	if st := q.Stats(); st.DroppedBlocks != 4 {
		t.Fatalf("unexpected stats: %+v", st)
	}
}

func TestReopenResumes(t *testing.T) {
	dir := t.TempDir()
	all := blocks(30)
	q := open(t, dir, Options{MaxBytes: 1 << 20, ChunkSize: 1000})
	for _, b := range all[:20] {
		push(t, q, b, 1)
	}
	// Consume 7, then "crash": no Close, files dropped on the floor.
	for i := 0; i < 7; i++ {
		b, _ := q.Peek(nil)
		_ = q.Ack(b)
	}
	// A peeked but unacknowledged block is replayed after restart.
	_, _ = q.Peek(nil)
	q.closeFiles()

	q = open(t, dir, Options{MaxBytes: 1 << 20, ChunkSize: 1000})
	if st := q.Stats(); st.PendingBlocks != 13 {
		t.Fatalf("want 13 pending blocks after reopen, got %+v", st)
	}
	for _, b := range all[20:] {
		push(t, q, b, 1)
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	q = open(t, dir, Options{MaxBytes: 1 << 20, ChunkSize: 1000})
	defer q.Close()
	got := drain(t, q)
	if strings.Join(got, "|") != strings.Join(all[7:], "|") {
		t.Fatalf("want blocks 7..29 in order, got %d", len(got))
	}
}

func TestCorruptedTail(t *testing.T) {
	f := func(name string, intact int, corrupt func(path string, size int64)) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			all := blocks(5)
			q := open(t, dir, Options{MaxBytes: 1 << 20})
			for _, b := range all {
				push(t, q, b, 1)
			}
			q.closeFiles()
			path := filepath.Join(dir, fmt.Sprintf("%016X", 0))
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			corrupt(path, st.Size())

			q = open(t, dir, Options{MaxBytes: 1 << 20})
			defer q.Close()
			// The damaged last record is cut; new blocks follow the intact ones.
			push(t, q, "after", 1)
			got := drain(t, q)
			want := append(append([]string{}, all[:intact]...), "after")
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Fatalf("got %q", got)
			}
		})
	}
	f("torn write", 4, func(path string, size int64) {
		if err := os.Truncate(path, size-10); err != nil {
			t.Fatal(err)
		}
	})
	f("flipped byte", 4, func(path string, size int64) {
		fh, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		if _, err := fh.WriteAt([]byte{'!'}, size-1); err != nil {
			t.Fatal(err)
		}
	})
	f("garbage appended", 5, func(path string, _ int64) {
		fh, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		// A header promising more bytes than exist, as after a crash mid-write.
		if _, err := fh.Write([]byte{0xff, 0xff, 0, 0, 1, 0, 0, 0, 9, 9, 9, 9, 'x'}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestCorruptedMetainfo(t *testing.T) {
	dir := t.TempDir()
	q := open(t, dir, Options{MaxBytes: 1 << 20})
	push(t, q, "a", 1)
	push(t, q, "b", 1)
	b, _ := q.Peek(nil)
	_ = q.Ack(b)
	_ = q.Close()
	if err := os.WriteFile(filepath.Join(dir, metainfoName), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	q = open(t, dir, Options{MaxBytes: 1 << 20})
	defer q.Close()
	// Unknown reader position: replay from the oldest block rather than lose data.
	if got := drain(t, q); strings.Join(got, "") != "ab" {
		t.Fatalf("got %q", got)
	}
}

func TestExclusiveLock(t *testing.T) {
	dir := t.TempDir()
	q := open(t, dir, Options{MaxBytes: 1 << 20})
	defer q.Close()
	_, err := Open(dir, Options{MaxBytes: 1 << 20})
	if err == nil || !strings.Contains(err.Error(), "in use by another process") {
		t.Fatalf("want a lock error, got %v", err)
	}
}

func countChunks(t *testing.T, dir string) int {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if len(e.Name()) == chunkNameSize {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return len(names)
}

func TestPeekMany(t *testing.T) {
	q := open(t, t.TempDir(), Options{MaxBytes: 1 << 20, ChunkSize: 1000})
	defer q.Close()
	all := blocks(20) // 110-byte payloads, several chunks
	for _, b := range all {
		push(t, q, b, 10)
	}
	f := func(maxBlocks, maxPoints, maxBytes int, want int) {
		t.Helper()
		bs, err := q.PeekMany(nil, maxBlocks, maxPoints, maxBytes)
		if err != nil {
			t.Fatal(err)
		}
		if len(bs) != want {
			t.Fatalf("PeekMany(%d, %d, %d) returned %d blocks, want %d", maxBlocks, maxPoints, maxBytes, len(bs), want)
		}
	}
	f(1000, 1000, 1<<20, 20)
	f(5, 1000, 1<<20, 5)
	f(1000, 35, 1<<20, 3)
	f(1000, 1000, 250, 2)
	// The first block comes back even when it alone exceeds the limits.
	f(1000, 1, 1, 1)

	// Acknowledging in order consumes them, across chunk boundaries.
	bs, _ := q.PeekMany(nil, 12, 1000, 1<<20)
	var got []string
	for _, b := range bs {
		got = append(got, string(b.Data))
		if err := q.Ack(b); err != nil {
			t.Fatal(err)
		}
	}
	got = append(got, drain(t, q)...)
	if strings.Join(got, "|") != strings.Join(all, "|") {
		t.Fatalf("blocks lost or reordered: %d", len(got))
	}
}
