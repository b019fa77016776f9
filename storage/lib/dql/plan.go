package dql

import (
	"context"
	"sort"
	"strings"
	"time"

	"vigil/storage/lib/dql/parser"
)

// Planning a data query: its time range and buckets, and which of the names it uses are
// tags and which are fields (DQL.md §7, §8).

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
