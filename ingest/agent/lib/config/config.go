// Package config holds vigil-agent's settings and where they come from.
//
// Precedence, highest first: command-line flags, the TOML file named by -config,
// the environment (VIGIL_GATEWAY_URL, VIGIL_INGEST_KEY, VIGIL_INTERNAL_TOKEN,
// VIGIL_HOME, VIGIL_AGENT_INTERVAL), built-in defaults. Every flag has a TOML key;
// see vigil-agent.example.toml.
package config

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"vigil/agent/lib/collector"
	"vigil/agent/lib/lineproto"
	"vigil/agent/lib/push"
	"vigil/agent/lib/tenancy"
)

// Duration is a time.Duration written as "10s" in TOML.
type Duration time.Duration

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("invalid duration %q: want e.g. \"10s\" or \"1m30s\"", b)
	}
	*d = Duration(v)
	return nil
}

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// Config is every setting of vigil-agent. TOML keys are given in the tags.
type Config struct {
	// ConfigPath is the -config flag itself; not read from the file.
	ConfigPath string `toml:"-"`
	Once       bool   `toml:"-"`
	Version    bool   `toml:"-"`

	Host       string            `toml:"host"`
	Interval   Duration          `toml:"interval"`
	Collectors []string          `toml:"collectors"`
	Tags       map[string]string `toml:"tags"`
	ProcRoot   string            `toml:"proc_root"`
	HostRoot   string            `toml:"host_root"`

	Output  Output   `toml:"output"`
	Batch   Batch    `toml:"batch"`
	Buffer  Buffer   `toml:"buffer"`
	Scrape  Scrape   `toml:"scrape"`
	Sim     Simulate `toml:"simulate"`
	Backoff Backoff  `toml:"backoff"`
}

// Output says where batches go.
type Output struct {
	URL       string   `toml:"url"`
	Target    string   `toml:"target"`
	Token     string   `toml:"token"`
	TokenFile string   `toml:"token_file"`
	Workspace string   `toml:"workspace"`
	Database  string   `toml:"database"`
	Precision string   `toml:"precision"`
	Timeout   Duration `toml:"timeout"`
	Gzip      bool     `toml:"gzip"`
}

// Batch bounds one request body (uncompressed).
type Batch struct {
	MaxLines int `toml:"max_lines"`
	MaxBytes int `toml:"max_bytes"`
}

// Buffer is the on-disk queue.
type Buffer struct {
	Path     string `toml:"path"`
	MaxBytes int64  `toml:"max_bytes"`
}

// Scrape lists Prometheus endpoints to forward.
type Scrape struct {
	Targets         []string `toml:"targets"`
	Timeout         Duration `toml:"timeout"`
	BearerTokenFile string   `toml:"bearer_token_file"`
	// BearerToken is BearerTokenFile's content, read when the configuration is resolved.
	BearerToken string `toml:"-"`
}

// Simulate configures the load generator.
type Simulate struct {
	Hosts      int      `toml:"hosts"`
	Interval   Duration `toml:"interval"`
	Churn      float64  `toml:"churn"`
	Seed       int64    `toml:"seed"`
	Duration   Duration `toml:"duration"`
	MaxPoints  int64    `toml:"max_points"`
	Backfill   Duration `toml:"backfill"`
	HostPrefix string   `toml:"host_prefix"`
	Workers    int      `toml:"workers"`
	Senders    int      `toml:"senders"`
}

// Backoff is the retry schedule for failed sends.
type Backoff struct {
	Initial Duration `toml:"initial"`
	Max     Duration `toml:"max"`
}

// Defaults returns the built-in defaults overlaid with the environment.
func Defaults(getenv func(string) string) *Config {
	c := &Config{
		Interval:   Duration(10 * time.Second),
		Collectors: collector.Names(),
		Output: Output{
			URL:       "http://127.0.0.1:8001",
			Target:    string(push.TargetGateway),
			Precision: string(lineproto.PrecisionMS),
			Timeout:   Duration(30 * time.Second),
			Gzip:      true,
		},
		Batch:   Batch{MaxLines: 5000, MaxBytes: 1 << 20},
		Buffer:  Buffer{Path: "vigil-agent-buffer", MaxBytes: 512 << 20},
		Scrape:  Scrape{Timeout: Duration(10 * time.Second)},
		Sim:     Simulate{Interval: Duration(10 * time.Second), Seed: 1, HostPrefix: "sim", Senders: 4},
		Backoff: Backoff{Initial: Duration(time.Second), Max: Duration(time.Minute)},
	}
	if v := getenv("VIGIL_GATEWAY_URL"); v != "" {
		c.Output.URL = v
	}
	if v := getenv("VIGIL_INGEST_KEY"); v != "" {
		c.Output.Token = v
	}
	if v := getenv("VIGIL_HOME"); v != "" {
		c.Buffer.Path = filepath.Join(v, "data", "agent", "buffer")
	}
	if v := getenv("VIGIL_AGENT_INTERVAL"); v != "" {
		if d, err := time.ParseDuration(v); err == nil && d > 0 {
			c.Interval = Duration(d)
		}
	}
	return c
}

