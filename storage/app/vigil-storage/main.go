// Command vigil-storage is Vigil's storage node: VictoriaMetrics single-node embedded
// in-process, behind Vigil's own HTTP API that authenticates internal callers, scopes every
// read and write to one workspace, and serves DQL.
//
// See storage/README.md for flags and docs/internals.md ("vigil-storage HTTP") for the API.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmselect"
	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmselect/promql"
	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmstorage"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/appmetrics"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/buildinfo"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/cgroup"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/envflag"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/flagutil"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/logger"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/procutil"
	"github.com/VictoriaMetrics/metrics"
	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/gzip"

	"vigil/storage/app/ingest"
	"vigil/storage/app/promapi"
	"vigil/storage/app/remote"
	"vigil/storage/app/retention"
	"vigil/storage/app/tenancy"
	"vigil/storage/app/tombstones"
	"vigil/storage/app/workspaceapi"
	"vigil/storage/lib/apierror"
	"vigil/storage/lib/dql"
)

var (
	httpListenAddr = flag.String("httpListenAddr", "127.0.0.1:8482", "TCP address to listen for HTTP requests. "+
		"Keep it on loopback or an internal network: vigil-storage serves only internal callers holding -tenancy.internalTokenFile's token")
	// VictoriaMetrics' own binary declares these two in its main package, which no program
	// can import; vmstorage and vmselect take them as arguments. Same names and defaults.
	maxConcurrentRequests = flag.Int("search.maxConcurrentRequests", min(cgroup.AvailableCPUs()*2, 16), "The maximum number of concurrent reads "+
		"(Prometheus API, DQL, usage); the default is twice the CPUs, at most 16, as in VictoriaMetrics. "+
		"Reads beyond it wait up to -search.maxQueueDuration, then get 429 with Retry-After")
	maxQueueDuration = flag.Duration("search.maxQueueDuration", 10*time.Second, "The maximum time a read waits for a free slot when "+
		"-search.maxConcurrentRequests are already running")
	pprofEnabled = flag.Bool("pprof", false, "Serve Go's profiling endpoints at /debug/pprof/ (CPU profile, heap, goroutines) to holders of the internal token, "+
		"for `go tool pprof` against a running node. Off by default")
	deletedWorkspacesFile = flag.String("deletedWorkspacesFile", "", "File listing the deleted workspaces, one per line; their writes are refused with 410 Gone. "+
		"Default: vigil-deleted-workspaces under -storageDataPath. In remote mode there is no default: set it, or the list is kept in memory only and forgotten on restart")
)

// dedupDefault is vigil-storage's default for vmstorage's -dedup.minScrapeInterval: 1ms
// collapses replayed duplicates (same timestamp) to one sample without merging distinct points.
const dedupDefault = "1ms"

func main() {
	// Same memory/GC trade-off as VictoriaMetrics' own binary; override with GOGC.
	cgroup.SetGOGC(30)

	flag.CommandLine.SetOutput(os.Stdout)
	flag.Usage = usage
	setDefault("dedup.minScrapeInterval", dedupDefault)
	envflag.Parse()
	buildinfo.Init()
	logger.Init()
	tenancy.Init()

	logger.Infof("starting vigil-storage at %q...", *httpListenAddr)
	startTime := time.Now()
	isRemote := remote.Enabled()
	if isRemote {
		if err := remote.Init(); err != nil {
			logger.Fatalf("%s", err)
		}
		useRemote()
		logger.Infof("remote mode: writes go to -remote.vminsertURL, reads to -remote.vmselectURL; no local storage is opened")
	} else {
		vmstorage.Init(*maxConcurrentRequests, *maxQueueDuration, promql.ResetRollupResultCacheIfNeeded)
		vmselect.Init(*maxConcurrentRequests, *maxQueueDuration)
		ingest.StartVisibilityFlusher()
		ingest.SetRetention(retentionPeriod())
	}

	openTombstones(isRemote)
	ingest.StartActiveSeries()
	initReadLimiter()
	ln, err := net.Listen("tcp", *httpListenAddr)
	if err != nil {
		logger.Fatalf("cannot listen on -httpListenAddr=%q: %s", *httpListenAddr, err)
	}
	// VictoriaMetrics' lib/httpserver answers /health, /metrics, /flags and /debug/pprof
	// itself before any request handler runs; vigil-storage must demand its token on all
	// of them but /health, so it serves with net/http directly.
	srv := &http.Server{
		Handler:           gzipAnswers(http.HandlerFunc(requestHandler)),
		ReadHeaderTimeout: 30 * time.Second,
		IdleTimeout:       time.Minute,
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Fatalf("cannot serve HTTP at %q: %s", *httpListenAddr, err)
		}
	}()
	logger.Infof("started vigil-storage in %.3f seconds", time.Since(startTime).Seconds())

	sig := procutil.WaitForSigterm()
	logger.Infof("received signal %s", sig)

	logger.Infof("gracefully shutting down the webservice at %q", *httpListenAddr)
	startTime = time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), gracefulShutdownDuration())
	if err := srv.Shutdown(ctx); err != nil {
		logger.Errorf("cannot shut down the webservice gracefully: %s", err)
	}
	cancel()
	logger.Infof("successfully shut down the webservice in %.3f seconds", time.Since(startTime).Seconds())

	ingest.StopActiveSeries()
	if !isRemote {
		ingest.StopVisibilityFlusher()
		vmstorage.Stop()
		vmselect.Stop()
	}
	logger.Infof("vigil-storage has been stopped in %.3f seconds", time.Since(startTime).Seconds())
}

