package lineproto

// The line-protocol parser as it was before it was rewritten for speed: kept as the
// reference the current parser must agree with (TestParseMatchesReference,
// FuzzParseMatchesReference).

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// refParse parses every line of s. It stops at the first bad line and returns a *LineError.
// Empty lines and lines starting with '#' are skipped.
func refParse(s string) ([]Point, error) {
	var points []Point
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
		line = strings.TrimSuffix(line, "\r")
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed == "" || trimmed[0] == '#' {
			continue
		}
		p, err := refParseLine(trimmed)
		if err != nil {
			return nil, &LineError{Line: lineNo, Msg: err.Error()}
		}
		p.Line = lineNo
		points = append(points, p)
	}
	return points, nil
}

// refParseLine parses a single line without its trailing newline.
func refParseLine(line string) (Point, error) {
	var p Point
	// Measurement: up to an unescaped ',' or ' '.
	m, rest := refScanToken(line, ", ")
	if m == "" {
		return p, fmt.Errorf("missing measurement")
	}
	p.Measurement = m
	// Tags.
	for len(rest) > 0 && rest[0] == ',' {
		rest = rest[1:]
		var k, v string
		k, rest = refScanToken(rest, "=, ")
		if len(rest) == 0 || rest[0] != '=' {
			return p, fmt.Errorf("tag %q has no value (want key=value)", k)
		}
		if k == "" {
			return p, fmt.Errorf("empty tag key")
		}
		rest = rest[1:]
		v, rest = refScanToken(rest, "=, ")
		if v == "" {
			return p, fmt.Errorf("tag %q has an empty value", k)
		}
		if len(rest) > 0 && rest[0] == '=' {
			return p, fmt.Errorf("tag %q: unescaped '=' in value", k)
		}
		for _, t := range p.Tags {
			if t.Key == k {
				return p, fmt.Errorf("duplicate tag %q", k)
			}
		}
		p.Tags = append(p.Tags, Tag{Key: k, Value: v})
	}
	if len(rest) == 0 || rest[0] != ' ' {
		return p, fmt.Errorf("missing fields after measurement %q", p.Measurement)
	}
	rest = strings.TrimLeft(rest, " ")
	if rest == "" {
		return p, fmt.Errorf("missing fields after measurement %q", p.Measurement)
	}
	// Fields. A field named twice keeps its last value, as InfluxDB does.
	var err error
	for {
		var k string
		k, rest = refScanToken(rest, "=, ")
		if k == "" {
			return p, fmt.Errorf("empty field key")
		}
		if len(rest) == 0 || rest[0] != '=' {
			return p, fmt.Errorf("field %q has no value (want key=value)", k)
		}
		p.Fields = refDropField(p.Fields, k)
		rest = rest[1:]
		if len(rest) > 0 && rest[0] == '"' {
			rest, err = refSkipQuoted(rest)
			if err != nil {
				return p, fmt.Errorf("field %q: %w", k, err)
			}
			p.StringFields++
		} else {
			n := strings.IndexAny(rest, ", ")
			if n < 0 {
				n = len(rest)
			}
			v, err := refParseFieldValue(rest[:n])
			if err != nil {
				return p, fmt.Errorf("field %q: %w", k, err)
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
		ts, err := strconv.ParseInt(rest, 10, 64)
		if err != nil {
			return p, fmt.Errorf("invalid timestamp %q: want an integer", rest)
		}
		p.Timestamp = ts
		p.HasTimestamp = true
	}
	return p, nil
}

// refDropField removes an earlier field named k, so that the last occurrence wins.
func refDropField(fields []Field, k string) []Field {
	for i := range fields {
		if fields[i].Key == k {
			return append(fields[:i], fields[i+1:]...)
		}
	}
	return fields
}

// refScanToken reads s up to the first unescaped byte of stops and unescapes it. A backslash
// escapes the following byte when that byte is in stops or is a backslash; otherwise it is
// kept literally, as InfluxDB does.
func refScanToken(s, stops string) (string, string) {
	var b []byte
	escaped := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && (strings.IndexByte(stops, s[i+1]) >= 0 || s[i+1] == '\\') {
			if !escaped {
				b = append(b, s[:i]...)
				escaped = true
			}
			b = append(b, s[i+1])
			i++
			continue
		}
		if strings.IndexByte(stops, c) >= 0 {
			if escaped {
				return string(b), s[i:]
			}
			return s[:i], s[i:]
		}
		if escaped {
			b = append(b, c)
		}
	}
	if escaped {
		return string(b), ""
	}
	return s, ""
}

// refSkipQuoted skips a double-quoted string field value and returns what follows it.
func refSkipQuoted(s string) (string, error) {
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

func refParseFieldValue(s string) (float64, error) {
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
