package parser

import (
	"strings"
	"testing"
)

func TestParseQuery(t *testing.T) {
	f := func(q, want string) {
		t.Helper()
		st, err := Parse(q)
		if err != nil {
			t.Fatalf("Parse(%q): unexpected error %s", q, err)
		}
		if got := Dump(st); got != want {
			t.Fatalf("Parse(%q):\ngot  %s\nwant %s", q, got, want)
		}
		checkRanges(t, q, st)
	}
	f("cpu", `QueryStmt{Source:NameExpr{Name:"cpu"}}`)
	f("M::cpu, `mem-x`:(x)", `QueryStmt{Namespace:"M" Source:NameExpr{Name:"cpu"} MoreSources:[NameExpr{Name:"mem-x" Quoted:true}] HasTargets:true Targets:[Target{Expr:NameExpr{Name:"x"}}]}`)
	f("M::(M::cpu:(x) BY h):(last(x))", `QueryStmt{Namespace:"M" Subquery:QueryStmt{Namespace:"M" Source:NameExpr{Name:"cpu"} HasTargets:true Targets:[Target{Expr:NameExpr{Name:"x"}}] By:[NameExpr{Name:"h"}]} HasTargets:true Targets:[Target{Expr:CallExpr{Name:"last" Args:[NameExpr{Name:"x"}]}}]}`)
	f("M::re`c.*`", `QueryStmt{Namespace:"M" SourceRegex:RegexExpr{Val:"c.*"}}`)
	f("re('c.*'):(x)", `QueryStmt{SourceRegex:RegexExpr{Val:"c.*" Call:true} HasTargets:true Targets:[Target{Expr:NameExpr{Name:"x"}}]}`)
	f("M::cpu", `QueryStmt{Namespace:"M" Source:NameExpr{Name:"cpu"}}`)
	f("metric::`my-metric`:()", `QueryStmt{Namespace:"M" Source:NameExpr{Name:"my-metric" Quoted:true} HasTargets:true}`)
	f("m :: cpu : ( avg ( x ) )", `QueryStmt{Namespace:"M" Source:NameExpr{Name:"cpu"} HasTargets:true Targets:[Target{Expr:CallExpr{Name:"avg" Args:[NameExpr{Name:"x"}]}}]}`)
	f("M::cpu:(AVG(usage_user) AS u, percentile(x, 90), user*2+1, `by`)",
		`QueryStmt{Namespace:"M" Source:NameExpr{Name:"cpu"} HasTargets:true Targets:[`+
			`Target{Expr:CallExpr{Name:"avg" Args:[NameExpr{Name:"usage_user"}]} Alias:"u"} `+
			`Target{Expr:CallExpr{Name:"percentile" Args:[NameExpr{Name:"x"} NumberExpr{Val:90 Text:"90"}]}} `+
			`Target{Expr:BinaryExpr{Op:"+" LHS:BinaryExpr{Op:"*" LHS:NameExpr{Name:"user"} RHS:NumberExpr{Val:2 Text:"2"}} RHS:NumberExpr{Val:1 Text:"1"}}} `+
			`Target{Expr:NameExpr{Name:"by" Quoted:true}}]}`)
	f("cpu:(a-b-c, a^b^c, -a^2, (a+b)/2)",
		`QueryStmt{Source:NameExpr{Name:"cpu"} HasTargets:true Targets:[`+
			`Target{Expr:BinaryExpr{Op:"-" LHS:BinaryExpr{Op:"-" LHS:NameExpr{Name:"a"} RHS:NameExpr{Name:"b"}} RHS:NameExpr{Name:"c"}}} `+
			`Target{Expr:BinaryExpr{Op:"^" LHS:NameExpr{Name:"a"} RHS:BinaryExpr{Op:"^" LHS:NameExpr{Name:"b"} RHS:NameExpr{Name:"c"}}}} `+
			`Target{Expr:UnaryExpr{Op:"-" X:BinaryExpr{Op:"^" LHS:NameExpr{Name:"a"} RHS:NumberExpr{Val:2 Text:"2"}}}} `+
			`Target{Expr:BinaryExpr{Op:"/" LHS:ParenExpr{X:BinaryExpr{Op:"+" LHS:NameExpr{Name:"a"} RHS:NameExpr{Name:"b"}}} RHS:NumberExpr{Val:2 Text:"2"}}}]}`)
	f("cpu:(fill(avg(x) AS a, 0), fill(max(y), PREVIOUS), fill(min(z), linear), fill(sum(w), nil), fill(count(v), -1.5), fill(last(u), 'x'))",
		`QueryStmt{Source:NameExpr{Name:"cpu"} HasTargets:true Targets:[`+
			`Target{Expr:CallExpr{Name:"avg" Args:[NameExpr{Name:"x"}]} Alias:"a" Fill:Fill{Value:NumberExpr{Text:"0"}}} `+
			`Target{Expr:CallExpr{Name:"max" Args:[NameExpr{Name:"y"}]} Fill:Fill{Kind:2}} `+
			`Target{Expr:CallExpr{Name:"min" Args:[NameExpr{Name:"z"}]} Fill:Fill{Kind:3}} `+
			`Target{Expr:CallExpr{Name:"sum" Args:[NameExpr{Name:"w"}]} Fill:Fill{Kind:1}} `+
			`Target{Expr:CallExpr{Name:"count" Args:[NameExpr{Name:"v"}]} Fill:Fill{Value:NumberExpr{Val:-1.5 Text:"-1.5"}}} `+
			`Target{Expr:CallExpr{Name:"last" Args:[NameExpr{Name:"u"}]} Fill:Fill{Value:StringExpr{Val:"x"}}}]}`)
	// Filters: ',' and && are AND, || is OR, AND binds tighter.
	f("cpu {a='1', b!=\"2\" && c = re`x` || d IN ['p', 1] AND e NOT IN [] OR f != re('y')}",
		`QueryStmt{Source:NameExpr{Name:"cpu"} Filter:BinaryExpr{Op:"OR" LHS:BinaryExpr{Op:"OR" `+
			`LHS:BinaryExpr{Op:"AND" LHS:BinaryExpr{Op:"AND" LHS:BinaryExpr{Op:"=" LHS:NameExpr{Name:"a"} RHS:StringExpr{Val:"1"}} RHS:BinaryExpr{Op:"!=" LHS:NameExpr{Name:"b"} RHS:StringExpr{Val:"2"}}} RHS:BinaryExpr{Op:"=" LHS:NameExpr{Name:"c"} RHS:RegexExpr{Val:"x"}}} `+
			`RHS:BinaryExpr{Op:"AND" LHS:InExpr{X:NameExpr{Name:"d"} List:ListExpr{Elems:[StringExpr{Val:"p"} NumberExpr{Val:1 Text:"1"}]}} RHS:InExpr{X:NameExpr{Name:"e"} Not:true List:ListExpr{}}}} `+
			`RHS:BinaryExpr{Op:"!=" LHS:NameExpr{Name:"f"} RHS:RegexExpr{Val:"y" Call:true}}} HasFilter:true}`)
	f("cpu {(a='1' || b='2'), (x+y)/2 >= -5}",
		`QueryStmt{Source:NameExpr{Name:"cpu"} Filter:BinaryExpr{Op:"AND" LHS:ParenExpr{X:BinaryExpr{Op:"OR" LHS:BinaryExpr{Op:"=" LHS:NameExpr{Name:"a"} RHS:StringExpr{Val:"1"}} RHS:BinaryExpr{Op:"=" LHS:NameExpr{Name:"b"} RHS:StringExpr{Val:"2"}}}} `+
			`RHS:BinaryExpr{Op:">=" LHS:BinaryExpr{Op:"/" LHS:ParenExpr{X:BinaryExpr{Op:"+" LHS:NameExpr{Name:"x"} RHS:NameExpr{Name:"y"}}} RHS:NumberExpr{Val:2 Text:"2"}} RHS:UnaryExpr{Op:"-" X:NumberExpr{Val:5 Text:"5"}}}} HasFilter:true}`)
	f("cpu {}", `QueryStmt{Source:NameExpr{Name:"cpu"} HasFilter:true}`)
	// Time expressions.
	f("cpu [5m]", `QueryStmt{Source:NameExpr{Name:"cpu"} Time:TimeExpr{From:TimePoint{Text:"5m" Relative:true Value:300000} Parts:1}}`)
	f("cpu [10m:5m:1m]", `QueryStmt{Source:NameExpr{Name:"cpu"} Time:TimeExpr{From:TimePoint{Text:"10m" Relative:true Value:600000} To:TimePoint{Text:"5m" Relative:true Value:300000} Interval:Duration{Text:"1m" Ms:60000} Parts:3}}`)
	f("cpu [1h::5m:max]", `QueryStmt{Source:NameExpr{Name:"cpu"} Time:TimeExpr{From:TimePoint{Text:"1h" Relative:true Value:3600000} Interval:Duration{Text:"5m" Ms:300000} Rollup:"max" Parts:4}}`)
	f("cpu [::1m]", `QueryStmt{Source:NameExpr{Name:"cpu"} Time:TimeExpr{Interval:Duration{Text:"1m" Ms:60000} Parts:3}}`)
	f("cpu [ 1h : : 1m : p99.9 ]", `QueryStmt{Source:NameExpr{Name:"cpu"} Time:TimeExpr{From:TimePoint{Text:"1h" Relative:true Value:3600000} Interval:Duration{Text:"1m" Ms:60000} Rollup:"p99.9" Parts:4}}`)
	f("cpu [1672502400:1672588800000]", `QueryStmt{Source:NameExpr{Name:"cpu"} Time:TimeExpr{From:TimePoint{Text:"1672502400" Value:1672502400000} To:TimePoint{Text:"1672588800000" Value:1672588800000} Parts:2}}`)
	f("cpu []", `QueryStmt{Source:NameExpr{Name:"cpu"} Time:TimeExpr{Parts:1}}`)
	f("cpu [2023-11-14 22:00:00:2023-11-15:1h]", `QueryStmt{Source:NameExpr{Name:"cpu"} Time:TimeExpr{From:TimePoint{Text:"2023-11-14 22:00:00" Value:1699999200000} To:TimePoint{Text:"2023-11-15" Value:1700006400000} Interval:Duration{Text:"1h" Ms:3600000} Parts:3}}`)
	f("cpu:(x AS 使用率) {host = b64'YQ=='}", `QueryStmt{Source:NameExpr{Name:"cpu"} HasTargets:true Targets:[Target{Expr:NameExpr{Name:"x"} Alias:"使用率"}] Filter:BinaryExpr{Op:"=" LHS:NameExpr{Name:"host"} RHS:StringExpr{Val:"a"}} HasFilter:true}`)
	f("cpu [1h:]", `QueryStmt{Source:NameExpr{Name:"cpu"} Time:TimeExpr{From:TimePoint{Text:"1h" Relative:true Value:3600000} Parts:2}}`)
	// Trailing clauses.
	f("cpu:(x) BY host, `dc-x` HAVING x > 1 ORDER BY time DESC LIMIT 5 OFFSET 2 SORDER BY x ASC SLIMIT 3 SOFFSET 1",
		`QueryStmt{Source:NameExpr{Name:"cpu"} HasTargets:true Targets:[Target{Expr:NameExpr{Name:"x"}}] By:[NameExpr{Name:"host"} NameExpr{Name:"dc-x" Quoted:true}] `+
			`Having:BinaryExpr{Op:">" LHS:NameExpr{Name:"x"} RHS:NumberExpr{Val:1 Text:"1"}} OrderBy:OrderBy{Name:NameExpr{Name:"time"} Desc:true Dir:true} `+
			`Limit:IntClause{N:5} Offset:IntClause{N:2} SOrderBy:OrderBy{Name:NameExpr{Name:"x"} Dir:true} SLimit:IntClause{N:3} SOffset:IntClause{N:1}}`)
	f("cpu [1d::1d] tz('Asia/Shanghai')", `QueryStmt{Source:NameExpr{Name:"cpu"} Time:TimeExpr{From:TimePoint{Text:"1d" Relative:true Value:86400000} Interval:Duration{Text:"1d" Ms:86400000} Parts:3} TZ:CallExpr{Name:"tz" Args:[StringExpr{Val:"Asia/Shanghai"}]}}`)
	f("identifier('a`b'):(identifier(\"x`y\") AS identifier('z`'), `q`) {identifier('t`') = 'v'} BY identifier('h`')",
		`QueryStmt{Source:NameExpr{Name:"a`+"`"+`b" Quoted:true} HasTargets:true Targets:[Target{Expr:NameExpr{Name:"x`+"`"+`y" Quoted:true} Alias:"z`+"`"+`"} Target{Expr:NameExpr{Name:"q" Quoted:true}}] `+
			`Filter:BinaryExpr{Op:"=" LHS:NameExpr{Name:"t`+"`"+`" Quoted:true} RHS:StringExpr{Val:"v"}} HasFilter:true By:[NameExpr{Name:"h`+"`"+`" Quoted:true}]}`)
	f("cpu by host limit 1 # trailing comment", `QueryStmt{Source:NameExpr{Name:"cpu"} By:[NameExpr{Name:"host"}] Limit:IntClause{N:1}}`)
	// Outer functions; a backtick argument is a string.
	f("difference(`M::net:(rx)`).cumsum().moving_average(size=2)",
		`OuterStmt{Calls:[CallExpr{Name:"difference" Args:[StringExpr{Val:"M::net:(rx)"}]} CallExpr{Name:"cumsum"} CallExpr{Name:"moving_average" Args:[NamedArg{Name:"size" Value:NumberExpr{Val:2 Text:"2"}}]}]}`)
	f("eval(A/B, A='M::cpu:(max(user))', B=\"M::cpu:(min(user))\")",
		`OuterStmt{Calls:[CallExpr{Name:"eval" Args:[BinaryExpr{Op:"/" LHS:NameExpr{Name:"A"} RHS:NameExpr{Name:"B"}} NamedArg{Name:"A" Value:StringExpr{Val:"M::cpu:(max(user))"}} NamedArg{Name:"B" Value:StringExpr{Val:"M::cpu:(min(user))"}}]}]}`)
	// Metadata functions.
	f("show_measurement()", `ShowStmt{Call:CallExpr{Name:"show_measurement"}}`)
	f("SHOW_TAG_VALUE(from=['cpu'], keyin=re('h.*')) {dc='x'} [1h] LIMIT 3",
		`ShowStmt{Call:CallExpr{Name:"show_tag_value" Args:[NamedArg{Name:"from" Value:ListExpr{Elems:[StringExpr{Val:"cpu"}]}} NamedArg{Name:"keyin" Value:RegexExpr{Val:"h.*" Call:true}}]} `+
			`Filter:BinaryExpr{Op:"=" LHS:NameExpr{Name:"dc"} RHS:StringExpr{Val:"x"}} HasFilter:true Time:TimeExpr{From:TimePoint{Text:"1h" Relative:true Value:3600000} Parts:1} Limit:IntClause{N:3}}`)
}

