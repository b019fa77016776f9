package dql

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/dql/parser"
	"vigil/storage/lib/tenancy"
)

// Fetching (steps 1-2 of DQL.md §9): the tag part of the filter becomes label filters, the
// referenced fields are read from the Source, and series of one tag set are joined into a
// timeline by timestamp.

func measurementFilter(m string) metricsql.LabelFilter {
	return metricsql.LabelFilter{Label: tenancy.MeasurementLabel, Value: m}
}

// maxDisjuncts bounds the DNF of the tag filter; a larger filter selects a superset of
// timelines and relies on the row-level evaluation.
const maxDisjuncts = 64

// tagDNF rewrites the tag part of a filter to an OR of AND-ed label filters. Field
// predicates count as "true", so the selection is a superset that the row-level
// evaluation narrows exactly. nil means "no restriction".
func (ex *execState) tagDNF(e parser.Expr) [][]metricsql.LabelFilter {
	if e == nil {
		return [][]metricsql.LabelFilter{{}}
	}
	switch x := e.(type) {
	case *parser.ParenExpr:
		return ex.tagDNF(x.X)
	case *parser.BinaryExpr:
		switch x.Op {
		case "AND":
			l, r := ex.tagDNF(x.LHS), ex.tagDNF(x.RHS)
			if len(r) == 1 {
				// The common case, a chain of ANDs: extend every conjunction in place (the
				// conjunctions of a fresh DNF never share memory), in linear time.
				for i := range l {
					l[i] = append(l[i], r[0]...)
				}
				return l
			}
			if len(l)*len(r) > maxDisjuncts {
				if len(l) <= len(r) {
					return l
				}
				return r
			}
			var out [][]metricsql.LabelFilter
			for _, a := range l {
				for _, b := range r {
					c := append(append([]metricsql.LabelFilter{}, a...), b...)
					out = append(out, c)
				}
			}
			return out
		case "OR":
			l, r := ex.tagDNF(x.LHS), ex.tagDNF(x.RHS)
			if len(l)+len(r) > maxDisjuncts || isTrue(l) || isTrue(r) {
				return [][]metricsql.LabelFilter{{}}
			}
			return append(append([][]metricsql.LabelFilter{}, l...), r...)
		case "=", "!=":
			n, ok := parser.Unparen(x.LHS).(*parser.NameExpr)
			if !ok || ex.kind(n.Name) == kindField {
				break
			}
			switch r := x.RHS.(type) {
			case *parser.StringExpr:
				return [][]metricsql.LabelFilter{{{Label: n.Name, Value: r.Val, IsNegative: x.Op == "!="}}}
			case *parser.RegexExpr:
				return [][]metricsql.LabelFilter{{{Label: n.Name, Value: r.Val, IsRegexp: true, IsNegative: x.Op == "!="}}}
			}
		}
	case *parser.InExpr:
		n, ok := parser.Unparen(x.X).(*parser.NameExpr)
		if !ok || ex.kind(n.Name) == kindField {
			break
		}
		alts := make([]string, 0, len(x.List.Elems))
		for _, el := range x.List.Elems {
			alts = append(alts, regexp.QuoteMeta(literalString(el)))
		}
		if len(alts) == 0 {
			if x.Not {
				return [][]metricsql.LabelFilter{{}}
			}
			return nil // matches nothing
		}
		return [][]metricsql.LabelFilter{{{Label: n.Name, Value: strings.Join(alts, "|"), IsRegexp: true, IsNegative: x.Not}}}
	}
	return [][]metricsql.LabelFilter{{}}
}

func isTrue(d [][]metricsql.LabelFilter) bool {
	for _, c := range d {
		if len(c) == 0 {
			return true
		}
	}
	return false
}

func literalString(e parser.Expr) string {
	switch x := e.(type) {
	case *parser.StringExpr:
		return x.Val
	case *parser.NumberExpr:
		return x.Text
	}
	return e.String()
}

// selector builds the label filters of the raw fetch for the given fields.
func (ex *execState) selector(fields []string) [][]metricsql.LabelFilter {
	base := []metricsql.LabelFilter{measurementFilter(ex.s.Source.Name)}
	if len(fields) == 1 {
		base = append(base, metricsql.LabelFilter{Label: tenancy.FieldLabel, Value: fields[0]})
	} else {
		q := make([]string, len(fields))
		for i, f := range fields {
			q[i] = regexp.QuoteMeta(f)
		}
		base = append(base, metricsql.LabelFilter{Label: tenancy.FieldLabel, Value: strings.Join(q, "|"), IsRegexp: true})
	}
	dnf := ex.tagDNF(ex.s.Filter)
	var out [][]metricsql.LabelFilter
	for _, conj := range dnf {
		out = append(out, append(append([]metricsql.LabelFilter{}, base...), conj...))
	}
	return out
}

