package dql

import (
	"context"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/dql/parser"
	"vigil/storage/lib/tenancy"
)

// Metadata functions (DQL.md §12): show_measurement, show_tag_key, show_tag_value,
// show_field_key, answered from label names and values.

// execShow answers the metadata functions (DQL.md §12).
func execShow(ctx context.Context, src Source, s *parser.ShowStmt, opts *Options) (*Result, error) {
	start, end, err := resolveRange(s.Time, opts, DefaultMetaRange)
	if err != nil {
		return nil, err
	}
	ex := &execState{opts: opts, tagKeys: map[string]bool{}, fieldSet: map[string]bool{}, s: &parser.QueryStmt{Filter: s.Filter}}
	sh := &show{
		src:   src,
		start: start,
		end:   end - 1,
		// In metadata filters every name compared with a string is a tag.
		tagFilter: ex.tagDNF(s.Filter),
		args:      map[string]parser.Expr{},
		lim:       -1,
	}
	for _, a := range s.Call.Args {
		na := a.(*parser.NamedArg)
		sh.args[strings.ToLower(na.Name)] = na.Value
	}
	if s.Offset != nil {
		sh.off = s.Offset.N
	}
	if s.Limit != nil {
		sh.lim = s.Limit.N
	}
	var out []ResultSeries
	raw := ""
	switch s.Call.Name {
	case "show_measurement":
		fss := sh.withBase(metricsql.LabelFilter{Label: tenancy.MeasurementLabel, Value: ".+", IsRegexp: true})
		raw = selectorString(fss)
		ms, err := src.LabelValues(ctx, tenancy.MeasurementLabel, fss, sh.start, sh.end, 0)
		if err != nil {
			return nil, err
		}
		sort.Strings(ms)
		ms = page(ms, sh.off, sh.lim)
		rows := make([][]any, len(ms))
		for i, m := range ms {
			rows[i] = []any{m}
		}
		if len(rows) > 0 {
			out = append(out, ResultSeries{Name: "measurements", Columns: []string{"name"}, Values: rows})
		}
	case "show_tag_key", "show_field_key", "show_tag_value":
		ms, err := sh.measurements(ctx)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			fss := sh.withBase(measurementFilter(m))
			var rows [][]any
			var cols []string
			switch s.Call.Name {
			case "show_tag_key":
				cols = []string{"tagKey"}
				rows, err = sh.tagKeys(ctx, fss)
			case "show_field_key":
				cols = []string{"fieldKey", "fieldType"}
				rows, err = sh.fieldKeys(ctx, fss)
			case "show_tag_value":
				cols = []string{"key", "value"}
				fss = sh.tagValueSelection(m, fss)
				rows, err = sh.tagValues(ctx, fss)
			}
			if err != nil {
				return nil, err
			}
			rows = page(rows, sh.off, sh.lim)
			if len(rows) > 0 {
				out = append(out, ResultSeries{Name: m, Columns: cols, Values: rows})
			}
			if raw == "" {
				raw = selectorString(fss)
			}
		}
	}
	if out == nil {
		out = []ResultSeries{}
	}
	return &Result{Series: out, RawQuery: raw}, nil
}

// show is one metadata function's call: its range, filter, arguments and paging.
type show struct {
	src        Source
	start, end int64 // [start, end], the label searches' range
	tagFilter  [][]metricsql.LabelFilter
	args       map[string]parser.Expr // named arguments, lower case
	off, lim   int64                  // OFFSET, LIMIT (-1: none) of each series' rows
}

// withBase returns the filter's conjunctions, each with base added.
func (sh *show) withBase(base ...metricsql.LabelFilter) [][]metricsql.LabelFilter {
	out := make([][]metricsql.LabelFilter, 0, len(sh.tagFilter))
	for _, c := range sh.tagFilter {
		out = append(out, append(append([]metricsql.LabelFilter{}, base...), c...))
	}
	return out
}

