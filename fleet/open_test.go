package fleet

import (
	"bytes"
	"flag"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/snapshot"
)

func liveFlags(t *testing.T, args ...string) *collectors.LiveFlags {
	t.Helper()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	lf := collectors.AddLiveFlags(fs)
	if err := fs.Parse(append([]string{"--no-defaults", "--no-login-paths", "--user=monitor"}, args...)); err != nil {
		t.Fatal(err)
	}
	return lf
}

func newBuilder() *pipeline.Builder { return pipeline.NewBuilder(snapshot.ModeLive, nil) }

// Of several servers, one that does not answer at start is kept (and said
// on stderr); one server alone that does not answer is an error.
func TestOpen(t *testing.T) {
	var stderr bytes.Buffer
	lf := liveFlags(t, "--host=127.0.0.1:1,127.0.0.1:2")
	if !IsFleet(lf) {
		t.Fatal("a -h list is no fleet")
	}
	ms, err := Open(lf, newBuilder, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer Close(ms)
	if len(ms) != 2 || ms[0].Name != "127.0.0.1:1" || ms[1].Name != "127.0.0.1:2" || ms[0].Builder == ms[1].Builder {
		t.Errorf("members %+v", ms)
	}
	if n := strings.Count(stderr.String(), "(will keep trying)"); n != 2 {
		t.Errorf("stderr %q: want both servers said to be retried", stderr.String())
	}

	one := liveFlags(t, "--host=127.0.0.1", "--port=1")
	if IsFleet(one) {
		t.Error("one server is a fleet")
	}
	if ms, err := Open(one, newBuilder, &stderr); err == nil {
		Close(ms)
		t.Error("one server that does not answer opened")
	}
	short := liveFlags(t, "--host=a,b", "--interval=10ms")
	if _, err := Open(short, newBuilder, &stderr); err == nil || !strings.Contains(err.Error(), "too short") {
		t.Errorf("a 10ms tick: %v", err)
	}
}
