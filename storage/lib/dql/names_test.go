package dql_test

import (
	"context"
	"encoding/json"
	"maps"
	"testing"
	"time"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/dqltest"
	"vigil/storage/lib/dql/parser"
)

// daySource is the in-memory source with VictoriaMetrics' label-search granularity (whole
// UTC days, the whole retention past 40 days) and, when cache is set, a name cache.
type daySource struct {
	*dqltest.Source
	cache *dql.NameCache
}

var _ dql.NameCacheSource = (*daySource)(nil)

const day = 24 * 3600 * 1000

func days(start, end int64) (int64, int64) {
	if end/day-start/day > 40 {
		return 0, 1 << 62
	}
	return start - start%day, end - end%day + day - 1
}

func (s *daySource) NameCache() *dql.NameCache { return s.cache }

func (s *daySource) LabelNames(ctx context.Context, filterss [][]metricsql.LabelFilter, start, end int64, limit int) ([]string, error) {
	start, end = days(start, end)
	return s.Source.LabelNames(ctx, filterss, start, end, limit)
}

func (s *daySource) LabelValues(ctx context.Context, name string, filterss [][]metricsql.LabelFilter, start, end int64, limit int) ([]string, error) {
	start, end = days(start, end)
	return s.Source.LabelValues(ctx, name, filterss, start, end, limit)
}

func (s *daySource) AnySeries(_ context.Context, filterss [][]metricsql.LabelFilter, start, end int64) (bool, error) {
	s.Calls["AnySeries"]++
	start, end = days(start, end)
	for _, ser := range s.Series {
		if !dqltest.Matches(filterss, ser.Labels) {
			continue
		}
		for _, t := range ser.Timestamps {
			if t >= start && t <= end {
				return true, nil
			}
		}
	}
	return false, nil
}

func answer(t *testing.T, src dql.Source, q string) string {
	t.Helper()
	res, err := dql.Query(context.Background(), src, q, dql.Options{Now: now})
	if err != nil {
		if _, ok := parser.AsError(err); !ok {
			t.Fatalf("%s: error %T is not *parser.Error: %s", q, err, err)
		}
		return "error " + err.Error()
	}
	b, err := json.Marshal(res.Series)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestNameCacheSameAnswers runs the corpus with the name cache, cold and warm, and compares
// every answer with the one obtained by listing every name of the measurement.
func TestNameCacheSameAnswers(t *testing.T) {
	listing := &daySource{Source: dqltest.ExampleE()}
	cached := &daySource{Source: dqltest.ExampleE(), cache: dql.NewNameCache(time.Hour)}
	for _, q := range corpus(t) {
		want := answer(t, listing, q)
		for _, pass := range []string{"cold", "warm"} {
			if got := answer(t, cached, q); got != want {
				t.Errorf("%s (%s cache):\ngot  %s\nwant %s", q, pass, got, want)
			}
		}
		cached.cache.Reset()
	}
	// The same again with one cache for the whole corpus, as a workspace's queries share it.
	for _, q := range corpus(t) {
		if got, want := answer(t, cached, q), answer(t, listing, q); got != want {
			t.Errorf("%s (shared cache):\ngot  %s\nwant %s", q, got, want)
		}
	}
	if cached.Calls["AnySeries"] == 0 {
		t.Fatalf("the cached source was never asked about a name")
	}
}

// TestNameCacheTTL checks that a query within the TTL asks the storage nothing about names,
// that a field added later is found once the TTL has passed, and that a tag stays a tag.
func TestNameCacheTTL(t *testing.T) {
	const ttl = 50 * time.Millisecond
	src := &daySource{Source: dqltest.ExampleE(), cache: dql.NewNameCache(ttl)}
	q := "M::cpu:(max(steal)) [1699999200000:1699999380000] BY host"
	if got := answer(t, src, q); got != "[]" {
		t.Fatalf("before steal exists: got %s", got)
	}
	before := maps.Clone(src.Calls)
	src.Series = append(src.Series, dql.Series{
		Labels:     map[string]string{"__measurement__": "cpu", "__field__": "steal", "__name__": "cpu:steal", "host": "a"},
		Timestamps: []int64{dqltest.T0}, Values: []float64{3},
	})
	// Within the TTL the classification is reused: no label search, no existence search.
	if got := answer(t, src, q); got != "[]" {
		t.Fatalf("within the TTL: got %s, want the cached answer []", got)
	}
	for _, m := range []string{"LabelNames", "LabelValues", "AnySeries"} {
		if src.Calls[m] != before[m] {
			t.Fatalf("within the TTL the query called %s %d times", m, src.Calls[m]-before[m])
		}
	}
	time.Sleep(ttl + 10*time.Millisecond)
	want := `[{"name":"cpu","tags":{"host":"a"},"columns":["time","max(steal)"],"values":[[1699999200000,3]]}]`
	if got := answer(t, src, q); got != want {
		t.Fatalf("after the TTL:\ngot  %s\nwant %s", got, want)
	}
	// host was found a tag: past the TTL it is not looked up again, only steal is.
	time.Sleep(ttl + 10*time.Millisecond)
	before = maps.Clone(src.Calls)
	answer(t, src, q)
	if n := src.Calls["AnySeries"] - before["AnySeries"]; n != 1 {
		t.Fatalf("past the TTL the query made %d existence searches; want 1 (is steal also a tag?)", n)
	}
	if src.Calls["LabelNames"] != before["LabelNames"] || src.Calls["LabelValues"] != before["LabelValues"] {
		t.Fatalf("a query naming its columns listed the measurement's names")
	}
}

// TestNameCacheAllColumns checks that a query without targets lists every name, and that
// the listing too is refreshed after the TTL.
func TestNameCacheAllColumns(t *testing.T) {
	const ttl = 50 * time.Millisecond
	src := &daySource{Source: dqltest.ExampleE(), cache: dql.NewNameCache(ttl)}
	q := "M::net [1699999200000:1699999230000]"
	want := `[{"name":"net","columns":["time","host","rx"],"values":[[1699999200000,"a",0]]}]`
	if got := answer(t, src, q); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	src.Series = append(src.Series, dql.Series{
		Labels:     map[string]string{"__measurement__": "net", "__field__": "tx", "__name__": "net:tx", "host": "a", "iface": "eth0"},
		Timestamps: []int64{dqltest.T0}, Values: []float64{5},
	})
	if got := answer(t, src, q); got != want {
		t.Fatalf("within the TTL: got %s, want the cached columns", got)
	}
	time.Sleep(ttl + 10*time.Millisecond)
	want = `[{"name":"net","columns":["time","host","iface","rx","tx"],"values":[[1699999200000,"a",null,0,null],[1699999200000,"a","eth0",null,5]]}]`
	if got := answer(t, src, q); got != want {
		t.Fatalf("after the TTL:\ngot  %s\nwant %s", got, want)
	}
}
