// Package simulate generates node-exporter-like metrics for many virtual hosts, as
// line protocol named like vigil-agent's (and Telegraf's) collectors, to load-test the
// ingest path and storage.
//
// Each host has the same shape — 16 CPUs, 6 filesystems, 8 block devices, 8 network
// interfaces, interrupts, softirqs, vmstat and nstat counters — adding up to
// SeriesPerHost (1,383) series. Everything derives from the seed: for the same options,
// AppendHost produces the same bytes for the same host, tick and timestamp.
//
// Speed matters more than realism: the lines are pre-built once (measurement, tags and
// field keys) and each tick only advances integer state and formats numbers and the
// timestamp. Percentages and load averages are kept in hundredths and printed with two
// decimals; counters only grow.
package simulate

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"vigil/agent/lib/lineproto"
)

// SeriesPerHost is the number of series (measurement, tags, field) each virtual host has.
const SeriesPerHost = 1383

const (
	nCPUs     = 16
	nIRQs     = 20
	nSoftirqs = 10
)

// kind says how a series evolves and is printed.
type kind uint8

const (
	kindPct     kind = iota // float 0..100, random walk, stored in hundredths
	kindGaugeF              // float >= 0, random walk around its scale, stored in hundredths
	kindGaugeI              // integer >= 0, random walk around its scale
	kindCounter             // integer, grows by about scale per tick
	kindConst               // integer, fixed at scale
)

type seriesSpec struct {
	kind  kind
	scale int64
}

type lineSpec struct {
	prefix []byte // measurement and tags up to and including ",host="
	keys   [][]byte
	first  int // index of the line's first series
}

// Options shape a Generator.
type Options struct {
	// Hosts is the number of virtual hosts.
	Hosts int
	// Seed makes the run reproducible.
	Seed int64
	// HostPrefix names the hosts `<prefix>-00042` (default "sim").
	HostPrefix string
	// ChurnPerTick is the probability that a host is replaced by a new one (new name,
	// fresh counters) at a tick, e.g. churn-per-hour * interval / 1h.
	ChurnPerTick float64
	Precision    lineproto.Precision
}

type host struct {
	name []byte
	gen  int
	rng  uint64
	vals []int64
}

// Generator holds the shared line templates and each host's state.
type Generator struct {
	opts        Options
	lines       []lineSpec
	series      []seriesSpec
	hosts       []host
	churnThresh uint64
}

// New builds the templates and the initial state of every host.
func New(opts Options) *Generator {
	if opts.HostPrefix == "" {
		opts.HostPrefix = "sim"
	}
	if opts.Precision == "" {
		opts.Precision = lineproto.PrecisionMS
	}
	g := &Generator{opts: opts}
	g.buildShape()
	if len(g.series) != SeriesPerHost {
		panic(fmt.Sprintf("BUG: the simulated host has %d series, want %d", len(g.series), SeriesPerHost))
	}
	switch p := opts.ChurnPerTick; {
	case p >= 1:
		g.churnThresh = math.MaxUint64
	case p > 0:
		g.churnThresh = uint64(p * (1 << 64))
	}
	g.hosts = make([]host, opts.Hosts)
	for i := range g.hosts {
		g.resetHost(i, 0)
	}
	return g
}

// Hosts is the number of virtual hosts.
func (g *Generator) Hosts() int { return len(g.hosts) }

// HostName is the current name of host i.
func (g *Generator) HostName(i int) string { return string(g.hosts[i].name) }

// SeriesPerHost is the number of field values each host emits per tick.
func (g *Generator) SeriesPerHost() int { return len(g.series) }

// LinesPerHost is the number of lines each host emits per tick.
func (g *Generator) LinesPerHost() int { return len(g.lines) }

func (g *Generator) line(measurement string, tags []lineproto.Tag, fields []string, spec func(field string) seriesSpec) {
	p := lineproto.AppendMeasurement(nil, measurement)
	for _, t := range tags {
		p = append(p, ',')
		p = lineproto.AppendTagPart(p, t.Key)
		p = append(p, '=')
		p = lineproto.AppendTagPart(p, t.Value)
	}
	p = append(p, ",host="...)
	ls := lineSpec{prefix: p, first: len(g.series)}
	for i, f := range fields {
		k := []byte{}
		if i > 0 {
			k = append(k, ',')
		}
		k = lineproto.AppendTagPart(k, f)
		k = append(k, '=')
		ls.keys = append(ls.keys, k)
		g.series = append(g.series, spec(f))
	}
	g.lines = append(g.lines, ls)
}

