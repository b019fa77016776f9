// Package dqltest provides an in-memory dql.Source holding a fixed set of series, for
// tests of the DQL engine and of its HTTP handler. It honours label filters (with
// VictoriaMetrics semantics: a missing label equals "", regexes are anchored) and time
// ranges exactly, and evaluates the subset of MetricsQL the DQL compiler emits.
package dqltest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/dql"
)

// Source is an in-memory dql.Source. Its methods may be called concurrently (the query API
// runs a request's queries side by side); read Calls and Queries once the calls returned.
type Source struct {
	Series []dql.Series
	// Calls counts the calls per method, so tests can tell push-down from raw fetches.
	Calls map[string]int
	// Queries records the MetricsQL expressions passed to QueryRange.
	Queries []string
	mu      sync.Mutex // guards Calls and Queries
	// Err, when set, is returned by every call.
	Err error
}

// NewSource returns a Source over series.
func NewSource(series ...dql.Series) *Source {
	return &Source{Series: series, Calls: map[string]int{}}
}

// T0 is the first timestamp of the example dataset E (2023-11-14T22:00:00Z).
const T0 = int64(1699999200000)

// ExampleE returns dataset E of DQL.md §4: measurement cpu with timelines host=a,dc=east1
// and host=b,dc=west1, samples every 30 s at T0 ... T0+150 s (n = 0..5), a.user = n+1,
// b.user = 10(n+1), idle = 100 - user; measurement net, timeline host=a, field rx =
// 0, 300, 600, 900, 100, 400.
func ExampleE() *Source {
	var series []dql.Series
	add := func(m, field string, tags map[string]string, vals []float64) {
		labels := map[string]string{"__measurement__": m, "__field__": field, "__name__": m + ":" + field}
		maps.Copy(labels, tags)
		s := dql.Series{Labels: labels}
		for n, v := range vals {
			s.Timestamps = append(s.Timestamps, T0+int64(n)*30000)
			s.Values = append(s.Values, v)
		}
		series = append(series, s)
	}
	for _, h := range []struct {
		host, dc string
		mul      float64
	}{{"a", "east1", 1}, {"b", "west1", 10}} {
		var user, idle []float64
		for n := 0; n < 6; n++ {
			u := h.mul * float64(n+1)
			user = append(user, u)
			idle = append(idle, 100-u)
		}
		tags := map[string]string{"host": h.host, "dc": h.dc}
		add("cpu", "user", tags, user)
		add("cpu", "idle", tags, idle)
	}
	add("net", "rx", map[string]string{"host": "a"}, []float64{0, 300, 600, 900, 100, 400})
	return NewSource(series...)
}

func matchOne(lf metricsql.LabelFilter, labels map[string]string) bool {
	v := labels[lf.Label]
	var ok bool
	if lf.IsRegexp {
		re, err := metricsql.CompileRegexpAnchored(lf.Value)
		if err != nil {
			return false
		}
		ok = re.MatchString(v)
	} else {
		ok = v == lf.Value
	}
	return ok != lf.IsNegative
}

// Matches reports whether labels match at least one of the AND-ed filter lists.
func Matches(filterss [][]metricsql.LabelFilter, labels map[string]string) bool {
	for _, fs := range filterss {
		all := true
		for _, lf := range fs {
			if !matchOne(lf, labels) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func (s *Source) count(method string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Calls == nil {
		s.Calls = map[string]int{}
	}
	s.Calls[method]++
}

// Fetch implements dql.Source.
func (s *Source) Fetch(ctx context.Context, req dql.FetchRequest) ([]dql.Series, error) {
	s.count("Fetch")
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	var out []dql.Series
	for _, ser := range s.Series {
		if !Matches(req.Filterss, ser.Labels) {
			continue
		}
		o := dql.Series{Labels: maps.Clone(ser.Labels)}
		for i, t := range ser.Timestamps {
			if t >= req.Start && t < req.End {
				o.Timestamps = append(o.Timestamps, t)
				o.Values = append(o.Values, ser.Values[i])
			}
		}
		if len(o.Timestamps) == 0 {
			continue
		}
		out = append(out, o)
		if req.MaxSeries > 0 && len(out) > req.MaxSeries {
			return nil, dql.NewLimitError("the query selects more than %d series (the workspace's max series per query)", req.MaxSeries)
		}
	}
	return out, nil
}

func (s *Source) check(ctx context.Context) error {
	if s.Err != nil {
		return s.Err
	}
	return ctx.Err()
}

// inRange reports whether a series has a sample in [start, end].
func inRange(ser dql.Series, start, end int64) bool {
	for _, t := range ser.Timestamps {
		if t >= start && t <= end {
			return true
		}
	}
	return false
}

// LabelNames implements dql.Source.
func (s *Source) LabelNames(ctx context.Context, filterss [][]metricsql.LabelFilter, start, end int64, limit int) ([]string, error) {
	s.count("LabelNames")
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	set := map[string]bool{}
	for _, ser := range s.Series {
		if Matches(filterss, ser.Labels) && inRange(ser, start, end) {
			for k := range ser.Labels {
				set[k] = true
			}
		}
	}
	return sortedLimited(set, limit), nil
}

// LabelValues implements dql.Source.
func (s *Source) LabelValues(ctx context.Context, name string, filterss [][]metricsql.LabelFilter, start, end int64, limit int) ([]string, error) {
	s.count("LabelValues")
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	set := map[string]bool{}
	for _, ser := range s.Series {
		if v := ser.Labels[name]; v != "" && Matches(filterss, ser.Labels) && inRange(ser, start, end) {
			set[v] = true
		}
	}
	return sortedLimited(set, limit), nil
}

func sortedLimited(set map[string]bool, limit int) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}

// QueryRange implements dql.Source for the MetricsQL subset the DQL compiler emits:
// sum/min/max/count by (...) over <f>_over_time(selector[window] offset d), binary
// operators between such expressions, and rollups without aggregation.
func (s *Source) QueryRange(ctx context.Context, expr metricsql.Expr, start, end, step int64) ([]dql.Series, error) {
	s.count("QueryRange")
	s.mu.Lock()
	s.Queries = append(s.Queries, string(expr.AppendString(nil)))
	s.mu.Unlock()
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	if step <= 0 {
		return nil, fmt.Errorf("step must be positive, got %d", step)
	}
	var ts []int64
	for t := start; t <= end; t += step {
		ts = append(ts, t)
	}
	res, err := s.eval(expr, ts)
	if err != nil {
		return nil, err
	}
	out := make([]dql.Series, 0, len(res))
	for _, r := range res {
		if len(r.Timestamps) > 0 {
			out = append(out, r)
		}
	}
	return out, nil
}

func labelKey(labels map[string]string) string {
	keys := slices.Sorted(maps.Keys(labels))
	b := make([]byte, 0, 64)
	for _, k := range keys {
		b = append(b, k...)
		b = append(b, 0)
		b = append(b, labels[k]...)
		b = append(b, 0)
	}
	return string(b)
}
