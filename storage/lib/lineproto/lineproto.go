// Package lineproto parses InfluxDB line protocol strictly.
//
// VictoriaMetrics' own parser (lib/protoparser/influx) is built for best-effort ingestion: it
// turns an unparsable field value or a quoted string into 0 and skips bad lines with a log
// message. Vigil validates a whole batch before writing any of it and answers the first bad
// line with its number and the reason, so it needs a parser that reports every error; this
// one follows https://docs.influxdata.com/influxdb/v1/write_protocols/line_protocol_reference/.
//
// Field values: floats, integers (`1i`), unsigned integers (`1u`) and booleans (`t`, `true`,
// `F`, ...; stored as 1 and 0) are numeric samples. String fields (`"text"`) are parsed and
// validated but carry no sample; Point.StringFields counts them.
//
// Each parses a batch in one pass without allocating for lines without escapes: it hands
// out one reused Point whose strings point into the input. Its behaviour is pinned to the
// first, allocating implementation of this package (reference_test.go) by a corpus test and
// a fuzz target.
package lineproto

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Tag is one tag of a point.
type Tag struct {
	Key   string
	Value string
}

// Field is one numeric field of a point.
type Field struct {
	Key   string
	Value float64
}

// Point is one parsed line.
type Point struct {
	// Line is the 1-based line number in the batch.
	Line        int
	Measurement string
	Tags        []Tag
	Fields      []Field
	// StringFields is the number of string fields, which are validated and then ignored.
	StringFields int
	// Timestamp is in the batch's precision; valid only when HasTimestamp is set.
	Timestamp    int64
	HasTimestamp bool
}

// LineError names the line that could not be parsed and why.
type LineError struct {
	Line int
	Msg  string
}

