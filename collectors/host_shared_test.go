package collectors

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Two servers on one machine: the second Host within hostShareAge takes the
// first's sample instead of reading /proc again; each snapshot has its own
// copy, and a Host never reuses its own sample.
func TestHostSampleSharedBetweenServers(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"stat", "vmstat", "diskstats"} {
		b, err := os.ReadFile(filepath.Join("testdata/host", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	collect := func(h *Host) *snapshot.Host {
		s := &snapshot.Snapshot{Server: snapshot.ServerInfo{Address: "/run/mysqld/mysqld.sock"}}
		if err := h.Collect(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		return s.Host
	}
	defer hostShareAge.Store(hostShareAge.Load())
	hostShareAge.Store(int64(time.Minute)) // however slow this machine is today
	a, b := &Host{ProcRoot: root}, &Host{ProcRoot: root}
	first := collect(a)
	if err := os.WriteFile(filepath.Join(root, "stat"), []byte("cpu 1 1 1 1 1 1 1 0 0 0\nctxt 5\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	second := collect(b)
	if second.ContextSwitches != first.ContextSwitches {
		t.Errorf("second server read /proc again: ctxt %d, shared sample had %d", second.ContextSwitches, first.ContextSwitches)
	}
	if second == first {
		t.Error("the two snapshots share one Host: the per-server mysqld figures would overwrite each other")
	}
	if own := collect(a); own.ContextSwitches != 5 {
		t.Errorf("a Host reused its own sample: ctxt %d, want 5", own.ContextSwitches)
	}
}
