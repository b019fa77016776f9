// Package diskqueue is a bounded, persistent FIFO of blocks on local disk.
//
// It is modelled on VictoriaMetrics lib/persistentqueue: the queue is a sequence of
// chunk files named after the global byte offset of their first byte (16 hex digits),
// written append-only, plus a metainfo.json holding the reader's offset. Offsets grow
// forever, so `writer - reader` is the number of pending bytes. Unlike persistentqueue,
// every block goes to disk before Push returns (no in-memory stage), so a killed process
// loses nothing it has pushed, and a reader acknowledges a block only after it was
// delivered (at-least-once: a crash between delivery and Ack replays that block).
//
// Each record is a 12-byte header — payload length, point count, CRC-32C of the
// payload, all little-endian uint32 — followed by the payload. On open, the last chunk
// is scanned and a torn or corrupted tail is truncated away.
//
// When pushing a block would exceed MaxBytes, whole chunks are dropped from the head
// (oldest first) and their blocks and points are counted in Stats.
package diskqueue

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"syscall"
)

const (
	headerSize    = 12
	metainfoName  = "metainfo.json"
	flockName     = "flock.lock"
	minChunkSize  = 64 << 10
	maxChunkSize  = 32 << 20
	chunkNameSize = 16
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// ErrClosed is returned by Peek after Close.
var ErrClosed = errors.New("diskqueue: closed")

// Options configure Open.
type Options struct {
	// MaxBytes bounds the pending bytes (headers included). Required.
	MaxBytes int64
	// ChunkSize is the size at which a new chunk file is started; it is also the
	// granularity of dropping. Default: MaxBytes/16, clamped to 64 KiB..32 MiB.
	ChunkSize int64
	// Logf receives notices about recovery and dropped data. Default: log.Printf.
	Logf func(format string, args ...any)
}

// Stats are the queue's counters.
type Stats struct {
	PendingBytes  int64
	PendingBlocks int64
	DroppedBlocks int64
	DroppedPoints int64
}

// Block is one queued payload, returned by Peek.
type Block struct {
	Data   []byte
	Points int
	offset int64 // global offset of the record header
	next   int64 // offset just after the record
}

// Queue is safe for one writer and one reader goroutine (or more, serialised by its mutex).
type Queue struct {
	dir       string
	maxBytes  int64
	chunkSize int64
	logf      func(format string, args ...any)

	mu       sync.Mutex
	cond     *sync.Cond
	closed   bool
	flock    *os.File
	chunks   []int64 // start offsets of existing chunk files, ascending
	writer   *os.File
	writeOff int64
	reader   *os.File
	readerAt int64 // chunk start the reader file belongs to, -1 if none
	readOff  int64
	stats    Stats
	hdr      [headerSize]byte
}

type metainfo struct {
	ReaderOffset int64 `json:"readerOffset"`
}

// Open opens or creates the queue in dir, recovering from an unclean shutdown.
func Open(dir string, opts Options) (*Queue, error) {
	if opts.MaxBytes <= 0 {
		return nil, fmt.Errorf("diskqueue: MaxBytes must be positive, got %d", opts.MaxBytes)
	}
	if opts.ChunkSize <= 0 {
		opts.ChunkSize = min(max(opts.MaxBytes/16, minChunkSize), maxChunkSize)
	}
	if opts.Logf == nil {
		opts.Logf = log.Printf
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create buffer directory %s: %w", dir, err)
	}
	q := &Queue{dir: dir, maxBytes: opts.MaxBytes, chunkSize: opts.ChunkSize, logf: opts.Logf, readerAt: -1}
	q.cond = sync.NewCond(&q.mu)

	flock, err := os.OpenFile(filepath.Join(dir, flockName), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot create lock file in %s: %w", dir, err)
	}
	if err := syscall.Flock(int(flock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = flock.Close()
		return nil, fmt.Errorf("buffer directory %s is in use by another process: %w", dir, err)
	}
	q.flock = flock
	if err := q.recover(); err != nil {
		q.closeFiles()
		return nil, err
	}
	return q, nil
}

func (q *Queue) chunkPath(start int64) string {
	return filepath.Join(q.dir, fmt.Sprintf("%016X", start))
}

// recover lists chunks, restores the reader offset and truncates a corrupted tail.
func (q *Queue) recover() error {
	entries, err := os.ReadDir(q.dir)
	if err != nil {
		return fmt.Errorf("cannot list buffer directory %s: %w", q.dir, err)
	}
	for _, e := range entries {
		name := e.Name()
		if len(name) != chunkNameSize || e.IsDir() {
			continue
		}
		off, err := strconv.ParseUint(name, 16, 63)
		if err != nil {
			continue
		}
		q.chunks = append(q.chunks, int64(off))
	}
	sort.Slice(q.chunks, func(i, j int) bool { return q.chunks[i] < q.chunks[j] })

	if len(q.chunks) == 0 {
		q.chunks = []int64{0}
	}
	// Validate the last chunk: scan its records and cut at the first bad one.
	last := q.chunks[len(q.chunks)-1]
	f, err := os.OpenFile(q.chunkPath(last), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("cannot open buffer chunk: %w", err)
	}
	valid, err := scanValid(f)
	if err != nil {
		_ = f.Close()
		return err
	}
	if st, err := f.Stat(); err == nil && st.Size() > valid {
		q.logf("buffer %s: truncating corrupted or incomplete tail of chunk %016X at %d bytes (was %d)", q.dir, last, valid, st.Size())
		if err := f.Truncate(valid); err != nil {
			_ = f.Close()
			return fmt.Errorf("cannot truncate buffer chunk %s: %w", f.Name(), err)
		}
	}
	if _, err := f.Seek(valid, io.SeekStart); err != nil {
		_ = f.Close()
		return err
	}
	q.writer = f
	q.writeOff = last + valid

	// Reader offset from metainfo; anything odd means "start from the oldest data".
	q.readOff = q.chunks[0]
	if data, err := os.ReadFile(filepath.Join(q.dir, metainfoName)); err == nil {
		var mi metainfo
		if err := json.Unmarshal(data, &mi); err != nil {
			q.logf("buffer %s: ignoring unreadable %s (%s); replaying from the oldest block", q.dir, metainfoName, err)
		} else if mi.ReaderOffset > q.writeOff {
			q.logf("buffer %s: reader offset %d past the end of the data (%d); replaying from the oldest block", q.dir, mi.ReaderOffset, q.writeOff)
		} else if mi.ReaderOffset >= q.chunks[0] {
			q.readOff = mi.ReaderOffset
		}
		// An offset below the first chunk means a crash between deleting a delivered
		// chunk and saving the offset: the oldest remaining block is the right place.
	}
	// Remove chunks the reader has fully passed.
	for len(q.chunks) > 1 && q.chunks[1] <= q.readOff {
		_ = os.Remove(q.chunkPath(q.chunks[0]))
		q.chunks = q.chunks[1:]
	}
	return q.recountPending()
}

// scanValid returns the length of the longest prefix of f made of intact records.
func scanValid(f *os.File) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	r := &countingReader{r: f}
	var hdr [headerSize]byte
	var buf []byte
	var valid int64
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return valid, nil
		}
		n := binary.LittleEndian.Uint32(hdr[0:4])
		if r.n+int64(n) > st.Size() {
			return valid, nil // a length no file could hold: a torn or garbage header
		}
		if cap(buf) < int(n) {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		if _, err := io.ReadFull(r, buf); err != nil {
			return valid, nil
		}
		if crc32.Checksum(buf, crcTable) != binary.LittleEndian.Uint32(hdr[8:12]) {
			return valid, nil
		}
		valid = r.n
	}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// recountPending walks the headers from the reader to the writer to count pending blocks.
func (q *Queue) recountPending() error {
	q.stats.PendingBytes = q.writeOff - q.readOff
	q.stats.PendingBlocks = 0
	for _, start := range q.chunks {
		end := q.chunkEnd(start)
		from := max(start, q.readOff)
		if from >= end {
			continue
		}
		blocks, _, err := q.countRecords(start, from-start, end-start)
		if err != nil {
			return err
		}
		q.stats.PendingBlocks += blocks
	}
	return nil
}

// chunkEnd is the global offset just past the chunk starting at start.
func (q *Queue) chunkEnd(start int64) int64 {
	for i, s := range q.chunks {
		if s == start && i+1 < len(q.chunks) {
			return q.chunks[i+1]
		}
	}
	return q.writeOff
}

// countRecords reads the headers of a chunk between two local offsets.
func (q *Queue) countRecords(start, from, to int64) (blocks, points int64, err error) {
	f, err := os.Open(q.chunkPath(start))
	if err != nil {
		return 0, 0, fmt.Errorf("cannot open buffer chunk: %w", err)
	}
	defer f.Close()
	var hdr [headerSize]byte
	for off := from; off+headerSize <= to; {
		if _, err := f.ReadAt(hdr[:], off); err != nil {
			break
		}
		blocks++
		points += int64(binary.LittleEndian.Uint32(hdr[4:8]))
		off += headerSize + int64(binary.LittleEndian.Uint32(hdr[0:4]))
	}
	return blocks, points, nil
}

// Push appends a block holding the given number of points. It drops the oldest chunks
// when the queue would exceed MaxBytes, and refuses a block larger than MaxBytes itself.
func (q *Queue) Push(data []byte, points int) error {
	size := int64(headerSize + len(data))
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return ErrClosed
	}
	if size > q.maxBytes {
		q.stats.DroppedBlocks++
		q.stats.DroppedPoints += int64(points)
		return fmt.Errorf("block of %d bytes exceeds the buffer size limit of %d bytes; raise -buffer.maxBytes or lower -batch.maxBytes", size, q.maxBytes)
	}
	if q.stats.PendingBytes+size > q.maxBytes {
		if err := q.dropOldest(size); err != nil {
			return err
		}
	}
	last := q.chunks[len(q.chunks)-1]
	if q.writeOff > last && q.writeOff-last+size > q.chunkSize {
		if err := q.rotate(); err != nil {
			return err
		}
	}
	binary.LittleEndian.PutUint32(q.hdr[0:4], uint32(len(data)))
	binary.LittleEndian.PutUint32(q.hdr[4:8], uint32(points))
	binary.LittleEndian.PutUint32(q.hdr[8:12], crc32.Checksum(data, crcTable))
	// One write call per record keeps a torn record confined to the file's tail.
	rec := make([]byte, 0, size)
	rec = append(rec, q.hdr[:]...)
	rec = append(rec, data...)
	if _, err := q.writer.Write(rec); err != nil {
		// Cut whatever part was written, so the chunk stays a sequence of whole records.
		_ = q.writer.Truncate(q.writeOff - q.chunks[len(q.chunks)-1])
		_, _ = q.writer.Seek(q.writeOff-q.chunks[len(q.chunks)-1], io.SeekStart)
		return fmt.Errorf("cannot write to buffer %s: %w", q.writer.Name(), err)
	}
	q.writeOff += size
	q.stats.PendingBytes += size
	q.stats.PendingBlocks++
	q.cond.Broadcast()
	return nil
}

