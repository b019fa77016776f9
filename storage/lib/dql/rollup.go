package dql

import (
	"fmt"
	"math"
	"slices"

	"vigil/storage/lib/dql/parser"
)

// Rollups (step 5 of DQL.md §9, §10.4): each field of a timeline reduced to one value per
// bucket.

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