func same(s seriesSpec) func(string) seriesSpec { return func(string) seriesSpec { return s } }

func tags(kv ...string) []lineproto.Tag {
	var ts []lineproto.Tag
	for i := 0; i+1 < len(kv); i += 2 {
		ts = append(ts, lineproto.Tag{Key: kv[i], Value: kv[i+1]})
	}
	return ts
}

// buildShape lays out one host: 1,383 series in 120-odd lines.
func (g *Generator) buildShape() {
	gib := int64(1 << 30)
	// cpu: cpu-total and 16 CPUs x 10 fields = 170.
	cpuFields := []string{"usage_user", "usage_system", "usage_idle", "usage_nice", "usage_iowait",
		"usage_irq", "usage_softirq", "usage_steal", "usage_guest", "usage_guest_nice"}
	for c := -1; c < nCPUs; c++ {
		name := "cpu-total"
		if c >= 0 {
			name = "cpu" + strconv.Itoa(c)
		}
		g.line("cpu", tags("cpu", name), cpuFields, func(f string) seriesSpec {
			switch f {
			case "usage_idle":
				return seriesSpec{kindPct, 8000}
			case "usage_user":
				return seriesSpec{kindPct, 1200}
			case "usage_system":
				return seriesSpec{kindPct, 500}
			}
			return seriesSpec{kindPct, 50}
		})
	}
	// mem 13, swap 6, system 6, processes 9, kernel 5 = 39.
	g.line("mem", nil, []string{"total", "available", "used", "free", "cached", "buffered", "active",
		"inactive", "dirty", "shared", "slab", "used_percent", "available_percent"}, func(f string) seriesSpec {
		switch f {
		case "total":
			return seriesSpec{kindConst, 64 * gib}
		case "used_percent":
			return seriesSpec{kindPct, 4000}
		case "available_percent":
			return seriesSpec{kindPct, 6000}
		case "dirty":
			return seriesSpec{kindGaugeI, 64 << 20}
		}
		return seriesSpec{kindGaugeI, 8 * gib}
	})
	g.line("swap", nil, []string{"total", "used", "free", "used_percent", "in", "out"}, func(f string) seriesSpec {
		switch f {
		case "total":
			return seriesSpec{kindConst, 4 * gib}
		case "used_percent":
			return seriesSpec{kindPct, 200}
		case "in", "out":
			return seriesSpec{kindCounter, 4096}
		}
		return seriesSpec{kindGaugeI, gib}
	})
	g.line("system", nil, []string{"load1", "load5", "load15", "n_cpus", "n_users", "uptime"}, func(f string) seriesSpec {
		switch f {
		case "n_cpus":
			return seriesSpec{kindConst, nCPUs}
		case "n_users":
			return seriesSpec{kindConst, 2}
		case "uptime":
			return seriesSpec{kindCounter, 10}
		}
		return seriesSpec{kindGaugeF, 250}
	})
	g.line("processes", nil, []string{"total", "running", "sleeping", "blocked", "zombies", "stopped",
		"idle", "dead", "total_threads"}, func(f string) seriesSpec {
		switch f {
		case "total":
			return seriesSpec{kindGaugeI, 400}
		case "sleeping":
			return seriesSpec{kindGaugeI, 300}
		case "total_threads":
			return seriesSpec{kindGaugeI, 1500}
		case "idle":
			return seriesSpec{kindGaugeI, 90}
		}
		return seriesSpec{kindGaugeI, 2}
	})
	g.line("kernel", nil, []string{"boot_time", "context_switches", "entropy_avail", "interrupts",
		"processes_forked"}, func(f string) seriesSpec {
		switch f {
		case "boot_time":
			return seriesSpec{kindConst, 1763700000}
		case "entropy_avail":
			return seriesSpec{kindGaugeI, 256}
		}
		return seriesSpec{kindCounter, 50000}
	})
	// disk: 6 filesystems x 8 = 48.
	mounts := [][3]string{{"/", "nvme0n1p2", "ext4"}, {"/boot", "nvme0n1p1", "vfat"}, {"/home", "nvme1n1p1", "xfs"},
		{"/var", "nvme0n1p3", "ext4"}, {"/var/lib/data", "md0", "xfs"}, {"/mnt/backup disk", "sdb1", "ext4"}}
	for _, m := range mounts {
		g.line("disk", tags("device", m[1], "fstype", m[2], "mode", "rw", "path", m[0]),
			[]string{"total", "free", "used", "used_percent", "inodes_total", "inodes_free", "inodes_used", "inodes_used_percent"},
			func(f string) seriesSpec {
				switch f {
				case "total":
					return seriesSpec{kindConst, 512 * gib}
				case "inodes_total":
					return seriesSpec{kindConst, 32 << 20}
				case "used_percent", "inodes_used_percent":
					return seriesSpec{kindPct, 3500}
				case "inodes_free", "inodes_used":
					return seriesSpec{kindGaugeI, 16 << 20}
				}
				return seriesSpec{kindGaugeI, 256 * gib}
			})
	}
	// diskio: 8 devices x 11 = 88.
	for _, d := range []string{"nvme0n1", "nvme0n1p1", "nvme0n1p2", "nvme0n1p3", "nvme1n1", "nvme1n1p1", "sdb", "sdb1"} {
		g.line("diskio", tags("name", d), []string{"reads", "writes", "read_bytes", "write_bytes", "read_time",
			"write_time", "io_time", "weighted_io_time", "iops_in_progress", "merged_reads", "merged_writes"},
			func(f string) seriesSpec {
				switch f {
				case "read_bytes", "write_bytes":
					return seriesSpec{kindCounter, 4 << 20}
				case "iops_in_progress":
					return seriesSpec{kindGaugeI, 2}
				}
				return seriesSpec{kindCounter, 500}
			})
	}
	// net: 8 interfaces x 8 = 64.
	for _, n := range []string{"eth0", "eth1", "bond0", "docker0", "veth1a2b3c", "veth4d5e6f", "wg0", "tailscale0"} {
		g.line("net", tags("interface", n), []string{"bytes_recv", "packets_recv", "err_in", "drop_in", "bytes_sent",
			"packets_sent", "err_out", "drop_out"}, func(f string) seriesSpec {
			switch f {
			case "bytes_recv", "bytes_sent":
				return seriesSpec{kindCounter, 2 << 20}
			case "packets_recv", "packets_sent":
				return seriesSpec{kindCounter, 2000}
			}
			return seriesSpec{kindCounter, 1}
		})
	}
	// netstat: 13.
	g.line("netstat", nil, []string{"tcp_established", "tcp_syn_sent", "tcp_syn_recv", "tcp_fin_wait1",
		"tcp_fin_wait2", "tcp_time_wait", "tcp_close", "tcp_close_wait", "tcp_last_ack", "tcp_listen",
		"tcp_closing", "tcp_none", "udp_socket"}, same(seriesSpec{kindGaugeI, 40}))
	// interrupts: 20 IRQs x (16 CPUs + total) = 340; soft_interrupts: 10 x 17 = 170.
	perCPU := make([]string, 0, nCPUs+1)
	for c := 0; c < nCPUs; c++ {
		perCPU = append(perCPU, "CPU"+strconv.Itoa(c))
	}
	perCPU = append(perCPU, "total")
	irqs := []string{"0", "1", "8", "9", "12", "16", "24", "25", "26", "27", "NMI", "LOC", "SPU", "PMI", "IWI", "RES", "CAL", "TLB", "MCE", "MCP"}
	for _, irq := range irqs[:nIRQs] {
		g.line("interrupts", tags("irq", irq), perCPU, same(seriesSpec{kindCounter, 300}))
	}
	softirqs := []string{"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU"}
	for _, s := range softirqs[:nSoftirqs] {
		g.line("soft_interrupts", tags("irq", s), perCPU, same(seriesSpec{kindCounter, 200}))
	}
	// kernel_vmstat 192 and nstat (snmp 83 + netstat for the rest) complete the 1,383.
	g.line("kernel_vmstat", nil, vmstatFields, func(f string) seriesSpec {
		if len(f) > 3 && f[:3] == "nr_" {
			return seriesSpec{kindGaugeI, 100000}
		}
		return seriesSpec{kindCounter, 1000}
	})
	g.line("nstat", tags("name", "snmp"), snmpFields, same(seriesSpec{kindCounter, 100}))
	rest := SeriesPerHost - len(g.series)
	if rest < 0 || rest > len(netstatFields) {
		panic(fmt.Sprintf("BUG: %d series left for nstat netstat, have %d names", rest, len(netstatFields)))
	}
	g.line("nstat", tags("name", "netstat"), netstatFields[:rest], same(seriesSpec{kindCounter, 20}))
}

