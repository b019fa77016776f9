package collector

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"vigil/agent/lib/lineproto"
)

// Net reports cumulative interface counters from /proc/net/dev, like Telegraf's net
// input. The loopback interface is skipped.
type Net struct{ opts Options }

// Name implements Collector.
func (c *Net) Name() string { return "net" }

// Collect implements Collector.
func (c *Net) Collect(acc *Accumulator) error {
	data, err := readFile(c.opts.proc("net", "dev"))
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	lineNum := 0
	for sc.Scan() {
		lineNum++
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue // the two header lines
		}
		name = strings.TrimSpace(name)
		if name == "lo" {
			continue
		}
		fs := strings.Fields(rest)
		if len(fs) < 16 {
			return fmt.Errorf("/proc/net/dev line %d: want 16 counters for %s, got %d", lineNum, name, len(fs))
		}
		var v [16]uint64
		for i := range v {
			x, err := strconv.ParseUint(fs[i], 10, 64)
			if err != nil {
				return fmt.Errorf("/proc/net/dev line %d: cannot parse counter %d for %s: %w", lineNum, i+1, name, err)
			}
			v[i] = x
		}
		acc.Add("net", []lineproto.Tag{{Key: "interface", Value: name}},
			lineproto.U("bytes_recv", v[0]),
			lineproto.U("packets_recv", v[1]),
			lineproto.U("err_in", v[2]),
			lineproto.U("drop_in", v[3]),
			lineproto.U("bytes_sent", v[8]),
			lineproto.U("packets_sent", v[9]),
			lineproto.U("err_out", v[10]),
			lineproto.U("drop_out", v[11]),
		)
	}
	return sc.Err()
}