// rotate starts a new chunk at the current writer offset.
func (q *Queue) rotate() error {
	f, err := os.OpenFile(q.chunkPath(q.writeOff), os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("cannot create buffer chunk: %w", err)
	}
	_ = q.writer.Close()
	q.writer = f
	q.chunks = append(q.chunks, q.writeOff)
	return nil
}

// dropOldest removes chunks from the head until size more bytes fit.
func (q *Queue) dropOldest(size int64) error {
	var blocks, points int64
	for q.stats.PendingBytes+size > q.maxBytes {
		if len(q.chunks) == 1 {
			// Everything pending sits in the writer's chunk: seal it so it can go.
			if q.writeOff == q.chunks[0] {
				break
			}
			if err := q.rotate(); err != nil {
				return err
			}
		}
		head := q.chunks[0]
		end := q.chunks[1]
		b, p, err := q.countRecords(head, q.readOff-head, end-head)
		if err != nil {
			return err
		}
		blocks += b
		points += p
		if q.readerAt == head {
			_ = q.reader.Close()
			q.reader, q.readerAt = nil, -1
		}
		if err := os.Remove(q.chunkPath(head)); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("cannot remove buffer chunk: %w", err)
		}
		q.chunks = q.chunks[1:]
		q.stats.PendingBytes -= end - q.readOff
		q.stats.PendingBlocks -= b
		q.readOff = end
	}
	q.stats.DroppedBlocks += blocks
	q.stats.DroppedPoints += points
	q.logf("buffer %s is full (%d bytes); dropped the oldest %d blocks with %d points", q.dir, q.maxBytes, blocks, points)
	return q.writeMetainfo()
}

