package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/mytop-go/mytop-go/exporter"
	"github.com/mytop-go/mytop-go/fleet"
	"github.com/mytop-go/mytop-go/snapshot"
)

func runServe(args []string, stdout, stderr io.Writer) error {
	tuneGC()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lf := addLiveFlags(fs)
	listen := fs.String("listen", "127.0.0.1:9104", "address of the /metrics endpoint")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	members, err := serveMembers(lf, stderr)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		closeMembers(members)
		return fmt.Errorf("--listen: %v", err)
	}
	ctx, cancel := signalContext()
	defer cancel()
	exp := exporter.New()
	srv := metricsServer(exp)
	go srv.Serve(ln)
	fmt.Fprintf(stderr, "mytop-go: serving /metrics on http://%s for %d server(s)\n", ln.Addr(), len(members))
	err = fleet.Run(ctx, members, exp.Observe)
	shutdown, stop := context.WithTimeout(context.Background(), 2*time.Second)
	defer stop()
	srv.Shutdown(shutdown)
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}

// serveMembers is the fleet the flags name; one server is a fleet of one,
// connected first so a wrong password is one line and exit 1, as elsewhere.
func serveMembers(lf *liveFlags, stderr io.Writer) ([]fleet.Member, error) {
	if lf.isFleet() {
		return lf.openFleet(stderr)
	}
	live, err := lf.open(stderr)
	if err != nil {
		return nil, err
	}
	return []fleet.Member{{Name: live.Address(), Source: live, Builder: newBuilder(snapshot.ModeLive)}}, nil
}

func metricsServer(exp *exporter.Exporter) *http.Server {
	mux := http.NewServeMux()
	mux.Handle("/metrics", exp.Handler())
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintln(w, "mytop-go: metrics at /metrics")
	})
	return &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
}
