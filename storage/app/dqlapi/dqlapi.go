// Package dqlapi serves DQL over HTTP: POST /v1/query/raw with the request and response
// shapes of DQL.md §2 (DataKit/Guance compatible).
//
// Beyond DQL.md §2:
//   - "qtype": "promql" runs the query as MetricsQL (tenancy labels refused), with an
//     optional "step" duration; its content has query_type "promql";
//   - limit/offset/slimit/soffset equal to 0 mean "not set" (SDK clients send zero values);
//   - errors from the query text carry "position": {line, column, start, end} (byte
//     offsets) so an editor can underline the range;
//   - Limits.Timeout bounds the whole request, a query's "timeout" can only lower it;
//     Limits.MaxDuration likewise with "max_duration";
//   - storage failures answer 500 with error_code "dql.storage_error".
package dqlapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/bytesutil"

	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/parser"
)

// Limits are the per-workspace limits of one request, set by trusted callers. Zero values
// mean the defaults: 30s timeout, no points limit, one year, the Source's series limit.
type Limits struct {
	Timeout     time.Duration
	MaxPoints   int
	MaxDuration time.Duration
	MaxSeries   int
	// Retention > 0: data older than this is neither read nor shown (the workspace's retention).
	Retention time.Duration
}

// DefaultTimeout applies when neither Limits.Timeout nor the request sets one.
const DefaultTimeout = 30 * time.Second

// maxBodyBytes bounds the request body: up to 16 queries of 64 KiB plus the JSON around.
const maxBodyBytes = 2 << 20

type queryRequest struct {
	Query         string    `json:"query"`
	TimeRange     []float64 `json:"time_range"`
	Conditions    string    `json:"conditions"`
	Limit         *int64    `json:"limit"`
	Offset        *int64    `json:"offset"`
	SLimit        *int64    `json:"slimit"`
	SOffset       *int64    `json:"soffset"`
	DisableSLimit bool      `json:"disable_slimit"`
	MaxPoint      int       `json:"max_point"`
	MaxDuration   string    `json:"max_duration"`
	Timeout       string    `json:"timeout"`
	// QType selects the language: "dql" (default) or "promql" (MetricsQL pass-through).
	QType string `json:"qtype"`
	// Step is the resolution of a "promql" query, such as "1m"; by default about 360 points.
	Step string `json:"step"`
	// Interval buckets a DQL statement written without an interval, such as "5m".
	Interval string `json:"interval"`
}

type rawRequest struct {
	Queries     []queryRequest `json:"queries"`
	EchoExplain bool           `json:"echo_explain"`
}

type content struct {
	Series    []dql.ResultSeries `json:"series"`
	Cost      string             `json:"cost"`
	RawQuery  string             `json:"raw_query"`
	QueryType string             `json:"query_type"`
}

type position struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Start  int `json:"start"`
	End    int `json:"end"`
}

type errorBody struct {
	ErrorCode string    `json:"error_code"`
	Message   string    `json:"message"`
	Position  *position `json:"position,omitempty"`
}

// maxQueries bounds the number of queries in one request.
const maxQueries = 16

