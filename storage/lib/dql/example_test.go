package dql_test

import (
	"context"
	"encoding/json"
	"fmt"

	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/dqltest"
	"vigil/storage/lib/dql/parser"
)

// Query evaluates a statement over a Source; here the in-memory dataset E of DQL.md.
func ExampleQuery() {
	res, err := dql.Query(context.Background(), dqltest.ExampleE(),
		"M::cpu:(avg(user) AS u) [1699999200000:1699999380000:1m] BY host SLIMIT 1",
		dql.Options{Now: dqltest.T0})
	if err != nil {
		panic(err)
	}
	b, _ := json.Marshal(res.Series)
	fmt.Println(string(b))
	fmt.Println(res.RawQuery)
	// Output:
	// [{"name":"cpu","tags":{"host":"a"},"columns":["time","u"],"values":[[1699999200000,1.5],[1699999260000,3.5],[1699999320000,5.5]]}]
	// sum(sum_over_time({__measurement__="cpu",__field__="user"}[60000ms] offset -59999ms)) by(host) / sum(count_over_time({__measurement__="cpu",__field__="user"}[60000ms] offset -59999ms)) by(host) start=1699999200000 end=1699999320000 step=60000
}

// Parse returns the syntax tree; String prints it back in canonical form.
func ExampleParse() {
	st, err := parser.Parse("metric::cpu:( AVG(x) as y ) { host='a' , dc=re'e.*' || idle<5 } [1h::1m] by host")
	if err != nil {
		panic(err)
	}
	fmt.Println(st)
	// Output:
	// M::cpu:(avg(x) AS y) {host = 'a' AND dc = re`e.*` OR idle < 5} [1h::1m] BY host
}

// Errors carry a code and a position.
func ExampleError() {
	_, err := parser.Parse("M::cpu:(user) [1h] {host='a'}")
	e, _ := parser.AsError(err)
	fmt.Println(e.Code)
	fmt.Println(e)
	// Output:
	// dql.parse_error
	// line 1:20: filter clause out of order: it must come before the time expression clause (order: targets, filter, time expression, BY, HAVING, ORDER BY, LIMIT, OFFSET, SORDER BY, SLIMIT, SOFFSET, tz())
}
