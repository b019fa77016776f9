package collector

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"vigil/agent/lib/lineproto"
)

var fixtureOpts = Options{ProcRoot: "testdata/proc"}

// collect runs c once on acc and returns the points as sorted line-protocol text
// (timestamps in seconds), so expectations read like what goes over the wire.
func collect(t *testing.T, c Collector) []string {
	t.Helper()
	acc := &Accumulator{Now: time.Unix(1700000000, 0)}
	if err := c.Collect(acc); err != nil {
		t.Fatalf("%s: %s", c.Name(), err)
	}
	var lines []string
	for i := range acc.Points {
		lines = append(lines, strings.TrimSuffix(string(lineproto.AppendPoint(nil, &acc.Points[i], lineproto.PrecisionS)), "\n"))
	}
	sort.Strings(lines)
	return lines
}

func checkLines(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("unexpected lines\ngot:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCPU(t *testing.T) {
	dir := t.TempDir()
	stat := filepath.Join(dir, "stat")
	copyFile(t, "testdata/proc/stat", stat)
	c := &CPU{opts: Options{ProcRoot: dir}}
	// The first round only primes the counters.
	checkLines(t, collect(t, c))

	copyFile(t, "testdata/stat.next", stat)
	// cpu-total: deltas user 100, system 50, idle 800, iowait 50 over 1000 jiffies.
	// cpu0: user 100, idle 300 over 400. cpu1: system 50, idle 500, iowait 50 over 600.
	checkLines(t, collect(t, c),
		"cpu,cpu=cpu-total usage_user=10,usage_system=5,usage_idle=80,usage_nice=0,usage_iowait=5,usage_irq=0,usage_softirq=0,usage_steal=0,usage_guest=0,usage_guest_nice=0 1700000000",
		"cpu,cpu=cpu0 usage_user=25,usage_system=0,usage_idle=75,usage_nice=0,usage_iowait=0,usage_irq=0,usage_softirq=0,usage_steal=0,usage_guest=0,usage_guest_nice=0 1700000000",
		fmt.Sprintf("cpu,cpu=cpu1 usage_user=0,usage_system=%v,usage_idle=%v,usage_nice=0,usage_iowait=%v,usage_irq=0,usage_softirq=0,usage_steal=0,usage_guest=0,usage_guest_nice=0 1700000000",
			pct(50, 600), pct(500, 600), pct(50, 600)),
	)
	// Unchanged counters: no time passed, nothing to report.
	checkLines(t, collect(t, c))
}

func TestCPUBadInput(t *testing.T) {
	f := func(data, wantErr string) {
		t.Helper()
		_, _, err := parseProcStatCPU([]byte(data))
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("want error containing %q, got %v", wantErr, err)
		}
	}
	f("intr 1 2 3\n", "no cpu lines")
	f("cpu 1 2\n", "line 1: want at least 4 counters")
	f("cpu 1 2 x 4\n", `cannot parse counter 3 of "cpu"`)
}

func TestMemSwap(t *testing.T) {
	// total 24682416 kB, free 23010756, buffers 18596, cached 860560 + sreclaimable 119416.
	kb := func(v int64) int64 { return v * 1024 }
	total, free, buffers, cached, avail := kb(24682416), kb(23010756), kb(18596), kb(860560+119416), kb(23729128)
	used := total - free - buffers - cached
	checkLines(t, collect(t, &Mem{opts: fixtureOpts}), fmt.Sprintf(
		"mem total=%di,available=%di,used=%di,free=%di,cached=%di,buffered=%di,active=%di,inactive=%di,dirty=%di,shared=%di,slab=%di,used_percent=%v,available_percent=%v 1700000000",
		total, avail, used, free, cached, buffers, kb(177096), kb(1271896), kb(301664), kb(12776), kb(145356),
		float64(used)/float64(total)*100, float64(avail)/float64(total)*100))
	checkLines(t, collect(t, &Swap{opts: fixtureOpts}), fmt.Sprintf(
		"swap total=%di,used=%di,free=%di,used_percent=%v 1700000000",
		kb(2097148), kb(2097148-1048574), kb(1048574), float64(2097148-1048574)/2097148*100))

	if _, err := parseMeminfo([]byte("MemFree: 1 kB\n")); err == nil || !strings.Contains(err.Error(), "no MemTotal") {
		t.Fatalf("want a missing MemTotal error, got %v", err)
	}
	if _, err := parseMeminfo([]byte("MemTotal: lots kB\n")); err == nil || !strings.Contains(err.Error(), `cannot parse "MemTotal: lots kB"`) {
		t.Fatalf("want a parse error naming the line, got %v", err)
	}
}