// measurements returns from= when given, else every measurement the filter selects, sorted.
func (sh *show) measurements(ctx context.Context) ([]string, error) {
	if from, ok := sh.args["from"]; ok {
		return stringList(from), nil
	}
	ms, err := sh.src.LabelValues(ctx, tenancy.MeasurementLabel, sh.withBase(), sh.start, sh.end, 0)
	if err != nil {
		return nil, err
	}
	sort.Strings(ms)
	return ms, nil
}

// tagKeys lists the tag keys of the selected series.
func (sh *show) tagKeys(ctx context.Context, fss [][]metricsql.LabelFilter) ([][]any, error) {
	names, err := sh.src.LabelNames(ctx, fss, sh.start, sh.end, 0)
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var rows [][]any
	for _, n := range names {
		if !tenancy.IsReserved(n) {
			rows = append(rows, []any{n})
		}
	}
	return rows, nil
}

// fieldKeys lists the fields of the selected series; every field is a float.
func (sh *show) fieldKeys(ctx context.Context, fss [][]metricsql.LabelFilter) ([][]any, error) {
	fs, err := sh.src.LabelValues(ctx, tenancy.FieldLabel, fss, sh.start, sh.end, 0)
	if err != nil {
		return nil, err
	}
	sort.Strings(fs)
	var rows [][]any
	for _, f := range fs {
		rows = append(rows, []any{f, "float"})
	}
	return rows, nil
}

// tagValueSelection narrows measurement m's selection fss to the series of the field=
// fields, when given.
func (sh *show) tagValueSelection(m string, fss [][]metricsql.LabelFilter) [][]metricsql.LabelFilter {
	fv, ok := sh.args["field"]
	if !ok {
		return fss
	}
	q := stringList(fv)
	for i := range q {
		q[i] = regexp.QuoteMeta(q[i])
	}
	return sh.withBase(measurementFilter(m), metricsql.LabelFilter{Label: tenancy.FieldLabel, Value: strings.Join(q, "|"), IsRegexp: true})
}

// tagValues lists (key, value) of the keyin= tag keys over the selected series.
func (sh *show) tagValues(ctx context.Context, fss [][]metricsql.LabelFilter) ([][]any, error) {
	names, err := tagValueKeys(ctx, sh.src, sh.args["keyin"], fss, sh.start, sh.end)
	if err != nil {
		return nil, err
	}
	var rows [][]any
	for _, k := range names {
		// Only series that have the key give it a value, so the selection needs no
		// `k != ""` filter: one would make storage visit every value of k in the index.
		vals, err := sh.src.LabelValues(ctx, k, fss, sh.start, sh.end, 0)
		if err != nil {
			return nil, err
		}
		sort.Strings(vals)
		for _, v := range vals {
			rows = append(rows, []any{k, v})
		}
	}
	return rows, nil
}

// tagValueKeys gives the tag keys show_tag_value lists values of, sorted: those keyin names
// (no need to ask storage which exist), else those of the selected series keyin matches.
func tagValueKeys(ctx context.Context, src Source, keyin parser.Expr, fss [][]metricsql.LabelFilter, start, end int64) ([]string, error) {
	var names []string
	if _, isRegex := keyin.(*parser.RegexExpr); keyin != nil && !isRegex {
		names = stringList(keyin)
	} else {
		var err error
		if names, err = src.LabelNames(ctx, fss, start, end, 0); err != nil {
			return nil, err
		}
	}
	keys := make([]string, 0, len(names))
	for _, k := range names {
		if !tenancy.IsReserved(k) && keyMatches(keyin, k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return slices.Compact(keys), nil
}

func keyMatches(keyin parser.Expr, k string) bool {
	switch v := keyin.(type) {
	case nil:
		return true
	case *parser.RegexExpr:
		return mustCompileAnchored(v.Val).MatchString(k)
	default:
		return slices.Contains(stringList(v), k)
	}
}

func stringList(e parser.Expr) []string {
	switch v := e.(type) {
	case *parser.ListExpr:
		out := make([]string, 0, len(v.Elems))
		for _, el := range v.Elems {
			out = append(out, literalString(el))
		}
		return out
	case *parser.StringExpr:
		return []string{v.Val}
	}
	return nil
}
