// Package dql implements DQL, the query language of Guance Cloud, for metrics (namespace
// M), as specified in /work/shared/DQL.md and restated in this package's README: a lexer,
// a hand-written recursive-descent parser, a checker, a printer whose output parses back to
// the same tree, an engine that evaluates statements over a Source (raw samples), and a
// compiler that pushes exact aggregations down to MetricsQL (compile.go).
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
// Evaluation follows DQL.md §9: select timelines by the tag part of the filter, fetch the
// referenced fields in [start, end), join them by timestamp into rows, drop rows failing the
// filter, run transforms, roll up per bucket, group by the BY tags, project, then fill,
// HAVING, ORDER BY, LIMIT/OFFSET per series and SORDER BY, SLIMIT/SOFFSET across series.
//
// Names are classified once per query: a tag key of the measurement is a tag, a value of
// __field__ is a field; an unknown name compared with a string is treated as an absent tag
// ("") and otherwise as an absent field (null). A Source with a name cache (NameCacheSource,
// the embedded storage) answers from its workspace's NameCache and looks up only the names
// the query references, with one existence search each once the cached answer is older than
// the cache's TTL; other Sources list every tag and field with Source.LabelNames and
// Source.LabelValues.
//
// The Source is already scoped to one workspace; this package never names the tenant label
// and refuses reserved label names (tenancy.IsReserved) anywhere in a query.
//
// The README lists what is implemented and which EXT constructs remain.
package dql