// checkRanges verifies that every node's range lies inside the query.
func checkRanges(t *testing.T, q string, st Stmt) {
	t.Helper()
	p, e := st.Range()
	if p < 0 || e > len(q) || p > e {
		t.Fatalf("statement range [%d,%d) outside %q", p, e, q)
	}
	var exprs []Expr
	switch s := st.(type) {
	case *QueryStmt:
		for _, tg := range s.Targets {
			exprs = append(exprs, tg.Expr)
		}
		if s.Filter != nil {
			exprs = append(exprs, s.Filter)
		}
	case *ShowStmt:
		exprs = append(exprs, s.Call)
	}
	for _, x := range exprs {
		Walk(x, func(n Expr) bool {
			p, e := n.Range()
			if p < 0 || e > len(q) || p >= e {
				t.Fatalf("%T %s: range [%d,%d) outside %q", n, n, p, e, q)
			}
			return true
		})
	}
}

func TestParseErrors(t *testing.T) {
	f := func(q, code, msg string, pos, end int) {
		t.Helper()
		_, err := Parse(q)
		if err == nil {
			t.Fatalf("Parse(%q): want an error", q)
		}
		e, ok := AsError(err)
		if !ok {
			t.Fatalf("Parse(%q): error %T is not *Error", q, err)
		}
		if e.Code != code || e.Error() != msg || e.Pos != pos || e.End != end {
			t.Fatalf("Parse(%q):\ngot  %s %q [%d,%d)\nwant %s %q [%d,%d)", q, e.Code, e.Error(), e.Pos, e.End, code, msg, pos, end)
		}
	}
	f("", CodeParseError, "line 1:1: empty query", 0, 0)
	f("  # only a comment", CodeParseError, "line 1:1: empty query", 0, 18)
	f(strings.Repeat("a", MaxQueryLen+1), CodeParseError, "query is 65537 bytes long; the maximum is 65536 bytes", -1, -1)
	f("M::cpu:(user) [1699999200000:1699999290000] {host='a'}", CodeParseError,
		"line 1:45: filter clause out of order: it must come before the time expression clause (order: targets, filter, time expression, BY, HAVING, ORDER BY, LIMIT, OFFSET, SORDER BY, SLIMIT, SOFFSET, tz())", 44, 45)
	f("cpu LIMIT 1 BY host", CodeParseError, "line 1:13: BY clause out of order: it must come before the LIMIT clause (order: targets, filter, time expression, BY, HAVING, ORDER BY, LIMIT, OFFSET, SORDER BY, SLIMIT, SOFFSET, tz())", 12, 14)
	f("cpu LIMIT 1 LIMIT 2", CodeParseError, "line 1:13: duplicate LIMIT clause", 12, 17)
	f("cpu SOFFSET 1 x", CodeParseError, `line 1:15: unexpected identifier "x", expected one of tz() or end of query`, 14, 15)
	f("cpu tz(1) x", CodeParseError, `line 1:11: unexpected identifier "x", expected end of query`, 10, 11)
	f("cpu x", CodeParseError, `line 1:5: unexpected identifier "x", expected one of targets, filter, time expression, BY, HAVING, ORDER BY, LIMIT, OFFSET, SORDER BY, SLIMIT, SOFFSET, tz() or end of query`, 4, 5)
	f("L::cpu", CodeUnsupportedNamespce, `line 1:1: namespace "L" is not supported; only M (metric) is`, 0, 1)
	f("M::", CodeParseError, "line 1:4: unexpected end of query, expected a measurement name", 3, 4)
	f("M::by", CodeParseError, "line 1:4: unexpected keyword BY, expected a measurement name", 3, 5)
	f("{a='b'}", CodeParseError, "line 1:1: unexpected '{', expected a measurement name, a namespace (M::) or a show_* function", 0, 1)
	f("M::(M::cpu:(x) x)", CodeParseError, `line 1:16: unexpected identifier "x", expected a clause of the nested query or ')' to close it`, 15, 16)
	f("M::(show_measurement())", CodeSemanticError, "line 1:5: a nested query must be a data query", 4, 20)
	f("M::cpu,", CodeParseError, "line 1:8: unexpected end of query, expected a measurement name", 7, 8)
	f("M::re('(')", CodeInvalidArgument, "line 1:4: invalid measurement regex: error parsing regexp: missing closing ): `(`", 3, 10)
	f("M::re(1)", CodeInvalidArgument, "line 1:4: re() takes one string argument", 3, 8)
	f("cpu:user", CodeParseError, `line 1:5: unexpected identifier "user", expected '(' to open the target list`, 4, 8)
	f("cpu:(a b)", CodeParseError, `line 1:8: unexpected identifier "b", expected ',' or ')' to close the target list`, 7, 8)
	f("cpu:(a AS)", CodeParseError, `line 1:10: unexpected ')', expected an alias name after AS`, 9, 10)
	f("cpu:(avg(x)", CodeParseError, `line 1:12: unexpected end of query, expected ',' or ')' to close the target list`, 11, 12)
	f("cpu:(fill(avg(x)))", CodeParseError, `line 1:17: unexpected ')', expected ',' and the fill value`, 16, 17)
	f("cpu:(fill(avg(x), zero))", CodeParseError, `line 1:19: unexpected identifier "zero", expected a fill value: a number, a string, LINEAR, PREVIOUS or NIL`, 18, 22)
	f("cpu {a = }", CodeParseError, "line 1:10: unexpected '}', expected an expression", 9, 10)
	f("cpu {a = 'b'", CodeParseError, "line 1:13: unexpected end of query, expected a condition operator (AND, OR, ',') or '}' to close the filter", 12, 13)
	f("cpu {a NOT 'b'}", CodeParseError, "line 1:12: unexpected string 'b', expected IN after NOT", 11, 14)
	f("cpu {a IN 'b'}", CodeParseError, "line 1:11: unexpected string 'b', expected '[' to open the IN list", 10, 13)
	f("cpu {a IN [b]}", CodeParseError, `line 1:12: unexpected identifier "b", expected a string or number in the list`, 11, 12)
	f("cpu {a = re(1)}", CodeInvalidArgument, "line 1:10: re() takes one string argument", 9, 14)
	f("cpu [1h:2h:3h:max:x]", CodeParseError, "line 1:18: the time expression has at most 4 parts [start:end:interval:rollup]", 17, 18)
	f("cpu [1.5]", CodeParseError, "line 1:6: unexpected number 1.5, expected an integer epoch time or a duration as the start", 5, 8)
	f("cpu [1h 2h]", CodeParseError, "line 1:9: unexpected duration 2h, expected ':' or ']'", 8, 10)
	f("cpu [::5]", CodeParseError, "line 1:8: unexpected number 5, expected an interval duration such as 1m", 7, 8)
	f("cpu [::1m:5]", CodeParseError, "line 1:11: unexpected number 5, expected a rollup name such as max or p99", 10, 11)
	f("p99.9", CodeParseError, "line 1:1: unexpected percentile rollup name p99.9, expected a measurement name, a namespace (M::) or a show_* function", 0, 5)
	f("cpu:(p99.9)", CodeParseError, "line 1:6: unexpected percentile rollup name p99.9, expected an expression", 5, 10)
	f("cpu:(identifier(1))", CodeInvalidArgument, "line 1:6: identifier() takes one non-empty string argument", 5, 18)
	f("cpu [1h::max]", CodeParseError, `line 1:10: unexpected identifier "max", expected an interval duration such as 1m`, 9, 12)
	f("cpu [2023-13-01]", CodeInvalidArgument, `line 1:6: invalid date "2023-13-01": parsing time "2023-13-01": month out of range`, 5, 15)
	f("cpu [2023-11-14  22:00:00]", CodeParseError, "line 1:18: unexpected number 22, expected ':' or ']'", 17, 19)
	f("cpu:(使用率)", CodeParseError, "line 1:6: unexpected non-ASCII name 使用率, expected an expression", 5, 14)
	f("cpu LIMIT -1", CodeParseError, "line 1:11: unexpected '-', expected an unsigned integer after LIMIT", 10, 11)
	f("cpu LIMIT 1.5", CodeParseError, "line 1:11: unexpected number 1.5, expected an unsigned integer after LIMIT", 10, 13)
	f("cpu LIMIT 99999999999999999999", CodeLimitTooLarge, "line 1:11: LIMIT 99999999999999999999 is too large", 10, 30)
	f("cpu ORDER time", CodeParseError, `line 1:11: unexpected identifier "time", expected BY after ORDER`, 10, 14)
	f("cpu:("+strings.Repeat("(", 70)+"x"+strings.Repeat(")", 70)+")", CodeParseError, "line 1:70: expression nesting is deeper than 64 levels", 69, 70)
	f("nosuch(x)", CodeUnknownFunction, "line 1:1: unknown statement function nosuch(); statements start with a measurement, a metadata function (show_measurement, show_tag_key, show_tag_value, show_field_key) or an outer function (abs, cumsum, derivative, difference, non_negative_derivative, non_negative_difference, log2, log10, moving_average, rate, irate, avg, count, count_distinct, first, last, max, min, series_sum, eval)", 0, 6)
	f("difference('x').nosuch()", CodeUnknownFunction, "line 1:17: unknown outer function nosuch(); known: abs, cumsum, derivative, difference, non_negative_derivative, non_negative_difference, log2, log10, moving_average, rate, irate, avg, count, count_distinct, first, last, max, min, series_sum, eval", 16, 22)
	f("difference('x').", CodeParseError, "line 1:17: unexpected end of query, expected an outer function call after '.'", 16, 17)
	f("difference('x') LIMIT 1", CodeParseError, "line 1:17: unexpected keyword LIMIT, expected '.' and another outer function, or end of query", 16, 21)
	f("show_measurement() LIMIT 1 {a='b'}", CodeParseError, "line 1:28: filter clause out of order after LIMIT (order: filter, time expression, LIMIT, OFFSET)", 27, 28)
	f("cpu:(x) {a = 'b'\n  AND }", CodeParseError, "line 2:7: unexpected '}', expected an expression", 23, 24)
}