// Peek waits until a block is available and returns it without removing it; call Ack
// with it once it was delivered. It returns ErrClosed after Close, or when done is closed.
func (q *Queue) Peek(done <-chan struct{}) (*Block, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if done != nil {
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			select {
			case <-done:
				q.mu.Lock()
				q.cond.Broadcast()
				q.mu.Unlock()
			case <-stop:
			}
		}()
	}
	for {
		if q.closed {
			return nil, ErrClosed
		}
		if done != nil {
			select {
			case <-done:
				return nil, ErrClosed
			default:
			}
		}
		if q.readOff < q.writeOff {
			b, err := q.readLocked()
			if err != nil || b != nil {
				return b, err
			}
			continue
		}
		q.cond.Wait()
	}
}

// readLocked reads the record at the reader offset. A corrupted record makes the
// reader skip to the next chunk (counted as dropped); it then returns nil, nil.
func (q *Queue) readLocked() (*Block, error) {
	b, start, end, reason, err := q.readAt(q.readOff)
	if err != nil {
		return nil, err
	}
	if reason != "" {
		return nil, q.skipCorrupt(start, end, reason)
	}
	return b, nil
}

// readAt reads the record at global offset off (< writeOff). A damaged record is
// reported as a reason, with the bounds of its chunk, rather than an error.
func (q *Queue) readAt(off int64) (b *Block, start, end int64, reason string, err error) {
	idx := sort.Search(len(q.chunks), func(i int) bool { return q.chunks[i] > off }) - 1
	if idx < 0 {
		return nil, 0, 0, "", fmt.Errorf("BUG: offset %d before the first chunk %d", off, q.chunks[0])
	}
	start = q.chunks[idx]
	end = q.writeOff
	if idx+1 < len(q.chunks) {
		end = q.chunks[idx+1]
	}
	if q.readerAt != start {
		if q.reader != nil {
			_ = q.reader.Close()
		}
		f, err := os.Open(q.chunkPath(start))
		if err != nil {
			return nil, 0, 0, "", fmt.Errorf("cannot open buffer chunk: %w", err)
		}
		q.reader, q.readerAt = f, start
	}
	local := off - start
	var hdr [headerSize]byte
	if _, err := q.reader.ReadAt(hdr[:], local); err != nil {
		return nil, start, end, fmt.Sprintf("cannot read record header: %s", err), nil
	}
	n := int64(binary.LittleEndian.Uint32(hdr[0:4]))
	if off+headerSize+n > end {
		return nil, start, end, fmt.Sprintf("record length %d runs past the chunk end", n), nil
	}
	data := make([]byte, n)
	if _, err := q.reader.ReadAt(data, local+headerSize); err != nil {
		return nil, start, end, fmt.Sprintf("cannot read record: %s", err), nil
	}
	if crc32.Checksum(data, crcTable) != binary.LittleEndian.Uint32(hdr[8:12]) {
		return nil, start, end, "checksum mismatch", nil
	}
	return &Block{Data: data, Points: int(binary.LittleEndian.Uint32(hdr[4:8])), offset: off, next: off + headerSize + n}, start, end, "", nil
}

