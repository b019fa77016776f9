package scrape

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"vigil/agent/lib/lineproto"
	"vigil/agent/lib/tenancy"
)

// maxBodyBytes bounds one scrape response; node_exporter answers with ~100 KiB.
const maxBodyBytes = 64 << 20

// Scraper fetches Prometheus text endpoints.
type Scraper struct {
	Client *http.Client
	// UserAgent is sent with each request.
	UserAgent string
	// BearerToken, when set, is sent to every target as "Authorization: Bearer".
	BearerToken string
}

// Target is one endpoint; Instance is its host:port, added as the `instance` tag.
type Target struct {
	URL      string
	Instance string
}

// ParseTargets validates a list of http(s) URLs.
func ParseTargets(urls []string) ([]Target, error) {
	var ts []Target
	for _, s := range urls {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("invalid scrape target %q: want http(s)://host:port/path", s)
		}
		ts = append(ts, Target{URL: s, Instance: u.Host})
	}
	return ts, nil
}

// Result is what one scrape produced.
type Result struct {
	Points   []lineproto.Point
	Samples  int
	Skipped  int // NaN or infinite values, which line protocol cannot carry
	Duration time.Duration
}

// Scrape fetches t and converts its samples, stamped now unless they carry a timestamp.
func (s *Scraper) Scrape(ctx context.Context, t Target, now time.Time) (Result, error) {
	start := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.URL, nil)
	if err != nil {
		return Result{}, fmt.Errorf("cannot scrape %s: %w", t.URL, err)
	}
	req.Header.Set("Accept", "text/plain;version=0.0.4;q=1,*/*;q=0.1")
	if s.UserAgent != "" {
		req.Header.Set("User-Agent", s.UserAgent)
	}
	if s.BearerToken != "" {
		req.Header.Set("Authorization", "Bearer "+s.BearerToken)
	}
	client := s.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return Result{}, fmt.Errorf("cannot scrape %s: %w", t.URL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return Result{}, fmt.Errorf("cannot scrape %s: %d %s: %s", t.URL, resp.StatusCode, http.StatusText(resp.StatusCode), strings.TrimSpace(string(body)))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes+1))
	if err != nil {
		return Result{}, fmt.Errorf("cannot read scrape response from %s: %w", t.URL, err)
	}
	if len(body) > maxBodyBytes {
		return Result{}, fmt.Errorf("scrape response from %s exceeds %d bytes", t.URL, maxBodyBytes)
	}
	samples, err := Parse(string(body))
	if err != nil {
		return Result{}, fmt.Errorf("cannot parse scrape response from %s: %w", t.URL, err)
	}
	res := Result{Samples: len(samples)}
	for _, smp := range samples {
		if math.IsNaN(smp.Value) || math.IsInf(smp.Value, 0) {
			res.Skipped++
			continue
		}
		res.Points = append(res.Points, ToPoint(smp, t.Instance, now))
	}
	res.Duration = time.Since(start)
	return res, nil
}

// ToPoint converts one sample. instance is added as a tag unless the sample has one.
func ToPoint(s Sample, instance string, now time.Time) lineproto.Point {
	m, f := tenancy.SplitMetricName(s.Name)
	tags := make([]lineproto.Tag, 0, len(s.Labels)+1)
	hasInstance := false
	for _, l := range s.Labels {
		// Labels Vigil refuses in incoming data (docs/internals.md) are dropped rather than
		// failing the whole batch at the gateway.
		if tenancy.IsReserved(l.Name) || l.Value == "" {
			continue
		}
		if l.Name == "instance" {
			hasInstance = true
		}
		tags = append(tags, lineproto.Tag{Key: l.Name, Value: l.Value})
	}
	if !hasInstance && instance != "" {
		tags = append(tags, lineproto.Tag{Key: "instance", Value: instance})
	}
	ts := now
	if s.TimestampMs != 0 {
		ts = time.UnixMilli(s.TimestampMs)
	}
	return lineproto.Point{Measurement: m, Tags: tags, Fields: []lineproto.Field{lineproto.F(f, s.Value)}, Time: ts}
}