// splitmix64 seeds the per-host generators from (seed, host, generation).
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// next is xorshift64*: fast, and good enough for plausible-looking noise.
func next(s *uint64) uint64 {
	x := *s
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	*s = x
	return x * 2685821657736338717
}

// resetHost gives host i generation gen: a name and fresh values.
func (g *Generator) resetHost(i, gen int) {
	h := &g.hosts[i]
	h.gen = gen
	name := fmt.Sprintf("%s-%05d", g.opts.HostPrefix, i)
	if gen > 0 {
		name += "-g" + strconv.Itoa(gen)
	}
	h.name = lineproto.AppendTagPart(h.name[:0], name)
	h.rng = splitmix64(uint64(g.opts.Seed)*0x100000001b3 ^ uint64(i)<<20 ^ uint64(gen))
	if h.rng == 0 {
		h.rng = 1
	}
	if h.vals == nil {
		h.vals = make([]int64, len(g.series))
	}
	for j, s := range g.series {
		r := int64(next(&h.rng) >> 33) // 0 .. 2^31
		switch s.kind {
		case kindPct:
			h.vals[j] = min(s.scale/2+r%(s.scale+1), 10000)
		case kindGaugeF, kindGaugeI:
			h.vals[j] = s.scale/2 + r%(s.scale+1)
		case kindCounter:
			h.vals[j] = r % (s.scale*1000 + 1)
		case kindConst:
			h.vals[j] = s.scale
		}
	}
}

