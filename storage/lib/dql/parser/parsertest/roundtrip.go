// Package parsertest holds the checks of the DQL language that the tests of the parser and
// of the engine share.
package parsertest

import (
	"testing"

	"vigil/storage/lib/dql/parser"
)

// RoundTrip checks that printing q and parsing the result gives the same tree, and that
// printing is stable. It returns the printed form.
func RoundTrip(t testing.TB, q string) string {
	t.Helper()
	st, err := parser.Parse(q)
	if err != nil {
		t.Fatalf("Parse(%q): %s", q, err)
	}
	printed := st.String()
	st2, err := parser.Parse(printed)
	if err != nil {
		t.Fatalf("Parse(%q) (printed from %q): %s", printed, q, err)
	}
	if a, b := parser.Dump(st), parser.Dump(st2); a != b {
		t.Fatalf("round trip of %q through %q changed the tree:\n%s\n%s", q, printed, a, b)
	}
	if again := st2.String(); again != printed {
		t.Fatalf("printing is not stable: %q -> %q -> %q", q, printed, again)
	}
	return printed
}
