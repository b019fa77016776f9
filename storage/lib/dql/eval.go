package dql

import (
	"vigil/storage/lib/dql/parser"

	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/apierror"
	"vigil/storage/lib/tenancy"
)

// Defaults of the evaluation (DQL.md §8, §12, D-9, D-17).
const (
	// MaxMeasurements bounds the measurements one query (a list or a regex) reads.
	MaxMeasurements = 1000
	// DefaultLimit is the number of rows per series when there is no LIMIT.
	DefaultLimit = 1000
	// DefaultSLimit is the number of series when there is no SLIMIT and the caller did
	// not disable it.
	DefaultSLimit = 20
	// MaxBuckets is the number of buckets per series allowed without max_point.
	MaxBuckets = 10000

	DefaultRange       = 15 * time.Minute
	DefaultMetaRange   = 24 * time.Hour
	DefaultMaxDuration = 365 * 24 * time.Hour
)

// Options carry the request-level settings of one query (DQL.md §2). The zero value runs
// the statement as written with the default limits.
type Options struct {
	Now        int64   // milliseconds; 0 means the current time
	TimeRange  []int64 // [start] or [start, end] in ms, replacing the statement's range
	Conditions string  // extra filter ANDed to the statement's filter

	// Overrides of the statement's clauses; nil keeps the statement's value.
	Limit, Offset, SLimit, SOffset *int64
	DisableSLimit                  bool

	MaxPoint    int           // > 0: widen the interval so a series has at most this many buckets
	MaxDuration time.Duration // maximum end - start; 0 means one year
	MaxSeries   int           // passed to the Source; 0 means its default
	MaxPoints   int           // maximum samples fetched from storage; 0 means no limit
	// NotBefore > 0 (ms): nothing older is read, every time range starts there at the
	// earliest (the workspace's retention); a range that ends before it is an error.
	NotBefore int64

	// EngineOnly disables push-down: every query fetches raw samples.
	EngineOnly bool

	// nested is set for the inner statement of a nested query: no default LIMIT.
	nested bool
}

// ResultSeries is one series of a result (DQL.md §2).
type ResultSeries struct {
	Name    string            `json:"name"`
	Tags    map[string]string `json:"tags,omitempty"`
	Columns []string          `json:"columns"`
	Values  [][]any           `json:"values"`
}

// Result is the answer to one query.
type Result struct {
	Series []ResultSeries
	// RawQuery describes what was sent to storage: MetricsQL expressions for push-down,
	// the label selector of the raw fetch otherwise.
	RawQuery string

	start, end int64 // the evaluated range
}

// Query parses, checks and evaluates one DQL statement against src.
func Query(ctx context.Context, src Source, q string, opts Options) (*Result, error) {
	st, err := parser.Parse(q)
	if err != nil {
		return nil, err
	}
	if err := parser.Check(st, q); err != nil {
		return nil, err
	}
	if opts.Now == 0 {
		opts.Now = nowMs()
	}
	var res *Result
	switch s := st.(type) {
	case *parser.QueryStmt:
		if err := applyOptions(s, &opts); err != nil {
			return nil, err
		}
		res, err = execQuery(ctx, src, s, &opts)
		err = parser.WithQuery(err, q, "")
	case *parser.ShowStmt:
		// Conditions are access rules: metadata obeys them too.
		qs := &parser.QueryStmt{Filter: s.Filter, HasFilter: s.HasFilter, Limit: s.Limit, Offset: s.Offset}
		if err := applyConditions(qs, &opts); err != nil {
			return nil, err
		}
		if err := applyPaging(qs, &opts); err != nil {
			return nil, err
		}
		s.Filter, s.HasFilter, s.Limit, s.Offset = qs.Filter, qs.HasFilter, qs.Limit, qs.Offset
		res, err = execShow(ctx, src, s, &opts)
		err = parser.WithQuery(err, q, "")
	case *parser.OuterStmt:
		res, err = execOuter(ctx, src, s, &opts)
		err = parser.WithQuery(err, q, "")
	}
	if err != nil {
		return nil, mapContextError(ctx, err)
	}
	return res, nil
}

func nowMs() int64 { return time.Now().UnixMilli() }

func mapContextError(ctx context.Context, err error) error {
	if _, ok := parser.AsError(err); ok {
		return err
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return parser.NewError(CodeTimeout, "query timed out: %s", err)
	}
	var ae *apierror.Error
	if errors.As(err, &ae) {
		switch ae.Type {
		case apierror.TypeTimeout:
			return parser.NewError(CodeTimeout, "query timed out: %s", ae.Err)
		case apierror.TypeLimitExceeded:
			if strings.Contains(ae.Error(), "series") {
				return parser.NewError(CodeTooManySeries, "%s", ae.Err)
			}
			return parser.NewError(CodeTooManyPoints, "%s", ae.Err)
		case apierror.TypeBadData:
			return parser.NewError(parser.CodeInvalidArgument, "%s", ae.Err)
		}
	}
	return &parser.Error{Code: CodeStorageError, Msg: "storage: " + err.Error(), Pos: -1, End: -1}
}

func applyOptions(s *parser.QueryStmt, opts *Options) error {
	// Conditions restrict what is read from storage: they go to the innermost statement.
	inner := s
	for inner.Subquery != nil {
		inner = inner.Subquery
	}
	if err := applyConditions(inner, opts); err != nil {
		return err
	}
	return applyPaging(s, opts)
}

func applyConditions(s *parser.QueryStmt, opts *Options) error {
	if strings.TrimSpace(opts.Conditions) != "" {
		cond, err := parser.ParseFilter(opts.Conditions)
		if err != nil {
			return err
		}
		if cond != nil {
			if err := parser.CheckConditions(cond, opts.Conditions); err != nil {
				return err
			}
			if s.Filter == nil {
				s.Filter = cond
			} else {
				s.Filter = &parser.BinaryExpr{Op: "AND", LHS: &parser.ParenExpr{X: s.Filter}, RHS: &parser.ParenExpr{X: cond}}
			}
			s.HasFilter = true
		}
	}
	return nil
}

func applyPaging(s *parser.QueryStmt, opts *Options) error {
	for _, o := range []struct {
		kw  string
		v   *int64
		dst **parser.IntClause
		max int64
	}{{"limit", opts.Limit, &s.Limit, parser.MaxLimit}, {"offset", opts.Offset, &s.Offset, parser.MaxOffset},
		{"slimit", opts.SLimit, &s.SLimit, parser.MaxLimit}, {"soffset", opts.SOffset, &s.SOffset, parser.MaxOffset}} {
		if o.v == nil {
			continue
		}
		if *o.v < 0 {
			return parser.NewError(parser.CodeInvalidArgument, "%s must not be negative, got %d", o.kw, *o.v)
		}
		c := &parser.IntClause{N: *o.v}
		if err := parser.CheckIntClause(strings.ToUpper(o.kw), c, o.max); err != nil {
			e := err.(*parser.Error)
			e.Pos, e.End = -1, -1
			return e
		}
		*o.dst = c
	}
	return nil
}

