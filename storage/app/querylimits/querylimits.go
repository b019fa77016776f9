// Package querylimits holds the per-request query limits: defaults from flags, lowered or
// raised per request by the trusted caller (the backend, which knows the workspace's plan)
// through X-Vigil-* headers.
package querylimits

import (
	"flag"
	"net/http"
	"strconv"
	"time"

	"vigil/storage/lib/apierror"
)

var (
	defaultTimeout = flag.Duration("dql.defaultTimeout", 30*time.Second, "Query timeout when the request has no X-Vigil-Query-Timeout header")
	maxPoints      = flag.Int("dql.maxPoints", 1_000_000, "The maximum number of points a query may return when the request has no X-Vigil-Max-Points header")
	maxDuration    = flag.Duration("dql.maxDuration", 365*24*time.Hour, "The maximum time span of a query when the request has no X-Vigil-Max-Duration header; 1y as in DataKit (DQL.md §2)")
	maxSeries      = flag.Int("dql.maxSeries", 100_000, "The maximum number of series a query may select when the request has no X-Vigil-Max-Series header. "+
		"See also -vmsource.maxSeries, the hard ceiling")
)

// Header names of the per-request limits.
const (
	HeaderTimeout     = "X-Vigil-Query-Timeout"
	HeaderMaxPoints   = "X-Vigil-Max-Points"
	HeaderMaxDuration = "X-Vigil-Max-Duration"
	HeaderMaxSeries   = "X-Vigil-Max-Series"
	HeaderRetention   = "X-Vigil-Retention"
	// HeaderMaxConcurrent is the workspace's concurrent queries limit: how many of its
	// searches may run at once (app/fairqueue; capped by -search.maxConcurrentPerWorkspace).
	HeaderMaxConcurrent = "X-Vigil-Max-Concurrent-Queries"
)

// Limits bound one query.
type Limits struct {
	Timeout     time.Duration
	MaxPoints   int
	MaxDuration time.Duration
	MaxSeries   int
	// Retention > 0: data older than this is not read (the workspace's retention); 0: all
	// that storage keeps.
	Retention time.Duration
}

// Defaults returns the limits set by flags.
func Defaults() Limits {
	return Limits{Timeout: *defaultTimeout, MaxPoints: *maxPoints, MaxDuration: *maxDuration, MaxSeries: *maxSeries}
}

// FromRequest returns the flag defaults overridden by the request's X-Vigil-* headers, or a
// 400 error naming the malformed header.
func FromRequest(r *http.Request) (Limits, error) {
	lim := Defaults()
	var err error
	if lim.Timeout, err = durationHeader(r, HeaderTimeout, lim.Timeout); err != nil {
		return lim, err
	}
	if lim.MaxDuration, err = durationHeader(r, HeaderMaxDuration, lim.MaxDuration); err != nil {
		return lim, err
	}
	if lim.MaxPoints, err = intHeader(r, HeaderMaxPoints, lim.MaxPoints); err != nil {
		return lim, err
	}
	if lim.MaxSeries, err = intHeader(r, HeaderMaxSeries, lim.MaxSeries); err != nil {
		return lim, err
	}
	if lim.Retention, err = durationHeader(r, HeaderRetention, 0); err != nil {
		return lim, err
	}
	return lim, nil
}

// MaxConcurrent returns the request's X-Vigil-Max-Concurrent-Queries (0 when absent: the
// node's per-workspace cap applies), or a 400 error when it is malformed.
func MaxConcurrent(r *http.Request) (int, error) {
	return intHeader(r, HeaderMaxConcurrent, 0)
}

func durationHeader(r *http.Request, name string, def time.Duration) (time.Duration, error) {
	v := r.Header.Get(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return def, apierror.BadData("invalid %s header %q: want a positive Go duration such as 30s", name, v)
	}
	return d, nil
}

func intHeader(r *http.Request, name string, def int) (int, error) {
	v := r.Header.Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return def, apierror.BadData("invalid %s header %q: want a positive integer", name, v)
	}
	return n, nil
}
