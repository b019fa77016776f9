package main

import (
	"flag"
	"testing"
)

// vigil-storage's own default for a flag VictoriaMetrics declares: what -help shows and what
// vmstorage.Init reads when the command line does not set it.
func TestSetDefaultOfVictoriaMetricsFlag(t *testing.T) {
	f := flag.Lookup("dedup.minScrapeInterval")
	if f == nil {
		t.Fatal("vmstorage no longer declares -dedup.minScrapeInterval")
	}
	defer func(v string) { _ = f.Value.Set(v); f.DefValue = v }(f.Value.String())
	setDefault("dedup.minScrapeInterval", dedupDefault)
	if f.DefValue != "1ms" || f.Value.String() != "1ms" {
		t.Fatalf("-dedup.minScrapeInterval: default %q, value %q; want 1ms", f.DefValue, f.Value.String())
	}
}
