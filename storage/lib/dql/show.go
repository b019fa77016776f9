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
	// In metadata filters every name compared with a string is a tag.
	tagFilter := ex.tagDNF(s.Filter)
	withBase := func(base ...metricsql.LabelFilter) [][]metricsql.LabelFilter {
		out := make([][]metricsql.LabelFilter, 0, len(tagFilter))
		for _, c := range tagFilter {
			out = append(out, append(append([]metricsql.LabelFilter{}, base...), c...))
		}
		return out
	}
	args := map[string]parser.Expr{}
	for _, a := range s.Call.Args {
		na := a.(*parser.NamedArg)
		args[strings.ToLower(na.Name)] = na.Value
	}
	off, lim := int64(0), int64(-1)
	if s.Offset != nil {
		off = s.Offset.N
	}
	if s.Limit != nil {
		lim = s.Limit.N
	}
	measurements := func() ([]string, error) {
		if from, ok := args["from"]; ok {
			return stringList(from), nil
		}
		ms, err := src.LabelValues(ctx, tenancy.MeasurementLabel, withBase(), start, end-1, 0)
		if err != nil {
			return nil, err
		}
		sort.Strings(ms)
		return ms, nil
	}
	var out []ResultSeries
	raw := ""
	switch s.Call.Name {
	case "show_measurement":
		fss := withBase(metricsql.LabelFilter{Label: tenancy.MeasurementLabel, Value: ".+", IsRegexp: true})
		raw = selectorString(fss)
		ms, err := src.LabelValues(ctx, tenancy.MeasurementLabel, fss, start, end-1, 0)
		if err != nil {
			return nil, err
		}
		sort.Strings(ms)
		ms = page(ms, off, lim)
		rows := make([][]any, len(ms))
		for i, m := range ms {
			rows[i] = []any{m}
		}
		if len(rows) > 0 {
			out = append(out, ResultSeries{Name: "measurements", Columns: []string{"name"}, Values: rows})
		}
	case "show_tag_key", "show_field_key", "show_tag_value":
		ms, err := measurements()
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			fss := withBase(measurementFilter(m))
			var rows [][]any
			var cols []string
			switch s.Call.Name {
			case "show_tag_key":
				cols = []string{"tagKey"}
				names, err := src.LabelNames(ctx, fss, start, end-1, 0)
				if err != nil {
					return nil, err
				}
				sort.Strings(names)
				for _, n := range names {
					if !tenancy.IsReserved(n) {
						rows = append(rows, []any{n})
					}
				}
			case "show_field_key":
				cols = []string{"fieldKey", "fieldType"}
				fs, err := src.LabelValues(ctx, tenancy.FieldLabel, fss, start, end-1, 0)
				if err != nil {
					return nil, err
				}
				sort.Strings(fs)
				for _, f := range fs {
					rows = append(rows, []any{f, "float"})
				}
			case "show_tag_value":
				cols = []string{"key", "value"}
				if fv, ok := args["field"]; ok {
					q := stringList(fv)
					for i := range q {
						q[i] = regexp.QuoteMeta(q[i])
					}
					fss = withBase(measurementFilter(m), metricsql.LabelFilter{Label: tenancy.FieldLabel, Value: strings.Join(q, "|"), IsRegexp: true})
				}
				names, err := tagValueKeys(ctx, src, args["keyin"], fss, start, end-1)
				if err != nil {
					return nil, err
				}
				for _, k := range names {
					// Only series that have the key give it a value, so the selection needs no
					// `k != ""` filter: one would make storage visit every value of k in the index.
					vals, err := src.LabelValues(ctx, k, fss, start, end-1, 0)
					if err != nil {
						return nil, err
					}
					sort.Strings(vals)
					for _, v := range vals {
						rows = append(rows, []any{k, v})
					}
				}
			}
			rows = page(rows, off, lim)
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
