package simulate

import (
	"bytes"
	"strings"
	"testing"
)

func TestSeriesPerHost(t *testing.T) {
	g := New(Options{Hosts: 3, Seed: 1})
	if g.SeriesPerHost() != SeriesPerHost {
		t.Fatalf("got %d series per host", g.SeriesPerHost())
	}
	// Count distinct (measurement+tags, field) pairs in the output itself.
	out := g.AppendHost(nil, 1, 1700000000000)
	series := map[string]bool{}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != g.LinesPerHost() {
		t.Fatalf("got %d lines, want %d", len(lines), g.LinesPerHost())
	}
	for _, line := range lines {
		parts := strings.Split(line, " ")
		// Only the "/mnt/backup disk" path has an escaped space.
		if len(parts) == 4 && strings.HasSuffix(parts[0], `\`) {
			parts = []string{parts[0] + " " + parts[1], parts[2], parts[3]}
		}
		if len(parts) != 3 {
			t.Fatalf("malformed line %q", line)
		}
		if !strings.Contains(parts[0], ",host=sim-00001") || parts[2] != "1700000000000" {
			t.Fatalf("line lacks host tag or timestamp: %q", line)
		}
		for _, f := range strings.Split(parts[1], ",") {
			k, v, ok := strings.Cut(f, "=")
			if !ok || v == "" || strings.HasPrefix(v, "-") {
				t.Fatalf("bad field %q in %q", f, line)
			}
			series[parts[0]+" "+k] = true
		}
	}
	if len(series) != SeriesPerHost {
		t.Fatalf("got %d distinct series, want %d", len(series), SeriesPerHost)
	}
	for _, want := range []string{
		"cpu,cpu=cpu-total,host=sim-00001 usage_idle",
		"cpu,cpu=cpu15,host=sim-00001 usage_steal",
		"mem,host=sim-00001 used_percent",
		`disk,device=sdb1,fstype=ext4,mode=rw,path=/mnt/backup\ disk,host=sim-00001 inodes_used_percent`,
		"diskio,name=nvme0n1,host=sim-00001 write_bytes",
		"net,interface=eth0,host=sim-00001 bytes_recv",
		"system,host=sim-00001 load15",
		"processes,host=sim-00001 zombies",
	} {
		if !series[want] {
			t.Fatalf("missing series %q", want)
		}
	}
}

func TestDeterministic(t *testing.T) {
	run := func(seed int64, churn float64) []byte {
		g := New(Options{Hosts: 5, Seed: seed, ChurnPerTick: churn})
		var out []byte
		for tick := int64(0); tick < 4; tick++ {
			for h := 0; h < g.Hosts(); h++ {
				out = g.AppendHost(out, h, 1700000000000+tick*10000)
			}
		}
		return out
	}
	a, b := run(42, 0.2), run(42, 0.2)
	if !bytes.Equal(a, b) {
		t.Fatalf("same seed produced different output")
	}
	if bytes.Equal(a, run(43, 0.2)) {
		t.Fatalf("different seeds produced the same output")
	}
	// Churn replaces hosts: new generations show up with their own names.
	if !bytes.Contains(a, []byte("-g1 ")) {
		t.Fatalf("no host was replaced at churn 0.2 per tick")
	}
	if bytes.Contains(run(42, 0), []byte("-g1 ")) {
		t.Fatalf("hosts replaced without churn")
	}
}

func TestCountersGrowAndPercentagesStayInRange(t *testing.T) {
	g := New(Options{Hosts: 1, Seed: 7})
	prev := append([]int64(nil), g.hosts[0].vals...)
	for tick := 0; tick < 200; tick++ {
		g.AppendHost(nil, 0, int64(tick))
		for j, s := range g.series {
			v := g.hosts[0].vals[j]
			switch s.kind {
			case kindPct:
				if v < 0 || v > 10000 {
					t.Fatalf("series %d: percentage %d/100 out of range", j, v)
				}
			case kindCounter:
				if v < prev[j] {
					t.Fatalf("series %d: counter went back from %d to %d", j, prev[j], v)
				}
			case kindGaugeI, kindGaugeF:
				if v < 0 || v > 2*s.scale {
					t.Fatalf("series %d: gauge %d outside [0, %d]", j, v, 2*s.scale)
				}
			}
		}
		copy(prev, g.hosts[0].vals)
	}
}

func TestAppendCenti(t *testing.T) {
	f := func(v int64, want string) {
		t.Helper()
		if got := string(appendCenti(nil, v)); got != want {
			t.Fatalf("appendCenti(%d) = %q, want %q", v, got, want)
		}
	}
	f(0, "0.00")
	f(5, "0.05")
	f(1234, "12.34")
	f(10000, "100.00")
}