// PeekMany waits like Peek for the first block, then adds the blocks queued right after
// it while they stay within maxBlocks, maxPoints and maxBytes (payload bytes); the first
// block is returned even when it alone exceeds the limits. Ack them in order.
func (q *Queue) PeekMany(done <-chan struct{}, maxBlocks, maxPoints, maxBytes int) ([]*Block, error) {
	first, err := q.Peek(done)
	if err != nil {
		return nil, err
	}
	bs := []*Block{first}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || first.offset != q.readOff {
		return bs, nil
	}
	points, size := first.Points, len(first.Data)
	for off := first.next; off < q.writeOff && len(bs) < maxBlocks; {
		b, _, _, reason, err := q.readAt(off)
		if err != nil || reason != "" {
			break // left for readLocked to deal with once the reader gets there
		}
		if points+b.Points > maxPoints || size+len(b.Data) > maxBytes {
			break
		}
		bs = append(bs, b)
		points += b.Points
		size += len(b.Data)
		off = b.next
	}
	return bs, nil
}

func (q *Queue) skipCorrupt(start, end int64, reason string) error {
	q.logf("buffer %s: chunk %016X is corrupted at offset %d (%s); skipping %d bytes", q.dir, start, q.readOff-start, reason, end-q.readOff)
	q.stats.DroppedBlocks++
	q.stats.PendingBytes -= end - q.readOff
	q.readOff = end
	_ = q.recountPending()
	return q.advanceChunks()
}