// RegisterFlags binds every flag to c, with c's current values as defaults.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.ConfigPath, "config", c.ConfigPath, "Path to a TOML config file; flags given on the command line override it. See vigil-agent.example.toml")
	fs.BoolVar(&c.Once, "once", c.Once, "Collect one round, print it as line protocol to stdout and exit")
	fs.BoolVar(&c.Version, "version", c.Version, "Print the version and exit")

	fs.StringVar(&c.Host, "host", c.Host, "Value of the host tag on every point. Default: the machine's hostname")
	durationVar(fs, &c.Interval, "interval", "How often to collect. Env: VIGIL_AGENT_INTERVAL")
	listVar(fs, &c.Collectors, "collectors", "Comma-separated collectors to run; available: "+strings.Join(collector.Names(), ", ")+". Empty runs none (e.g. with -scrape.targets only)")
	mapVar(fs, &c.Tags, "tags", "Extra tags on every point, as comma-separated key=value pairs, e.g. env=prod,dc=fra1")
	fs.StringVar(&c.ProcRoot, "collect.procRoot", c.ProcRoot, "Where procfs is mounted. Default: /proc")
	fs.StringVar(&c.HostRoot, "collect.hostRoot", c.HostRoot, "Prefix for mount points when reading filesystem usage, for agents in a container with the host's / mounted there (e.g. /hostfs)")

	fs.StringVar(&c.Output.URL, "gateway.url", c.Output.URL, "Base URL to send to (the ingest gateway, or the -target server). Env: VIGIL_GATEWAY_URL")
	fs.StringVar(&c.Output.Target, "target", c.Output.Target, "Kind of server at -gateway.url: gateway (POST /v1/write/metric), storage (vigil-storage POST /internal/v1/write/line), vm (VictoriaMetrics /influx/write) or influx (InfluxDB 1.x /write)")
	fs.Var(secretValue{&c.Output.Token}, "token", "Workspace ingest key for -target=gateway, internal token for -target=storage. Env: VIGIL_INGEST_KEY (gateway), VIGIL_INTERNAL_TOKEN (storage). See also -token.file")
	fs.StringVar(&c.Output.TokenFile, "token.file", c.Output.TokenFile, "Read the token from this file (surrounding whitespace is trimmed). Overrides -token")
	fs.StringVar(&c.Output.Workspace, "storage.workspace", c.Output.Workspace, "Workspace id sent as X-Vigil-Workspace with -target=storage")
	fs.StringVar(&c.Output.Database, "influx.db", c.Output.Database, "Database for -target=influx. Default: vigil")
	fs.StringVar(&c.Output.Precision, "precision", c.Output.Precision, "Timestamp precision of the lines sent: ns, us, ms or s")
	durationVar(fs, &c.Output.Timeout, "send.timeout", "Timeout of one HTTP request to the server")
	fs.BoolVar(&c.Output.Gzip, "send.gzip", c.Output.Gzip, "Compress request bodies with gzip. -send.gzip=false saves CPU where bandwidth is free, e.g. a load test on loopback sharing the machine with the server")
	durationVar(fs, &c.Backoff.Initial, "send.retryMinInterval", "First delay before retrying a failed send; doubles up to -send.retryMaxInterval, with jitter. A server's Retry-After takes precedence")
	durationVar(fs, &c.Backoff.Max, "send.retryMaxInterval", "Longest delay between retries of a failed send")

	fs.IntVar(&c.Batch.MaxLines, "batch.maxLines", c.Batch.MaxLines, "Most lines in one request")
	fs.IntVar(&c.Batch.MaxBytes, "batch.maxBytes", c.Batch.MaxBytes, "Most uncompressed bytes in one request; keep it under the gateway's max body size")
	fs.StringVar(&c.Buffer.Path, "buffer.path", c.Buffer.Path, "Directory of the on-disk buffer that holds batches until the server accepts them. Default with VIGIL_HOME set: $VIGIL_HOME/data/agent/buffer")
	fs.Int64Var(&c.Buffer.MaxBytes, "buffer.maxBytes", c.Buffer.MaxBytes, "Bound of the on-disk buffer; when full, the oldest batches are dropped and counted in vigil_agent dropped_points")

	listVar(fs, &c.Scrape.Targets, "scrape.targets", "Comma-separated Prometheus text endpoints to scrape every -interval and forward, e.g. http://127.0.0.1:9100/metrics")
	durationVar(fs, &c.Scrape.Timeout, "scrape.timeout", "Timeout of one scrape")
	fs.StringVar(&c.Scrape.BearerTokenFile, "scrape.bearerTokenFile", c.Scrape.BearerTokenFile, "Send the token in this file as 'Authorization: Bearer' to every scrape target, e.g. vigil-storage's internal token for its /metrics. Every target gets it: list only targets you trust with it")

	fs.IntVar(&c.Sim.Hosts, "simulate", c.Sim.Hosts, "Instead of collecting, generate metrics for this many virtual hosts (1,383 series each) and send them to -target; a load generator")
	durationVar(fs, &c.Sim.Interval, "simulate.interval", "Time step between two samples of a simulated series")
	fs.Float64Var(&c.Sim.Churn, "simulate.churn", c.Sim.Churn, "Fraction of simulated hosts replaced by new ones per hour (new host tag, fresh series), e.g. 0.1")
	fs.Int64Var(&c.Sim.Seed, "simulate.seed", c.Sim.Seed, "Seed of the simulation; the same seed and options produce the same hosts and values, tick by tick")
	durationVar(fs, &c.Sim.Duration, "simulate.duration", "Stop the simulation after this long and print its throughput. 0: run until stopped or -simulate.maxPoints")
	fs.Int64Var(&c.Sim.MaxPoints, "simulate.maxPoints", c.Sim.MaxPoints, "Stop the simulation after generating this many points (field values). 0: no limit")
	durationVar(fs, &c.Sim.Backfill, "simulate.backfill", "Start the simulated timestamps this far in the past and send as fast as the target accepts until they reach now (for throughput tests). 0: real time")
	fs.StringVar(&c.Sim.HostPrefix, "simulate.hostPrefix", c.Sim.HostPrefix, "Simulated hosts are named <prefix>-00000, <prefix>-00001, ...")
	fs.IntVar(&c.Sim.Workers, "simulate.workers", c.Sim.Workers, "Goroutines generating and compressing batches. Default: the number of CPUs")
	fs.IntVar(&c.Sim.Senders, "simulate.senders", c.Sim.Senders, "Concurrent HTTP requests to the target")
}

