package dql

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/VictoriaMetrics/metricsql"
)

// Series is one stored series: its labels and its samples in ascending time order.
//
// Labels hold __measurement__, __field__, __name__ and the tags. The tenant label never
// appears: a Source strips it.
type Series struct {
	Labels     map[string]string
	Timestamps []int64 // milliseconds since the Unix epoch, ascending
	Values     []float64
}

// SortSeries puts series in the order every Source returns them: by their label sets, compared
// label by label in name order (names and values as byte strings).
func SortSeries(series []Series) {
	keys := make([]string, len(series))
	for i := range series {
		keys[i] = labelsKey(series[i].Labels)
	}
	idx := make([]int, len(series))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
	sorted := make([]Series, len(series))
	for i, j := range idx {
		sorted[i] = series[j]
	}
	copy(series, sorted)
}

// labelsKey is a label set as one string that orders like the set: name, 0, value, 0, … in
// name order.
func labelsKey(m map[string]string) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, k := range names {
		b.WriteString(k)
		b.WriteByte(0)
		b.WriteString(m[k])
		b.WriteByte(0)
	}
	return b.String()
}

// FetchRequest asks for the raw samples with Start <= t < End of every series that matches
// at least one of Filterss (an OR of AND-ed label filter lists).
type FetchRequest struct {
	Filterss   [][]metricsql.LabelFilter
	Start, End int64 // milliseconds, half-open [Start, End)
	// MaxSeries bounds the number of series; exceeding it is an error naming the limit.
	MaxSeries int
}

// Source is the storage a DQL query runs against, already scoped to one workspace.
//
// Implementations add the workspace's label filter to every filter list and every metric
// selector they are given, and strip the tenant label from what they return; DQL code never
// sees or names the tenant. The embedded implementation calls VictoriaMetrics in-process;
// the remote one calls a VictoriaMetrics cluster's vmselect.
type Source interface {
	// Fetch returns raw samples (engine-side evaluation).
	Fetch(ctx context.Context, req FetchRequest) ([]Series, error)
	// QueryRange evaluates a MetricsQL expression at start, start+step, ... <= end (push-down).
	QueryRange(ctx context.Context, expr metricsql.Expr, start, end, step int64) ([]Series, error)
	// LabelNames returns the label names of series matching filterss within [start, end].
	LabelNames(ctx context.Context, filterss [][]metricsql.LabelFilter, start, end int64, limit int) ([]string, error)
	// LabelValues returns the values of label name over series matching filterss within [start, end].
	LabelValues(ctx context.Context, name string, filterss [][]metricsql.LabelFilter, start, end int64, limit int) ([]string, error)
}
