package dql_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/dqltest"
	"vigil/storage/lib/dql/parser"
	"vigil/storage/lib/dql/parser/parsertest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden with the current results")

// corpus returns the queries of testdata/queries.dql.
func corpus(t testing.TB) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/queries.dql")
	if err != nil {
		t.Fatal(err)
	}
	var qs []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "--") {
			continue
		}
		qs = append(qs, line)
	}
	return qs
}

func render(t *testing.T, q string, opts dql.Options) (string, *dqltest.Source) {
	t.Helper()
	src := dqltest.ExampleE()
	opts.Now = now
	res, err := dql.Query(context.Background(), src, q, opts)
	if err != nil {
		e, ok := parser.AsError(err)
		if !ok {
			t.Fatalf("%s: error %T is not *parser.Error: %s", q, err, err)
		}
		return "error " + e.Code + ": " + e.Error(), src
	}
	b, err := json.Marshal(res.Series)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), src
}

// TestGolden evaluates the corpus on dataset E and compares with testdata/queries.golden.
// Every query also runs with push-down disabled, and both paths must agree exactly.
func TestGolden(t *testing.T) {
	var out strings.Builder
	pushed := 0
	for _, q := range corpus(t) {
		got, src := render(t, q, dql.Options{})
		engine, _ := render(t, q, dql.Options{EngineOnly: true})
		if got != engine {
			t.Errorf("%s: push-down and engine-side results differ:\npush-down %s\nengine    %s", q, got, engine)
		}
		if src.Calls["QueryRange"] > 0 {
			pushed++
		}
		out.WriteString(q + "\n=> " + got + "\n\n")
	}
	t.Logf("%d corpus queries ran with push-down", pushed)
	const path = "testdata/queries.golden"
	if *update {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s (run with -update to create it)", err)
	}
	if out.String() != string(want) {
		gotL, wantL := strings.Split(out.String(), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gotL) && i < len(wantL); i++ {
			if gotL[i] != wantL[i] {
				t.Fatalf("%s differs at line %d:\ngot  %s\nwant %s\n(run with -update after checking the change)", path, i+1, gotL[i], wantL[i])
			}
		}
		t.Fatalf("%s differs in length (got %d lines, want %d)", path, len(gotL), len(wantL))
	}
}

// TestRoundTripExamples prints and re-parses every example of DQL.md and of the corpus.
func TestRoundTripExamples(t *testing.T) {
	qs := corpus(t)
	for _, ex := range specExamples {
		qs = append(qs, ex.q)
	}
	n := 0
	for _, q := range qs {
		if _, err := parser.Parse(q); err != nil {
			continue // the error cases
		}
		parsertest.RoundTrip(t, q)
		n++
	}
	if n < 100 {
		t.Fatalf("only %d queries round-tripped; the corpus shrank?", n)
	}
}