// Load resolves the configuration from args, the -config file and the environment.
func Load(args []string, getenv func(string) string, output *os.File) (*Config, error) {
	// First pass: find -config (and fail early on unknown flags or -help).
	probe := Defaults(getenv)
	fs := flag.NewFlagSet("vigil-agent", flag.ContinueOnError)
	if output != nil {
		fs.SetOutput(output)
	}
	probe.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q; flags take the form -name=value", fs.Arg(0))
	}

	c := Defaults(getenv)
	if probe.ConfigPath != "" {
		if err := c.loadFile(probe.ConfigPath); err != nil {
			return nil, err
		}
	}
	fs = flag.NewFlagSet("vigil-agent", flag.ContinueOnError)
	if output != nil {
		fs.SetOutput(output)
	}
	c.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if err := c.resolve(getenv); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Config) loadFile(path string) error {
	md, err := toml.DecodeFile(path, c)
	if err != nil {
		return fmt.Errorf("cannot read config file %s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return fmt.Errorf("config file %s: unknown keys %s", path, strings.Join(keys, ", "))
	}
	return nil
}

// resolve fills derived values and validates, naming the setting at fault.
func (c *Config) resolve(getenv func(string) string) error {
	if c.Output.TokenFile != "" {
		data, err := os.ReadFile(c.Output.TokenFile)
		if err != nil {
			return fmt.Errorf("cannot read -token.file: %w", err)
		}
		c.Output.Token = strings.TrimSpace(string(data))
	}
	if c.Scrape.BearerTokenFile != "" {
		data, err := os.ReadFile(c.Scrape.BearerTokenFile)
		if err != nil {
			return fmt.Errorf("cannot read -scrape.bearerTokenFile: %w", err)
		}
		c.Scrape.BearerToken = strings.TrimSpace(string(data))
	}
	if c.Output.Target == string(push.TargetStorage) && c.Output.Token == getenv("VIGIL_INGEST_KEY") {
		// An ingest key means nothing to storage; use the internal token when it is around.
		if v := getenv("VIGIL_INTERNAL_TOKEN"); v != "" {
			c.Output.Token = v
		}
	}
	if c.Host == "" {
		h, err := os.Hostname()
		if err != nil {
			return fmt.Errorf("cannot determine the hostname, set -host: %w", err)
		}
		c.Host = h
	}
	var errs []error
	if c.Interval <= 0 {
		errs = append(errs, fmt.Errorf("interval must be positive, got %s", time.Duration(c.Interval)))
	}
	if _, ok := lineproto.ParsePrecision(c.Output.Precision); !ok {
		errs = append(errs, fmt.Errorf("precision must be ns, us, ms or s, got %q", c.Output.Precision))
	}
	valid := false
	for _, t := range push.Targets {
		valid = valid || string(t) == c.Output.Target
	}
	if !valid {
		errs = append(errs, fmt.Errorf("target must be one of %v, got %q", push.Targets, c.Output.Target))
	}
	if c.Batch.MaxLines <= 0 || c.Batch.MaxBytes <= 0 {
		errs = append(errs, fmt.Errorf("batch.maxLines and batch.maxBytes must be positive, got %d and %d", c.Batch.MaxLines, c.Batch.MaxBytes))
	}
	if c.Buffer.MaxBytes < int64(c.Batch.MaxBytes) {
		errs = append(errs, fmt.Errorf("buffer.maxBytes (%d) must be at least batch.maxBytes (%d)", c.Buffer.MaxBytes, c.Batch.MaxBytes))
	}
	if c.Backoff.Initial <= 0 || c.Backoff.Max < c.Backoff.Initial {
		errs = append(errs, fmt.Errorf("send.retryMinInterval must be positive and at most send.retryMaxInterval, got %s and %s",
			time.Duration(c.Backoff.Initial), time.Duration(c.Backoff.Max)))
	}
	if c.Sim.Hosts < 0 {
		errs = append(errs, fmt.Errorf("simulate must be a number of hosts >= 0, got %d", c.Sim.Hosts))
	}
	if c.Sim.Hosts > 0 && c.Sim.Interval <= 0 {
		errs = append(errs, fmt.Errorf("simulate.interval must be positive, got %s", time.Duration(c.Sim.Interval)))
	}
	if c.Sim.Churn < 0 {
		errs = append(errs, fmt.Errorf("simulate.churn must be >= 0, got %v", c.Sim.Churn))
	}
	if _, err := collector.New(c.Collectors, collector.Options{}); err != nil {
		errs = append(errs, fmt.Errorf("collectors: %w", err))
	}
	for k := range c.Tags {
		if k == "" || k == "host" || tenancy.IsReserved(k) {
			errs = append(errs, fmt.Errorf("tags: %q is reserved; use -host for the host tag", k))
		}
	}
	return errors.Join(errs...)
}

// durationValue adapts Duration to flag.Value.
type durationValue struct{ d *Duration }

func (v durationValue) String() string {
	if v.d == nil {
		return ""
	}
	return time.Duration(*v.d).String()
}

func (v durationValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("want a duration such as 10s or 1m, got %q", s)
	}
	*v.d = Duration(d)
	return nil
}

