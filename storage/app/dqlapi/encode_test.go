package dqlapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"vigil/storage/lib/dql"
	"vigil/storage/lib/dql/dqltest"
)

// reference is the answer as encoding/json writes it; appendResponse must write the same.
func reference(out []content) ([]byte, error) {
	var b bytes.Buffer
	err := json.NewEncoder(&b).Encode(map[string]any{"content": out})
	return b.Bytes(), err
}

func TestAppendResponseMatchesEncodingJSON(t *testing.T) {
	f := func(name string, out []content) {
		t.Helper()
		want, wantErr := reference(out)
		got, err := appendResponse(nil, out)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%s: error %v, encoding/json's %v", name, err, wantErr)
		}
		if err != nil {
			if err.Error() != wantErr.Error() {
				t.Fatalf("%s: error %q, encoding/json's %q", name, err, wantErr)
			}
			return
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s:\ngot  %q\nwant %q", name, got, want)
		}
	}
	one := func(s ...dql.ResultSeries) []content {
		return []content{{Series: s, Cost: "1.234ms", QueryType: "guancedb"}}
	}
	row := func(cells ...any) dql.ResultSeries {
		return dql.ResultSeries{Name: "cpu", Columns: []string{"time", "v"}, Values: [][]any{cells}}
	}

	f("nil content", nil)
	f("no content", []content{})
	f("nil series", []content{{Cost: "1s"}})
	f("empty series", one())
	f("empty result series", one(dql.ResultSeries{}))
	f("every content field", []content{
		{Series: []dql.ResultSeries{}, Cost: "12.5µs", RawQuery: "sum by (host) (sum_over_time({__measurement__=\"cpu\"}[60000ms] offset -59999ms)) start=1 end=2 step=3\nsecond <&>", QueryType: "promql"},
		{Series: []dql.ResultSeries{{Name: "m"}}, Cost: "", RawQuery: "", QueryType: ""},
	})
	f("nil and empty tags, columns, values", one(
		dql.ResultSeries{Name: "a", Tags: map[string]string{}, Columns: []string{}, Values: [][]any{}},
		dql.ResultSeries{Name: "b", Tags: nil, Columns: nil, Values: nil},
		dql.ResultSeries{Name: "c", Values: [][]any{nil, {}, {nil}}},
	))
	f("tags sorted and escaped", one(dql.ResultSeries{Name: "n<a>me", Tags: map[string]string{
		"host": "a", "dc": "east\"1\"", "Z": "<script>&amp;</script>", "é": "ünïcode ✓ 日本", "": "empty key",
		"ctl": "\x00\x01\b\f\n\r\t\x1f\x7f", "sep": "\u2028 \u2029", "bad": "\xff\xfe a \xc3", "back\\slash": "/path/",
	}, Columns: []string{"time", "a\"b", "<c>"}}))
	f("integer and string cells", one(row(int64(1699999200000), "text"), row(int64(-1), ""), row(int64(math.MaxInt64), "\"quoted\" & <b>"), row(int64(math.MinInt64), nil)))
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1.0 / 3, -2.75, 100, 1e20, 1e21, -1e21, 123456789012345678901234567890.0,
		1e-6, 9.99999e-7, 1e-7, -1e-7, 1.5e-10, 1e-100, 5e-324, math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64,
		0.1 + 0.2, 1699999200000, 1699999200000.5, 12345678.9, 1e300, 2.5e-7, 1e-6 - 1e-22, 999999999999999999999.0,
		1 << 53, 1<<53 - 1, -(1<<53 - 1), 1<<53 + 2, 1 << 60, -(1 << 62), 1 << 63, 1e15, 1e16, 1e17, 123456789012345680000, 42, -42}
	for _, x := range floats {
		f(fmt.Sprintf("float %v", x), one(row(int64(0), x)))
	}
	f("NaN", one(row(int64(0), math.NaN())))
	f("+Inf", one(row(int64(0), math.Inf(1))))
	f("-Inf", one(row(int64(0), math.Inf(-1))))
	f("NaN in the second query", []content{{Series: []dql.ResultSeries{row(1.0)}}, {Series: []dql.ResultSeries{row(math.Inf(-1))}}})
	f("other cell types", one(row(true, false, 42, int32(-7), uint8(9), float32(0.1), float32(1e-7), float32(3e38), []any{1.0, "x"}, map[string]any{"b": 1, "a": "<"}, json.Number("12"))))
	f("unsupported cell", one(row(make(chan int))))
	f("float32 NaN", one(row(float32(math.NaN()))))
	f("many series and rows", []content{{Series: bigAnswer(30, 61), Cost: "3ms", QueryType: "guancedb"}, {Series: bigAnswer(2, 5), Cost: "1ms", RawQuery: "x", QueryType: "guancedb"}})
}

