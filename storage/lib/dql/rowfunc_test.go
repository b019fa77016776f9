package dql_test

import (
	"context"
	"encoding/json"
	"testing"

	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/dqltest"
)

func TestRoundNeverReturnsNegativeZero(t *testing.T) {
	// host a: user = 1 at t0, so round(user - 1.2) = round(-0.2), which must print as 0, not -0.
	q := "M::cpu:(round(user - 1.2) AS r) {host='a'} [1699999200000:1699999230000]"
	res, err := dql.Query(context.Background(), dqltest.ExampleE(), q, dql.Options{Now: now})
	if err != nil {
		t.Fatalf("%s: %s", q, err)
	}
	got, err := json.Marshal(res.Series)
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"name":"cpu","columns":["time","r"],"values":[[1699999200000,0]]}]`; string(got) != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
}