// openTombstones loads the list of deleted workspaces (app/tombstones).
func openTombstones(isRemote bool) {
	p := *deletedWorkspacesFile
	if p == "" && !isRemote {
		p = filepath.Join(vmstorage.DataPath(), "vigil-deleted-workspaces")
	}
	if p == "" {
		logger.Warnf("-deletedWorkspacesFile is not set: deleted workspaces are refused writes only until vigil-storage restarts")
	}
	if err := tombstones.Open(p); err != nil {
		logger.Fatalf("%s", err)
	}
}

// useRemote points writes, reads and DQL at the VictoriaMetrics cluster (app/remote).
func useRemote() {
	ingest.SetSink(remote.Write)
	promapi.SetBackend(promapi.Backend{
		Source: func(ws string, maxSeries int) promapi.Source {
			src := remote.NewSource(ws)
			src.MaxSeries = maxSeries
			return src
		},
		Query: remote.Query,
	})
	workspaceapi.NewAdmin = func(ws string) workspaceapi.Admin { return remote.NewSource(ws) }
	workspaceapi.DeleteOlder = func(context.Context, string, int64, int64) (retention.Deleted, error) {
		return retention.Deleted{}, apierror.New(http.StatusNotImplemented, apierror.TypeUnavailable,
			"remote mode cannot delete points older than a workspace's retention: VictoriaMetrics deletes whole series only; "+
				"give the cluster a -retentionPeriod (or, in VictoriaMetrics Enterprise, a -retentionFilter per tenant); queries still read nothing older")
	}
	newDQLSource = func(ws string, maxSeries int, notBefore int64) dql.Source {
		src := remote.NewSource(ws)
		src.MaxSeries = maxSeries
		src.NotBefore = notBefore
		return src
	}
}

// routes lists every path vigil-storage serves besides /health and /metrics; requests for
// anything else get 404, so none of VictoriaMetrics' own endpoints is reachable.
var routes = map[string]func(http.ResponseWriter, *http.Request, string) error{
	"/internal/v1/write/line":          ingest.LineHandler,
	"/internal/v1/write/promrw":        ingest.PromRWHandler,
	"/internal/v1/write/otlp":          ingest.OTLPHandler,
	"/internal/v1/workspace":           workspaceapi.DeleteHandler,
	"/internal/v1/usage":               workspaceapi.UsageHandler,
	"/internal/v1/usage/active_series": workspaceapi.ActiveSeriesHandler,
	"/internal/v1/usage/storage":       workspaceapi.StorageHandler,
	"/internal/v1/retention":           workspaceapi.RetentionHandler,
	"/v1/query/raw":                    queryRawHandler,
}

// gzipAnswers compresses answers of 1 KiB and more for callers that accept gzip, at the
// fastest level, as VictoriaMetrics' own server does: a dashboard's query answer shrinks
// about sixfold, and the backend passes it on to the browser as it is.
func gzipAnswers(h http.Handler) http.Handler {
	wrap, err := gzhttp.NewWrapper(gzhttp.CompressionLevel(gzip.BestSpeed))
	if err != nil {
		logger.Panicf("BUG: cannot set up gzip answers: %s", err)
	}
	return wrap(h)
}