// HandleQueryRaw answers POST /v1/query/raw against src, which is already scoped to the
// caller's workspace.
func HandleQueryRaw(w http.ResponseWriter, r *http.Request, src dql.Source, lim Limits) {
	defer func() {
		if rec := recover(); rec != nil {
			log.Printf("ERROR: dqlapi: panic while answering %s %s: %v", r.Method, r.URL.Path, rec)
			writeError(w, http.StatusInternalServerError, errorBody{ErrorCode: "dql.internal_error", Message: "internal error while evaluating the query"})
		}
	}()
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, http.StatusMethodNotAllowed, errorBody{ErrorCode: parser.CodeInvalidArgument, Message: fmt.Sprintf("method %s is not allowed; use POST", r.Method)})
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if err != nil {
		writeError(w, http.StatusBadRequest, errorBody{ErrorCode: parser.CodeInvalidArgument, Message: "cannot read the request body: " + err.Error()})
		return
	}
	if len(body) > maxBodyBytes {
		writeError(w, http.StatusRequestEntityTooLarge, errorBody{ErrorCode: parser.CodeInvalidArgument, Message: fmt.Sprintf("request body is larger than %d bytes", maxBodyBytes)})
		return
	}
	var req rawRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, errorBody{ErrorCode: parser.CodeInvalidArgument, Message: "invalid JSON request body: " + err.Error()})
		return
	}
	if len(req.Queries) == 0 {
		writeError(w, http.StatusBadRequest, errorBody{ErrorCode: parser.CodeInvalidArgument, Message: `"queries" must hold at least one query`})
		return
	}
	if len(req.Queries) > maxQueries {
		writeError(w, http.StatusBadRequest, errorBody{ErrorCode: parser.CodeInvalidArgument, Message: fmt.Sprintf(`"queries" holds %d queries; the maximum is %d`, len(req.Queries), maxQueries)})
		return
	}
	now := time.Now().UnixMilli()
	// The workspace's timeout bounds the whole request; a query's "timeout" can only lower it.
	if lim.Timeout <= 0 {
		lim.Timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(r.Context(), lim.Timeout)
	defer cancel()
	out, i, err := runQueries(ctx, src, lim, req, now)
	if err != nil {
		status, body := errorResponse(err)
		if len(req.Queries) > 1 {
			body.Message = fmt.Sprintf("query %d: %s", i+1, body.Message)
		}
		writeError(w, status, body)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	bb := answerPool.Get()
	defer answerPool.Put(bb)
	bb.B, err = appendResponse(bb.B[:0], out)
	if err != nil {
		// As with encoding/json's Encoder, nothing of the answer is written.
		log.Printf("ERROR: dqlapi: cannot encode the answer: %s", err)
		return
	}
	_, _ = w.Write(bb.B)
}

// answerPool holds the buffers answers are encoded into.
var answerPool bytesutil.ByteBufferPool

// runQueries answers a request's queries at the same time, at most one per CPU (a dashboard
// sends a panel's queries together), in their order. On failure it returns the error of the
// first query that failed, by position, and that position.
func runQueries(ctx context.Context, src dql.Source, lim Limits, req rawRequest, now int64) ([]content, int, error) {
	out := make([]content, len(req.Queries))
	errs := make([]error, len(req.Queries))
	if len(req.Queries) == 1 {
		out[0], errs[0] = runQuery(ctx, src, lim, req.Queries[0], now, req.EchoExplain)
	} else {
		slots := make(chan struct{}, runtime.GOMAXPROCS(0))
		var wg sync.WaitGroup
		for i, q := range req.Queries {
			wg.Add(1)
			slots <- struct{}{}
			go func() {
				defer func() {
					if rec := recover(); rec != nil {
						errs[i] = errInternal
						log.Printf("ERROR: dqlapi: panic while answering query %d: %v", i+1, rec)
					}
					<-slots
					wg.Done()
				}()
				out[i], errs[i] = runQuery(ctx, src, lim, q, now, req.EchoExplain)
			}()
		}
		wg.Wait()
	}
	for i, err := range errs {
		if err != nil {
			return nil, i, err
		}
	}
	return out, 0, nil
}

func runQuery(parent context.Context, src dql.Source, lim Limits, q queryRequest, now int64, explain bool) (content, error) {
	start := time.Now()
	if q.Query == "" {
		return content{}, &parser.Error{Code: parser.CodeParseError, Msg: `"query" is empty`, Pos: -1, End: -1}
	}
	opts := dql.Options{
		Now:           now,
		Conditions:    q.Conditions,
		Limit:         override(q.Limit),
		Offset:        override(q.Offset),
		SLimit:        override(q.SLimit),
		SOffset:       override(q.SOffset),
		DisableSLimit: q.DisableSLimit,
		MaxPoint:      q.MaxPoint,
		MaxDuration:   lim.MaxDuration,
		MaxSeries:     lim.MaxSeries,
		MaxPoints:     lim.MaxPoints,
	}
	if lim.Retention > 0 {
		opts.NotBefore = now - lim.Retention.Milliseconds()
	}
	if q.Interval != "" {
		ms, err := parser.ParseDuration(q.Interval)
		if err != nil || ms <= 0 {
			return content{}, invalid("interval: invalid duration %q", q.Interval)
		}
		opts.Interval = ms
	}
	if q.MaxPoint < 0 {
		return content{}, invalid("max_point must not be negative, got %d", q.MaxPoint)
	}
	for _, t := range q.TimeRange {
		if t != float64(int64(t)) || t < 0 {
			return content{}, invalid("time_range holds millisecond timestamps, got %v", t)
		}
		opts.TimeRange = append(opts.TimeRange, int64(t))
	}
	if len(q.TimeRange) > 2 {
		return content{}, invalid("time_range takes [start_ms] or [start_ms, end_ms], got %d elements", len(q.TimeRange))
	}
	if q.MaxDuration != "" {
		ms, err := parser.ParseDuration(q.MaxDuration)
		if err != nil || ms <= 0 {
			return content{}, invalid("max_duration: invalid duration %q", q.MaxDuration)
		}
		d := time.Duration(ms) * time.Millisecond
		if opts.MaxDuration <= 0 || d < opts.MaxDuration {
			opts.MaxDuration = d
		}
	}
	timeout := lim.Timeout // the request's context also ends at the workspace's deadline
	if q.Timeout != "" {
		ms, err := parser.ParseDuration(q.Timeout)
		if err != nil || ms <= 0 {
			return content{}, invalid("timeout: invalid duration %q", q.Timeout)
		}
		if d := time.Duration(ms) * time.Millisecond; d < timeout {
			timeout = d
		}
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	var res *dql.Result
	var err error
	queryType := "guancedb"
	switch q.QType {
	case "", "dql":
		res, err = dql.Query(ctx, src, q.Query, opts)
	case "promql":
		queryType = "promql"
		if strings.TrimSpace(q.Conditions) != "" {
			// conditions carry row-level access rules; a MetricsQL query cannot be held to them,
			// so the combination is refused rather than answered unfiltered.
			return content{}, invalid(`conditions cannot be combined with qtype "promql"; use DQL to apply them`)
		}
		var step int64
		if q.Step != "" {
			if step, err = parser.ParseDuration(q.Step); err != nil || step <= 0 {
				return content{}, invalid("step: invalid duration %q", q.Step)
			}
		}
		res, err = dql.QueryPromQL(ctx, src, q.Query, step, opts)
	default:
		return content{}, invalid(`qtype must be "dql" or "promql", got %q`, q.QType)
	}
	if err != nil {
		if e, ok := parser.AsError(err); ok && e.Code == dql.CodeTimeout {
			e.Msg = fmt.Sprintf("query exceeded the timeout of %s", timeout)
		}
		return content{}, err
	}
	c := content{Series: res.Series, Cost: time.Since(start).String(), QueryType: queryType}
	if c.Series == nil {
		c.Series = []dql.ResultSeries{}
	}
	if explain {
		c.RawQuery = res.RawQuery
	}
	return c, nil
}

// override returns nil for an absent or zero limit/offset field: clients built on the SDK
// send 0 for "not set", which must not replace the statement's clause.
func override(v *int64) *int64 {
	if v == nil || *v == 0 {
		return nil
	}
	return v
}

func invalid(format string, args ...any) error {
	return &parser.Error{Code: parser.CodeInvalidArgument, Msg: fmt.Sprintf(format, args...), Pos: -1, End: -1}
}

// errorResponse maps an error to its HTTP status and body: 504 for timeouts, 500 for
// storage failures, 400 for everything the query is to blame for.
// errInternal stands for a panic while a query was evaluated (answered 500).
var errInternal = errors.New("internal error while evaluating the query")

func errorResponse(err error) (int, errorBody) {
	if errors.Is(err, errInternal) {
		return http.StatusInternalServerError, errorBody{ErrorCode: "dql.internal_error", Message: err.Error()}
	}
	e, ok := parser.AsError(err)
	if !ok {
		if errors.Is(err, context.DeadlineExceeded) {
			return http.StatusGatewayTimeout, errorBody{ErrorCode: dql.CodeTimeout, Message: err.Error()}
		}
		return http.StatusInternalServerError, errorBody{ErrorCode: dql.CodeStorageError, Message: err.Error()}
	}
	body := errorBody{ErrorCode: e.Code, Message: e.Error()}
	if e.Pos >= 0 && e.Context == "" {
		line, col := e.LineCol()
		body.Position = &position{Line: line, Column: col, Start: e.Pos, End: e.End}
	}
	switch e.Code {
	case dql.CodeTimeout:
		return http.StatusGatewayTimeout, body
	case dql.CodeStorageError:
		log.Printf("ERROR: dqlapi: %s", e.Msg)
		return http.StatusInternalServerError, body
	}
	return http.StatusBadRequest, body
}

func writeError(w http.ResponseWriter, status int, body errorBody) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}
