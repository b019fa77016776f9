package push

import (
	"bytes"
	"compress/gzip"
	"sync"
)

// Batcher cuts a stream of lines into batches of at most MaxLines lines and MaxBytes
// uncompressed bytes, and hands each full batch, gzipped unless Raw, to Flush.
type Batcher struct {
	MaxLines int
	MaxBytes int
	// Raw skips compression: cheaper in CPU where bandwidth is free (loopback).
	Raw bool
	// Flush receives the batch and its line count. The slice is only valid during the call.
	Flush func(body []byte, lines int) error

	buf   []byte
	lines int
	gz    bytes.Buffer
}

// Add appends lines (each ending in '\n'; n is how many) and flushes whenever a limit is reached.
// A single line longer than MaxBytes is sent alone.
func (b *Batcher) Add(lines []byte, n int) error {
	if n == 1 || len(lines) == 0 {
		return b.addOne(lines, n)
	}
	for len(lines) > 0 {
		i := bytes.IndexByte(lines, '\n')
		var line []byte
		if i < 0 {
			line, lines = lines, nil
		} else {
			line, lines = lines[:i+1], lines[i+1:]
		}
		if err := b.addOne(line, 1); err != nil {
			return err
		}
	}
	return nil
}

func (b *Batcher) addOne(line []byte, n int) error {
	if b.lines > 0 && (b.lines+n > b.MaxLines || len(b.buf)+len(line) > b.MaxBytes) {
		if err := b.Close(); err != nil {
			return err
		}
	}
	b.buf = append(b.buf, line...)
	b.lines += n
	return nil
}

// Close flushes what is left.
func (b *Batcher) Close() error {
	if b.lines == 0 {
		return nil
	}
	var err error
	if b.Raw {
		err = b.Flush(b.buf, b.lines)
	} else {
		b.gz.Reset()
		Gzip(&b.gz, b.buf)
		err = b.Flush(b.gz.Bytes(), b.lines)
	}
	b.buf = b.buf[:0]
	b.lines = 0
	return err
}

// IsGzip tells whether body starts with the gzip magic bytes.
func IsGzip(body []byte) bool { return len(body) >= 2 && body[0] == 0x1f && body[1] == 0x8b }

var gzipPool sync.Pool

// Gzip compresses data into dst at the fastest level: line protocol compresses ~10x
// even so, and the agent should cost its host as little CPU as possible.
func Gzip(dst *bytes.Buffer, data []byte) {
	zw, _ := gzipPool.Get().(*gzip.Writer)
	if zw == nil {
		zw, _ = gzip.NewWriterLevel(dst, gzip.BestSpeed)
	} else {
		zw.Reset(dst)
	}
	_, _ = zw.Write(data)
	_ = zw.Close()
	gzipPool.Put(zw)
}
