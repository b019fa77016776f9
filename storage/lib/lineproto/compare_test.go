package lineproto

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// referenceCorpus holds well-formed and broken batches that exercise every branch of the
// parser: escapes, quoting, field types, duplicate names, comments, CRLF, bad timestamps.
var referenceCorpus = []string{
	"",
	"\n\n",
	"# comment\n\ncpu f=1 1\r\n  mem g=2 2\n",
	"cpu,host=a,dc=x usage_user=1.5,usage_idle=-2e2 1700000000000000000",
	"m i=3i,u=4u,b=t,B=FALSE,c=True,d=f,e=false,g=TRUE",
	`m s="hello, world",v=1`,
	`m s="esc \" quote" 5`,
	`my\ meas,tag\,k=v\=1\ 2 f\ k=1`,
	`m\x,t=a\b f=1`,
	`m\\,t\\=a\\ f=1`,
	`m\,x\ y,t\=k=v\,w f\=g=1`,
	"m f=1   123",
	"m f=-1,g=+1,h=.5,i=5.,j=1e-3,k=1E+3",
	"m f=1,g=2,f=3",
	`m f=1,f="text"`,
	`m f="text",f=1`,
	"cpu",
	"cpu ",
	",host=a f=1",
	"cpu,host f=1",
	"cpu,host= f=1",
	"cpu,=a f=1",
	"cpu,a=1,a=2 f=1",
	"cpu,a=1=2 f=1",
	"cpu f",
	"cpu =1",
	"cpu f=",
	"cpu f=1,",
	"cpu f=abc",
	"cpu f=1x",
	"cpu f=1.2.3",
	"cpu f=1.5i",
	"cpu f=-1u",
	"cpu f=99999999999999999999i",
	"cpu f=inf,g=nan",
	"cpu f=0x10",
	"cpu f=1_000",
	"cpu f=1e999",
	`cpu f="abc`,
	`cpu f="abc"x`,
	`cpu f="abc\"`,
	"cpu f=1 12.5",
	"cpu f=1 1 2",
	"cpu f=1 +5",
	"cpu f=1 -5",
	"cpu f=1 0005",
	"cpu f=1 9223372036854775807",
	"cpu f=1 9223372036854775808",
	"cpu f=1 123456789012345678",
	"cpu f=1 1234567890123456789",
	"cpu\tx f=1",
	"\t cpu f=1",
	"cpu f=1\r",
	"cpu f=1\r\r",
	`cpu\`,
	`cpu\ f=1`,
	`cpu f\=1`,
	`cpu,t=v\ f=1`,
	"cpu f=1\ncpu f=2\ncpu f=oops\ncpu f=3",
	"cpu,host=a,dc=b u=1,s=2,i=3 1\ncpu,dc=b,host=a u=4 2\n#x\nmem,host=a used=5i 3",
	wideLine(30, "f3=33,f27=\"s\",f5=\"t\",f5=55,f29=1,f0=0"),
	wideLine(24, "f23=1,f0=2") + "\n" + wideLine(40, "f1=\"x\"") + "\n" + wideLine(3, "f1=9"),
}

// wideLine returns a line with fields f0..f(n-1), then extra (names seen again past the point
// where the parser switches from its Bloom filter to a set).
func wideLine(n int, extra string) string {
	var b strings.Builder
	b.WriteString("wide,host=a ")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "f%d=%d,", i, i)
	}
	b.WriteString(extra)
	return b.String()
}

func sameParse(t *testing.T, s string) {
	t.Helper()
	got, gotErr := Parse(s)
	want, wantErr := refParse(s)
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Fatalf("Parse(%q): error %v; the reference parser says %v", s, gotErr, wantErr)
	}
	if gotErr != nil {
		return
	}
	if len(got) != len(want) {
		t.Fatalf("Parse(%q): %d points; the reference parser has %d", s, len(got), len(want))
	}
	for i := range got {
		if !samePoint(got[i], want[i]) {
			t.Fatalf("Parse(%q): point %d\ngot  %+v\nwant %+v", s, i, got[i], want[i])
		}
	}
}

// samePoint compares points, with nil and empty slices alike and NaN-free values exactly.
func samePoint(a, b Point) bool {
	if len(a.Tags) == 0 && len(b.Tags) == 0 {
		a.Tags, b.Tags = nil, nil
	}
	if len(a.Fields) == 0 && len(b.Fields) == 0 {
		a.Fields, b.Fields = nil, nil
	}
	return reflect.DeepEqual(a, b)
}

// TestParseMatchesReference checks that the parser gives the points or the error of the
// reference parser on every batch of the corpus, and on each of its lines alone.
func TestParseMatchesReference(t *testing.T) {
	for _, s := range referenceCorpus {
		sameParse(t, s)
		for _, line := range strings.Split(s, "\n") {
			sameParse(t, line)
			got, gotErr := ParseLine(line)
			want, wantErr := refParseLine(line)
			if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() || gotErr == nil && !samePoint(got, want) {
				t.Fatalf("ParseLine(%q) = %+v, %v; the reference parser says %+v, %v", line, got, gotErr, want, wantErr)
			}
		}
	}
}

// FuzzParseMatchesReference checks that the parser and the reference parser agree on any
// input: the same points, or the same error.
//
//	go test -run=^$ -fuzz=FuzzParseMatchesReference -fuzztime=20s ./lib/lineproto/
func FuzzParseMatchesReference(f *testing.F) {
	for _, s := range referenceCorpus {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sameParse(t, s)
	})
}

// TestEachReusesPoint checks that Each hands out one point per line and that what fn copies
// stays valid after the next line was parsed.
func TestEachReusesPoint(t *testing.T) {
	var kept []string
	var tags []int
	err := Each("a,t=1 f=1\nb,t=2,u=3 g=2,h=3\n", func(p *Point) error {
		kept = append(kept, p.Measurement+":"+p.Tags[0].Value)
		tags = append(tags, len(p.Tags))
		return nil
	})
	if err != nil || strings.Join(kept, ",") != "a:1,b:2" || !reflect.DeepEqual(tags, []int{1, 2}) {
		t.Fatalf("got %v %v, %v", kept, tags, err)
	}
	stop := &LineError{Line: 99, Msg: "stop"}
	if err := Each("a f=1\nb f=2", func(*Point) error { return stop }); err != stop { //nolint:errorlint // fn's very error, not one wrapping it
		t.Fatalf("Each returned %v; want fn's error as is", err)
	}
}
