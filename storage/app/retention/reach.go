// Package retention keeps each workspace's queries and data within its retention.
//
// Reads: a MetricsQL expression evaluated at time t does not read only at t. Every selector
// is searched from t minus its window (or the step, whichever is longer) minus
// VictoriaMetrics' look-back for staleness; an offset moves that further back; a subquery
// evaluates its inner expression over its own window before t; an `@` modifier reads at a
// fixed time whatever t is. Reach computes, from the parsed expression, the earliest time
// each evaluation reads, following VictoriaMetrics' own search bounds
// (app/vmselect/promql/eval.go), and ClampRange / CheckInstant move a query's start or refuse
// it so that nothing before the workspace's retention is ever read.
//
// Data: DeleteOlder (delete.go) removes a workspace's points older than a cut-off from the
// embedded storage.
package retention

import (
	"flag"
	"strings"
	"time"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/apierror"
)

// Reads says how far before its evaluation times an expression reads samples.
type Reads struct {
	// Rel: every evaluation at time t reads samples from t - Rel on (HasRel).
	Rel    int64
	HasRel bool
	// EndRel: reads from end - EndRel on, whatever the evaluation time (`@ end()`).
	EndRel    int64
	HasEndRel bool
	// Abs: reads from this fixed time on (`@ <timestamp>`).
	Abs    int64
	HasAbs bool
}

func (r *Reads) addRel(d int64) {
	if !r.HasRel || d > r.Rel {
		r.Rel, r.HasRel = d, true
	}
}

func (r *Reads) addEndRel(d int64) {
	if !r.HasEndRel || d > r.EndRel {
		r.EndRel, r.HasEndRel = d, true
	}
}

func (r *Reads) addAbs(t int64) {
	if !r.HasAbs || t < r.Abs {
		r.Abs, r.HasAbs = t, true
	}
}

// anchor is where an evaluation context's times come from.
type anchor int

const (
	anchorEval  anchor = iota // the query's evaluation times, minus shift
	anchorEnd                 // the query's end, minus shift (`@ end()`)
	anchorFixed               // a fixed time, minus shift (`@ <timestamp>`)
)

type evalCtx struct {
	anchor anchor
	fixed  int64 // anchorFixed: the time
	shift  int64 // how far before the anchor this subexpression is evaluated
	step   int64
	// instant: evaluated at a single time, where VictoriaMetrics may answer long windows
	// from its cache plus a search that reaches up to half the window (at most 30 minutes)
	// further back.
	instant bool
}

func (c evalCtx) read(r *Reads, before int64) {
	switch c.anchor {
	case anchorEval:
		r.addRel(c.shift + before)
	case anchorEnd:
		r.addEndRel(c.shift + before)
	default:
		r.addAbs(c.fixed - c.shift - before)
	}
}

// Reach returns how far before its evaluation times expr reads samples when evaluated with
// the given step (milliseconds); instant is true for a single evaluation time. It returns a
// 400 error for `@` modifiers it cannot place in time (anything but a number, start() or
// end(), optionally plus or minus a number).
func Reach(expr metricsql.Expr, step int64, instant bool) (Reads, error) {
	var r Reads
	err := walk(expr, evalCtx{anchor: anchorEval, step: step, instant: instant}, &r)
	return r, err
}

func walk(e metricsql.Expr, c evalCtx, r *Reads) error {
	switch e := e.(type) {
	case *metricsql.MetricExpr:
		c.read(r, selectorReach(0, c))
	case *metricsql.RollupExpr:
		return walkRollup(e, c, r)
	case *metricsql.FuncExpr:
		rollup := metricsql.IsRollupFunc(e.Name)
		for _, arg := range e.Args {
			if rollup && !isPlain(arg) {
				// VictoriaMetrics evaluates a rollup function's other arguments as a subquery
				// with the query's step.
				if err := walkSubquery(arg, 0, c.step, c, r); err != nil {
					return err
				}
				continue
			}
			if err := walk(arg, c, r); err != nil {
				return err
			}
		}
	case *metricsql.AggrFuncExpr:
		for _, arg := range e.Args {
			if err := walk(arg, c, r); err != nil {
				return err
			}
		}
	case *metricsql.BinaryOpExpr:
		if err := walk(e.Left, c, r); err != nil {
			return err
		}
		return walk(e.Right, c, r)
	case *metricsql.NumberExpr, *metricsql.StringExpr, *metricsql.DurationExpr:
	default:
		return apierror.BadData("cannot tell how far back %T %q reads", e, e.AppendString(nil))
	}
	return nil
}

