package exporter

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Serve answers scrapes while run feeds it, stops listening when run ends,
// and a cancelled run is no error.
func TestServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/metrics"
	e := New()
	var scraped string
	err = e.Serve(ln, func(observe func(string, *snapshot.Frame)) error {
		observe("db1:3306", frame(time.Now(), false))
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		scraped = string(b)
		return fmt.Errorf("signal: %w", context.Canceled)
	})
	if err != nil {
		t.Errorf("a cancelled run: %v", err)
	}
	if !strings.Contains(scraped, `mytop_server_up{server="db1:3306"`) {
		t.Errorf("scrape while serving lacks db1's up series:\n%s", scraped)
	}
	if resp, err := http.Get(url); err == nil {
		resp.Body.Close()
		t.Error("still serving after run ended")
	}
}
