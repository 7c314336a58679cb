package analyzers

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// smallFilesystem mounts a tmpfs of size (e.g. "40m") for the test and
// unmounts it at cleanup, after the server on it is stopped (register it
// before testdb.Start). It skips the test where mounting is not allowed.
func smallFilesystem(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small filesystem needs root")
	}
	dir, err := os.MkdirTemp("", "mytop-fs-")
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		os.Remove(dir)
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
			exec.Command("umount", "-l", dir).Run()
		}
		os.Remove(dir)
	})
	return dir
}

// availPct is the share of the filesystem at dir an unprivileged writer may use.
func availPct(dir string) float64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil || st.Blocks == 0 {
		return 100
	}
	return 100 * float64(st.Bavail) / float64(st.Blocks)
}

// binlogWriter inserts rows of rowBytes every pause, on one connection.
func binlogWriter(w *workload, srv *testdb.Server, rowBytes int, pause time.Duration) {
	srv.Exec(w.t, "CREATE DATABASE IF NOT EXISTS shop",
		"CREATE TABLE IF NOT EXISTS shop.blobs (id INT AUTO_INCREMENT PRIMARY KEY, b LONGBLOB) ENGINE=InnoDB")
	db := srv.DB(w.t)
	db.SetMaxOpenConns(1)
	q := "INSERT INTO shop.blobs (b) VALUES (REPEAT('x', " + strconv.Itoa(rowBytes) + "))"
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		for w.ctx.Err() == nil {
			if _, err := db.ExecContext(w.ctx, q); err != nil && w.ctx.Err() == nil {
				w.t.Logf("insert: %v", err)
				time.Sleep(200 * time.Millisecond)
			}
			time.Sleep(pause)
		}
	}()
}

func TestIntegrationDiskSpaceLow(t *testing.T) {
	if testing.Short() {
		t.Skip("starts MariaDB")
	}
	t.Parallel() // a writer paced at 1.3 MB/s: not CPU-heavy
	// The binary log on a 100M filesystem, filled at about 1.3 MB/s by
	// INSERTs of 256K rows: the trend is named first, then the level, then
	// the writer stopped by the full disk.
	dir := smallFilesystem(t, "100m")
	srv := testdb.Start(t, "--log-bin="+filepath.Join(dir, "mysql-bin"), "--binlog-format=ROW")
	w := newWorkload(t)
	binlogFS := func(f *snapshot.Frame) (snapshot.Filesystem, bool) { return fsAt(f.Snapshot, dir) }
	// The onset of the level by the test's own statfs, and when the monitor
	// named each stage. The stopped writer is named in the first frame whose
	// processlist shows it waiting (the state is read every tick).
	var low, trendNamed, lowNamed, fullNamed time.Time
	var trend, level, stopped *snapshot.Finding
	frames := watch(t, srv, within(180*time.Second), until(func(f *snapshot.Frame) bool {
		if !w.startWhenWarm(f, DefaultConfig(), func() { binlogWriter(w, srv, 256<<10, 200*time.Millisecond) }) {
			return false
		}
		now := f.Snapshot.Time
		if low.IsZero() && availPct(dir) < 10 {
			low = time.Now()
		}
		x := findingIn(f, IDDiskSpaceLow)
		if x == nil {
			return false
		}
		if trend == nil && strings.Contains(x.Title, "fills up in about") {
			trend, trendNamed = x, now
		}
		if fs, ok := binlogFS(f); ok && level == nil && fs.AvailPct() < 10 {
			level, lowNamed = x, now
		}
		if stopped == nil && len(x.Threads) > 0 && x.Severity == snapshot.Critical {
			stopped, fullNamed = x, now
		}
		return stopped != nil
	})).frames
	for _, f := range frames[len(frames)-1].Snapshot.Filesystems {
		t.Logf("filesystem %s %v: %.1f %% free", f.Path, f.Roles, f.AvailPct())
	}
	show := func(what string, x *snapshot.Finding, named, onset time.Time) {
		if x == nil {
			t.Errorf("%s: not named (%d frames, filesystem %.1f %% free)", what, len(frames), availPct(dir))
			return
		}
		t.Logf("%s: disk_space_low/%s %.1f s after the workload started, %.1f s after its onset: %s\n%s\n%s", what,
			x.Severity, named.Sub(w.began).Seconds(), named.Sub(onset).Seconds(), x.Title,
			strings.Join(x.Evidence, "\n"), x.Advice)
	}
	show("the trend", trend, trendNamed, w.began)
	show("below 10 % free", level, lowNamed, low)
	show("the writer stopped", stopped, fullNamed, fullNamed)
	if level != nil && !low.IsZero() && lowNamed.Sub(low) > 10*time.Second {
		t.Errorf("below 10 %% free named %.1f s after onset, want within 10 s", lowNamed.Sub(low).Seconds())
	}
	if trend != nil {
		wantEvidence(t, trend, dir+" (binlog)", "falling", "full in about")
	}
	if stopped != nil {
		wantEvidence(t, stopped, "Waiting for someone to free space", "insert into shop.blobs", "PURGE BINARY LOGS")
	}
}

func TestIntegrationDiskSpaceRoomyIsHealthy(t *testing.T) {
	if testing.Short() {
		t.Skip("starts MariaDB")
	}
	t.Parallel()
	dir := smallFilesystem(t, "1g")
	srv := testdb.Start(t, "--log-bin="+filepath.Join(dir, "mysql-bin"), "--binlog-format=ROW")
	w := newWorkload(t)
	// An application's pace of writes: a few KB a second into the binlog.
	frames := watch(t, srv, load(w, func() { binlogWriter(w, srv, 1<<10, 200*time.Millisecond) }),
		runFor(45*time.Second)).frames
	quietBut(t, dropWarmUp(frames), IDDiskSpaceLow)
	fs := frames[len(frames)-1].Snapshot.Filesystems
	found := false
	for _, f := range fs {
		t.Logf("filesystem %s %v: %.1f %% free", f.Path, f.Roles, f.AvailPct())
		found = found || (f.Path == dir && len(f.Roles) > 0 && f.Roles[0] == "binlog")
	}
	if !found {
		t.Errorf("the binlog's filesystem %s is not among %+v", dir, fs)
	}
}
