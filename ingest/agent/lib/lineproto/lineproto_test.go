package lineproto

import (
	"math"
	"testing"
	"time"
)

func TestAppendPoint(t *testing.T) {
	ts := time.Unix(1700000000, 123456789)
	f := func(p Point, prec Precision, want string) {
		t.Helper()
		p.Time = ts
		got := string(AppendPoint(nil, &p, prec))
		if got != want {
			t.Fatalf("unexpected line\ngot:  %q\nwant: %q", got, want)
		}
	}

	f(Point{Measurement: "cpu", Tags: []Tag{{"host", "a"}}, Fields: []Field{F("usage_idle", 99.5)}},
		PrecisionMS, "cpu,host=a usage_idle=99.5 1700000000123\n")
	f(Point{Measurement: "mem", Fields: []Field{I("total", 1024), F("used_percent", 12.25)}},
		PrecisionNS, "mem total=1024i,used_percent=12.25 1700000000123456789\n")
	f(Point{Measurement: "m", Fields: []Field{I("x", 1)}}, PrecisionS, "m x=1i 1700000000\n")
	f(Point{Measurement: "m", Fields: []Field{I("x", 1)}}, PrecisionUS, "m x=1i 1700000000123456\n")

	// Spaces, commas and equals signs are escaped in tag keys, tag values and field keys.
	f(Point{Measurement: "disk", Tags: []Tag{{"path", "/mnt/my disk"}, {"a,b", "c=d"}}, Fields: []Field{F("used percent", 1)}},
		PrecisionS, `disk,path=/mnt/my\ disk,a\,b=c\=d used\ percent=1 1700000000`+"\n")
	// Measurements escape commas and spaces but keep equals signs.
	f(Point{Measurement: "my meas,x=y", Fields: []Field{F("v", 1)}}, PrecisionS, `my\ meas\,x=y v=1 1700000000`+"\n")
	// Newlines never split a line.
	f(Point{Measurement: "m", Tags: []Tag{{"t", "a\nb"}}, Fields: []Field{F("v", 1)}}, PrecisionS, `m,t=a\ b v=1 1700000000`+"\n")
	// A trailing backslash does not escape the separator after it.
	f(Point{Measurement: "m", Tags: []Tag{{"t", `C:\`}}, Fields: []Field{F("v", 1)}}, PrecisionS, `m,t=C:\\ v=1 1700000000`+"\n")
	// Empty tags are omitted (line protocol has no empty tag values).
	f(Point{Measurement: "m", Tags: []Tag{{"t", ""}}, Fields: []Field{F("v", 1)}}, PrecisionS, "m v=1 1700000000\n")
	// NaN and Inf fields are skipped; a point with no fields left produces nothing.
	f(Point{Measurement: "m", Fields: []Field{F("a", math.NaN()), F("b", 2)}}, PrecisionS, "m b=2 1700000000\n")
	f(Point{Measurement: "m", Fields: []Field{F("a", math.Inf(1))}}, PrecisionS, "")
	// Large floats keep full precision.
	f(Point{Measurement: "m", Fields: []Field{F("v", 1e21), F("w", 0.1)}}, PrecisionS, "m v=1e+21,w=0.1 1700000000\n")
	// Unsigned counters above int64 are clamped.
	f(Point{Measurement: "m", Fields: []Field{U("v", math.MaxUint64)}}, PrecisionS, "m v=9223372036854775807i 1700000000\n")
}

func TestParsePrecision(t *testing.T) {
	for _, s := range []string{"ns", "us", "ms", "s"} {
		if p, ok := ParsePrecision(s); !ok || string(p) != s {
			t.Fatalf("ParsePrecision(%q) = %q, %v", s, p, ok)
		}
	}
	for _, s := range []string{"", "n", "h", "MS"} {
		if _, ok := ParsePrecision(s); ok {
			t.Fatalf("ParsePrecision(%q) must fail", s)
		}
	}
}
