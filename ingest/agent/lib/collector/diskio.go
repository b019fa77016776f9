package collector

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"vigil/agent/lib/lineproto"
)

// DiskIO reports the cumulative counters of /proc/diskstats per block device, like
// Telegraf's diskio input. Loop and RAM devices, and devices that never did any I/O,
// are skipped.
type DiskIO struct{ opts Options }

// Name implements Collector.
func (c *DiskIO) Name() string { return "diskio" }

// diskStat is one /proc/diskstats line; times are milliseconds.
type diskStat struct {
	name                                      string
	reads, readsMerged, sectorsRead, readTime uint64
	writes, writesMerged, sectorsWritten      uint64
	writeTime, inProgress, ioTime, weighted   uint64
}

// Collect implements Collector.
func (c *DiskIO) Collect(acc *Accumulator) error {
	data, err := readFile(c.opts.proc("diskstats"))
	if err != nil {
		return err
	}
	stats, err := parseDiskstats(data)
	if err != nil {
		return err
	}
	for _, s := range stats {
		acc.Add("diskio", []lineproto.Tag{{Key: "name", Value: s.name}},
			lineproto.U("reads", s.reads),
			lineproto.U("writes", s.writes),
			// The kernel always counts 512-byte sectors here, whatever the device's block size.
			lineproto.U("read_bytes", s.sectorsRead*512),
			lineproto.U("write_bytes", s.sectorsWritten*512),
			lineproto.U("read_time", s.readTime),
			lineproto.U("write_time", s.writeTime),
			lineproto.U("io_time", s.ioTime),
			lineproto.U("weighted_io_time", s.weighted),
			lineproto.U("iops_in_progress", s.inProgress),
			lineproto.U("merged_reads", s.readsMerged),
			lineproto.U("merged_writes", s.writesMerged),
		)
	}
	return nil
}

func parseDiskstats(data []byte) ([]diskStat, error) {
	var out []diskStat
	sc := bufio.NewScanner(bytes.NewReader(data))
	lineNum := 0
	for sc.Scan() {
		lineNum++
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		if len(fs) < 14 {
			return nil, fmt.Errorf("/proc/diskstats line %d: want at least 14 columns, got %d", lineNum, len(fs))
		}
		name := fs[2]
		if strings.HasPrefix(name, "loop") || strings.HasPrefix(name, "ram") {
			continue
		}
		var v [11]uint64
		for i := range v {
			x, err := strconv.ParseUint(fs[3+i], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("/proc/diskstats line %d: cannot parse column %d for %s: %w", lineNum, 4+i, name, err)
			}
			v[i] = x
		}
		if v[0] == 0 && v[4] == 0 {
			continue
		}
		out = append(out, diskStat{
			name: name, reads: v[0], readsMerged: v[1], sectorsRead: v[2], readTime: v[3],
			writes: v[4], writesMerged: v[5], sectorsWritten: v[6], writeTime: v[7],
			inProgress: v[8], ioTime: v[9], weighted: v[10],
		})
	}
	return out, sc.Err()
}
