// Package parser is the DQL language, the query language of Guance Cloud for metrics
// (namespace M), as specified in DQL.md and restated in package dql's README: tokens, a
// lexer, a hand-written recursive-descent parser, the syntax tree, a checker (known
// functions, arguments, reserved labels, clause values) and a printer whose output parses
// back to the same tree. It knows nothing of evaluation: package dql runs what it parses.
//
// Grammar (clause order is fixed; every clause but the source is optional):
//
//	statement = [ ("M" | "metric") "::" ] source [ ":" "(" [ target { "," target } ] ")" ]
//	            [ "{" [ cond ] "}" ] [ timeexpr ] [ "BY" name { "," name } ]
//	            [ "HAVING" cond ] [ "ORDER" "BY" "time" [ "ASC" | "DESC" ] ]
//	            [ "LIMIT" uint ] [ "OFFSET" uint ] [ "SORDER" "BY" name [ "ASC" | "DESC" ] ]
//	            [ "SLIMIT" uint ] [ "SOFFSET" uint ]
//	          | show_call [ "{" cond "}" ] [ "[" start [ ":" end ] "]" ] [ "LIMIT" uint ] [ "OFFSET" uint ]
//	          | outer_call { "." outer_call }             (* first call: f('<dql>') or f(dql='<dql>') *)
//	source    = name { "," name } | regex | "(" statement ")"
//	target    = expr [ "AS" name ] | "fill" "(" expr [ "AS" name ] "," fillval ")"
//	fillval   = number | string | "LINEAR" | "PREVIOUS" | "NIL"
//	cond      = and { ( "||" | "OR" ) and }
//	and       = cmp { ( "&&" | "AND" | "," ) cmp }          (* "," only inside { } and HAVING *)
//	cmp       = expr [ ( "=" | "!=" | "<" | "<=" | ">" | ">=" ) expr ]
//	          | expr [ "NOT" ] "IN" "[" literal { "," literal } "]"
//	expr      = term { ( "+" | "-" ) term } ;  term = unary { ( "*" | "/" | "%" ) unary }
//	unary     = "-" unary | pow ;  pow = primary [ "^" unary ]
//	primary   = number | string | regex | name | name "(" [ arg { "," arg } ] ")" | "(" cond ")"
//	          | "[" literal { "," literal } "]" | "true" | "false" | "nil"
//	arg       = [ ident "=" ] cond
//	timeexpr  = "[" [ tpoint ] [ ":" [ tpoint ] [ ":" [ duration ] [ ":" rollup ] ] ] "]"
//	tpoint    = duration | integer | date            (* before now; epoch s if < 1e11, else ms *)
//	date      = YYYY-MM-DD [ " " hh:mm:ss ]          (* UTC *)
//	name      = ident | "`" any "`"
//	regex     = "re`" any "`" | "re'" … "'" | "re\"" … "\"" | "re" "(" string ")"
//	string    = "'" … "'" | "\"" … "\"" | "b64'" base64 "'"
//
// Errors are *Error, with a code of the /v1/query/raw API and the byte range of the query
// they refer to. The checker refuses reserved label names (tenancy.IsReserved) anywhere.
package parser
