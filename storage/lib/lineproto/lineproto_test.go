package lineproto

import (
	"reflect"
	"testing"
)

func TestParseLineSuccess(t *testing.T) {
	f := func(line string, want Point) {
		t.Helper()
		got, err := ParseLine(line)
		if err != nil {
			t.Fatalf("unexpected error for %q: %s", line, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("unexpected point for %q\ngot  %+v\nwant %+v", line, got, want)
		}
	}
	f("cpu usage_user=1", Point{Measurement: "cpu", Fields: []Field{{"usage_user", 1}}})
	f("cpu,host=a,dc=x usage_user=1.5,usage_idle=-2e2 1700000000000000000", Point{
		Measurement: "cpu",
		Tags:        []Tag{{"host", "a"}, {"dc", "x"}},
		Fields:      []Field{{"usage_user", 1.5}, {"usage_idle", -200}},
		Timestamp:   1700000000000000000, HasTimestamp: true,
	})
	f("m i=3i,u=4u,b=t,B=FALSE", Point{Measurement: "m", Fields: []Field{{"i", 3}, {"u", 4}, {"b", 1}, {"B", 0}}})
	f(`m s="hello, world",v=1`, Point{Measurement: "m", Fields: []Field{{"v", 1}}, StringFields: 1})
	f(`m s="esc \" quote" 5`, Point{Measurement: "m", StringFields: 1, Timestamp: 5, HasTimestamp: true})
	f(`my\ meas,tag\,k=v\=1\ 2 f\ k=1`, Point{Measurement: "my meas", Tags: []Tag{{"tag,k", "v=1 2"}}, Fields: []Field{{"f k", 1}}})
	f(`m\x,t=a\b f=1`, Point{Measurement: `m\x`, Tags: []Tag{{"t", `a\b`}}, Fields: []Field{{"f", 1}}})
	f("m f=1   123", Point{Measurement: "m", Fields: []Field{{"f", 1}}, Timestamp: 123, HasTimestamp: true})
	f("m f=-1", Point{Measurement: "m", Fields: []Field{{"f", -1}}})
	// a field named twice keeps its last value, as InfluxDB does
	f("m f=1,g=2,f=3", Point{Measurement: "m", Fields: []Field{{"g", 2}, {"f", 3}}})
	f(`m f=1,f="text"`, Point{Measurement: "m", Fields: []Field{}, StringFields: 1})
}

func TestParseLineFailure(t *testing.T) {
	f := func(line, wantErr string) {
		t.Helper()
		_, err := ParseLine(line)
		if err == nil {
			t.Fatalf("expected error for %q", line)
		}
		if err.Error() != wantErr {
			t.Fatalf("unexpected error for %q\ngot  %s\nwant %s", line, err, wantErr)
		}
	}
	f("cpu", `missing fields after measurement "cpu"`)
	f("cpu ", `missing fields after measurement "cpu"`)
	f(",host=a f=1", "missing measurement")
	f("cpu,host f=1", `tag "host" has no value (want key=value)`)
	f("cpu,host= f=1", `tag "host" has an empty value`)
	f("cpu,=a f=1", "empty tag key")
	f("cpu,a=1,a=2 f=1", `duplicate tag "a"`)
	f("cpu f", `field "f" has no value (want key=value)`)
	f("cpu =1", "empty field key")
	f("cpu f=", `field "f": empty value`)
	f("cpu f=abc", `field "f": invalid number "abc" (strings must be double-quoted)`)
	f("cpu f=1x", `field "f": invalid number "1x" (strings must be double-quoted)`)
	f("cpu f=1.2.3", `field "f": invalid number "1.2.3"`)
	f("cpu f=1.5i", `field "f": invalid integer "1.5i"`)
	f("cpu f=-1u", `field "f": invalid unsigned integer "-1u"`)
	f(`cpu f="abc`, `field "f": missing closing quote in string value`)
	f(`cpu f="abc"x`, `field "f": unexpected "x" after closing quote`)
	f("cpu f=1 12.5", `invalid timestamp "12.5": want an integer`)
	f("cpu f=1 1 2", `invalid timestamp "1 2": want an integer`)
}

func TestParseBatch(t *testing.T) {
	points, err := Parse("# comment\n\ncpu f=1 1\r\n  mem g=2 2\n")
	if err != nil {
		t.Fatalf("unexpected error: %s", err)
	}
	if len(points) != 2 || points[0].Line != 3 || points[1].Line != 4 || points[1].Measurement != "mem" {
		t.Fatalf("unexpected points: %+v", points)
	}

	f := func(batch, wantErr string) {
		t.Helper()
		_, err := Parse(batch)
		if err == nil || err.Error() != wantErr {
			t.Fatalf("unexpected error for %q\ngot  %v\nwant %s", batch, err, wantErr)
		}
	}
	f("cpu f=1\ncpu f=2\ncpu f=oops\ncpu f=3", `line 3: field "f": invalid number "oops" (strings must be double-quoted)`)
	f("cpu\n", `line 1: missing fields after measurement "cpu"`)
}

func TestTimestampToMillis(t *testing.T) {
	f := func(ts int64, precision string, want int64) {
		t.Helper()
		got, err := TimestampToMillis(ts, precision)
		if err != nil {
			t.Fatalf("unexpected error: %s", err)
		}
		if got != want {
			t.Fatalf("TimestampToMillis(%d, %q) = %d; want %d", ts, precision, got, want)
		}
	}
	f(1700000000123456789, "", 1700000000123)
	f(1700000000123456789, "ns", 1700000000123)
	f(1700000000123456, "us", 1700000000123)
	f(1700000000123, "ms", 1700000000123)
	f(1700000000, "s", 1700000000000)
	if _, err := TimestampToMillis(1, "h"); err == nil || err.Error() != `unsupported precision "h": want ns, us, ms or s` {
		t.Fatalf("unexpected error: %v", err)
	}
}