func requestHandler(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if path == "/health" {
		healthHandler(w)
		return
	}
	counterPath := path
	if strings.HasPrefix(path, "/api/v1/label/") {
		counterPath = "/api/v1/label/{name}/values"
	}
	if err := handle(w, r, path); err != nil {
		var e *apierror.Error
		status := http.StatusUnprocessableEntity
		if errors.As(err, &e) {
			status = e.StatusCode
		}
		if status >= 500 {
			logger.Errorf("%s %s: %s", r.Method, path, err)
		}
		if _, known := routes[path]; known || strings.HasPrefix(path, "/api/v1/") || path == "/metrics" {
			metrics.GetOrCreateCounter(`vigil_http_errors_total{path="` + counterPath + `"}`).Inc()
		}
		apierror.Write(w, err, http.StatusUnprocessableEntity, apierror.TypeExecution)
		return
	}
	if _, known := routes[path]; known || strings.HasPrefix(path, "/api/v1/") || path == "/metrics" {
		metrics.GetOrCreateCounter(`vigil_http_requests_total{path="` + counterPath + `"}`).Inc()
	}
}

// healthHandler answers GET /health: 200 {"status":"ok"}, or 503 {"status":"degraded"} when
// the embedded storage refuses writes (disk almost full).
func healthHandler(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	resp := map[string]string{"status": "ok", "version": buildinfo.Version}
	if vmstorage.VMInsertAPI != nil && vmstorage.VMInsertAPI.IsReadOnly() {
		resp["status"] = "degraded"
		resp["error"] = "the storage is read-only: free disk space is below -storage.minFreeDiskSpaceBytes"
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	_ = json.NewEncoder(w).Encode(resp)
}

func handle(w http.ResponseWriter, r *http.Request, path string) error {
	if err := tenancy.CheckToken(r); err != nil {
		return err
	}
	if path == "/metrics" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		appmetrics.WritePrometheusMetrics(w)
		return nil
	}
	if *pprofEnabled && strings.HasPrefix(path, "/debug/pprof/") {
		servePprof(w, r, path)
		return nil
	}
	h, ok := routes[path]
	if !ok && !strings.HasPrefix(path, "/api/v1/") {
		return apierror.New(http.StatusNotFound, apierror.TypeNotFound, "unsupported path %q", path)
	}
	ws, err := tenancy.Workspace(r)
	if err != nil {
		return err
	}
	if isRead(path) {
		t, err := acquireReadSlot(w, r, ws)
		if err != nil {
			return err
		}
		defer releaseReadSlot(t)
	}
	if ok {
		return h(w, r, ws)
	}
	served, err := promapi.Handler(w, r, path, ws)
	if !served {
		return apierror.New(http.StatusNotFound, apierror.TypeNotFound, "unsupported path %q", path)
	}
	return err
}

// servePprof answers Go's profiling endpoints (/debug/pprof/profile, heap, goroutine, …)
// when -pprof is set, behind the internal token (VictoriaMetrics' own server offers them
// behind -pprofAuthKey): `go tool pprof` against a running node shows where a slow query
// spends its time.
func servePprof(w http.ResponseWriter, r *http.Request, path string) {
	switch path {
	case "/debug/pprof/cmdline":
		pprof.Cmdline(w, r)
	case "/debug/pprof/profile":
		pprof.Profile(w, r)
	case "/debug/pprof/symbol":
		pprof.Symbol(w, r)
	case "/debug/pprof/trace":
		pprof.Trace(w, r)
	default:
		pprof.Index(w, r)
	}
}

// setDefault changes the default of a flag another package declares, before parsing.
func setDefault(name, value string) {
	f := flag.Lookup(name)
	if f == nil {
		logger.Panicf("BUG: no flag -%s to set the default of", name)
	}
	if err := f.Value.Set(value); err != nil {
		logger.Panicf("BUG: default -%s=%s: %s", name, value, err)
	}
	f.DefValue = value
}

// retentionPeriod returns vmstorage's -retentionPeriod.
func retentionPeriod() time.Duration {
	if f := flag.Lookup("retentionPeriod"); f != nil {
		if rd, ok := f.Value.(*flagutil.RetentionDuration); ok {
			return rd.Duration()
		}
	}
	logger.Panicf("BUG: cannot read -retentionPeriod")
	return 0
}

// gracefulShutdownDuration returns -http.maxGracefulShutdownDuration, which VictoriaMetrics'
// lib/httpserver declares (it is linked in through vmselect).
func gracefulShutdownDuration() time.Duration {
	return durationFlag("http.maxGracefulShutdownDuration", 7*time.Second)
}

// isRead reports whether path runs a search, and so takes a read slot.
func isRead(path string) bool {
	return strings.HasPrefix(path, "/api/v1/") || path == "/v1/query/raw" || path == "/internal/v1/usage" ||
		path == "/internal/v1/usage/storage"
}

func usage() {
	const s = `
vigil-storage is Vigil's storage node: VictoriaMetrics single-node embedded in-process,
serving workspace-scoped writes, DQL and the Prometheus read API to internal callers.

See storage/README.md.
`
	flagutil.Usage(s)
}
