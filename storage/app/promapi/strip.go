package promapi

import (
	"errors"
	"fmt"

	"vigil/storage/lib/tenancy"
)

// tenantKey is the tenant label as a JSON object key, quotes included.
var tenantKey = []byte(`"` + tenancy.Label + `"`)

// StripQueryResponse removes the tenant label from every series of a /api/v1/query or
// /api/v1/query_range answer of VictoriaMetrics and counts its points (a vector's samples, a
// matrix's values). Everything else passes through byte for byte, in its order; scalars and
// strings carry no labels and come back as they came, as one point; an answer without
// data.resultType (an error) comes back as it came, with none. Wherever the tenant label
// stands as a key, it goes.
//
// Answers reach tens of megabytes (1,000 series over days), so the body is read once, as
// tokens, and rewritten in place (what is kept only ever moves towards the start): no tree
// is built and nothing is allocated. The returned slice shares body's array, and body's
// content is undefined afterwards. It expects VictoriaMetrics' layout, where "resultType"
// comes before "result" in "data"; anything else is an error.
func StripQueryResponse(body []byte) ([]byte, int, error) {
	s := stripper{in: body, out: body[:0]}
	if err := s.run(); err != nil {
		return nil, 0, err
	}
	switch s.resultType {
	case "":
		return s.out, 0, nil
	case "vector", "matrix":
		return s.out, s.points, nil
	}
	return s.out, 1, nil
}

type stripper struct {
	in, out    []byte // out shares in's array and never passes from
	from       int    // in[from:] is not in out yet: bytes are copied in runs
	stack      []byte // '{' and '[' of the open containers
	resultType string // data.resultType, once read
	result     int    // len(stack) inside data.result, 0 before it
	points     int
}

func (s *stripper) run() error {
	in := s.in
	for i := 0; i < len(in); i++ {
		switch c := in[i]; c {
		case '"':
			end, err := stringEnd(in, i)
			if err != nil {
				return err
			}
			if s.isKey(i) {
				if end, err = s.key(in, i, end); err != nil {
					return err
				}
			}
			i = end - 1
		case '{', '[':
			s.stack = append(s.stack, c)
			if c == '[' && s.result > 0 && s.isPoint() {
				s.points++
			}
		case '}', ']':
			if len(s.stack) == 0 || s.stack[len(s.stack)-1] != c-2 { // '{'+2 = '}', '['+2 = ']'
				return fmt.Errorf("unbalanced %q at byte %d", c, i)
			}
			if len(s.stack) == s.result {
				s.result = -1 // data.result is closed: count nothing more
			}
			s.stack = s.stack[:len(s.stack)-1]
		}
	}
	s.out = append(s.out, in[s.from:]...)
	if len(s.stack) != 0 {
		return errors.New("truncated JSON")
	}
	return nil
}

// isPoint reports whether a '[' just opened is one point: a vector's "value" array (two
// levels inside data.result) or one element of a matrix's "values" (three levels).
func (s *stripper) isPoint() bool {
	depth := len(s.stack) - s.result
	return (s.resultType == "vector" && depth == 2) || (s.resultType == "matrix" && depth == 3)
}

// isKey reports whether the string starting at i is an object key: the innermost container
// is an object and the byte before the string, spaces aside, is its '{' or a ','.
func (s *stripper) isKey(i int) bool {
	if len(s.stack) == 0 || s.stack[len(s.stack)-1] != '{' {
		return false
	}
	last := lastNonSpace(s.in[:i])
	return last >= 0 && (s.in[last] == '{' || s.in[last] == ',')
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skipSpace returns the index of the first byte at or after i that is not JSON whitespace.
func skipSpace(in []byte, i int) int {
	for i < len(in) && isSpace(in[i]) {
		i++
	}
	return i
}

// lastNonSpace returns the index of the last byte of b that is not JSON whitespace, or -1.
func lastNonSpace(b []byte) int {
	i := len(b) - 1
	for i >= 0 && isSpace(b[i]) {
		i--
	}
	return i
}

// key handles the object key in[start:end] and returns where reading goes on. The tenant
// label's member is dropped with one of its commas; data.resultType is recorded and the
// start of data.result noted.
func (s *stripper) key(in []byte, start, end int) (int, error) {
	name := in[start:end]
	colon := skipSpace(in, end)
	if colon >= len(in) || in[colon] != ':' {
		return 0, fmt.Errorf("no ':' after the key at byte %d", start)
	}
	value := skipSpace(in, colon+1)
	switch {
	case string(name) == string(tenantKey):
		if value >= len(in) || in[value] != '"' {
			return 0, fmt.Errorf("the tenant label's value at byte %d is not a string", value)
		}
		next, err := stringEnd(in, value)
		if err != nil {
			return 0, err
		}
		s.out = append(s.out, in[s.from:start]...)
		if after := skipSpace(in, next); after < len(in) && in[after] == ',' {
			s.from = after + 1 // first or middle member: its own comma goes after it
			return s.from, nil
		}
		if last := lastNonSpace(s.out); last >= 0 && s.out[last] == ',' {
			s.out = s.out[:last] // last member: the comma before it goes
		}
		s.from = next
		return next, nil
	case len(s.stack) == 2 && string(name) == `"resultType"`:
		if value < len(in) && in[value] == '"' {
			vend, err := stringEnd(in, value)
			if err != nil {
				return 0, err
			}
			s.resultType = string(in[value+1 : vend-1])
		}
	case len(s.stack) == 2 && string(name) == `"result"` && s.result == 0:
		if s.resultType == "" {
			return 0, errors.New("data.result comes before data.resultType")
		}
		if value >= len(in) || in[value] != '[' {
			if s.resultType == "vector" || s.resultType == "matrix" {
				return 0, fmt.Errorf("data.result of a %s is not an array", s.resultType)
			}
			return end, nil
		}
		s.result = len(s.stack) + 1 // inside the '[' that follows
	}
	return end, nil
}

// stringEnd returns the index after the closing quote of the JSON string opening at i.
func stringEnd(in []byte, i int) (int, error) {
	for j := i + 1; j < len(in); j++ {
		switch in[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return 0, fmt.Errorf("unterminated string at byte %d", i)
}
