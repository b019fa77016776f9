package collector

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"vigil/agent/lib/lineproto"
)

// System reports load averages, the CPU count and uptime, like Telegraf's system input.
type System struct{ opts Options }

// Name implements Collector.
func (c *System) Name() string { return "system" }

// Collect implements Collector.
func (c *System) Collect(acc *Accumulator) error {
	load, err := readFile(c.opts.proc("loadavg"))
	if err != nil {
		return err
	}
	fs := strings.Fields(string(load))
	if len(fs) < 3 {
		return fmt.Errorf("/proc/loadavg: want 3 load averages, got %q", load)
	}
	var l [3]float64
	for i := range l {
		if l[i], err = strconv.ParseFloat(fs[i], 64); err != nil {
			return fmt.Errorf("/proc/loadavg: cannot parse %q: %w", fs[i], err)
		}
	}
	up, err := readFile(c.opts.proc("uptime"))
	if err != nil {
		return err
	}
	ufs := strings.Fields(string(up))
	if len(ufs) == 0 {
		return fmt.Errorf("/proc/uptime is empty")
	}
	uptime, err := strconv.ParseFloat(ufs[0], 64)
	if err != nil {
		return fmt.Errorf("/proc/uptime: cannot parse %q: %w", ufs[0], err)
	}
	stat, err := readFile(c.opts.proc("stat"))
	if err != nil {
		return err
	}
	nCPUs := 0
	for _, line := range bytes.Split(stat, []byte("\n")) {
		if len(line) > 3 && bytes.HasPrefix(line, []byte("cpu")) && line[3] >= '0' && line[3] <= '9' {
			nCPUs++
		}
	}
	acc.Add("system", nil,
		lineproto.F("load1", l[0]),
		lineproto.F("load5", l[1]),
		lineproto.F("load15", l[2]),
		lineproto.I("n_cpus", int64(nCPUs)),
		lineproto.I("uptime", int64(uptime)),
	)
	return nil
}