func TestCheckErrors(t *testing.T) {
	f := func(q, code, msg string) {
		t.Helper()
		st, err := Parse(q)
		if err != nil {
			t.Fatalf("Parse(%q): unexpected error %s", q, err)
		}
		err = Check(st, q)
		e, ok := AsError(err)
		if !ok || e.Code != code || e.Error() != msg {
			t.Fatalf("Check(%q):\ngot  %v\nwant %s %q", q, err, code, msg)
		}
	}
	f("cpu:(nosuch(x))", CodeUnknownFunction, "line 1:6: unknown function nosuch(); known: avg, sum, min, max, count, first, last, percentile, median, stddev, spread, mode, count_distinct, distinct, top, bottom, difference, derivative, non_negative_derivative, non_negative_difference, moving_average, abs, round, log")
	f("cpu:(avg(x, 1))", CodeInvalidArgument, "line 1:6: avg() takes 1 argument(s), got 2")
	f("cpu:(avg(x+1))", CodeInvalidArgument, "line 1:10: the argument of avg() must be a field name")
	f("cpu:(percentile(x, 101))", CodeInvalidArgument, "line 1:20: percentile 101 is outside [0, 100]")
	f("cpu:(percentile(x, -1))", CodeInvalidArgument, "line 1:20: percentile -1 is outside [0, 100]")
	f("cpu:(percentile(x, y))", CodeInvalidArgument, "line 1:20: the second argument of percentile() must be a number")
	f("cpu:(avg(x), y)", CodeSemanticError, "line 1:14: y is neither an aggregate nor a BY tag; aggregates cannot be mixed with raw fields")
	f("cpu:(avg(x), y+1)", CodeSemanticError, "line 1:14: y is used outside an aggregate; aggregates cannot be mixed with raw fields")
	f("cpu:(avg(x), difference(y))", CodeSemanticError, "line 1:14: transform difference() cannot be mixed with aggregates")
	f("cpu:('s')", CodeInvalidArgument, "line 1:6: a string is not a valid target; targets are fields, tags, numbers and functions")
	f("cpu:(fill(x, 0))", CodeSemanticError, "line 1:6: fill() needs an aggregate target such as fill(avg(x), 0)")
	f("cpu:(fill(avg(x), 0)) [1h]", CodeSemanticError, "line 1:6: fill() needs an interval in the time expression, such as [1h::1m]")
	f("cpu:(__name__)", CodeForbiddenLabel, `line 1:6: label "__name__" may not be used in targets: names starting with "__" and tenancy labels are reserved`)
	f("cpu {vm_account_id='1'}", CodeForbiddenLabel, `line 1:6: label "vm_account_id" may not be used in the filter: names starting with "__" and tenancy labels are reserved`)
	f("cpu {`vigil_workspace`='x'}", CodeForbiddenLabel, `line 1:6: label "vigil_workspace" may not be used in the filter: names starting with "__" and tenancy labels are reserved`)
	f("cpu BY __measurement__", CodeForbiddenLabel, `line 1:8: label "__measurement__" may not be used in BY: names starting with "__" and tenancy labels are reserved`)
	f("cpu:(x) HAVING vm_project_id > 1", CodeForbiddenLabel, `line 1:16: label "vm_project_id" may not be used in HAVING: names starting with "__" and tenancy labels are reserved`)
	f("cpu SORDER BY __x", CodeForbiddenLabel, `line 1:15: label "__x" may not be used in SORDER BY: names starting with "__" and tenancy labels are reserved`)
	f("cpu {a = re'('}", CodeInvalidArgument, "line 1:10: invalid regex: error parsing regexp: missing closing ): `(`")
	f("cpu {a < re'x'}", CodeInvalidArgument, "line 1:6: a regex can only be compared with = or !=")
	f("cpu {a > 'x'}", CodeInvalidArgument, "line 1:6: a string can only be compared with = or != (tags also take IN, NOT IN and regexes; fields compare with numbers), not >")
	f("cpu {'x' = a}", CodeInvalidArgument, "line 1:6: a string must be on the right of = or !=")
	f("cpu {a}", CodeSemanticError, "line 1:6: a is not a condition; write a comparison such as host = 'a' or idle > 90")
	f("cpu {match(a)}", CodeUnknownFunction, "line 1:6: function match() cannot be used as a filter condition in M")
	f("cpu {exists(a) = 1}", CodeUnknownFunction, "line 1:6: function exists() cannot be used in a condition")
	f("cpu [::0s]", CodeInvalidArgument, "line 1:8: interval 0s must be at least 1ms")
	f("cpu [1h:::max]", CodeInvalidArgument, "line 1:5: rollup max needs an interval, such as [1h::1m:max]")
	f("cpu [1h::1m:nosuch]", CodeUnknownFunction, "line 1:13: unknown rollup nosuch; known: avg, sum, min, max, count, first, last, stddev, median, pNN, deriv, rate, irate")
	f("cpu [1h::1m:p101]", CodeInvalidArgument, "line 1:13: rollup p101: percentile 101 is outside [0, 100]")
	f("cpu [1699999290000:1699999200000]", CodeInvalidArgument, "line 1:5: start 1699999290000 is not before end 1699999200000")
	f("cpu ORDER BY host", CodeSemanticError, "line 1:14: ORDER BY host: metrics can only be ordered by time; use SORDER BY to order series")
	f("cpu LIMIT 0", CodeInvalidArgument, "line 1:5: LIMIT must be between 1 and 10000")
	f("cpu SLIMIT 0", CodeInvalidArgument, "line 1:5: SLIMIT must be between 1 and 10000")
	f("cpu SOFFSET 1000001", CodeLimitTooLarge, "line 1:5: SOFFSET 1000001 is larger than the maximum 1000000")
	f("show_nothing()", CodeUnknownFunction, "line 1:1: unknown metadata function show_nothing(); known: show_measurement, show_tag_key, show_tag_value, show_field_key")
	f("show_tag_key(cpu)", CodeInvalidArgument, "line 1:14: show_tag_key() takes named arguments such as from=['cpu']")
	f("show_tag_key(keyin=['x'])", CodeInvalidArgument, `line 1:14: show_tag_key() has no argument "keyin"`)
	f("show_tag_value(keyin=re('('))", CodeInvalidArgument, "line 1:22: invalid regex: error parsing regexp: missing closing ): `(`")
	f("show_measurement() [1h::1m]", CodeInvalidArgument, "line 1:20: metadata functions take a time range without an interval")
	f("cpu:(distinct(x), count(x))", CodeSemanticError, "line 1:19: distinct() must be the only aggregate target (BY tags may be added)")
	f("cpu:(top(x, 2) + 1)", CodeSemanticError, "line 1:6: distinct(), top() and bottom() cannot be used inside expressions")
	f("cpu:(top(x, 0))", CodeInvalidArgument, "line 1:13: top() count must be an integer between 1 and 10000")
	f("cpu:(fill(bottom(x, 1), 0)) [1h::1m]", CodeSemanticError, "line 1:6: bottom() returns rows, not one value per bucket; it cannot be filled")
	f("cpu:(moving_average(x, 0))", CodeInvalidArgument, "line 1:24: moving_average() window must be an integer between 1 and 10000")
	f("difference()", CodeInvalidArgument, "line 1:1: difference() needs the query as its first argument: difference('M::cpu:(x) [1h]') or difference(dql='…')")
	f("difference('M::cpu:(x) [1h] {a=1}')", CodeParseError, "line 1:12: in the query of difference(): line 1:17: filter clause out of order: it must come before the time expression clause (order: targets, filter, time expression, BY, HAVING, ORDER BY, LIMIT, OFFSET, SORDER BY, SLIMIT, SOFFSET, tz())")
	f("difference('M::cpu:(nosuch(x))')", CodeUnknownFunction, "line 1:12: in the query of difference(): line 1:9: unknown function nosuch(); known: avg, sum, min, max, count, first, last, percentile, median, stddev, spread, mode, count_distinct, distinct, top, bottom, difference, derivative, non_negative_derivative, non_negative_difference, moving_average, abs, round, log")
	f("difference('show_measurement()')", CodeSemanticError, "line 1:12: difference() takes a data query, not show_measurement()")
	f("difference('M::cpu:(x)').cumsum('M::cpu:(y)')", CodeInvalidArgument, "line 1:26: only the first function of a chain takes a query")
	f("difference('M::cpu:(x)', 3)", CodeInvalidArgument, "line 1:26: difference() takes no argument 3")
	f("difference(dql='M::cpu:(x)', window=3)", CodeInvalidArgument, `line 1:37: difference() has no argument "window"`)
	f("moving_average('M::cpu:(x)')", CodeInvalidArgument, "line 1:1: moving_average() needs size=n with n an integer between 1 and 10000")
	f("series_sum(dql='M::cpu:(x)', sumBy='host')", CodeInvalidArgument, "line 1:36: sumBy= takes a list of tag names such as ['host']")
	f("eval(A+C, A='M::cpu:(x)', B='M::cpu:(y)')", CodeInvalidArgument, "line 1:8: eval() expression uses C, which is not one of its named queries")
	f("eval(A, A='M::cpu:(x)').abs()", CodeSemanticError, "line 1:1: eval() cannot be chained")
	f("eval(A='M::cpu:(x)')", CodeInvalidArgument, "line 1:1: eval() takes an expression and named queries: eval(A+B, A='…', B='…')")
	f("cpu tz()", CodeInvalidArgument, "line 1:5: tz() takes one argument: a zone name such as 'Asia/Shanghai' or an offset in hours such as +8")
	f("cpu tz('Mars/Olympus')", CodeInvalidArgument, `line 1:8: unknown time zone "Mars/Olympus"; use an IANA name such as 'Asia/Shanghai' or an offset such as '+08:00'`)
	f("cpu tz(15)", CodeInvalidArgument, "line 1:8: tz() offset 15 must be between -14 and +14 hours, in quarter hours")
	f("cpu tz(host)", CodeInvalidArgument, "line 1:8: tz() takes a zone name such as 'Asia/Shanghai' or an offset in hours such as +8")
	f("cpu:(log(x, 1))", CodeInvalidArgument, "line 1:13: log() base must be positive and not 1")
	f("cpu:(abs(avg(x)))", CodeSemanticError, "line 1:10: abs() applies to row values, not to aggregates or transforms")
}
