package dql_test

import (
	"context"
	"testing"

	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/dqltest"
	"vigil/storage/lib/dql/parser"
)

func TestQueryPromQL(t *testing.T) {
	f := func(q string, step int64, opts dql.Options, want string) {
		t.Helper()
		opts.Now = now
		res, err := dql.QueryPromQL(context.Background(), dqltest.ExampleE(), q, step, opts)
		if err != nil {
			t.Fatalf("%s: %s", q, err)
		}
		if got := seriesJSON(t, res.Series); got != want {
			t.Fatalf("%s:\ngot  %s\nwant %s", q, got, want)
		}
	}
	tr := []int64{dqltest.T0, dqltest.T0 + 120000}
	f(`sum by (host) (max_over_time({__measurement__="cpu",__field__="user"}[1m]))`, 60000, dql.Options{TimeRange: tr},
		`[{"name":"","tags":{"host":"a"},"columns":["time","value"],"values":[[1699999200000,1],[1699999260000,3],[1699999320000,5]]},`+
			`{"name":"","tags":{"host":"b"},"columns":["time","value"],"values":[[1699999200000,10],[1699999260000,30],[1699999320000,50]]}]`)
	f(`last_over_time(net:rx[30s])`, 0, dql.Options{TimeRange: tr, MaxPoint: 2},
		`[{"name":"","tags":{"__field__":"rx","__measurement__":"net","host":"a"},"columns":["time","value"],"values":[[1699999200000,0],[1699999260000,600],[1699999320000,100]]}]`)
	sl := int64(1)
	f(`count_over_time({__measurement__="cpu"}[1m])`, 60000, dql.Options{TimeRange: tr, SLimit: &sl, SOffset: &sl},
		`[{"name":"","tags":{"__field__":"idle","__measurement__":"cpu","dc":"west1","host":"b"},"columns":["time","value"],"values":[[1699999200000,1],[1699999260000,2],[1699999320000,2]]}]`)
}

func TestQueryPromQLErrors(t *testing.T) {
	f := func(q string, step int64, code, msg string) {
		t.Helper()
		_, err := dql.QueryPromQL(context.Background(), dqltest.ExampleE(), q, step, dql.Options{Now: now})
		e, ok := parser.AsError(err)
		if !ok || e.Code != code || e.Error() != msg {
			t.Fatalf("%s: got %v, want %s %q", q, err, code, msg)
		}
	}
	f(``, 0, parser.CodeParseError, "empty query")
	f(`sum(`, 0, parser.CodeParseError, `invalid MetricsQL: singleExpr: unexpected token ""; want "(", "{", "-", "+"; unparsed data: ""`)
	f(`x{vigil_workspace="other"}`, 0, parser.CodeForbiddenLabel, `label "vigil_workspace" may not be used in a query: names starting with "__" and tenancy labels are reserved`)
	f(`x{__tenant__="1"}`, 0, parser.CodeForbiddenLabel, `label "__tenant__" may not be used in a query: names starting with "__" and tenancy labels are reserved`)
	f(`sum by (vm_account_id) (x)`, 0, parser.CodeForbiddenLabel, `label "vm_account_id" may not be used in a query: it is a tenancy label`)
	f(`label_replace(x, "y", "$1", "vigil_workspace", "(.*)")`, 0, parser.CodeForbiddenLabel, `label "vigil_workspace" may not be used in a query: it is a tenancy label`)
	f(`x / on (vigil_workspace) y`, 0, parser.CodeForbiddenLabel, `label "vigil_workspace" may not be used in a query: it is a tenancy label`)
	f(`x`, 1, dql.CodeTooManyPoints, "900001 points per series is more than the maximum 10000; widen the step or set max_point")
}
