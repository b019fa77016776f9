package tenancy

import (
	"testing"

	"github.com/VictoriaMetrics/metricsql"
)

func TestMatchLikePrometheus(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		// two metrics: their derived labels differ, so they are ignored as __name__ is
		{`a / b`, `a / ignoring(__measurement__, __field__) b`},
		{`node_memory_MemAvailable_bytes{instance="x"} / node_memory_MemTotal_bytes{instance="x"} * 100`,
			`(node_memory_MemAvailable_bytes{instance="x"} / ignoring(__measurement__, __field__) node_memory_MemTotal_bytes{instance="x"}) * 100`},
		{`a - ignoring(mode) b`, `a - ignoring(mode, __measurement__, __field__) b`},
		{`a * ignoring(mode) group_left(cpu) b`, `a * ignoring(mode, __measurement__, __field__) group_left(cpu) b`},
		{`rate(a[5m]) > bool rate(b[5m])`, `rate(a[5m]) > bool ignoring(__measurement__, __field__) rate(b[5m])`},
		{`a unless b`, `a unless ignoring(__measurement__, __field__) b`},
		{`sum by (job) (a) / sum by (job) (b)`, `sum(a) by(job) / ignoring(__measurement__, __field__) sum(b) by(job)`},
		{`topk(3, a) / b`, `topk(3, a) / ignoring(__measurement__, __field__) b`},
		// on(...) already says what must agree
		{`a / on(instance) b`, `a / on(instance) b`},
		{`a * on(instance) group_left(nodename) b`, `a * on(instance) group_left(nodename) b`},
		// an operand without labels matches every series (VictoriaMetrics' scalar path)
		{`a * 100`, `a * 100`},
		{`100 - a`, `100 - a`},
		{`scalar(a) * 100 / count(count(b) by (cpu))`, `(scalar(a) * 100) / count(count(b) by(cpu))`},
		{`sum(rate(a[5m])) / scalar(count(b))`, `sum(rate(a[5m])) / scalar(count(b))`},
		{`a / (1 + 2)`, `a / 3`},
		{`a / time()`, `a / time()`},
		// nested: every operation between series
		{`(a + b) / c`, `(a + ignoring(__measurement__, __field__) b) / ignoring(__measurement__, __field__) c`},
		{`max_over_time((a - b)[5m:])`, `max_over_time((a - ignoring(__measurement__, __field__) b)[5m:])`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			e, err := metricsql.Parse(tc.in)
			if err != nil {
				t.Fatalf("parse: %s", err)
			}
			got := string(MatchLikePrometheus(e).AppendString(nil))
			// the expected query as MetricsQL prints it
			want, err := metricsql.Parse(tc.out)
			if err != nil {
				t.Fatalf("parse the expected query: %s", err)
			}
			if w := string(want.AppendString(nil)); got != w {
				t.Fatalf("\n got %s\nwant %s", got, w)
			}
			// what it prints parses back to the same
			again, err := metricsql.Parse(got)
			if err != nil {
				t.Fatalf("the rewritten query does not parse: %s", err)
			}
			if s := string(again.AppendString(nil)); s != got {
				t.Fatalf("round trip: %s", s)
			}
		})
	}
}
