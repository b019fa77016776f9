package promapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"vigil/storage/lib/tenancy"
)

func TestStripQueryResponse(t *testing.T) {
	f := func(in, want string, wantPoints int) {
		t.Helper()
		got, points, err := StripQueryResponse([]byte(in)) // rewrites its argument
		if err != nil {
			t.Fatalf("unexpected error for %s: %s", in, err)
		}
		if string(got) != want || points != wantPoints {
			t.Fatalf("unexpected output\ngot  %s, %d points\nwant %s, %d points", got, points, want, wantPoints)
		}
	}
	// the tenant label goes wherever it stands; everything else keeps its order and bytes
	f(`{"status":"success","data":{"resultType":"vector","result":[{"metric":{"__name__":"cpu:u","host":"a","vigil_workspace":"ws1"},"value":[1700000000.123,"1.5"]}]},"stats":{"seriesFetched":"1"}}`,
		`{"status":"success","data":{"resultType":"vector","result":[{"metric":{"__name__":"cpu:u","host":"a"},"value":[1700000000.123,"1.5"]}]},"stats":{"seriesFetched":"1"}}`, 1)
	f(`{"status":"success","data":{"resultType":"vector","result":[{"metric":{"a":"x","vigil_workspace":"ws1","z":"q\"\\"},"value":[1,"1"]}]}}`,
		`{"status":"success","data":{"resultType":"vector","result":[{"metric":{"a":"x","z":"q\"\\"},"value":[1,"1"]}]}}`, 1)
	f(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"vigil_workspace":"ws1"},"values":[[1,"1"],[2,"NaN"]]}]}}`,
		`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,"1"],[2,"NaN"]]}]}}`, 2)
	// a label value that reads like the tenant label is a value, and stays
	f(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":"1","b":"\"vigil_workspace\":\"ws1\""},"values":[[1,"1"]]},{"metric":{"a":"2"},"values":[[1,"1"],[2,"+Inf"],[3,"2e-3"]]},{"metric":{"a":"3"},"values":[]}]}}`,
		`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":"1","b":"\"vigil_workspace\":\"ws1\""},"values":[[1,"1"]]},{"metric":{"a":"2"},"values":[[1,"1"],[2,"+Inf"],[3,"2e-3"]]},{"metric":{"a":"3"},"values":[]}]}}`, 4)
	// a point is an array whatever it holds (an escape, a bracket in a string, an array, no string)
	f(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"vigil_workspace":"ws1","a":"1"},"values":[[1,"1"],[2,"a\\\"]"],[3,"3"],[[4],"4"],[5,6],[ 7 , "7" ]]}]}}`,
		`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":"1"},"values":[[1,"1"],[2,"a\\\"]"],[3,"3"],[[4],"4"],[5,6],[ 7 , "7" ]]}]}}`, 6)
	f(`{"status":"success","data":{"resultType":"vector","result":[{"metric":{"vigil_workspace":"ws1"},"value":[1,"1"]},{"metric":{},"value":[2,"\u0032"]}]}}`,
		`{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"1"]},{"metric":{},"value":[2,"\u0032"]}]}}`, 2)
	// Scalars and strings carry no labels and pass through untouched.
	f(`{"status":"success","data":{"resultType":"scalar","result":[1,"2"]}}`, `{"status":"success","data":{"resultType":"scalar","result":[1,"2"]}}`, 1)
	f(`{"status":"success","data":{"resultType":"vector","result":[]}}`, `{"status":"success","data":{"resultType":"vector","result":[]}}`, 0)
	// an error answer has no data, and passes through
	f(`{"status":"error","errorType":"422","error":"cannot parse [x]"}`, `{"status":"error","errorType":"422","error":"cannot parse [x]"}`, 0)
	// the tenant label goes even where no answer would hold it
	f(`{"":{"":[{"":{"vigil_workspace":""}}]}}`, `{"":{"":[{"":{}}]}}`, 0)
	f(`{"status":"success","data":{"resultType":"scalar","result":[1,{"vigil_workspace":"ws1"}]}}`, `{"status":"success","data":{"resultType":"scalar","result":[1,{}]}}`, 1)
	// pretty-printed JSON reads the same
	f("{\"status\": \"success\", \"data\": {\"resultType\": \"vector\", \"result\": [{\"metric\": {\"a\": \"x\" , \"vigil_workspace\" : \"ws1\"\n}, \"value\": [1, \"1\"]}]}}",
		"{\"status\": \"success\", \"data\": {\"resultType\": \"vector\", \"result\": [{\"metric\": {\"a\": \"x\" \n}, \"value\": [1, \"1\"]}]}}", 1)
	for _, bad := range []string{`{"data":{"resultType":"matrix","result":{}}}`, `{"data":{"result":[],"resultType":"matrix"}}`,
		`{"data":{"resultType":"matrix","result":[}}`, `{"data":{"resultType":"matrix","result":["a]}}`, `{"data":{"resultType":"vector"}`, `{"data":{"result":[{"metric":{"vigil_workspace":"x"}}],"resultType":"vector"}}`,
		`{"data":{"resultType":"vector","result":[{"metric":{"vigil_workspace":1}}]}}`} {
		if _, _, err := StripQueryResponse([]byte(bad)); err == nil {
			t.Fatalf("expected an error for %s", bad)
		}
	}
	if _, _, err := StripQueryResponse([]byte(`{"data":`)); err == nil {
		t.Fatalf("expected an error for truncated JSON")
	}
}

// stripReference is what StripQueryResponse must return, read with a JSON parser: the
// answer as values, without the tenant label, and its points.
func stripReference(t *testing.T, body []byte) (any, int) {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var top map[string]any
	if err := d.Decode(&top); err != nil {
		t.Fatalf("reference cannot parse %s: %s", body, err)
	}
	points := 0
	for _, series := range top["data"].(map[string]any)["result"].([]any) {
		s := series.(map[string]any)
		delete(s["metric"].(map[string]any), tenancy.Label)
		if values, ok := s["values"]; ok {
			points += len(values.([]any))
		} else {
			points++
		}
	}
	return top, points
}

// answer writes a random query answer the way VictoriaMetrics lays it out, with label names
// and values that hold the characters JSON escapes, brackets and the tenant label's text.
func answer(r *rand.Rand, matrix bool) []byte {
	pieces := []string{"a", "vigil_workspace", `\"`, `\\`, "[", "]", "{", "}", ",", ":", `\u00e9`, "values", "result"}
	word := func() string {
		var b strings.Builder
		for range r.Intn(4) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		return b.String()
	}
	var b strings.Builder
	kind := "vector"
	if matrix {
		kind = "matrix"
	}
	fmt.Fprintf(&b, `{"status":"success","isPartial":false,"data":{"resultType":%q,"result":[`, kind)
	for i := range r.Intn(5) {
		if i > 0 {
			b.WriteByte(',')
		}
		labels := []string{}
		for j := range r.Intn(4) {
			labels = append(labels, fmt.Sprintf(`"l%d%s":"%s"`, j, word(), word()))
		}
		if r.Intn(4) > 0 {
			at := r.Intn(len(labels) + 1)
			labels = append(labels[:at], append([]string{`"vigil_workspace":"ws-1"`}, labels[at:]...)...)
		}
		fmt.Fprintf(&b, `{"metric":{%s},`, strings.Join(labels, ","))
		if matrix {
			b.WriteString(`"values":[`)
			for k := range r.Intn(4) {
				if k > 0 {
					b.WriteByte(',')
				}
				if r.Intn(8) == 0 {
					fmt.Fprintf(&b, `[%d,"%s"]`, 1700000000+k, word()) // escapes and brackets in the value
				} else {
					fmt.Fprintf(&b, `[%d,"%d"]`, 1700000000+k, k)
				}
			}
			b.WriteString(`]}`)
		} else {
			b.WriteString(`"value":[1700000000.5,"NaN"]}`)
		}
	}
	b.WriteString(`]},"stats":{"seriesFetched":"3","executionTimeMsec":1}}`)
	return []byte(b.String())
}

func TestStripQueryResponseAgreesWithAParser(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := range 5000 {
		body := answer(r, i%2 == 0)
		want, wantPoints := stripReference(t, body)
		got, points, err := StripQueryResponse(bytes.Clone(body))
		if err != nil {
			t.Fatalf("error for %s: %s", body, err)
		}
		if read, _ := stripReference(t, got); !reflect.DeepEqual(read, want) || points != wantPoints {
			t.Fatalf("for %s\ngot  %s, %d points\nwant %v, %d points", body, got, points, want, wantPoints)
		}
	}
}

// Whatever the bytes, the scanner never panics, and from valid JSON it writes valid JSON
// with no more points than the answer has arrays (a scalar is one).
func FuzzStripQueryResponse(f *testing.F) {
	r := rand.New(rand.NewSource(2))
	for i := range 20 {
		f.Add(answer(r, i%2 == 0))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got, points, err := StripQueryResponse(bytes.Clone(body))
		if err != nil || !json.Valid(body) {
			return
		}
		if !json.Valid(got) || points < 0 || points > bytes.Count(body, []byte("["))+1 {
			t.Fatalf("for %s got %s, %d points", body, got, points)
		}
	})
}

// A point-queries answer (bench scenario 7): 1,000 series of 1,152 points each, ~30 MB.
func BenchmarkStripQueryResponse(b *testing.B) {
	body := benchBody()
	b.SetBytes(int64(len(body)))
	b.ResetTimer()
	work := make([]byte, len(body))
	for range b.N {
		copy(work, body) // the answer is rewritten in place
		if _, points, err := StripQueryResponse(work); err != nil || points != 1000*1152 {
			b.Fatalf("points %d, err %v", points, err)
		}
	}
}

func benchBody() []byte {
	var sb strings.Builder
	sb.WriteString(`{"status":"success","isPartial":false,"data":{"resultType":"matrix","result":[`)
	for i := range 1000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"metric":{"__name__":"pq:v","host":"host_%d","vigil_workspace":"bench"},"values":[`, i)
		for j := range 1152 {
			if j > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `[%d.%03d,"%d.25"]`, 1700000000+j*300, j%1000, j)
		}
		sb.WriteString(`]}`)
	}
	sb.WriteString(`]},"stats":{"seriesFetched":"1000","executionTimeMsec":12}}`)
	return []byte(sb.String())
}
