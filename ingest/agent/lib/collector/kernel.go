package collector

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"vigil/agent/lib/lineproto"
)

// Kernel reports kernel-wide counters from /proc/stat, like Telegraf's kernel input:
// boot time, context switches, interrupts, forks, and the entropy pool when readable.
type Kernel struct{ opts Options }

// Name implements Collector.
func (c *Kernel) Name() string { return "kernel" }

// Collect implements Collector.
func (c *Kernel) Collect(acc *Accumulator) error {
	data, err := readFile(c.opts.proc("stat"))
	if err != nil {
		return err
	}
	want := map[string]string{"btime": "boot_time", "ctxt": "context_switches", "intr": "interrupts", "processes": "processes_forked"}
	var fields []lineproto.Field
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20) // the intr line lists every IRQ
	for sc.Scan() {
		key, rest, _ := strings.Cut(sc.Text(), " ")
		name, ok := want[key]
		if !ok {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
		v, err := strconv.ParseUint(first, 10, 64)
		if err != nil {
			return fmt.Errorf("/proc/stat: cannot parse %s %q: %w", key, first, err)
		}
		fields = append(fields, lineproto.U(name, v))
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("/proc/stat: %w", err)
	}
	if len(fields) == 0 {
		return fmt.Errorf("/proc/stat has none of btime, ctxt, intr, processes")
	}
	if e, err := os.ReadFile(c.opts.proc("sys", "kernel", "random", "entropy_avail")); err == nil {
		if v, err := strconv.ParseInt(strings.TrimSpace(string(e)), 10, 64); err == nil {
			fields = append(fields, lineproto.I("entropy_avail", v))
		}
	}
	acc.Add("kernel", nil, fields...)
	return nil
}
