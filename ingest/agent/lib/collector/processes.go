package collector

import (
	"bytes"
	"os"
	"strconv"

	"vigil/agent/lib/lineproto"
)

// Processes counts processes by state from /proc/<pid>/stat, like Telegraf's processes input.
type Processes struct{ opts Options }

// Name implements Collector.
func (c *Processes) Name() string { return "processes" }

// Collect implements Collector.
func (c *Processes) Collect(acc *Accumulator) error {
	entries, err := os.ReadDir(c.opts.proc())
	if err != nil {
		return err
	}
	var total, running, sleeping, blocked, zombies, stopped, idle, dead, threads int64
	for _, e := range entries {
		name := e.Name()
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		data, err := os.ReadFile(c.opts.proc(name, "stat"))
		if err != nil {
			continue // the process exited between ReadDir and ReadFile
		}
		state, nThreads, ok := parsePidStat(data)
		if !ok {
			continue
		}
		total++
		threads += nThreads
		switch state {
		case 'R':
			running++
		case 'S':
			sleeping++
		case 'D':
			blocked++
		case 'Z':
			zombies++
		case 'T', 't':
			stopped++
		case 'I':
			idle++
		case 'X', 'x':
			dead++
		}
	}
	acc.Add("processes", nil,
		lineproto.I("total", total),
		lineproto.I("running", running),
		lineproto.I("sleeping", sleeping),
		lineproto.I("blocked", blocked),
		lineproto.I("zombies", zombies),
		lineproto.I("stopped", stopped),
		lineproto.I("idle", idle),
		lineproto.I("dead", dead),
		lineproto.I("total_threads", threads),
	)
	return nil
}

// parsePidStat returns the state and thread count of a /proc/<pid>/stat line. The command
// name may contain spaces and parentheses, so fields are counted after the last ')'.
func parsePidStat(data []byte) (state byte, threads int64, ok bool) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, 0, false
	}
	fs := bytes.Fields(data[i+1:])
	// fs[0] is field 3 (state); num_threads is field 20.
	if len(fs) < 18 || len(fs[0]) != 1 {
		return 0, 0, false
	}
	n, err := strconv.ParseInt(string(fs[17]), 10, 64)
	if err != nil {
		return 0, 0, false
	}
	return fs[0][0], n, true
}