func TestDisk(t *testing.T) {
	var statted []string
	c := &Disk{opts: Options{ProcRoot: "testdata/proc", HostRoot: "/hostfs"}, statfs: func(path string) (fsStats, error) {
		statted = append(statted, path)
		if path == "/hostfs/mnt/data disk" {
			return fsStats{blockSize: 4096, blocks: 1000, blocksFree: 300, blocksAvail: 250, inodes: 100, inodesFree: 75}, nil
		}
		return fsStats{blockSize: 1024, blocks: 10, blocksFree: 10, blocksAvail: 10, inodes: 0, inodesFree: 0}, nil
	}}
	checkLines(t, collect(t, c),
		"disk,device=vda,fstype=ext4,mode=rw,path=/ total=10240i,free=10240i,used=0i,used_percent=0,inodes_total=0i,inodes_free=0i,inodes_used=0i,inodes_used_percent=0 1700000000",
		// used = (1000-300)*4096, free = 250*4096, used_percent = 700/950.
		fmt.Sprintf(`disk,device=vdb1,fstype=xfs,mode=rw,path=/mnt/data\ disk total=4096000i,free=1024000i,used=2867200i,used_percent=%v,inodes_total=100i,inodes_free=75i,inodes_used=25i,inodes_used_percent=25 1700000000`, pct(700*4096, 950*4096)),
	)
	// Pseudo filesystems are never statted; duplicate mount points only once.
	checkLines(t, statted, "/hostfs", "/hostfs/mnt/data disk")
}

func TestParseMounts(t *testing.T) {
	ms := parseMounts([]byte("/dev/sda1 /boot vfat ro,noatime 0 0\n/dev/x /a\\134b\\011c ext4 rw 0 0\nshort line\n"))
	want := []mount{{"/dev/sda1", "/boot", "vfat", "ro"}, {"/dev/x", "/a\\b\tc", "ext4", "rw"}}
	if fmt.Sprint(ms) != fmt.Sprint(want) {
		t.Fatalf("got %q, want %q", ms, want)
	}
}

func TestDiskIO(t *testing.T) {
	checkLines(t, collect(t, &DiskIO{opts: fixtureOpts}),
		"diskio,name=vda reads=15234i,writes=8765i,read_bytes=505678848i,write_bytes=233875968i,read_time=4321i,write_time=9876i,io_time=12345i,weighted_io_time=14197i,iops_in_progress=0i,merged_reads=2345i,merged_writes=1234i 1700000000",
		"diskio,name=vdb reads=100i,writes=200i,read_bytes=409600i,write_bytes=819200i,read_time=10i,write_time=20i,io_time=30i,weighted_io_time=30i,iops_in_progress=0i,merged_reads=0i,merged_writes=0i 1700000000",
	)
	if _, err := parseDiskstats([]byte("8 0 sda 1 2 3\n")); err == nil || !strings.Contains(err.Error(), "line 1: want at least 14 columns") {
		t.Fatalf("want a short-line error, got %v", err)
	}
}

func TestNet(t *testing.T) {
	checkLines(t, collect(t, &Net{opts: fixtureOpts}),
		"net,interface=eth0 bytes_recv=557214787i,packets_recv=15751i,err_in=1i,drop_in=2i,bytes_sent=1294520i,packets_sent=9813i,err_out=3i,drop_out=4i 1700000000",
	)
}

func TestSystem(t *testing.T) {
	checkLines(t, collect(t, &System{opts: fixtureOpts}),
		"system load1=2.26,load5=0.78,load15=0.31,n_cpus=2i,uptime=400i 1700000000")
}

func TestProcesses(t *testing.T) {
	checkLines(t, collect(t, &Processes{opts: fixtureOpts}),
		"processes total=5i,running=1i,sleeping=1i,blocked=1i,zombies=1i,stopped=0i,idle=1i,dead=0i,total_threads=7i 1700000000")
}