// Ack removes b from the queue. Acking a block that was dropped meanwhile is a no-op.
func (q *Queue) Ack(b *Block) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || b.offset != q.readOff {
		return nil
	}
	q.readOff = b.next
	q.stats.PendingBytes -= b.next - b.offset
	q.stats.PendingBlocks--
	return q.advanceChunks()
}

// advanceChunks deletes chunks the reader has left and persists the reader offset.
func (q *Queue) advanceChunks() error {
	for len(q.chunks) > 1 && q.chunks[1] <= q.readOff {
		if q.readerAt == q.chunks[0] {
			_ = q.reader.Close()
			q.reader, q.readerAt = nil, -1
		}
		if err := os.Remove(q.chunkPath(q.chunks[0])); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("cannot remove buffer chunk: %w", err)
		}
		q.chunks = q.chunks[1:]
	}
	return q.writeMetainfo()
}

func (q *Queue) writeMetainfo() error {
	data, _ := json.Marshal(metainfo{ReaderOffset: q.readOff})
	tmp := filepath.Join(q.dir, metainfoName+".tmp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("cannot write buffer metainfo: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(q.dir, metainfoName)); err != nil {
		return fmt.Errorf("cannot write buffer metainfo: %w", err)
	}
	return nil
}

// Stats returns a snapshot of the counters.
func (q *Queue) Stats() Stats {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.stats
}

// Close persists the reader offset, wakes blocked readers and releases the directory.
func (q *Queue) Close() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return nil
	}
	q.closed = true
	q.cond.Broadcast()
	err := q.writeMetainfo()
	q.closeFiles()
	return err
}

func (q *Queue) closeFiles() {
	if q.writer != nil {
		_ = q.writer.Close()
	}
	if q.reader != nil {
		_ = q.reader.Close()
	}
	if q.flock != nil {
		_ = q.flock.Close()
	}
}
