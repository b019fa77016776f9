package vmcheck

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmstorage"

	"vigil/storage/app/ingest"
	"vigil/storage/app/vmsource"
	"vigil/storage/lib/dql"
)

// TestNameCacheFindsNewNames writes a field and a tag after queries have classified the
// measurement's names, and checks that DQL answers with them within 2 s of the write, with
// writes made searchable by the visibility flusher as in vigil-storage.
func TestNameCacheFindsNewNames(t *testing.T) {
	ingest.StartVisibilityFlusher()
	defer ingest.StopVisibilityFlusher()
	ts := time.Now().Add(-time.Minute).UnixMilli()
	line := func(s string) string { return s + " " + itoa(ts) + "\n" }
	mustWrite("fresh", line("late,host=a x=1"))
	src := vmsource.New("fresh")
	ask := func(q string) string {
		t.Helper()
		res, err := dql.Query(context.Background(), src, q, dql.Options{})
		if err != nil {
			return "error: " + err.Error()
		}
		var b strings.Builder
		for _, s := range res.Series {
			b.WriteString(strings.Join(s.Columns, ",") + "=" + toString(s.Values) + ";")
		}
		return b.String()
	}
	// Wait for the first write, then classify y (unknown) and dc (unknown).
	waitFor(t, func() string { return ask("M::late:(max(x)) [10m]") }, "time,max(x)=[[")
	if got := ask("M::late:(max(y)) [10m] BY dc"); got != "" {
		t.Fatalf("before the write of y: got %q, want no series", got)
	}
	mustWrite("fresh", line("late,host=a,dc=east y=7"))
	written := time.Now()
	waitFor(t, func() string { return ask("M::late:(max(y)) [10m] BY dc") }, "time,max(y)=[[")
	d := time.Since(written)
	t.Logf("the new field was found %s after the write", d)
	if d > 2*time.Second {
		t.Fatalf("the new field was found %s after the write; want at most 2s", d)
	}
	// dc is a tag now: grouping by it gives the series its value.
	res, err := dql.Query(context.Background(), src, "M::late:(max(y)) [10m] BY dc", dql.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Series) != 1 || res.Series[0].Tags["dc"] != "east" {
		t.Fatalf("BY dc after the write: got %+v, want one series with dc=east", res.Series)
	}
}

// TestNameCachePerWorkspace checks that two workspaces with the same measurement, where a
// name is a field in one and a tag in the other, each get their own classification,
// whichever asks first.
func TestNameCachePerWorkspace(t *testing.T) {
	ts := itoa(time.Now().Add(-time.Minute).UnixMilli())
	mustWrite("split-a", "shared,host=a x=1 "+ts+"\n")
	mustWrite("split-b", "shared,x=foo y=2 "+ts+"\n")
	flushForSearch()
	q := "M::shared:(avg(x)) [10m]"
	for i := 0; i < 2; i++ {
		for _, ws := range []string{"split-a", "split-b", "split-a"} {
			res, err := dql.Query(context.Background(), vmsource.New(ws), q, dql.Options{})
			switch ws {
			case "split-a":
				if err != nil || len(res.Series) != 1 || toString(res.Series[0].Values) == "[]" {
					t.Fatalf("%s: got %v, %v; want avg(x) of the field x", ws, res, err)
				}
			case "split-b":
				if err == nil || !strings.Contains(err.Error(), "avg() needs a field; x is a tag") {
					t.Fatalf("%s: got %v, %v; want the error that x is a tag", ws, res, err)
				}
			}
		}
	}
}

func waitFor(t *testing.T, get func() string, prefix string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := get()
		if strings.HasPrefix(got, prefix) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %q after 5s; want a result starting with %q", got, prefix)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func toString(values [][]any) string { return fmt.Sprint(values) }

func flushForSearch() { vmstorage.DebugFlush() }