func TestKernel(t *testing.T) {
	checkLines(t, collect(t, &Kernel{opts: fixtureOpts}),
		"kernel interrupts=333367i,context_switches=745840i,boot_time=1763702681i,processes_forked=8612i,entropy_avail=256i 1700000000")
}

func TestNew(t *testing.T) {
	cs, err := New([]string{"cpu", " mem", "cpu", ""}, Options{})
	if err != nil || len(cs) != 2 || cs[0].Name() != "cpu" || cs[1].Name() != "mem" {
		t.Fatalf("unexpected collectors %v, %v", cs, err)
	}
	_, err = New([]string{"cpu", "gpu"}, Options{})
	if err == nil || err.Error() != `unknown collector "gpu"; available: cpu, disk, diskio, kernel, mem, net, processes, swap, system` {
		t.Fatalf("unexpected error %v", err)
	}
}

// TestThisHost runs every collector against this machine's /proc and checks the values make sense.
func TestThisHost(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("collectors read Linux procfs")
	}
	cs, err := New(Names(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Two rounds a moment apart, so the CPU collector has a delta to report.
	var acc *Accumulator
	for round := 0; round < 2; round++ {
		acc = &Accumulator{Now: time.Now()}
		for _, c := range cs {
			if err := c.Collect(acc); err != nil {
				t.Fatalf("%s: %s", c.Name(), err)
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	seen := map[string]int{}
	for _, p := range acc.Points {
		seen[p.Measurement]++
		fields := map[string]lineproto.Field{}
		for _, f := range p.Fields {
			fields[f.Key] = f
		}
		switch p.Measurement {
		case "cpu":
			sum := 0.0
			for k, f := range fields {
				if f.Float < 0 || f.Float > 100 {
					t.Fatalf("cpu %v: %s=%v outside 0..100", p.Tags, k, f.Float)
				}
				if k != "usage_guest" && k != "usage_guest_nice" {
					sum += f.Float
				}
			}
			if sum < 99 || sum > 101 {
				t.Fatalf("cpu %v: percentages sum to %v, want ~100", p.Tags, sum)
			}
		case "mem":
			if fields["total"].Int <= 0 || fields["available"].Int <= 0 || fields["available"].Int > fields["total"].Int {
				t.Fatalf("mem: implausible total=%d available=%d", fields["total"].Int, fields["available"].Int)
			}
			if up := fields["used_percent"].Float; up <= 0 || up >= 100 {
				t.Fatalf("mem: used_percent=%v", up)
			}
		case "system":
			if n := fields["n_cpus"].Int; n != int64(runtime.NumCPU()) && n < 1 {
				t.Fatalf("system: n_cpus=%d", n)
			}
			if fields["uptime"].Int <= 0 {
				t.Fatalf("system: uptime=%d", fields["uptime"].Int)
			}
		case "processes":
			// Running may be 0: a Go process's main thread often sleeps while another reads.
			states := fields["running"].Int + fields["sleeping"].Int + fields["blocked"].Int + fields["zombies"].Int +
				fields["stopped"].Int + fields["idle"].Int + fields["dead"].Int
			if fields["total"].Int < 2 || states > fields["total"].Int || fields["total_threads"].Int < fields["total"].Int {
				t.Fatalf("processes: implausible %v", p.Fields)
			}
		case "disk":
			if fields["total"].Int <= 0 || fields["used_percent"].Float > 100 {
				t.Fatalf("disk %v: total=%d used_percent=%v", p.Tags, fields["total"].Int, fields["used_percent"].Float)
			}
		}
	}
	for _, m := range []string{"cpu", "mem", "swap", "system", "processes", "disk", "kernel"} {
		if seen[m] == 0 {
			t.Fatalf("no %s point collected on this host; got %v", m, seen)
		}
	}
	if seen["cpu"] != runtime.NumCPU()+1 {
		t.Logf("cpu points: %d (NumCPU %d)", seen["cpu"], runtime.NumCPU())
	}
}

// pct divides as the collectors do, so float rounding matches exactly.
func pct(part, total float64) float64 { return part / total * 100 }

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
