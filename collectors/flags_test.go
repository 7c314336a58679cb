package collectors

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"
)

// The flags reach the live source's options, and a tick under 100 ms is
// refused before anything connects.
func TestLiveFlags(t *testing.T) {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	lf := AddLiveFlags(fs)
	if err := fs.Parse([]string{"--no-defaults", "--no-login-paths", "--host=db1.example", "--interval=2s", "--innodb-interval=7s", "--variables-interval=20s",
		"--replica-interval=3s", "--statements-interval=9s", "--no-thread-stats", "--one-session", "--hosts=fleet.txt",
		"--list-budget=2ms"}); err != nil {
		t.Fatal(err)
	}
	live, err := lf.Build(lf.Conn, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	o := live.opts
	if o.Interval != 2*time.Second || o.InnoDBEvery != 7*time.Second || o.VariablesEvery != 20*time.Second ||
		o.ReplicaEvery != 3*time.Second || o.StatementsEvery != 9*time.Second || !o.NoThreadStats || lf.HostsFile != "fleet.txt" ||
		!o.OneSession || !live.side.off || o.ListBudget != 2*time.Millisecond || live.side.procs.cad.budget != 2*time.Millisecond {
		t.Errorf("options %+v from the flags", o)
	}
	for _, c := range []struct {
		arg  string
		want time.Duration
	}{{"--list-budget=0", -1}, {"--interval=1s", listBudget}} {
		fs := flag.NewFlagSet("record", flag.ContinueOnError)
		lf := AddLiveFlags(fs)
		if err := fs.Parse([]string{"--no-defaults", "--no-login-paths", "--host=db1.example", c.arg}); err != nil {
			t.Fatal(err)
		}
		l, err := lf.Build(lf.Conn, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if got := l.side.procs.cad.budget; got != c.want {
			t.Errorf("%s: the processlist's budget is %v, want %v (negative: read in full every tick)", c.arg, got, c.want)
		}
		l.Close()
	}
	if live.Address() != "db1.example:3306" {
		t.Errorf("address %q from --host=db1.example", live.Address())
	}
	if h, ok := o.Host.(*Host); !ok || !h.Remote {
		t.Errorf("host sampler %#v for a remote server, want one that samples nothing", o.Host)
	}
	lf.Interval = 50 * time.Millisecond
	if _, err := lf.Open(io.Discard); err == nil || !strings.Contains(err.Error(), "--interval 50ms is too short") {
		t.Errorf("Open with a 50ms tick: %v", err)
	}
}

// Every period of the table is a flag with its default, and a live source
// built without those flags runs each collector at that default.
func TestPeriodFlagsFromTheTable(t *testing.T) {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	lf := AddLiveFlags(fs)
	if err := fs.Parse([]string{"--no-defaults", "--no-login-paths", "--host=db1.example"}); err != nil {
		t.Fatal(err)
	}
	live, err := lf.Build(lf.Conn, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	for _, p := range periods {
		f := fs.Lookup(p.flag)
		if f == nil {
			t.Errorf("no --%s", p.flag)
			continue
		}
		if f.DefValue != p.def.String() || f.Usage != p.usage {
			t.Errorf("--%s: default %s, usage %q", p.flag, f.DefValue, f.Usage)
		}
		if got := *p.of(&live.opts); got != p.def {
			t.Errorf("--%s not given: period %v, want %v", p.flag, got, p.def)
		}
	}
}
