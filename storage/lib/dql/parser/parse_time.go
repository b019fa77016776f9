package parser

import (
	"fmt"
	"strconv"
	"time"
)

// parseTime parses [start:end:interval:rollup].
func (p *parser) parseTime() *TimeExpr {
	open := p.next()
	te := &TimeExpr{Parts: 1}
	te.Pos = open.Pos
	part := 0
	for {
		t := p.peek()
		switch t.Kind {
		case TokRBracket:
			p.next()
			te.End = t.End
			return te
		case TokColon, TokDoubleColon:
			p.next()
			n := 1
			if t.Kind == TokDoubleColon {
				n = 2
			}
			part += n
			te.Parts += n
			if part > 3 {
				panic(errorf(CodeParseError, t.Pos, t.End, "the time expression has at most 4 parts [start:end:interval:rollup]"))
			}
			continue
		}
		switch part {
		case 0, 1:
			if (part == 0 && te.From != nil) || (part == 1 && te.To != nil) {
				p.fail(t, "':' or ']'")
			}
			tp := p.parseTimePoint(part == 0)
			if part == 0 {
				te.From = tp
			} else {
				te.To = tp
			}
		case 2:
			if te.Interval != nil {
				p.fail(t, "':' or ']'")
			}
			if t.Kind != TokDuration {
				p.fail(t, "an interval duration such as 1m")
			}
			p.next()
			te.Interval = p.duration(t)
		case 3:
			if te.Rollup != "" {
				p.fail(t, "']'")
			}
			if t.Kind != TokIdent && t.Kind != TokPercentileName {
				p.fail(t, "a rollup name such as max or p99")
			}
			p.next()
			te.Rollup = t.Text
			te.RollupPos = PosRange{t.Pos, t.End}
		}
	}
}

func (p *parser) parseTimePoint(start bool) *TimePoint {
	t := p.next()
	what := "end"
	if start {
		what = "start"
	}
	if tp := p.parseDateTime(t); tp != nil {
		return tp
	}
	switch t.Kind {
	case TokDuration:
		d := p.duration(t)
		return &TimePoint{PosRange{t.Pos, t.End}, t.Text, true, d.Ms}
	case TokNumber:
		if !allDigits(t.Text) {
			p.fail(t, "an integer epoch time or a duration as the "+what)
		}
		v, err := strconv.ParseInt(t.Text, 10, 64)
		if err != nil || v > 1e15 {
			panic(errorf(CodeInvalidArgument, t.Pos, t.End, "time %s is out of range", t.Text))
		}
		if v < 1e11 {
			v *= 1000
		}
		return &TimePoint{PosRange{t.Pos, t.End}, t.Text, false, v}
	}
	p.fail(t, "a duration or an integer epoch time as the "+what)
	return nil
}

func (p *parser) duration(t Token) *Duration {
	ms, err := parseDuration(t.Text)
	if err != nil {
		panic(errorf(CodeParseError, t.Pos, t.End, "%s", err))
	}
	return &Duration{PosRange{t.Pos, t.End}, t.Text, ms}
}

var unitMs = map[string]float64{
	"ns": 1e-6, "us": 1e-3, "ms": 1, "s": 1e3, "m": 60e3, "h": 3600e3,
	"d": 86400e3, "w": 7 * 86400e3, "y": 365 * 86400e3,
}

// parseDuration returns the milliseconds of a duration such as 1h30m (fractions of a
// millisecond are dropped).
func parseDuration(s string) (int64, error) {
	var total float64
	i := 0
	for i < len(s) {
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i {
			return 0, fmt.Errorf("invalid duration %q", s)
		}
		n, err := strconv.ParseFloat(s[i:j], 64)
		if err != nil {
			return 0, fmt.Errorf("invalid duration %q", s)
		}
		u := unitAt(s, j)
		if u == "" {
			return 0, fmt.Errorf("invalid duration %q: missing unit", s)
		}
		total += n * unitMs[u]
		i = j + len(u)
	}
	if total > 100*365*86400e3 {
		return 0, fmt.Errorf("duration %q is longer than 100 years", s)
	}
	return int64(total), nil
}

// ParseDuration parses a DQL duration such as 90s, 1h30m or 1d into milliseconds.
func ParseDuration(s string) (int64, error) {
	if s == "" {
		return 0, fmt.Errorf("empty duration")
	}
	lx := &lexer{src: s}
	t, err := lx.next()
	if err != nil || t.Kind != TokDuration || t.End != len(s) {
		return 0, fmt.Errorf("invalid duration %q: want a number and a unit (ns, us, ms, s, m, h, d, w, y), such as 30s or 1h30m", s)
	}
	return parseDuration(s)
}

// parseDateTime recognises a UTC date string in a time expression, "2006-01-02" or
// "2006-01-02 15:04:05", from the tokens the lexer made of it (numbers, '-' and ':' with no
// space between them, one space before the time). t has been consumed.
func (p *parser) parseDateTime(t Token) *TimePoint {
	if t.Kind != TokNumber || len(t.Text) != 4 || !allDigits(t.Text) {
		return nil
	}
	adjacent := func(i int, prevEnd int, kind TokenKind, n int) bool {
		tk := p.peekAt(i)
		return tk.Kind == kind && tk.Pos == prevEnd && (n == 0 || (len(tk.Text) == n && allDigits(tk.Text)))
	}
	end := t.End
	// -MM-DD
	for i := 0; i < 4; i += 2 {
		if !adjacent(i, end, TokMinus, 0) || !adjacent(i+1, end+1, TokNumber, 2) {
			return nil
		}
		end = p.peekAt(i + 1).End
	}
	n := 4
	layout := "2006-01-02"
	// " HH:MM:SS"
	if h := p.peekAt(4); h.Kind == TokNumber && h.Pos == end+1 && p.src[end] == ' ' && len(h.Text) == 2 && allDigits(h.Text) &&
		adjacent(5, h.End, TokColon, 0) && adjacent(6, h.End+1, TokNumber, 2) &&
		adjacent(7, h.End+3, TokColon, 0) && adjacent(8, h.End+4, TokNumber, 2) {
		end = p.peekAt(8).End
		n = 9
		layout = "2006-01-02 15:04:05"
	}
	text := p.src[t.Pos:end]
	tm, err := time.Parse(layout, text)
	if err != nil {
		panic(errorf(CodeInvalidArgument, t.Pos, end, "invalid date %q: %s", text, err))
	}
	p.i += n
	return &TimePoint{PosRange{t.Pos, end}, text, false, tm.UnixMilli()}
}
