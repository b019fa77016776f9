package collector

import "vigil/agent/lib/lineproto"

// Swap reports swap usage like Telegraf's swap input.
type Swap struct{ opts Options }

// Name implements Collector.
func (c *Swap) Name() string { return "swap" }

// Collect implements Collector.
func (c *Swap) Collect(acc *Accumulator) error {
	data, err := readFile(c.opts.proc("meminfo"))
	if err != nil {
		return err
	}
	m, err := parseMeminfo(data)
	if err != nil {
		return err
	}
	total := m["SwapTotal"]
	free := m["SwapFree"]
	used := uint64(0)
	if total > free {
		used = total - free
	}
	acc.Add("swap", nil,
		lineproto.U("total", total),
		lineproto.U("used", used),
		lineproto.U("free", free),
		lineproto.F("used_percent", percent(float64(used), float64(total))),
	)
	return nil
}
