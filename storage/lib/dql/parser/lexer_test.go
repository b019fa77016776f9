package parser

import (
	"strings"
	"testing"
)

func lexString(t *testing.T, s string) string {
	t.Helper()
	toks, err := Lex(s)
	if err != nil {
		t.Fatalf("Lex(%q): unexpected error %s", s, err)
	}
	var parts []string
	for _, tk := range toks[:len(toks)-1] {
		p := tk.Kind.String() + ":" + tk.Text
		if tk.Val != "" && tk.Val != tk.Text {
			p += "=" + tk.Val
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

func TestLexNames(t *testing.T) {
	f := func(s, want string) {
		t.Helper()
		if got := lexString(t, s); got != want {
			t.Fatalf("Lex(%q):\ngot  %s\nwant %s", s, got, want)
		}
	}
	f("cpu", "identifier:cpu")
	f("M::cpu", "identifier:M '::'::: identifier:cpu")
	f("M :: cpu : ( x )", "identifier:M '::'::: identifier:cpu ':':: '(':( identifier:x ')':)")
	f("`status-class`", "backtick name:`status-class`=status-class")
	f("`by`", "backtick name:`by`=by")
	f("_a1 BY by", "identifier:_a1 identifier:BY identifier:by")
	f("p99.9", "percentile rollup name:p99.9")
	f("p99", "identifier:p99")
}

func TestLexLiterals(t *testing.T) {
	f := func(s, want string) {
		t.Helper()
		if got := lexString(t, s); got != want {
			t.Fatalf("Lex(%q):\ngot  %s\nwant %s", s, got, want)
		}
	}
	f(`'a' "b"`, `string:'a'=a string:"b"=b`)
	f(`'it\'s' "say \"x\"" 'a"b'`, `string:'it\'s'=it's string:"say \"x\""=say "x" string:'a"b'=a"b`)
	f(`'\n\t\\'`, "string:'\\n\\t\\\\'=\n\t\\")
	f(`'a\.b'`, `string:'a\.b'=a\.b`)
	f("re`a|b` re'c' re\"d\"", "regex:re`a|b`=a|b regex:re'c'=c regex:re\"d\"=d")
	f("b64'aG9zdA==' b64\"\"", "string:b64'aG9zdA=='=host string:b64\"\"")
	f("使用率 é_1", "non-ASCII name:使用率 non-ASCII name:é_1")
	f("re('a.*')", "identifier:re '(':( string:'a.*'=a.* ')':)")
	f("123 -1 123.4 5.67E3 1e-3 .5", "number:123 '-':- number:1 number:123.4 number:5.67E3 number:1e-3 number:.5")
	f("90s 1h30m 15m 1d 2w 1y 5ms 10us 3ns", "duration:90s duration:1h30m duration:15m duration:1d duration:2w duration:1y duration:5ms duration:10us duration:3ns")
}

func TestLexOperators(t *testing.T) {
	f := func(s, want string) {
		t.Helper()
		if got := lexString(t, s); got != want {
			t.Fatalf("Lex(%q):\ngot  %s\nwant %s", s, got, want)
		}
	}
	f("+ - * / % ^", "'+':+ '-':- '*':* '/':/ '%':% '^':^")
	f("= == != < <= > >=", "'=':= '=':== '!=':!= '<':< '<=':<= '>':> '>=':>=")
	f("&& || , { } [ ]", "'&&':&& '||':|| ',':, '{':{ '}':} '[':[ ']':]")
	f("a # comment\nb # trailing", "identifier:a identifier:b")
	f("'#not a comment' `#x`", "string:'#not a comment'=#not a comment backtick name:`#x`=#x")
	f("[1h::5m:max]", "'[':[ duration:1h '::'::: duration:5m ':':: identifier:max ']':]")
}

func TestLexErrors(t *testing.T) {
	f := func(s, wantErr string) {
		t.Helper()
		_, err := Lex(s)
		if err == nil || err.Error() != wantErr {
			t.Fatalf("Lex(%q): got error %v, want %q", s, err, wantErr)
		}
		if e, ok := AsError(err); !ok || e.Code != CodeParseError {
			t.Fatalf("Lex(%q): want a %s, got %#v", s, CodeParseError, err)
		}
	}
	f("'abc", "line 1:1: unterminated string: missing closing '")
	f("a\n `x", "line 2:2: unterminated backtick name: missing closing `")
	f("``", "line 1:1: empty backtick name")
	f("a ! b", `line 1:3: unexpected character '!'`)
	f("a & b", `line 1:3: unexpected character '&'`)
	f("15min", `line 1:1: invalid number "15min"`)
	f("1h30", `line 1:1: invalid duration "1h30": a unit (ns, us, ms, s, m, h, d, w, y) must follow each number`)
	f("12abc", `line 1:1: invalid number "12abc"`)
	f("a\xff", "line 1:2: invalid UTF-8 byte 0xff")
	f("→", `line 1:1: unexpected character '→'`)
	f("b64'!!'", "line 1:1: invalid base64 string: illegal base64 data at input byte 0")
}
