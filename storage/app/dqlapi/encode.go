package dqlapi

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"vigil/storage/lib/dql"
)

// The answer of /v1/query/raw is written by hand: encoding/json reflects over every cell of
// [][]any, and a dashboard's answer holds hundreds of thousands. The bytes are exactly those
// of json.NewEncoder(w).Encode(map[string]any{"content": out}) (encode_test.go compares the
// two over many shapes, FuzzAppendResponse over arbitrary ones): the same number formats,
// the same string escaping (HTML characters included), map keys sorted, a trailing newline,
// and the same failure on NaN and infinities.

// appendResponse appends the JSON answer {"content": out} and a newline to dst.
func appendResponse(dst []byte, out []content) ([]byte, error) {
	dst = append(dst, `{"content":`...)
	if out == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i := range out {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendContent(dst, &out[i]); err != nil {
				return dst, err
			}
		}
		dst = append(dst, ']')
	}
	return append(dst, "}\n"...), nil
}

func appendContent(dst []byte, c *content) ([]byte, error) {
	dst = append(dst, `{"series":`...)
	if c.Series == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i := range c.Series {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendSeries(dst, &c.Series[i]); err != nil {
				return dst, err
			}
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"cost":`...)
	dst = appendString(dst, c.Cost)
	dst = append(dst, `,"raw_query":`...)
	dst = appendString(dst, c.RawQuery)
	dst = append(dst, `,"query_type":`...)
	dst = appendString(dst, c.QueryType)
	return append(dst, '}'), nil
}

func appendSeries(dst []byte, s *dql.ResultSeries) ([]byte, error) {
	dst = append(dst, `{"name":`...)
	dst = appendString(dst, s.Name)
	if len(s.Tags) > 0 { // omitempty
		dst = append(dst, `,"tags":{`...)
		keys := make([]string, 0, len(s.Tags))
		for k := range s.Tags {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, k)
			dst = append(dst, ':')
			dst = appendString(dst, s.Tags[k])
		}
		dst = append(dst, '}')
	}
	dst = append(dst, `,"columns":`...)
	if s.Columns == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i, col := range s.Columns {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, col)
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"values":`...)
	if s.Values == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i, row := range s.Values {
			if i > 0 {
				dst = append(dst, ',')
			}
			if row == nil {
				dst = append(dst, "null"...)
				continue
			}
			dst = append(dst, '[')
			for j, cell := range row {
				if j > 0 {
					dst = append(dst, ',')
				}
				var err error
				if dst, err = appendCell(dst, cell); err != nil {
					return dst, err
				}
			}
			dst = append(dst, ']')
		}
		dst = append(dst, ']')
	}
	return append(dst, '}'), nil
}

// appendCell appends one value of a row: the types the DQL engine produces directly, any
// other through encoding/json.
func appendCell(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case float64:
		return appendFloat(dst, x)
	case int64:
		return strconv.AppendInt(dst, x, 10), nil
	case string:
		return appendString(dst, x), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	return append(dst, b...), nil
}

// appendFloat formats f as encoding/json does: like ES6, 'f' unless the magnitude is below
// 1e-6 or at least 1e21, then 'e' with a one-digit exponent where possible (e-7, not e-07).
func appendFloat(dst []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return dst, fmt.Errorf("json: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, 64))
	}
	abs := math.Abs(f)
	if abs < 1<<53 && f == math.Trunc(f) && !(f == 0 && math.Signbit(f)) {
		// An integer below 2^53 has no shorter round-trip form than its digits ("-0" has one).
		return strconv.AppendInt(dst, int64(f), 10), nil
	}
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, nil
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string with encoding/json's default escaping: '"', '\\'
// and control characters, the HTML characters <, > and &, U+2028 and U+2029; invalid UTF-8
// becomes U+FFFD.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