// TestHandleQueryRawEncoding compares an answer of the handler, byte for byte, with
// encoding/json's encoding of the same queries' results.
func TestHandleQueryRawEncoding(t *testing.T) {
	src := dqltest.ExampleE()
	body := `{"queries":[{"query":"M::cpu:(avg(user), last(user) AS l) [1699999200000:1699999380000:1m] BY host"},{"query":"M::cpu:(user, host) {host='a'} [1699999200000:1699999380000]"},{"query":"show_measurement()"}],"echo_explain":true}`
	code, got := post(t, src, Limits{}, body)
	if code != 200 {
		t.Fatalf("status %d, body %s", code, got)
	}
	var answer struct{ Content []content }
	if err := json.Unmarshal([]byte(got), &answer); err != nil {
		t.Fatal(err)
	}
	// Numbers decode as float64 and times as float64 too: re-encoding them is exact for
	// these values, so the whole answer must round-trip to the same bytes.
	want, err := reference(answer.Content)
	if err != nil {
		t.Fatal(err)
	}
	if string(bytes.TrimSpace(want)) != got {
		t.Fatalf("answer differs from encoding/json's:\ngot  %s\nwant %s", got, want)
	}
}

// FuzzAppendResponse compares appendResponse with encoding/json on arbitrary strings and
// numbers in every position of the answer.
//
//	go test -run='^$' -fuzz=FuzzAppendResponse -fuzztime=20s ./app/dqlapi/
func FuzzAppendResponse(f *testing.F) {
	f.Add("cpu", "host", "a<b>&c", "x\u2028y", "1ms", "q\n", 1.5, 1e21, int64(1699999200000), uint8(0))
	f.Add("", "", "", "", "", "", math.Copysign(0, -1), 1e-7, int64(-1), uint8(255))
	f.Add("\xff", "\x00", "\"", "\\", "日本", "\t", math.NaN(), math.Inf(1), int64(0), uint8(7))
	f.Fuzz(func(t *testing.T, name, key, val, cell, cost, raw string, x, y float64, n int64, shape uint8) {
		s := dql.ResultSeries{Name: name, Columns: []string{"time", key, val}}
		if shape&1 != 0 {
			s.Tags = map[string]string{key: val, val: cell, "host": name}
		}
		if shape&2 != 0 {
			s.Values = [][]any{{n, x, cell}, {n + 1, y, nil}, {n, nil, val}}
		}
		if shape&4 != 0 {
			s.Values = append(s.Values, nil, []any{}, []any{x * y, -x, float64(n)})
		}
		out := []content{{Series: []dql.ResultSeries{s}, Cost: cost, RawQuery: raw, QueryType: cell}}
		if shape&8 != 0 {
			out = append(out, content{Series: []dql.ResultSeries{{Name: val, Values: [][]any{{y}}}}})
		}
		want, wantErr := reference(out)
		got, err := appendResponse(nil, out)
		if (err != nil) != (wantErr != nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("error %v, encoding/json's %v", err, wantErr)
		}
		if err == nil && !bytes.Equal(got, want) {
			t.Fatalf("got  %q\nwant %q", got, want)
		}
	})
}

// bigAnswer returns n series of rows one-minute rows [time, avg], tagged by host, the shape
// of a dashboard's answer.
func bigAnswer(n, rows int) []dql.ResultSeries {
	out := make([]dql.ResultSeries, n)
	for i := range out {
		s := dql.ResultSeries{Name: "uibench", Tags: map[string]string{"host": fmt.Sprintf("host-%04d", i)}, Columns: []string{"time", "avg(f3)"}}
		for r := 0; r < rows; r++ {
			s.Values = append(s.Values, []any{int64(1699999200000 + r*60000), float64((i*7+r)%100) + 1.0/3})
		}
		out[i] = s
	}
	return out
}

// BenchmarkEncodeAnswer encodes a 1,200-series answer (12 queries of 100 series x 61 rows)
// with encoding/json, as the handler did, and with appendResponse.
func BenchmarkEncodeAnswer(b *testing.B) {
	out := make([]content, 12)
	for i := range out {
		out[i] = content{Series: bigAnswer(100, 61), Cost: "8.5ms", QueryType: "guancedb"}
	}
	// Both write into a buffer already grown to the answer's size, as the handler's pool does.
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		var buf bytes.Buffer
		_ = json.NewEncoder(&buf).Encode(map[string]any{"content": out})
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			buf.Reset()
			if err := json.NewEncoder(&buf).Encode(map[string]any{"content": out}); err != nil {
				b.Fatal(err)
			}
		}
		b.SetBytes(int64(buf.Len()))
	})
	b.Run("appendResponse", func(b *testing.B) {
		b.ReportAllocs()
		buf, _ := appendResponse(nil, out)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			var err error
			if buf, err = appendResponse(buf[:0], out); err != nil {
				b.Fatal(err)
			}
		}
		b.SetBytes(int64(len(buf)))
	})
}
