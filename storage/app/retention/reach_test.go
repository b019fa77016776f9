package retention

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/apierror"
)

const (
	sec    = int64(1000)
	minute = 60 * sec
	hour   = 60 * minute
	day    = 24 * hour
	// the look-back VictoriaMetrics adds to every search (-search.minStalenessInterval unset)
	look = 5 * minute
)

func mustParse(t *testing.T, q string) metricsql.Expr {
	t.Helper()
	e, err := metricsql.Parse(q)
	if err != nil {
		t.Fatalf("cannot parse %q: %s", q, err)
	}
	return e
}

func TestReach(t *testing.T) {
	f := func(q string, step int64, instant bool, want Reads) {
		t.Helper()
		got, err := Reach(mustParse(t, q), step, instant)
		if err != nil {
			t.Fatalf("Reach(%q): unexpected error: %s", q, err)
		}
		if got != want {
			t.Fatalf("Reach(%q, step %d, instant %v)\ngot  %+v\nwant %+v", q, step, instant, got, want)
		}
	}
	rel := func(d int64) Reads { return Reads{Rel: d, HasRel: true} }
	// A bare selector: the step (or the window, when longer) plus the look-back.
	f(`m`, minute, false, rel(look+minute))
	f(`rate(m[5m])`, minute, false, rel(look+5*minute))
	f(`rate(m[30s])`, minute, false, rel(look+minute))
	// Offsets move it back; negative ones forward.
	f(`m offset 1d`, minute, false, rel(day+look+minute))
	f(`rate(m[5m] offset 2h)`, minute, false, rel(2*hour+look+5*minute))
	f(`m offset -1h`, minute, false, rel(-hour+look+minute))
	// Long windows.
	f(`max_over_time(m[30d])`, hour, false, rel(30*day+look))
	// Instant queries with long windows may search up to half the window (at most 30 m) more.
	f(`max_over_time(m[4h])`, 5*minute, true, rel(4*hour+look+30*minute))
	f(`max_over_time(m[2h])`, 5*minute, true, rel(2*hour+look))
	// The largest of several selectors.
	f(`m + rate(n[1h] offset 1h)`, minute, false, rel(2*hour+look))
	f(`sum by (host) (max_over_time(m[1d]))`, minute, false, rel(day+look))
	// Subqueries: window + two steps + look-back, then the inner expression at its own step.
	f(`max_over_time(rate(m[5m])[1h:1m])`, minute, false, rel(hour+2*minute+look+(look+5*minute)))
	f(`max_over_time(rate(m[5m])[1h:10m] offset 1d)`, minute, false, rel(day+hour+20*minute+look+(look+10*minute)))
	f(`max_over_time(m[1d:])`, hour, false, rel(day+2*hour+look+(look+hour)))
	// A rollup function over an expression is a subquery with the query's step.
	f(`rate(sum(m))`, minute, false, rel(0+2*minute+look+(look+minute)))
	// @ modifiers: fixed times, start(), end().
	f(`m @ 1000`, minute, false, Reads{Abs: 1000*sec - look - minute, HasAbs: true})
	f(`rate(m[1h] @ 1000 offset 1d)`, minute, false, Reads{Abs: 1000*sec - day - look - hour, HasAbs: true})
	f(`m @ start()`, minute, false, rel(look+minute))
	f(`m @ (start() + 3600)`, minute, false, rel(-hour+look+minute))
	f(`m @ end()`, minute, false, Reads{EndRel: look + minute, HasEndRel: true})
	f(`rate(m[1h] @ (end() - 1d))`, minute, false, Reads{EndRel: day + look + hour, HasEndRel: true})
	// Constants read nothing.
	f(`1 + 2`, minute, false, Reads{})
	f(`time()`, minute, false, Reads{})
}