func (e *LineError) Error() string {
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// Parse parses every line of s. It stops at the first bad line and returns a *LineError.
// Empty lines and lines starting with '#' are skipped.
func Parse(s string) ([]Point, error) {
	var points []Point
	err := Each(s, func(p *Point) error {
		q := *p
		q.Tags = append([]Tag(nil), p.Tags...)
		q.Fields = append([]Field(nil), p.Fields...)
		points = append(points, q)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return points, nil
}

// Each parses the lines of s in order and calls fn with every point. The point and its
// slices are reused for the next line, and its strings point into s unless they held
// escapes: fn must copy what it keeps. Each stops at the first bad line with a *LineError,
// or at the first error of fn, which it returns as is.
func Each(s string, fn func(p *Point) error) error {
	var p Point
	var keys fieldKeys
	lineNo := 0
	for len(s) > 0 {
		lineNo++
		n := strings.IndexByte(s, '\n')
		var line string
		if n < 0 {
			line, s = s, ""
		} else {
			line, s = s[:n], s[n+1:]
		}
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		for len(line) > 0 && (line[0] == ' ' || line[0] == '\t') {
			line = line[1:]
		}
		if line == "" || line[0] == '#' {
			continue
		}
		p.Tags, p.Fields = p.Tags[:0], p.Fields[:0]
		p.StringFields, p.Timestamp, p.HasTimestamp = 0, 0, false
		if err := parseLine(line, &p, &keys); err != nil {
			return &LineError{Line: lineNo, Msg: err.Error()}
		}
		p.Line = lineNo
		if err := fn(&p); err != nil {
			return err
		}
	}
	return nil
}

// ParseLine parses a single line without its trailing newline.
func ParseLine(line string) (Point, error) {
	var p Point
	var keys fieldKeys
	err := parseLine(line, &p, &keys)
	return p, err
}

// stopSet marks the bytes that end a token.
type stopSet [256]bool

func newStopSet(stops string) *stopSet {
	var s stopSet
	for i := 0; i < len(stops); i++ {
		s[stops[i]] = true
	}
	return &s
}

var (
	measurementStops = newStopSet(", ")
	keyStops         = newStopSet("=, ")
	valueStops       = newStopSet(", ")
)

// fieldKeys answers "may this field key have appeared earlier on the line" cheaply: a
// 128-bit Bloom filter for the first keys, a set for lines with many fields. A yes is
// checked by dropField; a no is always right.
type fieldKeys struct {
	bloom [2]uint64
	n     int
	set   map[string]struct{}
}

// manyFields is the number of keys past which fieldKeys switches to its set.
const manyFields = 24

func (fk *fieldKeys) reset() {
	fk.bloom = [2]uint64{}
	if fk.n > manyFields {
		clear(fk.set)
	}
	fk.n = 0
}

// add records k and reports whether it may have been added before.
func (fk *fieldKeys) add(k string, fields []Field) bool {
	fk.n++
	if fk.n <= manyFields {
		// A hash of the length and three bytes: cheap, and enough to tell keys apart.
		h := uint32(len(k))*0x9E3779B1 + uint32(k[len(k)-1])*0x85EBCA77 + uint32(k[len(k)/2])*0xC2B2AE3D + uint32(k[(len(k)-1)/3])*0x27D4EB2F
		b0, b1 := uint64(1)<<(h>>26), uint64(1)<<((h>>20)&63)
		seen := fk.bloom[0]&b0 != 0 && fk.bloom[1]&b1 != 0
		fk.bloom[0] |= b0
		fk.bloom[1] |= b1
		return seen
	}
	if fk.n == manyFields+1 {
		// Every earlier key still to be dropped is in fields.
		if fk.set == nil {
			fk.set = make(map[string]struct{})
		}
		for i := range fields {
			fk.set[fields[i].Key] = struct{}{}
		}
	}
	if _, ok := fk.set[k]; ok {
		return true
	}
	fk.set[k] = struct{}{}
	return false
}

// parseLine parses line into p, appending to p.Tags and p.Fields.
func parseLine(line string, p *Point, keys *fieldKeys) error {
	// Measurement: up to an unescaped ',' or ' '.
	m, rest := scanToken(line, measurementStops)
	if m == "" {
		return fmt.Errorf("missing measurement")
	}
	p.Measurement = m
	// Tags.
	for len(rest) > 0 && rest[0] == ',' {
		rest = rest[1:]
		var k, v string
		k, rest = scanToken(rest, keyStops)
		if len(rest) == 0 || rest[0] != '=' {
			return fmt.Errorf("tag %q has no value (want key=value)", k)
		}
		if k == "" {
			return fmt.Errorf("empty tag key")
		}
		rest = rest[1:]
		v, rest = scanToken(rest, keyStops)
		if v == "" {
			return fmt.Errorf("tag %q has an empty value", k)
		}
		if len(rest) > 0 && rest[0] == '=' {
			return fmt.Errorf("tag %q: unescaped '=' in value", k)
		}
		for i := range p.Tags {
			if p.Tags[i].Key == k {
				return fmt.Errorf("duplicate tag %q", k)
			}
		}
		p.Tags = append(p.Tags, Tag{Key: k, Value: v})
	}
	if len(rest) == 0 || rest[0] != ' ' {
		return fmt.Errorf("missing fields after measurement %q", p.Measurement)
	}
	for len(rest) > 0 && rest[0] == ' ' {
		rest = rest[1:]
	}
	if rest == "" {
		return fmt.Errorf("missing fields after measurement %q", p.Measurement)
	}
	// Fields. A field named twice keeps its last value, as InfluxDB does.
	var err error
	keys.reset()
	for {
		var k string
		k, rest = scanToken(rest, keyStops)
		if k == "" {
			return fmt.Errorf("empty field key")
		}
		if len(rest) == 0 || rest[0] != '=' {
			return fmt.Errorf("field %q has no value (want key=value)", k)
		}
		if keys.add(k, p.Fields) {
			p.Fields = dropField(p.Fields, k)
		}
		rest = rest[1:]
		if len(rest) > 0 && rest[0] == '"' {
			rest, err = skipQuoted(rest)
			if err != nil {
				return fmt.Errorf("field %q: %w", k, err)
			}
			p.StringFields++
		} else {
			n := 0
			for n < len(rest) && !valueStops[rest[n]] {
				n++
			}
			v, err := parseFieldValue(rest[:n])
			if err != nil {
				return fmt.Errorf("field %q: %w", k, err)
			}
			p.Fields = append(p.Fields, Field{Key: k, Value: v})
			rest = rest[n:]
		}
		if len(rest) == 0 || rest[0] == ' ' {
			break
		}
		// rest[0] == ','
		rest = rest[1:]
	}
	// Timestamp.
	rest = strings.Trim(rest, " ")
	if rest != "" {
		ts, err := parseTimestamp(rest)
		if err != nil {
			return fmt.Errorf("invalid timestamp %q: want an integer", rest)
		}
		p.Timestamp = ts
		p.HasTimestamp = true
	}
	return nil
}

// parseTimestamp parses a decimal integer like strconv.ParseInt(s, 10, 64).
func parseTimestamp(s string) (int64, error) {
	if n, ok := parseSmallInt(s); ok {
		return n, nil
	}
	return strconv.ParseInt(s, 10, 64)
}

// parseSmallInt parses the common integers quickly: an optional '-' and 1 to 18 digits,
// which cannot overflow. ok is false for anything else; strconv.ParseInt decides those.
func parseSmallInt(s string) (int64, bool) {
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// dropField removes an earlier field named k, so that the last occurrence wins.
func dropField(fields []Field, k string) []Field {
	for i := range fields {
		if fields[i].Key == k {
			return append(fields[:i], fields[i+1:]...)
		}
	}
	return fields
}

// scanToken reads s up to the first unescaped byte of stops and unescapes it. A backslash
// escapes the following byte when that byte is in stops or is a backslash; otherwise it is
// kept literally, as InfluxDB does. Without escapes the token is a substring of s.
func scanToken(s string, stops *stopSet) (string, string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && (stops[s[i+1]] || s[i+1] == '\\') {
			return scanEscaped(s, i, stops)
		}
		if stops[c] {
			return s[:i], s[i:]
		}
	}
	return s, ""
}

// scanEscaped continues scanToken from the first escape, at s[i].
func scanEscaped(s string, i int, stops *stopSet) (string, string) {
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && (stops[s[i+1]] || s[i+1] == '\\') {
			b = append(b, s[i+1])
			i++
			continue
		}
		if stops[c] {
			return string(b), s[i:]
		}
		b = append(b, c)
	}
	return string(b), ""
}

// skipQuoted skips a double-quoted string field value and returns what follows it.
func skipQuoted(s string) (string, error) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			rest := s[i+1:]
			if len(rest) > 0 && rest[0] != ',' && rest[0] != ' ' {
				return "", fmt.Errorf("unexpected %q after closing quote", rest[:1])
			}
			return rest, nil
		}
	}
	return "", fmt.Errorf("missing closing quote in string value")
}

