// Package scrape reads Prometheus text exposition endpoints and turns each sample into
// a line-protocol point, following the naming scheme of docs/internals.md: the metric
// name is split at its first `:` if it has one, otherwise at its first `_`
// (node_cpu_seconds_total → measurement `node`, field `cpu_seconds_total`); a name with
// neither becomes measurement `<name>`, field `value`. Labels become tags.
package scrape

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Sample is one parsed exposition line.
type Sample struct {
	Name   string
	Labels []Label
	Value  float64
	// TimestampMs is 0 when the line has no timestamp.
	TimestampMs int64
}

// Label is one name="value" pair.
type Label struct {
	Name, Value string
}

// Parse reads the Prometheus text format (version 0.0.4). Comment, HELP and TYPE lines
// are skipped. A malformed line fails the whole parse with its line number.
func Parse(text string) ([]Sample, error) {
	var out []Sample
	lineNum := 0
	for len(text) > 0 {
		lineNum++
		var line string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			line, text = text, ""
		}
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		s, err := parseLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w: %q", lineNum, err, truncate(line, 200))
		}
		out = append(out, s)
	}
	return out, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func parseLine(line string) (Sample, error) {
	var s Sample
	i := 0
	for i < len(line) && line[i] != '{' && line[i] != ' ' && line[i] != '\t' {
		i++
	}
	s.Name = line[:i]
	if !validMetricName(s.Name) {
		return s, fmt.Errorf("invalid metric name %q", s.Name)
	}
	rest := line[i:]
	if strings.HasPrefix(rest, "{") {
		var err error
		s.Labels, rest, err = parseLabels(rest[1:])
		if err != nil {
			return s, err
		}
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return s, fmt.Errorf("missing value")
	}
	if len(fields) > 2 {
		return s, fmt.Errorf("unexpected text after the timestamp")
	}
	v, err := parseValue(fields[0])
	if err != nil {
		return s, err
	}
	s.Value = v
	if len(fields) == 2 {
		ts, err := strconv.ParseInt(fields[1], 10, 64)
		if err != nil {
			return s, fmt.Errorf("invalid timestamp %q", fields[1])
		}
		s.TimestampMs = ts
	}
	return s, nil
}

func parseValue(s string) (float64, error) {
	switch s {
	case "NaN":
		return math.NaN(), nil
	case "+Inf", "Inf":
		return math.Inf(1), nil
	case "-Inf":
		return math.Inf(-1), nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("invalid value %q", s)
	}
	return v, nil
}

// parseLabels reads `name="value",...}` and returns the text after the closing brace.
func parseLabels(s string) ([]Label, string, error) {
	var labels []Label
	for {
		s = strings.TrimLeft(s, " \t")
		if strings.HasPrefix(s, "}") {
			return labels, s[1:], nil
		}
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			return nil, "", fmt.Errorf("missing '=' after label name")
		}
		name := strings.TrimSpace(s[:eq])
		if !validLabelName(name) {
			return nil, "", fmt.Errorf("invalid label name %q", name)
		}
		s = strings.TrimLeft(s[eq+1:], " \t")
		if !strings.HasPrefix(s, `"`) {
			return nil, "", fmt.Errorf("value of label %q must be quoted", name)
		}
		var b strings.Builder
		j := 1
		closed := false
		for ; j < len(s); j++ {
			c := s[j]
			if c == '"' {
				closed = true
				break
			}
			if c == '\\' && j+1 < len(s) {
				j++
				switch s[j] {
				case 'n':
					b.WriteByte('\n')
				case '\\', '"':
					b.WriteByte(s[j])
				default:
					b.WriteByte('\\')
					b.WriteByte(s[j])
				}
				continue
			}
			b.WriteByte(c)
		}
		if !closed {
			return nil, "", fmt.Errorf("unterminated value of label %q", name)
		}
		labels = append(labels, Label{Name: name, Value: b.String()})
		s = strings.TrimLeft(s[j+1:], " \t")
		if strings.HasPrefix(s, ",") {
			s = s[1:]
			continue
		}
		if !strings.HasPrefix(s, "}") {
			return nil, "", fmt.Errorf("expected ',' or '}' after label %q", name)
		}
	}
}

func validMetricName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func validLabelName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