func selectorString(fss [][]metricsql.LabelFilter) string {
	me := &metricsql.MetricExpr{LabelFilterss: fss}
	return string(me.AppendString(nil))
}

func (ex *execState) fetch(ctx context.Context, src Source, start, end int64) ([]*timeline, string, error) {
	fields := ex.referencedFields()
	if len(fields) == 0 {
		return nil, "", nil
	}
	fss := ex.selector(fields)
	raw := fmt.Sprintf("%s [%d, %d)", selectorString(fss), start, end)
	if len(fss) == 0 {
		return nil, raw, nil
	}
	series, err := src.Fetch(ctx, FetchRequest{Filterss: fss, Start: start, End: end, MaxSeries: ex.opts.MaxSeries})
	if err != nil {
		return nil, raw, err
	}
	if ex.opts.MaxPoints > 0 {
		n := 0
		for _, s := range series {
			n += len(s.Timestamps)
		}
		if n > ex.opts.MaxPoints {
			return nil, raw, parser.NewError(CodeTooManyPoints, "the query reads %d samples, more than the maximum %d; narrow the time range or the filter", n, ex.opts.MaxPoints)
		}
	}
	return buildTimelines(series, start, end), raw, nil
}

// timeline is the rows of one (measurement, tag set): timestamps ascending, and for each
// field a column aligned with ts where NaN means "no value".
type timeline struct {
	key    string // sorted k=v,... of the tags
	tags   map[string]string
	ts     []int64
	fields map[string][]float64
}

func (tl *timeline) has(field string, i int) bool {
	col, ok := tl.fields[field]
	return ok && !math.IsNaN(col[i])
}

// timelineKey is the sorted k=v,... string of a tag set.
func timelineKey(tags map[string]string) string {
	keys := make([]string, 0, len(tags))
	for k := range tags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(tags[k])
	}
	return b.String()
}

// buildTimelines joins series of the same tag set into rows by exact timestamp.
func buildTimelines(series []Series, start, end int64) []*timeline {
	type column struct {
		ts []int64
		vs []float64
	}
	type acc struct {
		tags   map[string]string
		fields map[string]*column
	}
	byKey := map[string]*acc{}
	for _, s := range series {
		tags := map[string]string{}
		field := ""
		for k, v := range s.Labels {
			switch {
			case k == tenancy.FieldLabel:
				field = v
			case tenancy.IsReserved(k):
			default:
				tags[k] = v
			}
		}
		if field == "" {
			continue
		}
		key := timelineKey(tags)
		a := byKey[key]
		if a == nil {
			a = &acc{tags: tags, fields: map[string]*column{}}
			byKey[key] = a
		}
		c := a.fields[field]
		if c == nil {
			c = &column{ts: make([]int64, 0, len(s.Timestamps)), vs: make([]float64, 0, len(s.Timestamps))}
			a.fields[field] = c
		}
		for i, t := range s.Timestamps {
			if t >= start && t < end && !math.IsNaN(s.Values[i]) {
				c.ts = append(c.ts, t)
				c.vs = append(c.vs, s.Values[i])
			}
		}
	}
	out := make([]*timeline, 0, len(byKey))
	for key, a := range byKey {
		var ts []int64
		for _, c := range a.fields {
			if !slices.IsSorted(c.ts) {
				idx := make([]int, len(c.ts))
				for i := range idx {
					idx[i] = i
				}
				sort.SliceStable(idx, func(i, j int) bool { return c.ts[idx[i]] < c.ts[idx[j]] })
				nts, nvs := make([]int64, len(idx)), make([]float64, len(idx))
				for j, i := range idx {
					nts[j], nvs[j] = c.ts[i], c.vs[i]
				}
				c.ts, c.vs = nts, nvs
			}
			ts = append(ts, c.ts...)
		}
		if len(a.fields) > 1 || !isStrictlyIncreasing(ts) {
			slices.Sort(ts)
			ts = slices.Compact(ts)
		}
		tl := &timeline{key: key, tags: a.tags, ts: ts, fields: make(map[string][]float64, len(a.fields))}
		for f, c := range a.fields {
			col := make([]float64, len(ts))
			j := 0
			for i, t := range ts {
				// The last sample of equal timestamps wins, as in storage deduplication.
				for j < len(c.ts) && c.ts[j] < t {
					j++
				}
				col[i] = math.NaN()
				for j < len(c.ts) && c.ts[j] == t {
					col[i] = c.vs[j]
					j++
				}
			}
			tl.fields[f] = col
		}
		out = append(out, tl)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

func isStrictlyIncreasing(ts []int64) bool {
	for i := 1; i < len(ts); i++ {
		if ts[i] <= ts[i-1] {
			return false
		}
	}
	return true
}
