package collector

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"vigil/agent/lib/lineproto"
)

// parseMeminfo returns /proc/meminfo in bytes, keyed by the names before the colon.
func parseMeminfo(data []byte) (map[string]uint64, error) {
	m := map[string]uint64{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		key, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		fs := strings.Fields(rest)
		if len(fs) == 0 {
			continue
		}
		v, err := strconv.ParseUint(fs[0], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("/proc/meminfo: cannot parse %q: %w", line, err)
		}
		if len(fs) > 1 && fs[1] == "kB" {
			v *= 1024
		}
		m[key] = v
	}
	if _, ok := m["MemTotal"]; !ok {
		return nil, fmt.Errorf("/proc/meminfo has no MemTotal")
	}
	return m, sc.Err()
}

// Mem reports memory usage like Telegraf's mem input. `used` follows free(1):
// total - free - buffers - cached, where cached includes reclaimable slab.
type Mem struct{ opts Options }

// Name implements Collector.
func (c *Mem) Name() string { return "mem" }

// Collect implements Collector.
func (c *Mem) Collect(acc *Accumulator) error {
	data, err := readFile(c.opts.proc("meminfo"))
	if err != nil {
		return err
	}
	m, err := parseMeminfo(data)
	if err != nil {
		return err
	}
	total := m["MemTotal"]
	free := m["MemFree"]
	buffers := m["Buffers"]
	cached := m["Cached"] + m["SReclaimable"]
	available, ok := m["MemAvailable"]
	if !ok {
		// Kernels before 3.14 do not report MemAvailable.
		available = free + buffers + cached
	}
	used := int64(total) - int64(free) - int64(buffers) - int64(cached)
	if used < 0 {
		used = int64(total) - int64(free)
	}
	acc.Add("mem", nil,
		lineproto.U("total", total),
		lineproto.U("available", available),
		lineproto.I("used", used),
		lineproto.U("free", free),
		lineproto.U("cached", cached),
		lineproto.U("buffered", buffers),
		lineproto.U("active", m["Active"]),
		lineproto.U("inactive", m["Inactive"]),
		lineproto.U("dirty", m["Dirty"]),
		lineproto.U("shared", m["Shmem"]),
		lineproto.U("slab", m["Slab"]),
		lineproto.F("used_percent", percent(float64(used), float64(total))),
		lineproto.F("available_percent", percent(float64(available), float64(total))),
	)
	return nil
}
