// Command vigil-sink is a write endpoint that accepts and discards line protocol, for
// measuring vigil-agent's simulator without a real server in the way. It answers 204
// on every path and prints what it received when stopped.
//
//	vigil-sink -listen=127.0.0.1:18429 [-count]
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"io"
	"log"
	"net/http"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"
)

var (
	listen = flag.String("listen", "127.0.0.1:18429", "Address to listen on; keep it on loopback")
	count  = flag.Bool("count", false, "Decompress gzip bodies and count lines (costs CPU the generator would otherwise use)")
)

func main() {
	flag.Parse()
	var requests, bodyBytes, lines atomic.Int64
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int64
		if *count {
			var rd io.Reader = r.Body
			if r.Header.Get("Content-Encoding") == "gzip" {
				zr, err := gzip.NewReader(r.Body)
				if err != nil {
					http.Error(w, "body is not valid gzip: "+err.Error(), http.StatusBadRequest)
					return
				}
				rd = zr
			}
			data, err := io.ReadAll(rd)
			if err != nil {
				http.Error(w, "cannot read body: "+err.Error(), http.StatusBadRequest)
				return
			}
			lines.Add(int64(bytes.Count(data, []byte("\n"))))
			n = int64(len(data))
		} else {
			n, _ = io.Copy(io.Discard, r.Body)
		}
		requests.Add(1)
		bodyBytes.Add(n)
		w.WriteHeader(http.StatusNoContent)
	})
	srv := &http.Server{Addr: *listen, Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		_ = srv.Shutdown(context.Background())
	}()
	start := time.Now()
	log.Printf("vigil-sink listening on %s", *listen)
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatalf("%s", err)
	}
	secs := time.Since(start).Seconds()
	log.Printf("vigil-sink: %d requests, %d body bytes, %d lines in %.1fs", requests.Load(), bodyBytes.Load(), lines.Load(), secs)
}
