package dql_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/dqltest"
	"vigil/storage/lib/dql/parser"
)

// TestLongQueries bounds the time of the largest queries (64 KiB): every stage must be
// linear in the query size. They take well under 200 ms on an idle machine; a stage quadratic
// in the 5,000 terms would take tens of seconds, so the bound leaves a loaded 2-core machine
// running the race detector room (a timing ratio against a smaller query was tried: garbage
// collection pauses make it noisier than this bound).
func TestLongQueries(t *testing.T) {
	for _, q := range []string{
		"M::cpu:(count(user)) {" + strings.Repeat("host='a' AND ", 5000) + "host='a'} [1699999200000:1699999380000]",
		"M::cpu:(count(user)) {" + strings.Repeat("(host='a' OR dc='x') AND ", 2500) + "host='a'} [1699999200000:1699999380000]",
		"M::cpu:(count(user)) {" + strings.Repeat("host='a' OR ", 5000) + "host='a'} [1699999200000:1699999380000]",
		"M::cpu:(" + strings.Repeat("user+", 12000) + "user) [1699999200000:1699999380000]",
		"M::cpu:(user) {" + strings.Repeat("user > 1 AND ", 5000) + "user > 1} [1699999200000:1699999380000]",
		"M::cpu:(count(user)) {host IN [" + strings.Repeat("'a',", 10000) + "'b']} [1699999200000:1699999380000]",
		"M::cpu:(count(user)) [1699999200000:1699999380000] BY " + strings.Repeat("host, ", 9000) + "host",
	} {
		if len(q) > parser.MaxQueryLen {
			t.Fatalf("test query is %d bytes", len(q))
		}
		start := time.Now()
		if _, err := dql.Query(context.Background(), dqltest.ExampleE(), q, dql.Options{Now: now}); err != nil {
			t.Fatalf("%.80s…: %s", q, err)
		}
		t.Logf("%d bytes: %s", len(q), time.Since(start))
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("%.80s… (%d bytes) took %s", q, len(q), d)
		}
	}
}
