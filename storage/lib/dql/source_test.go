package dql_test

import (
	"math/rand"
	"reflect"
	"testing"

	"vigil/storage/lib/dql"
)

func TestSortSeriesOrdersByLabelSet(t *testing.T) {
	s := func(kv ...string) dql.Series {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return dql.Series{Labels: m, Timestamps: []int64{int64(len(kv))}}
	}
	want := []dql.Series{
		s("__field__", "idle", "host", "a"),
		s("__field__", "idle", "host", "a", "region", "eu"), // a set sorts after its prefix
		s("__field__", "idle", "host", "b"),
		s("__field__", "idle", "host", "b-1"),
		s("__field__", "idle", "host", "b1"), // 0x00 separators: "b" < "b-1" < "b1"
		s("__field__", "user", "cpu", "0"),
		s("__field__", "user", "host", "a"), // label names compare before values
		s("host", "a"),
	}
	for seed := int64(0); seed < 20; seed++ {
		got := append([]dql.Series(nil), want...)
		rand.New(rand.NewSource(seed)).Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
		dql.SortSeries(got)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: got %v, want %v", seed, labelsOf(got), labelsOf(want))
		}
	}
	dql.SortSeries(nil) // no series: nothing to do, no panic
}

func labelsOf(series []dql.Series) []map[string]string {
	out := make([]map[string]string, len(series))
	for i := range series {
		out[i] = series[i].Labels
	}
	return out
}