// plan holds the resolved time range of a query.
type plan struct {
	start, end int64 // [start, end)
	interval   int64 // 0: no buckets
	rollup     string
	offset     int64 // tz(): milliseconds east of UTC that buckets align to
}

// bucket returns the start of the bucket holding t.
func (pl *plan) bucket(t int64) int64 { return bucketOf(t, pl.interval, pl.offset) }

func resolveRange(te *parser.TimeExpr, opts *Options, def time.Duration) (start, end int64, err error) {
	now := opts.Now
	end = now
	if te != nil && te.To != nil {
		end = te.To.Value
		if te.To.Relative {
			end = now - te.To.Value
		}
	}
	start = end - def.Milliseconds()
	if te != nil && te.From != nil {
		start = te.From.Value
		if te.From.Relative {
			start = now - te.From.Value
		}
	}
	switch len(opts.TimeRange) {
	case 0:
	case 1:
		start, end = opts.TimeRange[0], now
	case 2:
		start, end = opts.TimeRange[0], opts.TimeRange[1]
	default:
		return 0, 0, parser.NewError(parser.CodeInvalidArgument, "time_range takes one or two timestamps, got %d", len(opts.TimeRange))
	}
	if start >= end {
		return 0, 0, parser.NewError(parser.CodeInvalidArgument, "start %d is not before end %d", start, end)
	}
	maxDur := opts.MaxDuration
	if maxDur <= 0 {
		maxDur = DefaultMaxDuration
	}
	// in milliseconds: a span of centuries in nanoseconds overflows
	if span := end - start; span < 0 || span > maxDur.Milliseconds() {
		return 0, 0, parser.NewError(CodeTimeRangeTooLarge, "time range %s is longer than the maximum %s", fmtDur(end-start), fmtDur(maxDur.Milliseconds()))
	}
	if opts.NotBefore > 0 && start < opts.NotBefore {
		if end <= opts.NotBefore {
			return 0, 0, parser.NewError(parser.CodeInvalidArgument, "the time range ends at %s, before the workspace's retention starts (%s): no data is kept from then",
				fmtTime(end), fmtTime(opts.NotBefore))
		}
		start = opts.NotBefore
	}
	return start, end, nil
}

func fmtTime(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339) }

func fmtDur(ms int64) string { return (time.Duration(ms) * time.Millisecond).String() }

