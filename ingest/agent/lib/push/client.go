// Package push delivers line-protocol batches over HTTP: it cuts lines into batches,
// gzips them, and sends them to the Vigil gateway (or, for load tests, straight to
// vigil-storage, VictoriaMetrics or InfluxDB 1.x), retrying with exponential backoff
// and jitter on 429, 5xx and connection errors, and dropping batches the server
// refuses for good (400, 401, 403, 404, 413, ...), which retrying cannot fix.
package push

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"vigil/agent/lib/lineproto"
)

// Target names the kind of server a Client writes to.
type Target string

// Supported targets.
const (
	// TargetGateway is the Vigil ingest gateway: POST /v1/write/metric, "Authorization: Token <ingest key>".
	TargetGateway Target = "gateway"
	// TargetStorage is vigil-storage's internal endpoint: POST /internal/v1/write/line,
	// "Authorization: Bearer <internal token>" and "X-Vigil-Workspace: <id>".
	TargetStorage Target = "storage"
	// TargetVM is stock VictoriaMetrics: POST /influx/write.
	TargetVM Target = "vm"
	// TargetInflux is InfluxDB 1.x: POST /write?db=<database>.
	TargetInflux Target = "influx"
)

// Targets lists the valid targets, for flag help and error messages.
var Targets = []Target{TargetGateway, TargetStorage, TargetVM, TargetInflux}

// ClientConfig describes where and how to send.
type ClientConfig struct {
	// URL is the server's base URL, e.g. http://127.0.0.1:8001.
	URL    string
	Target Target
	// Token is the ingest key (gateway), the internal token (storage) or the
	// InfluxDB password/token (influx, sent as "Authorization: Token"). Optional for vm.
	Token string
	// Workspace is the X-Vigil-Workspace header, required for TargetStorage.
	Workspace string
	// Database is InfluxDB's db argument for TargetInflux (default "vigil").
	Database  string
	Precision lineproto.Precision
	// Timeout bounds one request (default 30s).
	Timeout   time.Duration
	UserAgent string
}

// influxPrecision maps precisions to InfluxDB 1.x spelling, which has "n" and "u".
var influxPrecision = map[lineproto.Precision]string{
	lineproto.PrecisionNS: "n", lineproto.PrecisionUS: "u", lineproto.PrecisionMS: "ms", lineproto.PrecisionS: "s",
}

// Client sends gzipped line-protocol bodies to one server.
type Client struct {
	cfg      ClientConfig
	endpoint string
	http     *http.Client
}

// NewClient validates cfg and builds the endpoint URL.
func NewClient(cfg ClientConfig) (*Client, error) {
	if cfg.URL == "" {
		return nil, fmt.Errorf("missing URL for target %q", cfg.Target)
	}
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("invalid URL %q: want http(s)://host[:port]", cfg.URL)
	}
	if cfg.Precision == "" {
		cfg.Precision = lineproto.PrecisionMS
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	q := url.Values{}
	base := strings.TrimSuffix(u.Path, "/")
	switch cfg.Target {
	case TargetGateway, "":
		cfg.Target = TargetGateway
		u.Path = base + "/v1/write/metric"
		q.Set("precision", string(cfg.Precision))
	case TargetStorage:
		if cfg.Workspace == "" {
			return nil, fmt.Errorf("target %q needs a workspace id (X-Vigil-Workspace)", cfg.Target)
		}
		u.Path = base + "/internal/v1/write/line"
		q.Set("precision", string(cfg.Precision))
	case TargetVM:
		u.Path = base + "/influx/write"
		q.Set("precision", string(cfg.Precision))
	case TargetInflux:
		if cfg.Database == "" {
			cfg.Database = "vigil"
		}
		u.Path = base + "/write"
		q.Set("db", cfg.Database)
		q.Set("precision", influxPrecision[cfg.Precision])
	default:
		return nil, fmt.Errorf("unknown target %q; want one of %v", cfg.Target, Targets)
	}
	u.RawQuery = q.Encode()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 16
	tr.DisableCompression = true
	return &Client{cfg: cfg, endpoint: u.String(), http: &http.Client{Transport: tr, Timeout: cfg.Timeout}}, nil
}

// Endpoint is the full URL requests go to.
func (c *Client) Endpoint() string { return c.endpoint }

// Precision is the timestamp precision the server is told.
func (c *Client) Precision() lineproto.Precision { return c.cfg.Precision }

// PermanentError is a refusal that retrying will not fix; the batch is dropped.
type PermanentError struct {
	StatusCode int
	Body       string
}

func (e *PermanentError) Error() string {
	return fmt.Sprintf("server refused the batch with %d %s: %s", e.StatusCode, http.StatusText(e.StatusCode), e.Body)
}

// RetryableError is a temporary failure: the batch is sent again after a backoff.
type RetryableError struct {
	// StatusCode is 0 for connection errors.
	StatusCode int
	// RetryAfter is the server's Retry-After, or 0 when it gave none.
	RetryAfter time.Duration
	Err        error
}

func (e *RetryableError) Error() string {
	if e.StatusCode == 0 {
		return fmt.Sprintf("cannot reach server: %s", e.Err)
	}
	return fmt.Sprintf("server answered %d %s: %s", e.StatusCode, http.StatusText(e.StatusCode), e.Err)
}

func (e *RetryableError) Unwrap() error { return e.Err }

// Send posts one body of line protocol, gzipped or not: a body starting with the gzip
// magic bytes (which line protocol never does) goes with "Content-Encoding: gzip", so a
// buffer holding both kinds, e.g. after -send.gzip was changed, is delivered correctly.
// It returns nil on 2xx, *PermanentError or *RetryableError otherwise.
func (c *Client) Send(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("cannot build request to %s: %w", c.endpoint, err)
	}
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	if IsGzip(body) {
		req.Header.Set("Content-Encoding", "gzip")
	}
	if c.cfg.UserAgent != "" {
		req.Header.Set("User-Agent", c.cfg.UserAgent)
	}
	switch c.cfg.Target {
	case TargetStorage:
		req.Header.Set("Authorization", "Bearer "+c.cfg.Token)
		req.Header.Set("X-Vigil-Workspace", c.cfg.Workspace)
	default:
		if c.cfg.Token != "" {
			req.Header.Set("Authorization", "Token "+c.cfg.Token)
		}
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &RetryableError{Err: err}
	}
	defer resp.Body.Close()
	reply, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	msg := strings.TrimSpace(string(reply))
	if msg == "" {
		msg = "(empty body)"
	}
	if isRetryableStatus(resp.StatusCode) {
		return &RetryableError{
			StatusCode: resp.StatusCode,
			RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()),
			Err:        errors.New(msg),
		}
	}
	return &PermanentError{StatusCode: resp.StatusCode, Body: msg}
}

// isRetryableStatus: throttling, timeouts and server-side failures are worth retrying;
// other 4xx mean the request itself is wrong (bad line, bad key, too large).
func isRetryableStatus(code int) bool {
	switch code {
	case http.StatusRequestTimeout, http.StatusTooManyRequests:
		return true
	}
	return code >= 500
}

// parseRetryAfter reads delay-seconds or an HTTP date; 0 when absent or invalid.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
