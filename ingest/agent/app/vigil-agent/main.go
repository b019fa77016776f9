// Command vigil-agent collects host metrics (or scrapes Prometheus endpoints, or
// simulates many hosts) and pushes them as line protocol to the Vigil ingest gateway,
// buffering on disk while the gateway is unreachable. See README.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"
	"sort"
	"syscall"
	"time"

	"vigil/agent/lib/agent"
	"vigil/agent/lib/collector"
	"vigil/agent/lib/config"
	"vigil/agent/lib/diskqueue"
	"vigil/agent/lib/lineproto"
	"vigil/agent/lib/push"
	"vigil/agent/lib/scrape"
	"vigil/agent/lib/simulate"
)

// version is set at build time: -ldflags "-X main.version=v1.2.3".
var version = "dev"

func main() {
	log.SetFlags(log.LstdFlags | log.Lmicroseconds | log.LUTC)
	log.SetPrefix("vigil-agent ")

	cfg, err := config.Load(os.Args[1:], os.Getenv, os.Stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintf(os.Stderr, "vigil-agent: %s\n", err)
		os.Exit(2)
	}
	if cfg.Version {
		fmt.Printf("vigil-agent %s\n", version)
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	if cfg.Sim.Hosts > 0 {
		if err := runSimulate(ctx, cfg); err != nil {
			log.Fatalf("simulation failed: %s", err)
		}
		return
	}

	collectors, err := collector.New(cfg.Collectors, collector.Options{ProcRoot: cfg.ProcRoot, HostRoot: cfg.HostRoot})
	if err != nil {
		log.Fatalf("%s", err)
	}
	targets, err := scrape.ParseTargets(cfg.Scrape.Targets)
	if err != nil {
		log.Fatalf("%s", err)
	}
	a := &agent.Agent{
		Host:       cfg.Host,
		Tags:       sortedTags(cfg.Tags),
		Version:    version,
		Interval:   time.Duration(cfg.Interval),
		Precision:  lineproto.Precision(cfg.Output.Precision),
		Collectors: collectors,
		Scraper:    &scrape.Scraper{Client: &http.Client{}, UserAgent: "vigil-agent/" + version, BearerToken: cfg.Scrape.BearerToken},
		Targets:    targets,
		ScrapeTO:   time.Duration(cfg.Scrape.Timeout),
		MaxLines:   cfg.Batch.MaxLines,
		MaxBytes:   cfg.Batch.MaxBytes,
		Raw:        !cfg.Output.Gzip,
		SendStats:  &push.Stats{},
		Logf:       log.Printf,
	}
	if cfg.Once {
		if err := a.WriteOnce(ctx, os.Stdout); err != nil {
			log.Fatalf("%s", err)
		}
		return
	}

	client, err := newClient(cfg)
	if err != nil {
		log.Fatalf("%s", err)
	}
	log.Printf("starting vigil-agent %s: host=%q interval=%s collectors=%v scrape targets=%d, sending to %s",
		version, cfg.Host, time.Duration(cfg.Interval), cfg.Collectors, len(targets), client.Endpoint())

	startTime := time.Now()
	q, err := diskqueue.Open(cfg.Buffer.Path, diskqueue.Options{MaxBytes: cfg.Buffer.MaxBytes, Logf: log.Printf})
	if err != nil {
		log.Fatalf("cannot open the buffer: %s", err)
	}
	if st := q.Stats(); st.PendingBlocks > 0 {
		log.Printf("buffer %s holds %d batches (%d bytes) from a previous run; sending them first", cfg.Buffer.Path, st.PendingBlocks, st.PendingBytes)
	}
	log.Printf("opened buffer %s (max %d bytes) in %.3fs", cfg.Buffer.Path, cfg.Buffer.MaxBytes, time.Since(startTime).Seconds())
	a.Queue = q

	sender := &push.Sender{
		Queue:   q,
		Client:  client,
		Backoff: backoff(cfg),
		Stats:   a.SendStats,
		Logf:    log.Printf,
		// After an outage, catch up with requests as large as regular batches may be.
		MaxLines: cfg.Batch.MaxLines,
		MaxBytes: cfg.Batch.MaxBytes,
	}
	sendCtx, stopSender := context.WithCancel(context.Background())
	senderDone := make(chan error, 1)
	go func() { senderDone <- sender.Run(sendCtx) }()

	collectDone := make(chan struct{})
	go func() {
		a.Run(ctx)
		close(collectDone)
	}()

	<-ctx.Done()
	log.Printf("received a stop signal; shutting down")
	startTime = time.Now()
	<-collectDone
	log.Printf("stopped collection in %.3fs", time.Since(startTime).Seconds())

	// Give the sender a moment to flush what is queued; whatever is left stays on disk.
	startTime = time.Now()
	flushDeadline := time.Now().Add(3 * time.Second)
	for q.Stats().PendingBlocks > 0 && time.Now().Before(flushDeadline) {
		time.Sleep(50 * time.Millisecond)
	}
	stopSender()
	if err := <-senderDone; err != nil {
		log.Printf("sender: %s", err)
	}
	st := q.Stats()
	if err := q.Close(); err != nil {
		log.Printf("cannot close the buffer: %s", err)
	}
	log.Printf("stopped sending in %.3fs; %d batches (%d bytes) stay buffered for the next start", time.Since(startTime).Seconds(), st.PendingBlocks, st.PendingBytes)
}

func newClient(cfg *config.Config) (*push.Client, error) {
	return push.NewClient(push.ClientConfig{
		URL:       cfg.Output.URL,
		Target:    push.Target(cfg.Output.Target),
		Token:     cfg.Output.Token,
		Workspace: cfg.Output.Workspace,
		Database:  cfg.Output.Database,
		Precision: lineproto.Precision(cfg.Output.Precision),
		Timeout:   time.Duration(cfg.Output.Timeout),
		UserAgent: "vigil-agent/" + version,
	})
}

func backoff(cfg *config.Config) push.Backoff {
	b := push.DefaultBackoff
	b.Initial = time.Duration(cfg.Backoff.Initial)
	b.Max = time.Duration(cfg.Backoff.Max)
	return b
}

func runSimulate(ctx context.Context, cfg *config.Config) error {
	client, err := newClient(cfg)
	if err != nil {
		return err
	}
	interval := time.Duration(cfg.Sim.Interval)
	g := simulate.New(simulate.Options{
		Hosts:        cfg.Sim.Hosts,
		Seed:         cfg.Sim.Seed,
		HostPrefix:   cfg.Sim.HostPrefix,
		ChurnPerTick: cfg.Sim.Churn * interval.Hours(),
		Precision:    client.Precision(),
	})
	log.Printf("simulating %d hosts x %d series every %s (seed %d, churn %.3g/h) to %s",
		g.Hosts(), g.SeriesPerHost(), interval, cfg.Sim.Seed, cfg.Sim.Churn, client.Endpoint())
	res, err := simulate.Run(ctx, g, simulate.RunOptions{
		Interval:      interval,
		Duration:      time.Duration(cfg.Sim.Duration),
		MaxPoints:     cfg.Sim.MaxPoints,
		Backfill:      time.Duration(cfg.Sim.Backfill),
		BatchMaxBytes: cfg.Batch.MaxBytes,
		Raw:           !cfg.Output.Gzip,
		Workers:       cfg.Sim.Workers,
		Senders:       cfg.Sim.Senders,
		Client:        client,
		Backoff:       backoff(cfg),
		Logf:          log.Printf,
	})
	fmt.Println(res.String())
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

func sortedTags(m map[string]string) []lineproto.Tag {
	var tags []lineproto.Tag
	for k, v := range m {
		tags = append(tags, lineproto.Tag{Key: k, Value: v})
	}
	sort.Slice(tags, func(i, j int) bool { return tags[i].Key < tags[j].Key })
	return tags
}
