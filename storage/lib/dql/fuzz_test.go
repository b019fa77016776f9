package dql_test

import (
	"context"
	"testing"

	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/dqltest"
	"vigil/storage/lib/dql/parser"
	"vigil/storage/lib/dql/parser/parsertest"
)

// FuzzParse checks that no input panics the parser, the checker or the evaluator, and that
// printing a parsed statement gives text that parses to the same tree and prints the same.
//
//	go test -run=^$ -fuzz=FuzzParse -fuzztime=20s ./lib/dql/
func FuzzParse(f *testing.F) {
	for _, q := range corpus(f) {
		f.Add(q)
	}
	for _, ex := range specExamples {
		f.Add(ex.q)
	}
	for _, s := range []string{"", "#", "`", "'\\", "re`", "M::", "[::]", "cpu {(", "cpu:(fill(", "1h30", "p99.", "cpu [1h::1m:p99.9]"} {
		f.Add(s)
	}
	src := dqltest.ExampleE()
	f.Fuzz(func(t *testing.T, q string) {
		st, err := parser.Parse(q)
		if err != nil {
			if _, ok := parser.AsError(err); !ok {
				t.Fatalf("Parse(%q): error %T is not *parser.Error", q, err)
			}
			return
		}
		parsertest.RoundTrip(t, q)
		if err := parser.Check(st, q); err != nil {
			if _, ok := parser.AsError(err); !ok {
				t.Fatalf("Check(%q): error %T is not *parser.Error", q, err)
			}
			return
		}
		_, err = dql.Query(context.Background(), src, q, dql.Options{Now: now})
		if err != nil {
			if _, ok := parser.AsError(err); !ok {
				t.Fatalf("Query(%q): error %T is not *parser.Error", q, err)
			}
		}
	})
}