func durationVar(fs *flag.FlagSet, d *Duration, name, usage string) {
	fs.Var(durationValue{d}, name, usage)
}

// secretValue is a string flag that never shows its value (in -help or elsewhere).
type secretValue struct{ s *string }

func (v secretValue) String() string { return "" }

func (v secretValue) Set(s string) error {
	*v.s = s
	return nil
}

// listValue is a comma-separated flag; setting it replaces the list.
type listValue struct{ l *[]string }

func (v listValue) String() string {
	if v.l == nil {
		return ""
	}
	return strings.Join(*v.l, ",")
}

func (v listValue) Set(s string) error {
	*v.l = (*v.l)[:0:0]
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			*v.l = append(*v.l, x)
		}
	}
	return nil
}

func listVar(fs *flag.FlagSet, l *[]string, name, usage string) { fs.Var(listValue{l}, name, usage) }

// mapValue is a comma-separated key=value flag; setting it replaces the map.
type mapValue struct{ m *map[string]string }

func (v mapValue) String() string {
	if v.m == nil || len(*v.m) == 0 {
		return ""
	}
	var parts []string
	for k, val := range *v.m {
		parts = append(parts, k+"="+val)
	}
	return strings.Join(parts, ",")
}

func (v mapValue) Set(s string) error {
	m := map[string]string{}
	for _, kv := range strings.Split(s, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, val, ok := strings.Cut(kv, "=")
		if !ok || k == "" || val == "" {
			return fmt.Errorf("want key=value pairs, got %q", kv)
		}
		m[k] = val
	}
	*v.m = m
	return nil
}

func mapVar(fs *flag.FlagSet, m *map[string]string, name, usage string) {
	fs.Var(mapValue{m}, name, usage)
}
