package collectors

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestServerDirs(t *testing.T) {
	got := serverDirs(map[string]string{"datadir": "/var/lib/mysql/", "tmpdir": "/tmp:/scratch",
		"log_bin": "ON", "log_bin_basename": "/binlogs/mysql-bin", "innodb_log_group_home_dir": "./",
		"innodb_data_home_dir": "", "innodb_undo_directory": "undo", "relay_log_basename": "relay/r-bin"})
	want := []serverDir{{"datadir", "/var/lib/mysql"}, {"tmpdir", "/tmp"}, {"tmpdir", "/scratch"},
		{"binlog", "/binlogs"}, {"redo", "/var/lib/mysql"}, {"innodb_data", "/var/lib/mysql"},
		{"undo", "/var/lib/mysql/undo"}, {"relay_log", "/var/lib/mysql/relay"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
	if got := serverDirs(map[string]string{"log_bin": "OFF"}); got != nil {
		t.Errorf("without a datadir: %v", got)
	}
	// The binary log's directory counts only when it is on.
	for _, d := range serverDirs(map[string]string{"datadir": "/d", "log_bin": "OFF", "log_bin_basename": "/b/x"}) {
		if d.role == "binlog" {
			t.Errorf("binlog off but listed: %v", d)
		}
	}
}

func TestDiskSpaceOneReadPerFilesystem(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "tmp")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	fp := newFakeProc(t)
	fp.appendTo("net/unix", "0000000000000000: 00000002 00000000 00010000 0001 01 7001 /run/mysqld/mysqld.sock\n")
	fp.process(30, "mariadbd", 7001)
	fp.task(30, 0, "mariadbd", 100, 0)
	c := newDiskSpace(newServerProc(fp.root, "/run/mysqld/mysqld.sock"))
	s := &snapshot.Snapshot{Time: time.Now(), Variables: map[string]string{"datadir": dir, "tmpdir": sub,
		"innodb_log_group_home_dir": "./", "aria_log_dir_path": "/nonexistent/here"}}
	if err := c.Collect(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if len(s.Filesystems) != 1 {
		t.Fatalf("one filesystem wanted: %+v", s.Filesystems)
	}
	f := s.Filesystems[0]
	if f.Path != dir || !reflect.DeepEqual(f.Roles, []string{"datadir", "tmpdir", "redo"}) || f.SizeBytes == 0 ||
		f.AvailBytes > f.SizeBytes {
		t.Errorf("got %+v", f)
	}
	// Carried between reads, and not read at all for a remote server.
	next := &snapshot.Snapshot{}
	c.carry(s, next)
	if len(next.Filesystems) != 1 {
		t.Errorf("not carried: %+v", next.Filesystems)
	}
	remote := newDiskSpace(newServerProc(fp.root, "192.0.2.7:3306"))
	r := &snapshot.Snapshot{Variables: s.Variables, Collectors: map[snapshot.CollectorName]snapshot.CollectorState{}}
	if err := remote.Collect(context.Background(), r); err != nil || r.Filesystems != nil ||
		r.Collectors[snapshot.CollectorDiskSpace].Unavailable == "" {
		t.Errorf("remote server: %v %+v %+v", err, r.Filesystems, r.Collectors)
	}
}

func TestPreparedOwnersOnlyNearTheLimit(t *testing.T) {
	s := func(ps, count, limit string) *snapshot.Snapshot {
		return &snapshot.Snapshot{Variables: map[string]string{"performance_schema": ps, "max_prepared_stmt_count": limit},
			Status: map[string]string{"Prepared_stmt_count": count}}
	}
	for _, c := range []struct {
		s    *snapshot.Snapshot
		want bool
	}{
		{s("ON", "100", "200"), true}, {s("ON", "99", "200"), false}, {s("OFF", "200", "200"), false},
		{s("ON", "0", "0"), false},
	} {
		if got := preparedNearLimit(c.s); got != c.want {
			t.Errorf("%v %v: %v, want %v", c.s.Variables, c.s.Status, got, c.want)
		}
	}
	// Far from the limit it sends nothing: no session is needed.
	if err := (&preparedOwners{link: &serverLink{}}).Collect(context.Background(), s("ON", "1", "200")); err != nil {
		t.Error(err)
	}
}