// isPlain reports whether e is evaluated by a rollup function as it is (a selector, a
// rollup, a constant), not as a subquery.
func isPlain(e metricsql.Expr) bool {
	switch e.(type) {
	case *metricsql.MetricExpr, *metricsql.RollupExpr, *metricsql.NumberExpr, *metricsql.StringExpr, *metricsql.DurationExpr:
		return true
	}
	return false
}

func walkRollup(re *metricsql.RollupExpr, c evalCtx, r *Reads) error {
	if re.At != nil {
		a, fixed, shift, err := atTime(re.At, c)
		if err != nil {
			return err
		}
		c = evalCtx{anchor: a, fixed: fixed, shift: shift, step: c.step, instant: true}
	}
	c.shift += re.Offset.Duration(c.step)
	if re.ForSubquery() {
		step := re.Step.Duration(c.step)
		if step <= 0 {
			step = c.step
		}
		return walkSubquery(re.Expr, re.Window.Duration(c.step), step, c, r)
	}
	if _, ok := re.Expr.(*metricsql.MetricExpr); !ok {
		// `(a + b)[5m]`: a subquery with the query's step.
		return walkSubquery(re.Expr, re.Window.Duration(c.step), c.step, c, r)
	}
	c.read(r, selectorReach(re.Window.Duration(c.step), c))
	return nil
}

// walkSubquery: VictoriaMetrics evaluates the inner expression from window + step + the
// staleness look-back before the outer start, aligned down to the step (up to one more step).
func walkSubquery(inner metricsql.Expr, window, step int64, c evalCtx, r *Reads) error {
	c.shift += window + 2*step + staleness()
	c.step = step
	c.instant = false
	return walk(inner, c, r)
}

// selectorReach is how far before an evaluation time VictoriaMetrics searches a selector
// with the given window (eval.go, evalRollupFuncWithMetricExpr and evalInstantRollup).
func selectorReach(window int64, c evalCtx) int64 {
	d := staleness() + max(window, c.step)
	if c.instant && window >= instantOptimizationWindow() {
		d += min(window/2, 30*60*1000)
	}
	return d
}

// atTime places an `@` modifier: a fixed time, or start() / end() plus a constant.
func atTime(at metricsql.Expr, c evalCtx) (anchor, int64, int64, error) {
	bad := apierror.BadData("the @ modifier %q cannot be checked against the workspace's retention: use a timestamp, start() or end(), "+
		"optionally plus or minus a number of seconds", at.AppendString(nil))
	base, secs, ok := linear(at)
	if !ok {
		return 0, 0, 0, bad
	}
	ms := int64(secs * 1000)
	switch base {
	case "":
		return anchorFixed, ms, 0, nil
	case "start":
		// start() is the first evaluation time, which the retention check covers like any other.
		if c.anchor != anchorEval || c.shift != 0 {
			return 0, 0, 0, bad
		}
		return anchorEval, 0, -ms, nil
	default: // end
		if c.anchor != anchorEval || c.shift != 0 {
			return 0, 0, 0, bad
		}
		return anchorEnd, 0, -ms, nil
	}
}

// linear reads e as base + secs, base being "", "start" or "end".
func linear(e metricsql.Expr) (string, float64, bool) {
	switch e := e.(type) {
	case *metricsql.NumberExpr:
		return "", e.N, true
	case *metricsql.DurationExpr:
		return "", float64(e.Duration(0)) / 1000, true
	case *metricsql.FuncExpr:
		name := strings.ToLower(e.Name)
		if (name == "start" || name == "end") && len(e.Args) == 0 {
			return name, 0, true
		}
	case *metricsql.BinaryOpExpr:
		if e.Op != "+" && e.Op != "-" {
			return "", 0, false
		}
		lb, lv, lok := linear(e.Left)
		rb, rv, rok := linear(e.Right)
		if !lok || !rok || (lb != "" && rb != "") || (e.Op == "-" && rb != "") {
			return "", 0, false
		}
		if e.Op == "-" {
			rv = -rv
		}
		return lb + rb, lv + rv, true
	}
	return "", 0, false
}

// staleness is VictoriaMetrics' look-back for the last sample before a window
// (-search.minStalenessInterval, 5 minutes when unset).
func staleness() int64 {
	if d := durationFlag("search.minStalenessInterval"); d > 0 {
		return d.Milliseconds()
	}
	return 5 * 60 * 1000
}

