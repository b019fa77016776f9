package dql_test

import (
	"context"
	"testing"

	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/dqltest"
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
		st, err := dql.Parse(q)
		if err != nil {
			if _, ok := dql.AsError(err); !ok {
				t.Fatalf("Parse(%q): error %T is not *dql.Error", q, err)
			}
			return
		}
		printed := st.String()
		st2, err := dql.Parse(printed)
		if err != nil {
			t.Fatalf("Parse(%q) printed as %q which fails: %s", q, printed, err)
		}
		if a, b := dql.Dump(st), dql.Dump(st2); a != b {
			t.Fatalf("%q printed as %q parses to a different tree:\n%s\n%s", q, printed, a, b)
		}
		if again := st2.String(); again != printed {
			t.Fatalf("printing is not stable: %q -> %q -> %q", q, printed, again)
		}
		if err := dql.Check(st, q); err != nil {
			if _, ok := dql.AsError(err); !ok {
				t.Fatalf("Check(%q): error %T is not *dql.Error", q, err)
			}
			return
		}
		_, err = dql.Query(context.Background(), src, q, dql.Options{Now: now})
		if err != nil {
			if _, ok := dql.AsError(err); !ok {
				t.Fatalf("Query(%q): error %T is not *dql.Error", q, err)
			}
		}
	})
}