func parseFieldValue(s string) (float64, error) {
	if s == "" {
		return 0, fmt.Errorf("empty value")
	}
	switch s {
	case "t", "T", "true", "True", "TRUE":
		return 1, nil
	case "f", "F", "false", "False", "FALSE":
		return 0, nil
	}
	switch s[len(s)-1] {
	case 'i':
		if n, ok := parseSmallInt(s[:len(s)-1]); ok {
			return float64(n), nil
		}
		n, err := strconv.ParseInt(s[:len(s)-1], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("invalid integer %q", s)
		}
		return float64(n), nil
	case 'u':
		n, err := strconv.ParseUint(s[:len(s)-1], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("invalid unsigned integer %q", s)
		}
		return float64(n), nil
	}
	// strconv accepts forms line protocol does not (hex, "inf", "nan", underscores).
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') {
			return 0, fmt.Errorf("invalid number %q (strings must be double-quoted)", s)
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("invalid number %q", s)
	}
	return v, nil
}

// TimestampToMillis converts a line-protocol timestamp in precision (ns, us, ms or s) to
// milliseconds since the Unix epoch.
func TimestampToMillis(ts int64, precision string) (int64, error) {
	switch precision {
	case "", "ns", "n":
		return ts / 1e6, nil
	case "us", "u":
		return ts / 1e3, nil
	case "ms":
		return ts, nil
	case "s":
		return ts * 1e3, nil
	}
	return 0, fmt.Errorf("unsupported precision %q: want ns, us, ms or s", precision)
}

// ValidatePrecision returns an error when precision is not a supported precision.
func ValidatePrecision(precision string) error {
	_, err := TimestampToMillis(0, precision)
	return err
}