func instantOptimizationWindow() int64 {
	if d := durationFlag("search.minWindowForInstantRollupOptimization"); d > 0 {
		return d.Milliseconds()
	}
	return 3 * 3600 * 1000
}

func durationFlag(name string) time.Duration {
	if f := flag.Lookup(name); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			if d, ok := g.Get().(time.Duration); ok {
				return d
			}
		}
	}
	return 0
}

// ClampRange returns the start to evaluate expr from, over [start, end] every step, so that
// no evaluation reads a sample older than oldest: start moved up by whole steps when
// needed. It returns a 400 error when no evaluation time is left, or when part of the query
// reads before oldest whatever its start (`@` modifiers).
func ClampRange(expr metricsql.Expr, start, end, step, oldest int64) (int64, error) {
	r, err := Reach(expr, step, start == end)
	if err != nil {
		return 0, err
	}
	if err := checkFixed(r, end, oldest); err != nil {
		return 0, err
	}
	if !r.HasRel {
		return start, nil
	}
	// VictoriaMetrics may align the start down to a multiple of the step: one step more.
	need := oldest + r.Rel + step
	if start >= need {
		return start, nil
	}
	moved := start + (need-start+step-1)/step*step
	if moved > end {
		return 0, apierror.BadData("the query reads up to %s before each evaluation time (windows, offsets and look-back) and the workspace's retention "+
			"starts at %s, so it can only be evaluated from %s on, after its end %s: move the range later or shorten the windows and offsets",
			fmtDur(r.Rel), fmtTime(oldest), fmtTime(need), fmtTime(end))
	}
	return moved, nil
}

// CheckInstant refuses an instant query at time t that would read a sample older than oldest.
// VictoriaMetrics may evaluate an instant query near now up to -search.latencyOffset earlier:
// that is counted too.
func CheckInstant(expr metricsql.Expr, t, step, oldest int64) error {
	r, err := Reach(expr, step, true)
	if err != nil {
		return err
	}
	if r.HasRel {
		r.Rel += durationFlag("search.latencyOffset").Milliseconds()
	}
	if err := checkFixed(r, t, oldest); err != nil {
		return err
	}
	if r.HasRel && t-r.Rel < oldest {
		return apierror.BadData("the query reads from %s (%s before its time %s: windows, offsets and look-back), before the workspace's retention starts (%s): "+
			"evaluate it later or shorten the windows and offsets", fmtTime(t-r.Rel), fmtDur(r.Rel), fmtTime(t), fmtTime(oldest))
	}
	return nil
}

// ClampSource is ClampRange for a storage source's range evaluation (DQL's pushed-down
// MetricsQL): it returns the start to evaluate from, or empty = true when no evaluation time
// of [start, end] can run without reading before notBefore (there is nothing to answer then).
func ClampSource(expr metricsql.Expr, start, end, step, notBefore int64) (int64, bool, error) {
	if notBefore <= 0 {
		return start, false, nil
	}
	r, err := Reach(expr, step, start == end)
	if err != nil {
		return 0, false, err
	}
	if err := checkFixed(r, end, notBefore); err != nil {
		return 0, false, err
	}
	if !r.HasRel || start-r.Rel >= notBefore {
		return start, false, nil
	}
	need := notBefore + r.Rel
	moved := start + (need-start+step-1)/step*step
	return moved, moved > end, nil
}

func checkFixed(r Reads, end, oldest int64) error {
	if r.HasEndRel && end-r.EndRel < oldest {
		return apierror.BadData("the query reads from %s (an @ end() modifier with windows and offsets), before the workspace's retention starts (%s)",
			fmtTime(end-r.EndRel), fmtTime(oldest))
	}
	if r.HasAbs && r.Abs < oldest {
		return apierror.BadData("the query reads from %s (an @ modifier with windows and offsets), before the workspace's retention starts (%s)",
			fmtTime(r.Abs), fmtTime(oldest))
	}
	return nil
}

func fmtTime(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339) }

func fmtDur(ms int64) string { return (time.Duration(ms) * time.Millisecond).String() }

// Oldest returns the oldest time a workspace with the given retention may read at now (ms),
// or 0 when retention is not positive.
func Oldest(now int64, retention time.Duration) int64 {
	if retention <= 0 {
		return 0
	}
	return now - retention.Milliseconds()
}
