package parser

import (
	"math"
	"regexp"
	"strconv"
	"time"
	_ "time/tzdata" // tz('Asia/Shanghai') must not depend on the host's zoneinfo
)

// tz() aligns buckets to a time zone instead of UTC (DQL.md §8): tz('Asia/Shanghai'),
// tz('+08:00'), tz(+8), tz(-5.5). A named zone uses its offset at the start of the range.

var tzOffsetRe = regexp.MustCompile(`^([+-])(\d{1,2})(?::?(\d{2}))?$`)

// tzValue returns the fixed offset in ms, or the location for a named zone.
func tzValue(c *CallExpr) (int64, *time.Location, error) {
	if len(c.Args) != 1 {
		return 0, nil, ErrorAt(CodeInvalidArgument, c, "tz() takes one argument: a zone name such as 'Asia/Shanghai' or an offset in hours such as +8")
	}
	if h, ok := NumberArg(c.Args[0]); ok {
		if h < -14 || h > 14 || math.Mod(h*4, 1) != 0 {
			return 0, nil, ErrorAt(CodeInvalidArgument, c.Args[0], "tz() offset %v must be between -14 and +14 hours, in quarter hours", h)
		}
		return int64(h * 3600000), nil, nil
	}
	s, ok := c.Args[0].(*StringExpr)
	if !ok {
		return 0, nil, ErrorAt(CodeInvalidArgument, c.Args[0], "tz() takes a zone name such as 'Asia/Shanghai' or an offset in hours such as +8")
	}
	if m := tzOffsetRe.FindStringSubmatch(s.Val); m != nil {
		h, _ := strconv.Atoi(m[2])
		mins := 0
		if m[3] != "" {
			mins, _ = strconv.Atoi(m[3])
		}
		if h > 14 || mins >= 60 {
			return 0, nil, ErrorAt(CodeInvalidArgument, s, "invalid time zone offset %q", s.Val)
		}
		off := int64(h*3600000 + mins*60000)
		if m[1] == "-" {
			off = -off
		}
		return off, nil, nil
	}
	loc, err := time.LoadLocation(s.Val)
	if err != nil || s.Val == "" || s.Val == "Local" {
		return 0, nil, ErrorAt(CodeInvalidArgument, s, "unknown time zone %q; use an IANA name such as 'Asia/Shanghai' or an offset such as '+08:00'", s.Val)
	}
	return 0, loc, nil
}

func checkTZ(c *CallExpr) error {
	_, _, err := tzValue(c)
	return err
}

// TZOffset returns the offset of tz() at time t (ms), in milliseconds east of UTC.
func TZOffset(c *CallExpr, t int64) int64 {
	off, loc, err := tzValue(c)
	if err != nil {
		panic(err) // checked before evaluation
	}
	if loc != nil {
		_, secs := time.UnixMilli(t).In(loc).Zone()
		return int64(secs) * 1000
	}
	return off
}
