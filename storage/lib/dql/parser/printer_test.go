package parser_test

import (
	"testing"

	"vigil/storage/lib/dql/parser/parsertest"
)

func TestPrinter(t *testing.T) {
	same := func(s string) {
		t.Helper()
		if got := parsertest.RoundTrip(t, s); got != s {
			t.Fatalf("printed %q as %q", s, got)
		}
	}
	another := func(in, out string) {
		t.Helper()
		if got := parsertest.RoundTrip(t, in); got != out {
			t.Fatalf("printed %q as %q, want %q", in, got, out)
		}
	}
	same("cpu")
	same("M::cpu")
	same("M::cpu:()")
	same("M::`my-metric`:(`by`, `a b`, x AS `c-d`)")
	same("M::cpu:(avg(usage_user)) [15m::1m] BY host")
	same("M::cpu:(percentile(user, 90), user*2+1, (a+b)/2, -x, a^-1, a--1)")
	same("M::cpu:(fill(avg(x) AS a, 0), fill(max(y), PREVIOUS), fill(min(z), LINEAR), fill(sum(w), NIL), fill(count(v), -1.5), fill(last(u), 'x'))")
	same("M::cpu {host = 'a' AND dc != 'b' OR x IN ['a', 1] AND y NOT IN []} [1h]")
	same("M::cpu {(host = 'a' OR idle < 50) AND dc = re`east.*` AND h != re('x')}")
	same("M::cpu {}")
	same("M::cpu []")
	same("M::cpu [1h:]")
	same("M::cpu [::1m]")
	same("M::cpu [1h:5m:1m:p99.9]")
	same("M::cpu [1672502400:1672588800000]")
	same("M::cpu:(avg(x)) [1d::1d] BY h SLIMIT 1 tz('Asia/Shanghai')")
	same("M::cpu:(avg(x)) [1d::1d] tz(-5.5)")
	same("M::identifier('a`b'):(identifier('x`') AS identifier('y`\\'')) BY identifier('h`')")
	same("M::cpu:(x AS `使用率`) [2023-11-14 22:00:00:2023-11-15:1h]")
	another("M::cpu:(x AS 使用率) {host = b64'YQ=='}", "M::cpu:(x AS `使用率`) {host = 'a'}")
	same("M::cpu:(x) BY a, b HAVING x > 1 ORDER BY time DESC LIMIT 5 OFFSET 2 SORDER BY x ASC SLIMIT 3 SOFFSET 1")
	same("show_tag_value(from=['cpu'], keyin=re('h.*')) {dc = 'x'} [1h] LIMIT 3 OFFSET 1")
	another("metric::cpu:( AVG( x ) as y ) { a='1' , b=\"2\" && c='3' || d='4' } [ 1h : : 1m ] by host order by time limit 1",
		"M::cpu:(avg(x) AS y) {a = '1' AND b = '2' AND c = '3' OR d = '4'} [1h::1m] BY host ORDER BY time LIMIT 1")
	another(`cpu {a = 'it\'s', b = "say \"x\"", c = re"a\.b", d = re'x' + 0}`,
		"cpu {a = 'it\\'s' AND b = 'say \"x\"' AND c = re`a\\.b` AND d = re`x`+0}")
	another("cpu # comment\n  :(x)", "cpu:(x)")
	another("M::cpu {host = re'a`b'}", `M::cpu {host = re'a`+"`"+`b'}`)
}