func makePlan(s *parser.QueryStmt, opts *Options) (*plan, error) {
	start, end, err := resolveRange(s.Time, opts, DefaultRange)
	if err != nil {
		return nil, err
	}
	pl := &plan{start: start, end: end}
	if s.TZ != nil {
		pl.offset = parser.TZOffset(s.TZ, start)
	}
	if s.Time != nil && s.Time.Interval != nil {
		pl.interval = s.Time.Interval.Ms
		pl.rollup = strings.ToLower(s.Time.Rollup)
		n := bucketCount(start, end, pl.interval, pl.offset)
		limit := int64(MaxBuckets)
		if opts.MaxPoints > 0 && int64(opts.MaxPoints) < limit {
			limit = int64(opts.MaxPoints)
		}
		if opts.MaxPoint > 0 {
			// Widen the interval instead of failing; never beyond the hard cap.
			want := min(int64(opts.MaxPoint), limit)
			if n > want {
				pl.interval = (end - start + want - 1) / want
				n = bucketCount(start, end, pl.interval, pl.offset)
			}
			limit = want + 1 // an unaligned range can touch one more bucket
		}
		if n > limit {
			return nil, parser.NewError(CodeTooManyPoints, "%d buckets of %s in %s is more than the maximum %d per series; widen the interval or set max_point", n, s.Time.Interval.Text, fmtDur(end-start), limit)
		}
	}
	return pl, nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// bucketOf returns the start of the interval-wide bucket holding t; buckets are aligned to
// the epoch shifted by offset (the time zone of tz(), 0 for UTC).
func bucketOf(t, interval, offset int64) int64 {
	return floorDiv(t+offset, interval)*interval - offset
}

func bucketCount(start, end, interval, offset int64) int64 {
	return (bucketOf(end-1, interval, offset)-bucketOf(start, interval, offset))/interval + 1
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

type nameKind int

const (
	kindUnknown nameKind = iota
	kindTag
	kindField
)

// execution state of one data query.
type execState struct {
	s        *parser.QueryStmt
	opts     *Options
	pl       *plan
	tagKeys  map[string]bool
	fieldSet map[string]bool
	allTags  []string
	allFlds  []string
	targets  []*parser.Target // after expanding "all"
	hasAgg   bool
	rolledUp bool // the timelines hold one row per bucket already (push-down)
}

func (ex *execState) kind(name string) nameKind {
	switch {
	case ex.tagKeys[name]:
		return kindTag
	case ex.fieldSet[name]:
		return kindField
	}
	return kindUnknown
}

func measurementFilter(m string) metricsql.LabelFilter {
	return metricsql.LabelFilter{Label: tenancy.MeasurementLabel, Value: m}
}

func execQuery(ctx context.Context, src Source, s *parser.QueryStmt, opts *Options) (*Result, error) {
	if s.Subquery != nil {
		return execNested(ctx, src, s, opts)
	}
	if s.SourceRegex != nil || len(s.MoreSources) > 0 {
		return execMulti(ctx, src, s, opts)
	}
	pl, err := makePlan(s, opts)
	if err != nil {
		return nil, err
	}
	ex := &execState{s: s, opts: opts, pl: pl}
	if err := ex.classifyNames(ctx, src); err != nil {
		return nil, err
	}
	if err := ex.resolveNames(); err != nil {
		return nil, err
	}
	if res, ok, err := ex.tryPushDown(ctx, src); ok || err != nil {
		return res, err
	}
	tls, raw, err := ex.fetch(ctx, src, pl.start, pl.end)
	if err != nil {
		return nil, err
	}
	series, err := ex.evaluate(ctx, tls)
	if err != nil {
		return nil, err
	}
	return &Result{Series: series, RawQuery: raw, start: pl.start, end: pl.end}, nil
}

// classifyNames learns which names of the measurement are tags and which are fields over the
// query's range: from the source's name cache when it keeps one (only the names the query
// references, unless it selects every column), else by listing them all.
func (ex *execState) classifyNames(ctx context.Context, src Source) error {
	s, m := ex.s, ex.s.Source.Name
	all := !s.HasTargets || len(s.Targets) == 0
	var ns *names
	var err error
	if cs, ok := src.(NameCacheSource); ok && cs.NameCache() != nil {
		ns, err = cs.NameCache().classify(ctx, cs, m, referencedNames(s), all, ex.pl.start, ex.pl.end-1)
	} else {
		ns, err = listNames(ctx, src, m, ex.pl.start, ex.pl.end-1)
	}
	if err != nil {
		return err
	}
	ex.tagKeys, ex.fieldSet, ex.allTags, ex.allFlds = ns.tags, ns.fields, ns.allTags, ns.allFlds
	return nil
}

// execMulti runs a query over several measurements (a list or a regex), one after the
// other; series pagination (SLIMIT/SOFFSET) applies to the concatenated series.
func execMulti(ctx context.Context, src Source, s *parser.QueryStmt, opts *Options) (*Result, error) {
	var ms []string
	if s.SourceRegex != nil {
		start, end, err := resolveRange(s.Time, opts, DefaultRange)
		if err != nil {
			return nil, err
		}
		fss := [][]metricsql.LabelFilter{{{Label: tenancy.MeasurementLabel, Value: s.SourceRegex.Val, IsRegexp: true}}}
		ms, err = src.LabelValues(ctx, tenancy.MeasurementLabel, fss, start, end-1, 0)
		if err != nil {
			return nil, err
		}
		sort.Strings(ms)
	} else {
		ms = append(ms, s.Source.Name)
		for _, m := range s.MoreSources {
			if !slices.Contains(ms, m.Name) {
				ms = append(ms, m.Name)
			}
		}
	}
	if len(ms) > MaxMeasurements {
		return nil, parser.NewError(parser.CodeLimitTooLarge, "the query selects %d measurements, more than the maximum %d; narrow the measurement regex", len(ms), MaxMeasurements)
	}
	one := *opts
	one.DisableSLimit = true
	out := &Result{Series: []ResultSeries{}}
	var raws []string
	for _, m := range ms {
		st := *s
		st.Source = &parser.NameExpr{Name: m}
		st.MoreSources, st.SourceRegex, st.SLimit, st.SOffset = nil, nil, nil, nil
		res, err := execQuery(ctx, src, &st, &one)
		if err != nil {
			return nil, err
		}
		out.Series = append(out.Series, res.Series...)
		if res.RawQuery != "" {
			raws = append(raws, res.RawQuery)
		}
	}
	out.RawQuery = strings.Join(raws, "\n")
	soff, slim := int64(0), int64(-1)
	if s.SOffset != nil {
		soff = s.SOffset.N
	}
	if s.SLimit != nil {
		slim = s.SLimit.N
	} else if !opts.DisableSLimit {
		slim = DefaultSLimit
	}
	out.Series = page(out.Series, soff, slim)
	return out, nil
}

// resolveNames classifies names now that the measurement's tags and fields are known and
// reports misuse (DQL.md §7, §11).
func (ex *execState) resolveNames() error {
	s := ex.s
	for _, n := range s.By {
		if ex.kind(n.Name) == kindField {
			return parser.ErrorAt(parser.CodeSemanticError, n, "BY %s: %s is a field of %s; BY takes tag names", n.Name, n.Name, s.Source.Name)
		}
	}
	if !s.HasTargets || len(s.Targets) == 0 {
		cols := append(append([]string{}, ex.allFlds...), ex.allTags...)
		sort.Strings(cols)
		for _, c := range cols {
			ex.targets = append(ex.targets, &parser.Target{Expr: &parser.NameExpr{Name: c}})
		}
	} else {
		ex.targets = s.Targets
	}
	for _, t := range ex.targets {
		if parser.ContainsAggregate(t.Expr) {
			ex.hasAgg = true
		}
	}
	var err error
	if s.Filter != nil {
		parser.Walk(s.Filter, func(e parser.Expr) bool {
			if err != nil {
				return false
			}
			b, ok := e.(*parser.BinaryExpr)
			if !ok {
				return true
			}
			switch b.Op {
			case "<", "<=", ">", ">=", "=", "!=":
			default:
				return true
			}
			lhs, lok := parser.Unparen(b.LHS).(*parser.NameExpr)
			switch b.RHS.(type) {
			case *parser.StringExpr, *parser.RegexExpr:
				if lok && ex.kind(lhs.Name) == kindField {
					err = parser.ErrorAt(parser.CodeInvalidArgument, b, "%s is a field of %s; fields compare with numbers, not strings", lhs.Name, s.Source.Name)
				}
				return false
			}
			parser.Walk(b, func(x parser.Expr) bool {
				if n, ok := x.(*parser.NameExpr); ok && ex.kind(n.Name) == kindTag && err == nil {
					err = parser.ErrorAt(parser.CodeInvalidArgument, b, "%s is a tag; tags compare with =, !=, IN or a regex against strings", n.Name)
				}
				return err == nil
			})
			return false
		})
	}
	if err != nil {
		return err
	}
	for _, t := range ex.targets {
		parser.Walk(t.Expr, func(e parser.Expr) bool {
			if c, ok := e.(*parser.CallExpr); ok && parser.KindOf(c.Name) != parser.FuncRow {
				if n, ok := parser.Unparen(c.Args[0]).(*parser.NameExpr); ok && ex.kind(n.Name) == kindTag && err == nil {
					err = parser.ErrorAt(parser.CodeInvalidArgument, n, "%s() needs a field; %s is a tag", c.Name, n.Name)
				}
			}
			return err == nil
		})
	}
	return err
}

// referencedFields returns the fields the query needs from storage.
func (ex *execState) referencedFields() []string {
	set := map[string]bool{}
	add := func(e parser.Expr) {
		parser.Walk(e, func(x parser.Expr) bool {
			if n, ok := x.(*parser.NameExpr); ok && ex.kind(n.Name) == kindField {
				set[n.Name] = true
			}
			return true
		})
	}
	for _, t := range ex.targets {
		add(t.Expr)
	}
	if ex.s.Filter != nil {
		add(ex.s.Filter)
	}
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
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

// rowCtx addresses one row of a timeline during evaluation.
type rowCtx struct {
	ex *execState
	tl *timeline
	i  int
}

// value evaluates e on a row: float64, string, or nil for "no value".
func (rc rowCtx) value(e parser.Expr) any {
	switch x := e.(type) {
	case *parser.NumberExpr:
		return x.Val
	case *parser.StringExpr:
		return x.Val
	case *parser.ParenExpr:
		return rc.value(x.X)
	case *parser.NameExpr:
		if rc.ex.kind(x.Name) == kindTag {
			v, ok := rc.tl.tags[x.Name]
			if !ok {
				return nil
			}
			return v
		}
		col, ok := rc.tl.fields[x.Name]
		if !ok || math.IsNaN(col[rc.i]) {
			return nil
		}
		return col[rc.i]
	case *parser.UnaryExpr:
		v, ok := rc.value(x.X).(float64)
		if !ok {
			return nil
		}
		return x.Apply(v)
	case *parser.BinaryExpr:
		l, lok := rc.value(x.LHS).(float64)
		r, rok := rc.value(x.RHS).(float64)
		if !lok || !rok {
			return nil
		}
		return arith(x.Op, l, r)
	case *parser.CallExpr:
		switch parser.KindOf(x.Name) {
		case parser.FuncTransform:
			col, ok := rc.tl.fields[transformField(x)]
			if !ok || math.IsNaN(col[rc.i]) {
				return nil
			}
			return col[rc.i]
		case parser.FuncRow:
			v, ok := rc.value(x.Args[0]).(float64)
			if !ok {
				return nil
			}
			return rowFunc(x, v)
		}
	}
	return nil
}

func arith(op string, l, r float64) any {
	var v float64
	switch op {
	case "+":
		v = l + r
	case "-":
		v = l - r
	case "*":
		v = l * r
	case "/":
		if r == 0 {
			return nil
		}
		v = l / r
	case "%":
		if r == 0 {
			return nil
		}
		v = math.Mod(l, r)
	case "^":
		v = math.Pow(l, r)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

func rowFunc(c *parser.CallExpr, v float64) any {
	var r float64
	switch c.Name {
	case "abs":
		r = math.Abs(v)
	case "round":
		r = math.Round(v) + 0 // + 0 turns -0 (round(-0.2)) into 0
	case "log":
		base := math.E
		if len(c.Args) == 2 {
			base, _ = parser.NumberArg(c.Args[1])
		}
		r = math.Log(v) / math.Log(base)
	}
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return nil
	}
	return r
}

// cond evaluates a filter condition on a row (DQL.md §7): tags compare as strings
// (missing = ""), a comparison involving a missing field is false.
func (rc rowCtx) cond(e parser.Expr) bool {
	switch x := e.(type) {
	case *parser.ParenExpr:
		return rc.cond(x.X)
	case *parser.BinaryExpr:
		switch x.Op {
		case "AND":
			return rc.cond(x.LHS) && rc.cond(x.RHS)
		case "OR":
			return rc.cond(x.LHS) || rc.cond(x.RHS)
		}
		if n, ok := parser.Unparen(x.LHS).(*parser.NameExpr); ok && rc.ex.kind(n.Name) != kindField {
			switch r := x.RHS.(type) {
			case *parser.StringExpr:
				return (rc.tl.tags[n.Name] == r.Val) == (x.Op == "=")
			case *parser.RegexExpr:
				re := mustCompileAnchored(r.Val)
				return re.MatchString(rc.tl.tags[n.Name]) == (x.Op == "=")
			}
			if rc.ex.kind(n.Name) == kindTag {
				return false
			}
		}
		switch x.RHS.(type) {
		case *parser.StringExpr, *parser.RegexExpr:
			return false
		}
		l, lok := rc.value(x.LHS).(float64)
		r, rok := rc.value(x.RHS).(float64)
		if !lok || !rok {
			return false
		}
		return compare(x.Op, l, r)
	case *parser.InExpr:
		n := parser.Unparen(x.X).(*parser.NameExpr)
		found := false
		if rc.ex.kind(n.Name) == kindField {
			v, ok := rc.value(n).(float64)
			if !ok {
				return false
			}
			for _, el := range x.List.Elems {
				if num, ok := el.(*parser.NumberExpr); ok && num.Val == v {
					found = true
				}
			}
		} else {
			tv := rc.tl.tags[n.Name]
			for _, el := range x.List.Elems {
				if literalString(el) == tv {
					found = true
				}
			}
		}
		return found != x.Not
	}
	return false
}

func compare(op string, l, r float64) bool {
	switch op {
	case "=":
		return l == r
	case "!=":
		return l != r
	case "<":
		return l < r
	case "<=":
		return l <= r
	case ">":
		return l > r
	case ">=":
		return l >= r
	}
	return false
}

func mustCompileAnchored(re string) *regexp.Regexp {
	r, err := metricsql.CompileRegexpAnchored(re)
	if err != nil {
		panic(fmt.Errorf("BUG: regex %q passed the check but does not compile: %w", re, err))
	}
	return r
}

// filterRows drops the rows failing the filter (step 3).
func (ex *execState) filterRows(tls []*timeline) []*timeline {
	if ex.s.Filter == nil {
		return tls
	}
	out := tls[:0]
	for _, tl := range tls {
		keep := make([]int, 0, len(tl.ts))
		for i := range tl.ts {
			if (rowCtx{ex, tl, i}).cond(ex.s.Filter) {
				keep = append(keep, i)
			}
		}
		if len(keep) == 0 {
			continue
		}
		out = append(out, tl.subset(keep))
	}
	return out
}

func (tl *timeline) subset(idx []int) *timeline {
	if len(idx) == len(tl.ts) {
		return tl
	}
	n := &timeline{key: tl.key, tags: tl.tags, ts: make([]int64, len(idx)), fields: map[string][]float64{}}
	for j, i := range idx {
		n.ts[j] = tl.ts[i]
	}
	for f, col := range tl.fields {
		c := make([]float64, len(idx))
		for j, i := range idx {
			c[j] = col[i]
		}
		n.fields[f] = c
	}
	return n
}

// outRow is one projected row.
type outRow struct {
	t int64
	// row becomes the row of the answer: row[0] is left for the time, which finish writes,
	// and row[1+k] is the value of target k.
	row []any
}

// group is one output series before paging.
type group struct {
	tagVals []string
	tags    map[string]string
	rows    []outRow
}

// evaluate runs steps 3-8 of DQL.md §9 on fetched timelines.
func (ex *execState) evaluate(ctx context.Context, tls []*timeline) ([]ResultSeries, error) {
	tls = ex.filterRows(tls)
	ex.applyTransforms(tls)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pl := ex.pl
	if pl.interval > 0 && !ex.rolledUp {
		rollup := pl.rollup
		if rollup == "" && !ex.hasAgg {
			rollup = "last"
		}
		if rollup != "" {
			for i, tl := range tls {
				tls[i] = rollupTimeline(tl, pl, rollup)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	groups := ex.group(tls)
	var out []*group
	for _, g := range groups {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if ex.hasAgg {
			g.g.rows = ex.projectAggregates(g.tls, g.g.tags)
		} else {
			g.g.rows = ex.projectRaw(g.tls)
		}
		if len(g.g.rows) == 0 {
			continue
		}
		out = append(out, g.g)
	}
	return ex.finish(out)
}

type groupTLs struct {
	g   *group
	tls []*timeline
}

func (ex *execState) group(tls []*timeline) []*groupTLs {
	byKey := map[string]*groupTLs{}
	var order []*groupTLs
	for _, tl := range tls {
		if len(tl.ts) == 0 {
			continue
		}
		vals := make([]string, len(ex.s.By))
		var tags map[string]string
		if len(ex.s.By) > 0 {
			tags = map[string]string{}
		}
		for i, n := range ex.s.By {
			vals[i] = tl.tags[n.Name]
			tags[n.Name] = vals[i]
		}
		key := strings.Join(vals, "\x00")
		g := byKey[key]
		if g == nil {
			g = &groupTLs{g: &group{tagVals: vals, tags: tags}}
			byKey[key] = g
			order = append(order, g)
		}
		g.tls = append(g.tls, tl)
	}
	sort.Slice(order, func(i, j int) bool { return slices.Compare(order[i].g.tagVals, order[j].g.tagVals) < 0 })
	return order
}

func (ex *execState) bucketTime(t int64) int64 {
	if ex.pl.interval > 0 {
		return ex.pl.bucket(t)
	}
	return ex.pl.start
}

// fieldsOf returns the stored fields (and transforms) an expression reads.
func (ex *execState) fieldsOf(e parser.Expr) []string {
	var out []string
	parser.Walk(e, func(x parser.Expr) bool {
		switch n := x.(type) {
		case *parser.NameExpr:
			if ex.kind(n.Name) == kindField {
				out = append(out, n.Name)
			}
		case *parser.CallExpr:
			if parser.KindOf(n.Name) == parser.FuncTransform {
				out = append(out, transformField(n))
				return false
			}
		}
		return true
	})
	return out
}

// projectRaw returns the rows of a group without aggregates, ordered by (time, timeline key).
func (ex *execState) projectRaw(tls []*timeline) []outRow {
	var refs []string
	for _, t := range ex.targets {
		refs = append(refs, ex.fieldsOf(t.Expr)...)
	}
	type ref struct {
		tl *timeline
		i  int
	}
	n := 0
	for _, tl := range tls {
		n += len(tl.ts)
	}
	rows := make([]ref, 0, n)
	for _, tl := range tls {
		for i := range tl.ts {
			ok := false
			for _, f := range refs {
				if tl.has(f, i) {
					ok = true
					break
				}
			}
			if ok {
				rows = append(rows, ref{tl, i})
			}
		}
	}
	slices.SortStableFunc(rows, func(a, b ref) int {
		if c := cmp.Compare(a.tl.ts[a.i], b.tl.ts[b.i]); c != 0 {
			return c
		}
		return strings.Compare(a.tl.key, b.tl.key)
	})
	out := make([]outRow, len(rows))
	w := len(ex.targets) + 1
	all := make([]any, len(rows)*w)
	for j, r := range rows {
		rc := rowCtx{ex, r.tl, r.i}
		row := all[j*w : (j+1)*w : (j+1)*w]
		for k, t := range ex.targets {
			row[k+1] = rc.value(t.Expr)
		}
		out[j] = outRow{t: r.tl.ts[r.i], row: row}
	}
	return out
}

// sample is one value fed to an aggregate.
type sample struct {
	t   int64
	key string
	v   float64
}

// projectAggregates computes the aggregate targets per bucket (step 7).
func (ex *execState) projectAggregates(tls []*timeline, tags map[string]string) []outRow {
	type bucketData = map[*parser.CallExpr][]sample
	buckets := map[int64]bucketData{}
	var calls []*parser.CallExpr
	for _, t := range ex.targets {
		parser.Walk(t.Expr, func(e parser.Expr) bool {
			if c, ok := e.(*parser.CallExpr); ok && parser.IsAggregateCall(c) {
				calls = append(calls, c)
				return false
			}
			return true
		})
	}
	for _, tl := range tls {
		lastB, haveB := int64(0), false
		var bd bucketData
		for i, t := range tl.ts {
			b := ex.bucketTime(t)
			if !haveB || b != lastB {
				lastB, haveB = b, true
				bd = buckets[b]
				if bd == nil {
					bd = bucketData{}
					buckets[b] = bd
				}
			}
			for _, c := range calls {
				_, field := parser.AggregateOf(c)
				col := tl.fields[field]
				if col == nil || math.IsNaN(col[i]) {
					continue
				}
				bd[c] = append(bd[c], sample{t, tl.key, col[i]})
			}
		}
	}
	for b, bd := range buckets {
		if len(bd) == 0 {
			delete(buckets, b)
		}
	}
	times := make([]int64, 0, len(buckets))
	for b := range buckets {
		times = append(times, b)
	}
	slices.Sort(times)
	out := make([]outRow, 0, len(times))
	for _, b := range times {
		bd := buckets[b]
		if multi := ex.multiRowTarget(); multi >= 0 {
			out = append(out, ex.multiRows(multi, b, bd[ex.targets[multi].Expr.(*parser.CallExpr)], tags)...)
			continue
		}
		aggs := map[*parser.CallExpr]any{}
		for _, c := range calls {
			if vs := bd[c]; len(vs) > 0 {
				aggs[c] = aggregate(c, vs)
			}
		}
		row := make([]any, len(ex.targets)+1)
		for k, t := range ex.targets {
			row[k+1] = ex.aggValue(t.Expr, aggs, tags)
		}
		out = append(out, outRow{t: b, row: row})
	}
	return out
}

// multiRowTarget returns the index of a distinct/top/bottom target, or -1.
func (ex *execState) multiRowTarget() int {
	for i, t := range ex.targets {
		if c, ok := t.Expr.(*parser.CallExpr); ok && parser.IsMultiRow(c.Name) {
			return i
		}
	}
	return -1
}

// multiRows evaluates distinct(), top() and bottom() over one bucket (DQL.md §10.1).
func (ex *execState) multiRows(k int, b int64, vs []sample, tags map[string]string) []outRow {
	c := ex.targets[k].Expr.(*parser.CallExpr)
	row := func(t int64, v float64) outRow {
		cells := make([]any, len(ex.targets)+1)
		for i, tg := range ex.targets {
			if i == k {
				cells[i+1] = v
			} else {
				cells[i+1] = ex.aggValue(tg.Expr, nil, tags)
			}
		}
		return outRow{t: t, row: cells}
	}
	var out []outRow
	switch c.Name {
	case "distinct":
		xs := values(vs)
		slices.Sort(xs)
		xs = slices.Compact(xs)
		for _, x := range xs {
			out = append(out, row(b, x))
		}
	case "top", "bottom":
		nf, _ := parser.NumberArg(c.Args[1])
		sorted := slices.Clone(vs)
		sort.SliceStable(sorted, func(i, j int) bool {
			a, z := sorted[i], sorted[j]
			if a.v != z.v {
				if c.Name == "top" {
					return a.v > z.v
				}
				return a.v < z.v
			}
			if a.t != z.t {
				return a.t < z.t
			}
			return a.key < z.key
		})
		sorted = sorted[:min(int(nf), len(sorted))]
		sort.SliceStable(sorted, func(i, j int) bool {
			if sorted[i].t != sorted[j].t {
				return sorted[i].t < sorted[j].t
			}
			return sorted[i].key < sorted[j].key
		})
		for _, s := range sorted {
			out = append(out, row(s.t, s.v))
		}
	}
	return out
}

func (ex *execState) aggValue(e parser.Expr, aggs map[*parser.CallExpr]any, tags map[string]string) any {
	switch x := e.(type) {
	case *parser.NumberExpr:
		return x.Val
	case *parser.ParenExpr:
		return ex.aggValue(x.X, aggs, tags)
	case *parser.NameExpr:
		v, ok := tags[x.Name]
		if !ok {
			return nil
		}
		return v
	case *parser.UnaryExpr:
		v, ok := ex.aggValue(x.X, aggs, tags).(float64)
		if !ok {
			return nil
		}
		return x.Apply(v)
	case *parser.BinaryExpr:
		l, lok := ex.aggValue(x.LHS, aggs, tags).(float64)
		r, rok := ex.aggValue(x.RHS, aggs, tags).(float64)
		if !lok || !rok {
			return nil
		}
		return arith(x.Op, l, r)
	case *parser.CallExpr:
		return aggs[x]
	}
	return nil
}

// aggregate applies an aggregate call to a non-empty multiset (DQL.md §10.1).
func aggregate(c *parser.CallExpr, vs []sample) any {
	name, _ := parser.AggregateOf(c)
	switch name {
	case "count":
		return float64(len(vs))
	case "sum":
		s := 0.0
		for _, v := range vs {
			s += v.v
		}
		return s
	case "avg":
		s := 0.0
		for _, v := range vs {
			s += v.v
		}
		return s / float64(len(vs))
	case "min", "max":
		m := vs[0].v
		for _, v := range vs[1:] {
			if (c.Name == "min" && v.v < m) || (c.Name == "max" && v.v > m) {
				m = v.v
			}
		}
		return m
	case "spread":
		lo, hi := vs[0].v, vs[0].v
		for _, v := range vs[1:] {
			lo, hi = math.Min(lo, v.v), math.Max(hi, v.v)
		}
		return hi - lo
	case "first", "last":
		best := vs[0]
		for _, v := range vs[1:] {
			if c.Name == "first" && (v.t < best.t || v.t == best.t && v.key < best.key) ||
				c.Name == "last" && (v.t > best.t || v.t == best.t && v.key < best.key) {
				best = v
			}
		}
		return best.v
	case "percentile":
		p, _ := parser.NumberArg(c.Args[1])
		xs := values(vs)
		slices.Sort(xs)
		r := int(math.Ceil(p / 100 * float64(len(xs))))
		return xs[max(r, 1)-1]
	case "median":
		xs := values(vs)
		slices.Sort(xs)
		return quantile(xs, 0.5)
	case "stddev":
		return stddev(values(vs))
	case "mode":
		xs := values(vs)
		slices.Sort(xs)
		best, bestN := xs[0], 0
		for i := 0; i < len(xs); {
			j := i
			for j < len(xs) && xs[j] == xs[i] {
				j++
			}
			if j-i > bestN {
				best, bestN = xs[i], j-i
			}
			i = j
		}
		return best
	case "count_distinct":
		set := map[float64]bool{}
		for _, v := range vs {
			set[v.v] = true
		}
		return float64(len(set))
	}
	panic(fmt.Errorf("BUG: unknown aggregate %s", c.Name))
}

func values(vs []sample) []float64 {
	xs := make([]float64, len(vs))
	for i, v := range vs {
		xs[i] = v.v
	}
	return xs
}

// quantile interpolates linearly over sorted xs: h = (n-1)q, x[⌊h⌋] + (h-⌊h⌋)(x[⌊h⌋+1]-x[⌊h⌋]).
// It is written in the form VictoriaMetrics uses so that push-down gives the same bits.
func quantile(xs []float64, q float64) float64 {
	n := float64(len(xs))
	rank := q * (n - 1)
	lo := math.Max(0, math.Floor(rank))
	hi := math.Min(n-1, lo+1)
	w := rank - math.Floor(rank)
	return xs[int(lo)]*(1-w) + xs[int(hi)]*w
}

// stddev is the population standard deviation, computed like VictoriaMetrics'
// stddev_over_time (Welford's method) so that push-down gives the same bits.
func stddev(xs []float64) float64 {
	if len(xs) == 1 {
		return 0
	}
	var avg, count, q float64
	for _, v := range xs {
		count++
		avgNew := avg + (v-avg)/count
		q += (v - avg) * (v - avgNew)
		avg = avgNew
	}
	return math.Sqrt(q / count)
}

// rollupTimeline applies a rollup per field and bucket (step 5).
func rollupTimeline(tl *timeline, pl *plan, name string) *timeline {
	var bts []int64
	idx := map[int64]int{}
	for _, t := range tl.ts {
		b := pl.bucket(t)
		if _, ok := idx[b]; !ok {
			idx[b] = len(bts)
			bts = append(bts, b)
		}
	}
	n := &timeline{key: tl.key, tags: tl.tags, ts: bts, fields: map[string][]float64{}}
	for f, col := range tl.fields {
		out := make([]float64, len(bts))
		for i := range out {
			out[i] = math.NaN()
		}
		start := 0
		for start < len(tl.ts) {
			b := pl.bucket(tl.ts[start])
			end := start
			for end < len(tl.ts) && pl.bucket(tl.ts[end]) == b {
				end++
			}
			var ts []int64
			var vs []float64
			for i := start; i < end; i++ {
				if !math.IsNaN(col[i]) {
					ts = append(ts, tl.ts[i])
					vs = append(vs, col[i])
				}
			}
			if len(vs) > 0 {
				out[idx[b]] = rollupValue(name, ts, vs)
			}
			start = end
		}
		n.fields[f] = out
	}
	return n
}

// rollupValue computes a rollup over one bucket's samples (DQL.md §10.4); NaN = no value.
func rollupValue(name string, ts []int64, vs []float64) float64 {
	n := len(vs)
	switch name {
	case "avg", "sum":
		s := 0.0
		for _, v := range vs {
			s += v
		}
		if name == "avg" {
			return s / float64(n)
		}
		return s
	case "min":
		return slices.Min(vs)
	case "max":
		return slices.Max(vs)
	case "count":
		return float64(n)
	case "first":
		return vs[0]
	case "last":
		return vs[n-1]
	case "stddev":
		return stddev(vs)
	case "median":
		xs := slices.Clone(vs)
		slices.Sort(xs)
		return quantile(xs, 0.5)
	case "deriv":
		if n < 2 {
			return math.NaN()
		}
		return (vs[n-1] - vs[0]) / (float64(ts[n-1]-ts[0]) / 1000)
	case "rate":
		if n < 2 {
			return math.NaN()
		}
		inc := 0.0
		for j := 1; j < n; j++ {
			d := vs[j] - vs[j-1]
			if d < 0 {
				d = vs[j]
			}
			inc += d
		}
		return inc / (float64(ts[n-1]-ts[0]) / 1000)
	case "irate":
		if n < 2 {
			return math.NaN()
		}
		d := vs[n-1] - vs[n-2]
		if d < 0 {
			d = vs[n-1]
		}
		return d / (float64(ts[n-1]-ts[n-2]) / 1000)
	}
	if p, ok := parser.PercentileRollup(name); ok {
		xs := slices.Clone(vs)
		slices.Sort(xs)
		return quantile(xs, p/100)
	}
	panic(fmt.Errorf("BUG: unknown rollup %s", name))
}

// transformField is the internal column name of a transform's output.
func transformField(c *parser.CallExpr) string { return "\x00" + c.String() }

// applyTransforms adds the output of every transform target as a column (step 4).
func (ex *execState) applyTransforms(tls []*timeline) {
	var calls []*parser.CallExpr
	for _, t := range ex.targets {
		parser.Walk(t.Expr, func(e parser.Expr) bool {
			if c, ok := e.(*parser.CallExpr); ok && parser.KindOf(c.Name) == parser.FuncTransform {
				calls = append(calls, c)
				return false
			}
			return true
		})
	}
	for _, tl := range tls {
		for _, c := range calls {
			field := parser.Unparen(c.Args[0]).(*parser.NameExpr).Name
			tl.fields[transformField(c)] = transform(c, tl, field)
		}
	}
}

func transform(c *parser.CallExpr, tl *timeline, field string) []float64 {
	out := make([]float64, len(tl.ts))
	for i := range out {
		out[i] = math.NaN()
	}
	col, ok := tl.fields[field]
	if !ok {
		return out
	}
	var idx []int
	for i, v := range col {
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	if c.Name == "moving_average" {
		nf, _ := parser.NumberArg(c.Args[1])
		n := int(nf)
		for j := n - 1; j < len(idx); j++ {
			s := 0.0
			for k := j - n + 1; k <= j; k++ {
				s += col[idx[k]]
			}
			out[idx[j]] = s / float64(n)
		}
		return out
	}
	for j := 1; j < len(idx); j++ {
		cur, prev := idx[j], idx[j-1]
		d := col[cur] - col[prev]
		switch c.Name {
		case "derivative", "non_negative_derivative":
			d /= float64(tl.ts[cur]-tl.ts[prev]) / 1000
		}
		if strings.HasPrefix(c.Name, "non_negative_") && d < 0 {
			continue
		}
		out[cur] = d
	}
	return out
}

// finish applies fill, HAVING, ORDER BY, LIMIT/OFFSET, SORDER BY, SLIMIT/SOFFSET (step 8).
func (ex *execState) finish(groups []*group) ([]ResultSeries, error) {
	s := ex.s
	hasFill := false
	for _, t := range ex.targets {
		if t.Fill != nil {
			hasFill = true
		}
	}
	columns := make([]string, 0, len(ex.targets)+1)
	columns = append(columns, "time")
	for _, t := range ex.targets {
		columns = append(columns, t.ColumnName())
	}
	for _, g := range groups {
		if hasFill && ex.pl.interval > 0 {
			g.rows = ex.fill(g.rows)
		}
		if s.Having != nil {
			kept := g.rows[:0]
			for _, r := range g.rows {
				if havingCond(s.Having, columns, r, g.tags) {
					kept = append(kept, r)
				}
			}
			g.rows = kept
		}
		if s.OrderBy != nil && s.OrderBy.Desc {
			slices.Reverse(g.rows)
		}
		off := int64(0)
		if s.Offset != nil {
			off = s.Offset.N
		}
		lim := int64(DefaultLimit)
		if ex.opts.nested {
			lim = -1
		}
		if s.Limit != nil {
			lim = s.Limit.N
		}
		g.rows = page(g.rows, off, lim)
	}
	groups = slices.DeleteFunc(groups, func(g *group) bool { return len(g.rows) == 0 })
	if s.SOrderBy != nil {
		ex.sortSeries(groups, columns)
	}
	soff := int64(0)
	if s.SOffset != nil {
		soff = s.SOffset.N
	}
	slim := int64(-1)
	if s.SLimit != nil {
		slim = s.SLimit.N
	} else if !ex.opts.DisableSLimit {
		slim = DefaultSLimit
	}
	groups = page(groups, soff, slim)
	out := make([]ResultSeries, 0, len(groups))
	for _, g := range groups {
		rs := ResultSeries{Name: s.Source.Name, Tags: g.tags, Columns: columns, Values: make([][]any, len(g.rows))}
		// Series mostly share their times: the previous series' boxed time is reused when
		// its row at the same position has the same time.
		var prev [][]any
		if len(out) > 0 {
			prev = out[len(out)-1].Values
		}
		for i, r := range g.rows {
			if i < len(prev) && prev[i][0] == any(r.t) {
				r.row[0] = prev[i][0]
			} else {
				r.row[0] = r.t
			}
			for k := 1; k < len(r.row); k++ {
				r.row[k] = jsonCell(r.row[k])
			}
			rs.Values[i] = r.row
		}
		out = append(out, rs)
	}
	return out, nil
}

func jsonCell(c any) any {
	if f, ok := c.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return nil
	}
	return c
}

func page[T any](xs []T, off, lim int64) []T {
	if off >= int64(len(xs)) {
		return xs[:0]
	}
	xs = xs[off:]
	if lim >= 0 && lim < int64(len(xs)) {
		xs = xs[:lim]
	}
	return xs
}

// fill gives every bucket of the range a row and fills the fill() columns (DQL.md §9.3).
func (ex *execState) fill(rows []outRow) []outRow {
	iv := ex.pl.interval
	first, last := ex.pl.bucket(ex.pl.start), ex.pl.bucket(ex.pl.end-1)
	byT := map[int64]outRow{}
	for _, r := range rows {
		byT[r.t] = r
	}
	n := int((last-first)/iv) + 1
	out := make([]outRow, n)
	for i := range out {
		t := first + int64(i)*iv
		if r, ok := byT[t]; ok {
			out[i] = r
		} else {
			out[i] = outRow{t: t, row: make([]any, len(ex.targets)+1)}
		}
	}
	for k, tg := range ex.targets {
		if tg.Fill == nil {
			continue
		}
		switch tg.Fill.Kind {
		case parser.FillValue:
			var v any
			switch fv := tg.Fill.Value.(type) {
			case *parser.NumberExpr:
				v = fv.Val
			case *parser.StringExpr:
				v = fv.Val
			}
			for i := range out {
				if out[i].row[k+1] == nil {
					out[i].row[k+1] = v
				}
			}
		case parser.FillPrevious:
			var prev any
			for i := range out {
				if out[i].row[k+1] == nil {
					out[i].row[k+1] = prev
				} else {
					prev = out[i].row[k+1]
				}
			}
		case parser.FillLinear:
			lastIdx := -1
			for i := range out {
				v, ok := out[i].row[k+1].(float64)
				if !ok {
					continue
				}
				if lastIdx >= 0 && i-lastIdx > 1 {
					pv := out[lastIdx].row[k+1].(float64)
					for j := lastIdx + 1; j < i; j++ {
						frac := float64(out[j].t-out[lastIdx].t) / float64(out[i].t-out[lastIdx].t)
						out[j].row[k+1] = pv + frac*(v-pv)
					}
				}
				lastIdx = i
			}
		}
	}
	return out
}

// havingCond evaluates HAVING on a projected row; names refer to columns.
func havingCond(e parser.Expr, columns []string, r outRow, tags map[string]string) bool {
	val := func(x parser.Expr) any { return havingValue(x, columns, r, tags) }
	switch x := e.(type) {
	case *parser.ParenExpr:
		return havingCond(x.X, columns, r, tags)
	case *parser.BinaryExpr:
		switch x.Op {
		case "AND":
			return havingCond(x.LHS, columns, r, tags) && havingCond(x.RHS, columns, r, tags)
		case "OR":
			return havingCond(x.LHS, columns, r, tags) || havingCond(x.RHS, columns, r, tags)
		}
		switch rv := x.RHS.(type) {
		case *parser.StringExpr:
			s, ok := val(x.LHS).(string)
			return ok && (s == rv.Val) == (x.Op == "=")
		case *parser.RegexExpr:
			s, ok := val(x.LHS).(string)
			return ok && mustCompileAnchored(rv.Val).MatchString(s) == (x.Op == "=")
		}
		l, lok := val(x.LHS).(float64)
		rr, rok := val(x.RHS).(float64)
		return lok && rok && compare(x.Op, l, rr)
	case *parser.InExpr:
		v := val(x.X)
		found := false
		for _, el := range x.List.Elems {
			switch lit := el.(type) {
			case *parser.NumberExpr:
				if f, ok := v.(float64); ok && f == lit.Val {
					found = true
				}
			case *parser.StringExpr:
				if s, ok := v.(string); ok && s == lit.Val {
					found = true
				}
			}
		}
		return v != nil && found != x.Not
	}
	return false
}

// havingValue evaluates an operand of HAVING: names are columns, then BY tags.
func havingValue(e parser.Expr, columns []string, r outRow, tags map[string]string) any {
	switch x := e.(type) {
	case *parser.NumberExpr:
		return x.Val
	case *parser.ParenExpr:
		return havingValue(x.X, columns, r, tags)
	case *parser.NameExpr:
		if v := columnValue(x.Name, columns, r); v != nil {
			return v
		}
		if v, ok := tags[x.Name]; ok {
			return v
		}
		return nil
	case *parser.CallExpr:
		return columnValue(x.String(), columns, r)
	case *parser.UnaryExpr:
		v, ok := havingValue(x.X, columns, r, tags).(float64)
		if !ok {
			return nil
		}
		return x.Apply(v)
	case *parser.BinaryExpr:
		l, lok := havingValue(x.LHS, columns, r, tags).(float64)
		rr, rok := havingValue(x.RHS, columns, r, tags).(float64)
		if !lok || !rok {
			return nil
		}
		return arith(x.Op, l, rr)
	}
	return nil
}

func columnValue(name string, columns []string, r outRow) any {
	if name == "time" {
		return float64(r.t)
	}
	for i, c := range columns[1:] {
		if c == name {
			return r.row[i+1]
		}
	}
	return nil
}

// sortSeries orders series by a BY tag or by a column's value in the latest row.
func (ex *execState) sortSeries(groups []*group, columns []string) {
	ob := ex.s.SOrderBy
	name := ob.Name.Name
	isTag := slices.ContainsFunc(ex.s.By, func(n *parser.NameExpr) bool { return n.Name == name })
	key := func(g *group) any {
		if isTag {
			return g.tags[name]
		}
		latest := g.rows[0]
		for _, r := range g.rows {
			if r.t > latest.t {
				latest = r
			}
		}
		return columnValue(name, columns, latest)
	}
	sort.SliceStable(groups, func(i, j int) bool {
		a, b := key(groups[i]), key(groups[j])
		if a == nil || b == nil {
			return a != nil && b == nil // nulls last
		}
		c := compareCells(a, b)
		if ob.Desc {
			return c > 0
		}
		return c < 0
	})
}

func compareCells(a, b any) int {
	switch x := a.(type) {
	case float64:
		if y, ok := b.(float64); ok {
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		}
		return -1
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y)
		}
		return 1
	}
	return 0
}

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
