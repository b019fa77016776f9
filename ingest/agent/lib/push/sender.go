package push

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"vigil/agent/lib/diskqueue"
)

// Backoff is the retry schedule: the n-th retry waits a random time in [d/2, d],
// where d = Initial * 2^n capped at Max. A server's Retry-After overrides it (capped at MaxRetryAfter).
type Backoff struct {
	Initial       time.Duration
	Max           time.Duration
	MaxRetryAfter time.Duration
}

// DefaultBackoff starts at 1s and caps at 1m.
var DefaultBackoff = Backoff{Initial: time.Second, Max: time.Minute, MaxRetryAfter: 5 * time.Minute}

// Delay returns the wait before retry number attempt (0-based) after err.
// Zero fields take DefaultBackoff's values.
func (b Backoff) Delay(attempt int, err error) time.Duration {
	if b.Initial <= 0 {
		b.Initial = DefaultBackoff.Initial
	}
	if b.Max < b.Initial {
		b.Max = max(b.Initial, DefaultBackoff.Max)
	}
	if b.MaxRetryAfter <= 0 {
		b.MaxRetryAfter = DefaultBackoff.MaxRetryAfter
	}
	var re *RetryableError
	if errors.As(err, &re) && re.RetryAfter > 0 {
		return min(re.RetryAfter, b.MaxRetryAfter)
	}
	d := b.Initial
	for i := 0; i < attempt && d < b.Max; i++ {
		d *= 2
	}
	d = min(d, b.Max)
	half := d / 2
	return half + time.Duration(rand.Int64N(int64(half)+1))
}

// Stats are the delivery counters, exported as the agent's own metrics.
type Stats struct {
	BatchesSent   atomic.Int64
	PointsSent    atomic.Int64
	SendErrors    atomic.Int64
	DroppedPoints atomic.Int64
	DroppedBatch  atomic.Int64
}

// Deliver sends one batch, retrying temporary failures until it succeeds, the server
// refuses it for good (the *PermanentError is returned, logged and counted as dropped) or ctx ends.
func Deliver(ctx context.Context, c *Client, b Backoff, stats *Stats, gzipped []byte, points int, logf func(string, ...any)) error {
	err := sendWithRetry(ctx, c, b, stats, gzipped, points, logf)
	var pe *PermanentError
	if errors.As(err, &pe) {
		stats.DroppedBatch.Add(1)
		stats.DroppedPoints.Add(int64(points))
		logf("dropping a batch of %d points sent to %s: %s", points, c.Endpoint(), err)
	}
	return err
}

// sendWithRetry is Deliver without the accounting of a permanent refusal.
func sendWithRetry(ctx context.Context, c *Client, b Backoff, stats *Stats, gzipped []byte, points int, logf func(string, ...any)) error {
	for attempt := 0; ; attempt++ {
		err := c.Send(ctx, gzipped)
		if err == nil {
			stats.BatchesSent.Add(1)
			stats.PointsSent.Add(int64(points))
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		stats.SendErrors.Add(1)
		var pe *PermanentError
		if errors.As(err, &pe) {
			return err
		}
		d := b.Delay(attempt, err)
		logf("cannot send a batch of %d points to %s (attempt %d): %s; retrying in %s", points, c.Endpoint(), attempt+1, err, d.Round(time.Millisecond))
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// Sender moves batches from a disk queue to a Client, in order, one request at a time.
//
// While batches are backed up (after an outage) it sends several per request, up to
// MaxLines lines and MaxBytes compressed bytes, as one body of concatenated gzip members,
// which every gzip reader in the path accepts. If the server refuses such a combined
// request for good, the batches are sent again one by one, so only the faulty one is dropped.
type Sender struct {
	Queue   *diskqueue.Queue
	Client  *Client
	Backoff Backoff
	Stats   *Stats
	Logf    func(string, ...any)
	// MaxLines and MaxBytes bound a combined request; 0 sends one batch per request.
	MaxLines int
	MaxBytes int

	body []byte
}

// Run sends until ctx ends. A batch is removed from the queue only after the server
// accepted it or refused it permanently; a batch in flight when ctx ends stays queued.
func (s *Sender) Run(ctx context.Context) error {
	if s.Logf == nil {
		s.Logf = log.Printf
	}
	for {
		var bs []*diskqueue.Block
		var err error
		if s.MaxLines > 0 && s.MaxBytes > 0 {
			bs, err = s.Queue.PeekMany(ctx.Done(), 1000, s.MaxLines, s.MaxBytes)
		} else {
			var b *diskqueue.Block
			b, err = s.Queue.Peek(ctx.Done())
			bs = []*diskqueue.Block{b}
		}
		if err != nil {
			if errors.Is(err, diskqueue.ErrClosed) {
				return nil
			}
			return err
		}
		if err := s.deliver(ctx, bs); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

// deliver sends bs as one request and acknowledges them; on a permanent refusal of a
// combined request it falls back to one request per batch.
func (s *Sender) deliver(ctx context.Context, bs []*diskqueue.Block) error {
	// Only bodies of one kind concatenate: gzip members, or plain lines.
	for i, b := range bs {
		if IsGzip(b.Data) != IsGzip(bs[0].Data) {
			bs = bs[:i]
			break
		}
	}
	body, points := bs[0].Data, bs[0].Points
	if len(bs) > 1 {
		s.body = s.body[:0]
		points = 0
		for _, b := range bs {
			s.body = append(s.body, b.Data...)
			points += b.Points
		}
		body = s.body
	}
	if len(bs) == 1 {
		_ = Deliver(ctx, s.Client, s.Backoff, s.Stats, body, points, s.Logf)
	} else {
		var pe *PermanentError
		// A combined request counts as one batch sent; drops are counted per batch below.
		err := sendWithRetry(ctx, s.Client, s.Backoff, s.Stats, body, points, s.Logf)
		if errors.As(err, &pe) && ctx.Err() == nil {
			s.Logf("the server refused %d combined batches (%s); sending them one by one", len(bs), err)
			for _, b := range bs {
				if err := s.deliver(ctx, []*diskqueue.Block{b}); err != nil || ctx.Err() != nil {
					return err
				}
			}
			return nil
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	for _, b := range bs {
		if err := s.Queue.Ack(b); err != nil {
			return err
		}
	}
	return nil
}