// below returns a value in [0, n) from the random r without a division (Lemire's
// multiply-shift), which matters at ~1,400 calls per host and tick.
func below(r, n uint64) int64 {
	hi, _ := bits.Mul64(r, n)
	return int64(hi)
}

// step advances one series by one tick.
func step(v int64, s seriesSpec, r uint64) int64 {
	switch s.kind {
	case kindPct:
		v += below(r, 201) - 100 // +-1.00 percentage point
		if v < 0 {
			v = -v
		}
		if v > 10000 {
			v = 20000 - v
		}
	case kindGaugeF, kindGaugeI:
		span := s.scale/50 + 1 // +-2 % of the scale
		v += below(r, uint64(2*span+1)) - span
		if v < 0 {
			v = -v
		}
		if v > 2*s.scale {
			v = 2*s.scale - (v - 2*s.scale)
		}
	case kindCounter:
		v += below(r, uint64(2*s.scale+1))
	}
	return v
}

// AppendHost advances host i by one tick and appends its lines, stamped ts
// (in the generator's precision), to dst. Hosts may be generated concurrently as
// long as each host is touched by one goroutine at a time.
func (g *Generator) AppendHost(dst []byte, i int, ts int64) []byte {
	h := &g.hosts[i]
	if g.churnThresh > 0 && next(&h.rng) < g.churnThresh {
		g.resetHost(i, h.gen+1)
	}
	var tsBuf [24]byte
	tsb := strconv.AppendInt(tsBuf[:0], ts, 10)
	vals := h.vals
	for li := range g.lines {
		l := &g.lines[li]
		dst = append(dst, l.prefix...)
		dst = append(dst, h.name...)
		dst = append(dst, ' ')
		for k, key := range l.keys {
			j := l.first + k
			s := g.series[j]
			v := step(vals[j], s, next(&h.rng))
			vals[j] = v
			dst = append(dst, key...)
			switch s.kind {
			case kindPct, kindGaugeF:
				dst = appendCenti(dst, v)
			default:
				dst = strconv.AppendInt(dst, v, 10)
				dst = append(dst, 'i')
			}
		}
		dst = append(dst, ' ')
		dst = append(dst, tsb...)
		dst = append(dst, '\n')
	}
	return dst
}

// appendCenti prints v/100 with two decimals (v >= 0).
func appendCenti(dst []byte, v int64) []byte {
	dst = strconv.AppendInt(dst, v/100, 10)
	c := v % 100
	return append(dst, '.', byte('0'+c/10), byte('0'+c%10))
}