func TestReachRefusesUnplacedAt(t *testing.T) {
	f := func(q string) {
		t.Helper()
		_, err := Reach(mustParse(t, q), minute, false)
		var ae *apierror.Error
		if !errors.As(err, &ae) || ae.StatusCode != http.StatusBadRequest {
			t.Fatalf("Reach(%q): unexpected error %v; want 400", q, err)
		}
		if !strings.Contains(err.Error(), "cannot be checked against the workspace's retention: use a timestamp, start() or end()") {
			t.Fatalf("Reach(%q): unexpected message %q", q, err)
		}
	}
	f(`m @ scalar(n)`)
	f(`m @ (time() - 3600)`)
	f(`m @ (end() * 2)`)
	// start() inside a subquery is the subquery's own start, not the query's.
	f(`max_over_time((m @ start())[1h:1m])`)
}

func TestClampRange(t *testing.T) {
	now := int64(1_800_000_000_000)
	oldest := now - 7*day
	f := func(q string, start, end, step, want int64) {
		t.Helper()
		got, err := ClampRange(mustParse(t, q), start, end, step, oldest)
		if err != nil {
			t.Fatalf("ClampRange(%q): unexpected error: %s", q, err)
		}
		if got != want {
			t.Fatalf("ClampRange(%q, %d, %d, %d) = %d; want %d (moved by %s)", q, start, end, step, got, want,
				time.Duration(got-start)*time.Millisecond)
		}
		if r, _ := Reach(mustParse(t, q), step, start == end); r.HasRel && got-r.Rel-step < oldest {
			t.Fatalf("ClampRange(%q) = %d still reads before oldest", q, got)
		}
		if (got-start)%step != 0 {
			t.Fatalf("ClampRange(%q) = %d is not on the query's grid", q, got)
		}
	}
	// Far enough from the retention: unchanged.
	f(`rate(m[5m])`, now-day, now, minute, now-day)
	// At the retention's start: moved up by the windows, the look-back and a step.
	start := oldest
	f(`rate(m[5m])`, start, now, minute, start+look+5*minute+minute)
	// A week's offset on a week's retention leaves nothing before the end...
	_, err := ClampRange(mustParse(t, `m offset 7d`), now-hour, now, minute, oldest)
	if err == nil || !strings.Contains(err.Error(), "it can only be evaluated from") {
		t.Fatalf("unexpected error %v; want a refusal saying from when it can be evaluated", err)
	}
	// ...and so does a window as long as the retention.
	_, err = ClampRange(mustParse(t, `max_over_time(m[7d])`), now-day, now, hour, oldest)
	if err == nil || !strings.Contains(err.Error(), "reads up to 168h5m0s before each evaluation time") {
		t.Fatalf("unexpected error %v", err)
	}
	// An @ modifier before the retention is refused whatever the range.
	_, err = ClampRange(mustParse(t, `m @ 1000`), now-hour, now, minute, oldest)
	if err == nil || !strings.Contains(err.Error(), "an @ modifier with windows and offsets), before the workspace's retention starts") {
		t.Fatalf("unexpected error %v", err)
	}
	_, err = ClampRange(mustParse(t, `rate(m[5m] @ (end() - 7d))`), now-hour, now, minute, oldest)
	if err == nil || !strings.Contains(err.Error(), "an @ end() modifier") {
		t.Fatalf("unexpected error %v", err)
	}
}

func TestCheckInstant(t *testing.T) {
	now := int64(1_800_000_000_000)
	oldest := now - 7*day
	if err := CheckInstant(mustParse(t, `rate(m[5m])`), now, 5*minute, oldest); err != nil {
		t.Fatalf("unexpected error %s", err)
	}
	err := CheckInstant(mustParse(t, `rate(m[5m] offset 7d)`), now, 5*minute, oldest)
	want := "the query reads from 2027-01-08T07:50:00Z (168h10m0s before its time 2027-01-15T08:00:00Z: windows, offsets and look-back), " +
		"before the workspace's retention starts (2027-01-08T08:00:00Z): evaluate it later or shorten the windows and offsets"
	if err == nil || err.Error() != want {
		t.Fatalf("unexpected error\ngot  %v\nwant %s", err, want)
	}
}
