// Package lineproto builds InfluxDB line protocol.
//
// A line is `measurement[,tag=value...] field=value[,field=value...] timestamp`.
// Escaping follows https://docs.influxdata.com/influxdb/v1/write_protocols/line_protocol_reference/:
// commas and spaces in measurements; commas, spaces and equals signs in tag keys,
// tag values and field keys. Field values here are numbers only, so no quoting is needed.
package lineproto

import (
	"math"
	"strconv"
	"time"
)

// Tag is one tag of a point.
type Tag struct {
	Key   string
	Value string
}

// Field is one numeric field of a point. Integer fields are written with the `i` suffix,
// as Telegraf does for counters and sizes; float fields carry percentages and rates.
type Field struct {
	Key   string
	Float float64
	Int   int64
	IsInt bool
}

// F returns a float field.
func F(key string, v float64) Field { return Field{Key: key, Float: v} }

// I returns an integer field.
func I(key string, v int64) Field { return Field{Key: key, Int: v, IsInt: true} }

// U returns an integer field from an unsigned counter, clamped to the int64 range.
func U(key string, v uint64) Field {
	if v > math.MaxInt64 {
		v = math.MaxInt64
	}
	return Field{Key: key, Int: int64(v), IsInt: true}
}

// Point is one line: a measurement, its tags, its fields and a timestamp.
type Point struct {
	Measurement string
	Tags        []Tag
	Fields      []Field
	Time        time.Time
}

// Precision is the unit of the timestamps written on each line.
type Precision string

// Supported precisions, as accepted in the `precision` query argument.
const (
	PrecisionNS Precision = "ns"
	PrecisionUS Precision = "us"
	PrecisionMS Precision = "ms"
	PrecisionS  Precision = "s"
)

// ParsePrecision validates s.
func ParsePrecision(s string) (Precision, bool) {
	switch p := Precision(s); p {
	case PrecisionNS, PrecisionUS, PrecisionMS, PrecisionS:
		return p, true
	}
	return "", false
}

// Timestamp converts t to an integer in precision p.
func (p Precision) Timestamp(t time.Time) int64 {
	switch p {
	case PrecisionS:
		return t.Unix()
	case PrecisionMS:
		return t.UnixMilli()
	case PrecisionUS:
		return t.UnixMicro()
	default:
		return t.UnixNano()
	}
}

// AppendPoint appends p as one line (with trailing newline) to dst.
// Fields with NaN or infinite values are skipped, since line protocol cannot carry them;
// a point left without fields is not written at all.
func AppendPoint(dst []byte, p *Point, prec Precision) []byte {
	start := len(dst)
	dst = AppendMeasurement(dst, p.Measurement)
	for _, t := range p.Tags {
		if t.Key == "" || t.Value == "" {
			continue
		}
		dst = append(dst, ',')
		dst = AppendTagPart(dst, t.Key)
		dst = append(dst, '=')
		dst = AppendTagPart(dst, t.Value)
	}
	n := 0
	for _, f := range p.Fields {
		if !f.IsInt && (math.IsNaN(f.Float) || math.IsInf(f.Float, 0)) {
			continue
		}
		if n == 0 {
			dst = append(dst, ' ')
		} else {
			dst = append(dst, ',')
		}
		n++
		dst = AppendTagPart(dst, f.Key)
		dst = append(dst, '=')
		if f.IsInt {
			dst = strconv.AppendInt(dst, f.Int, 10)
			dst = append(dst, 'i')
		} else {
			dst = strconv.AppendFloat(dst, f.Float, 'g', -1, 64)
		}
	}
	if n == 0 {
		return dst[:start]
	}
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, prec.Timestamp(p.Time), 10)
	return append(dst, '\n')
}

// AppendMeasurement appends an escaped measurement name: commas and spaces get a backslash.
func AppendMeasurement(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ',', ' ':
			dst = append(dst, '\\', c)
		case '\n', '\r', '\t':
			dst = append(dst, ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// AppendTagPart appends an escaped tag key, tag value or field key:
// commas, spaces and equals signs get a backslash. Newlines cannot be escaped in
// line protocol and become spaces (escaped), as do tabs and carriage returns.
func AppendTagPart(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ',', ' ', '=':
			dst = append(dst, '\\', c)
		case '\n', '\r', '\t':
			dst = append(dst, '\\', ' ')
		case '\\':
			// A trailing backslash would escape the following separator.
			if i == len(s)-1 {
				dst = append(dst, '\\', '\\')
			} else {
				dst = append(dst, c)
			}
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
