package dql_test

import (
	"strings"
	"testing"

	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/parser"
)

// specExamples are the worked examples of DQL.md on dataset E with the results the
// specification states, written out in full.
var specExamples = []struct {
	q    string
	want string // series JSON, or "error <code>"
}{
	// §4
	{`M::cpu:(user) {host='a'} [1699999200000:1699999290000]`,
		`[{"name":"cpu","columns":["time","user"],"values":[[1699999200000,1],[1699999230000,2],[1699999260000,3]]}]`},
	{`cpu:(user) {host="a"} [1699999200000:1699999290000] limit 1     # namespace omitted = M`,
		`[{"name":"cpu","columns":["time","user"],"values":[[1699999200000,1]]}]`},
	{`M::cpu:(user) [1699999200000:1699999290000] {host='a'}`, `error dql.parse_error`},
	// §6
	{`M::cpu {host='a'} [1699999200000:1699999230000]`,
		`[{"name":"cpu","columns":["time","dc","host","idle","user"],"values":[[1699999200000,"east1","a",99,1]]}]`},
	{`M::cpu:() {host='a'} [1699999200000:1699999230000]`,
		`[{"name":"cpu","columns":["time","dc","host","idle","user"],"values":[[1699999200000,"east1","a",99,1]]}]`},
	{`M::cpu:(user*2 AS u2, idle/4) {host='b'} [1699999200000:1699999230000]`,
		`[{"name":"cpu","columns":["time","u2","idle/4"],"values":[[1699999200000,20,22.5]]}]`},
	// §7
	{`M::cpu:(count(user) AS c) {host IN ['a','b'], user > 4} [1699999200000:1699999380000]`,
		`[{"name":"cpu","columns":["time","c"],"values":[[1699999200000,8]]}]`},
	{`M::cpu:(count(user) AS c) {dc = re'(east|west)1' && (host='a' || idle < 50)} [1699999200000:1699999380000]`,
		`[{"name":"cpu","columns":["time","c"],"values":[[1699999200000,7]]}]`},
	{`M::cpu:(count(user) AS c) {dc = re'east'} [1699999200000:1699999380000]`, `[]`},
	{`M::cpu:(count(user) AS c) {dc = re'east.*'} [1699999200000:1699999380000]`,
		`[{"name":"cpu","columns":["time","c"],"values":[[1699999200000,6]]}]`},
	// §9.2
	{`M::cpu:(user, host) [1699999200000:1699999230000]`,
		`[{"name":"cpu","columns":["time","user","host"],"values":[[1699999200000,1,"a"],[1699999200000,10,"b"]]}]`},
	// §9.3
	{`M::cpu:(fill(count(user) AS c, 0)) {host='a', user > 2} [1699999200000:1699999380000:1m]`,
		`[{"name":"cpu","columns":["time","c"],"values":[[1699999200000,0],[1699999260000,2],[1699999320000,2]]}]`},
	// §10.1
	{`M::cpu:(avg(user) AS u) [1699999200000:1699999380000] BY host`,
		`[{"name":"cpu","tags":{"host":"a"},"columns":["time","u"],"values":[[1699999200000,3.5]]},` +
			`{"name":"cpu","tags":{"host":"b"},"columns":["time","u"],"values":[[1699999200000,35]]}]`},
	{`M::cpu:(percentile(user,50) AS p, median(user) AS m) {host='a'} [1699999200000:1699999380000]`,
		`[{"name":"cpu","columns":["time","p","m"],"values":[[1699999200000,3,3.5]]}]`},
	{`M::cpu:(sum(user) AS s) [1699999200000:1699999380000:1m] BY host`,
		`[{"name":"cpu","tags":{"host":"a"},"columns":["time","s"],"values":[[1699999200000,3],[1699999260000,7],[1699999320000,11]]},` +
			`{"name":"cpu","tags":{"host":"b"},"columns":["time","s"],"values":[[1699999200000,30],[1699999260000,70],[1699999320000,110]]}]`},
	// §10.3
	{`M::net:(derivative(rx) AS d) [1699999200000:1699999380000]`,
		`[{"name":"net","columns":["time","d"],"values":[[1699999230000,10],[1699999260000,10],[1699999290000,10],[1699999320000,-26.666666666666668],[1699999350000,10]]}]`},
	{`M::net:(non_negative_derivative(rx) AS d) [1699999200000:1699999380000]`,
		`[{"name":"net","columns":["time","d"],"values":[[1699999230000,10],[1699999260000,10],[1699999290000,10],[1699999350000,10]]}]`},
	// §10.4
	{`M::cpu:(sum(user) AS s) [1699999200000:1699999380000:1m:max]`,
		`[{"name":"cpu","columns":["time","s"],"values":[[1699999200000,22],[1699999260000,44],[1699999320000,66]]}]`},
	{`M::cpu:(sum(user) AS s) [1699999200000:1699999380000:1m]`,
		`[{"name":"cpu","columns":["time","s"],"values":[[1699999200000,33],[1699999260000,77],[1699999320000,121]]}]`},
	{`M::cpu:(sum(user) AS s) [1699999200000:1699999380000::max]`, `error dql.invalid_argument`},
	// §11
	{`M::cpu:(max(user) AS m) [1699999200000:1699999380000] BY host HAVING m > 10`,
		`[{"name":"cpu","tags":{"host":"b"},"columns":["time","m"],"values":[[1699999200000,60]]}]`},
	{`M::cpu:(user) [1699999200000:1699999380000] BY host LIMIT 2`,
		`[{"name":"cpu","tags":{"host":"a"},"columns":["time","user"],"values":[[1699999200000,1],[1699999230000,2]]},` +
			`{"name":"cpu","tags":{"host":"b"},"columns":["time","user"],"values":[[1699999200000,10],[1699999230000,20]]}]`},
	{`M::cpu:(last(user)) [1699999200000:1699999380000] BY host SLIMIT 1`,
		`[{"name":"cpu","tags":{"host":"a"},"columns":["time","last(user)"],"values":[[1699999200000,6]]}]`},
	{`M::cpu:(user) [1699999200000:1699999380000] LIMIT 0`, `error dql.invalid_argument`},
	{`M::cpu:(user) [1699999200000:1699999380000] LIMIT -1`, `error dql.parse_error`},
	{`M::cpu:(user) [1699999200000:1699999380000] LIMIT 10001`, `error dql.limit_too_large`},
	{`M::cpu:(user) [1699999200000:1699999380000] SLIMIT 10001`, `error dql.limit_too_large`},
	{`M::cpu:(user) [1699999200000:1699999380000] OFFSET 1000001`, `error dql.limit_too_large`},
	// §12
	{`show_measurement()`, `[{"name":"measurements","columns":["name"],"values":[["cpu"],["net"]]}]`},
	{`show_tag_key(from=['cpu'])`, `[{"name":"cpu","columns":["tagKey"],"values":[["dc"],["host"]]}]`},
	{`show_tag_value(from=['cpu'], keyin=['host'])`, `[{"name":"cpu","columns":["key","value"],"values":[["host","a"],["host","b"]]}]`},
	{`show_field_key(from=['cpu'])`, `[{"name":"cpu","columns":["fieldKey","fieldType"],"values":[["idle","float"],["user","float"]]}]`},
}

func TestSpecExamples(t *testing.T) {
	for _, ex := range specExamples {
		got, err := runE(t, ex.q, dql.Options{})
		if code, isErr := strings.CutPrefix(ex.want, "error "); isErr {
			e, ok := parser.AsError(err)
			if !ok || e.Code != code {
				t.Errorf("%s: got error %v (%+v), want %s", ex.q, err, e, code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: unexpected error %s", ex.q, err)
			continue
		}
		if s := seriesJSON(t, got); s != ex.want {
			t.Errorf("%s:\ngot  %s\nwant %s", ex.q, s, ex.want)
		}
	}
}
