// Package collector reads host metrics from /proc and /sys and turns them into
// line-protocol points named like Telegraf's inputs (cpu, mem, swap, disk, diskio,
// net, system, processes), so dashboards built for Telegraf data work unchanged.
//
// Every collector reads below Options.ProcRoot (and Options.HostRoot for statfs),
// so tests run them against fixture trees in testdata/.
package collector

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"vigil/agent/lib/lineproto"
)

// Collector gathers one family of measurements.
type Collector interface {
	// Name is the collector's name as used in configuration (`cpu`, `mem`, ...).
	Name() string
	// Collect appends the current points to acc.
	Collect(acc *Accumulator) error
}

// Accumulator receives the points of one collection round.
type Accumulator struct {
	// Now is the timestamp given to every point of the round.
	Now    time.Time
	Points []lineproto.Point
}

// Add appends a point stamped with acc.Now.
func (acc *Accumulator) Add(measurement string, tags []lineproto.Tag, fields ...lineproto.Field) {
	acc.Points = append(acc.Points, lineproto.Point{Measurement: measurement, Tags: tags, Fields: fields, Time: acc.Now})
}

// Options say where the collectors find the host's files.
type Options struct {
	// ProcRoot is the procfs mount, /proc by default.
	ProcRoot string
	// HostRoot is prefixed to mount points before statfs, for agents running in a
	// container with the host's / mounted somewhere (e.g. /hostfs). Empty means /.
	HostRoot string
}

func (o Options) proc(elem ...string) string {
	root := o.ProcRoot
	if root == "" {
		root = "/proc"
	}
	return filepath.Join(append([]string{root}, elem...)...)
}

var constructors = map[string]func(Options) Collector{
	"cpu":       func(o Options) Collector { return &CPU{opts: o} },
	"mem":       func(o Options) Collector { return &Mem{opts: o} },
	"swap":      func(o Options) Collector { return &Swap{opts: o} },
	"disk":      func(o Options) Collector { return &Disk{opts: o, statfs: statfs} },
	"diskio":    func(o Options) Collector { return &DiskIO{opts: o} },
	"net":       func(o Options) Collector { return &Net{opts: o} },
	"system":    func(o Options) Collector { return &System{opts: o} },
	"processes": func(o Options) Collector { return &Processes{opts: o} },
	"kernel":    func(o Options) Collector { return &Kernel{opts: o} },
}

// Names lists every available collector, sorted.
func Names() []string {
	names := make([]string, 0, len(constructors))
	for n := range constructors {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// New returns the collectors with the given names, in the given order.
func New(names []string, opts Options) ([]Collector, error) {
	var cs []Collector
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" || seen[n] {
			continue
		}
		ctor, ok := constructors[n]
		if !ok {
			return nil, fmt.Errorf("unknown collector %q; available: %s", n, strings.Join(Names(), ", "))
		}
		seen[n] = true
		cs = append(cs, ctor(opts))
	}
	return cs, nil
}

func readFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", path, err)
	}
	return data, nil
}

func percent(part, total float64) float64 {
	if total <= 0 {
		return 0
	}
	return part / total * 100
}
