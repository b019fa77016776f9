package collector

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"vigil/agent/lib/lineproto"
)

// CPU reports per-CPU and total usage percentages over the interval since the
// previous collection, from /proc/stat. The first collection only primes the counters.
type CPU struct {
	opts Options
	prev map[string]cpuTimes
}

// Name implements Collector.
func (c *CPU) Name() string { return "cpu" }

// cpuTimes holds the jiffies of one /proc/stat cpu line, in the kernel's order.
type cpuTimes struct {
	user, nice, system, idle, iowait, irq, softirq, steal, guest, guestNice float64
}

// total excludes guest and guest_nice: the kernel already counts them in user and nice.
func (t cpuTimes) total() float64 {
	return t.user + t.nice + t.system + t.idle + t.iowait + t.irq + t.softirq + t.steal
}

// Collect implements Collector.
func (c *CPU) Collect(acc *Accumulator) error {
	data, err := readFile(c.opts.proc("stat"))
	if err != nil {
		return err
	}
	cur, order, err := parseProcStatCPU(data)
	if err != nil {
		return err
	}
	prev := c.prev
	c.prev = cur
	if prev == nil {
		return nil
	}
	for _, name := range order {
		p, ok := prev[name]
		if !ok {
			continue
		}
		n := cur[name]
		dt := n.total() - p.total()
		if dt <= 0 {
			// No time passed, or counters went backwards (CPU hotplug); wait for the next round.
			continue
		}
		d := func(a, b float64) float64 {
			v := (a - b) / dt * 100
			if v < 0 {
				return 0
			}
			if v > 100 {
				return 100
			}
			return v
		}
		tag := name
		if name == "cpu" {
			tag = "cpu-total"
		}
		acc.Add("cpu", []lineproto.Tag{{Key: "cpu", Value: tag}},
			lineproto.F("usage_user", d(n.user-n.guest, p.user-p.guest)),
			lineproto.F("usage_system", d(n.system, p.system)),
			lineproto.F("usage_idle", d(n.idle, p.idle)),
			lineproto.F("usage_nice", d(n.nice-n.guestNice, p.nice-p.guestNice)),
			lineproto.F("usage_iowait", d(n.iowait, p.iowait)),
			lineproto.F("usage_irq", d(n.irq, p.irq)),
			lineproto.F("usage_softirq", d(n.softirq, p.softirq)),
			lineproto.F("usage_steal", d(n.steal, p.steal)),
			lineproto.F("usage_guest", d(n.guest, p.guest)),
			lineproto.F("usage_guest_nice", d(n.guestNice, p.guestNice)),
		)
	}
	return nil
}

// parseProcStatCPU returns the cpu lines of /proc/stat keyed by name ("cpu", "cpu0", ...)
// and the names in file order.
func parseProcStatCPU(data []byte) (map[string]cpuTimes, []string, error) {
	m := map[string]cpuTimes{}
	var order []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	lineNum := 0
	for sc.Scan() {
		lineNum++
		line := sc.Text()
		if !strings.HasPrefix(line, "cpu") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) < 5 {
			return nil, nil, fmt.Errorf("/proc/stat line %d: want at least 4 counters after %q, got %q", lineNum, fs[0], line)
		}
		var v [10]float64
		for i := 1; i < len(fs) && i <= 10; i++ {
			x, err := strconv.ParseUint(fs[i], 10, 64)
			if err != nil {
				return nil, nil, fmt.Errorf("/proc/stat line %d: cannot parse counter %d of %q: %w", lineNum, i, fs[0], err)
			}
			v[i-1] = float64(x)
		}
		m[fs[0]] = cpuTimes{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]}
		order = append(order, fs[0])
	}
	if len(order) == 0 {
		return nil, nil, fmt.Errorf("/proc/stat has no cpu lines")
	}
	return m, order, sc.Err()
}
