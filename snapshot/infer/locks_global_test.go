package infer

import (
	"fmt"
	"slices"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func gproc(id int64, cmd string, secs int64, state, info string) snapshot.Process {
	return snapshot.Process{ID: id, User: "app", Command: cmd, TimeMS: secs * 1000, State: state, Info: info}
}

func edgesText(ws []snapshot.LockWait) []string {
	var out []string
	for _, w := range ws {
		s := fmt.Sprintf("%d->%d %s", w.Waiter, w.Blocker, w.Object)
		if w.Inferred {
			s += "?"
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func TestGlobalWaits(t *testing.T) {
	ftwrlHeld := []snapshot.Process{
		gproc(28, "Query", 12, "User sleep", "select sleep(60)"), // holds FTWRL, runs something else
		gproc(29, "Query", 10, "Waiting for backup lock", "insert into shop.t2 values (7)"),
		gproc(30, "Query", 8, "Waiting for backup lock", "COMMIT"),
		gproc(31, "Sleep", 40, "", ""),
	}
	cases := []struct {
		name  string
		ps    []snapshot.Process
		holds []MDLHold
		want  []string
	}{
		{"MariaDB 10.11 FTWRL held, METADATA_LOCK_INFO", ftwrlHeld, []MDLHold{
			{Thread: 28, Space: SpaceBackup, Mode: "BACKUP_FTWRL2"},
			{Thread: 29, Table: "shop.t2", Mode: "SHARED_WRITE"}},
			[]string{"29->28 backup lock", "30->28 backup lock"}},
		{"FTWRL held, no lock list: the session idle since just before the queue", []snapshot.Process{
			gproc(28, "Sleep", 11, "", ""),
			gproc(29, "Query", 10, "Waiting for backup lock", "insert into shop.t2 values (7)"),
			gproc(31, "Sleep", 40, "", ""),
		}, nil, []string{"29->28 backup lock?"}},
		{"FTWRL waits for a long SELECT, writes wait for the FTWRL (MySQL, MariaDB < 10.4)", []snapshot.Process{
			gproc(10, "Query", 60, "Sending data", "SELECT COUNT(*) FROM shop.big"),
			gproc(11, "Query", 20, "Waiting for table flush", "FLUSH TABLES WITH READ LOCK"),
			gproc(12, "Query", 10, "Waiting for global read lock", "UPDATE shop.acct SET bal = 1"),
			gproc(13, "Query", 9, "Waiting for commit lock", "COMMIT"),
			gproc(14, "Query", 5, "Waiting for table flush", "SELECT * FROM shop.big"),
			gproc(15, "Query", 2, "Sending data", "SELECT 1 FROM shop.acct"), // started after the FLUSH
		}, nil, []string{"11->10 table flush?", "12->11 global read lock?", "13->11 commit lock?", "14->11 table flush?"}},
		{"FTWRL waits for DML in progress (MariaDB 10.11, METADATA_LOCK_INFO)", []snapshot.Process{
			gproc(8, "Query", 37, "Updating", "update shop.acct set bal=bal+1 where id=1"),
			gproc(16, "Query", 1, "Waiting for backup lock", "flush tables with read lock"),
			gproc(17, "Query", 1, "Waiting for backup lock", "insert into shop.t2 values (5)"),
		}, []MDLHold{{Thread: 8, Space: SpaceBackup, Mode: "BACKUP_TRANS_DML"}},
			[]string{"16->8 backup lock", "17->16 backup lock?"}},
		{"MySQL 8 performance_schema: GLOBAL SHARED held", []snapshot.Process{
			gproc(5, "Sleep", 30, "", ""),
			gproc(6, "Query", 3, "Waiting for global read lock", "INSERT INTO t VALUES (1)"),
		}, []MDLHold{{Thread: 5, Space: SpaceGlobal, Mode: "SHARED"}, {Thread: 6, Space: SpaceGlobal,
			Mode: "INTENTION_EXCLUSIVE", Pending: true}},
			[]string{"6->5 global read lock"}},
		{"holder not seen", []snapshot.Process{
			gproc(29, "Query", 10, "Waiting for backup lock", "insert into shop.t2 values (7)"),
		}, nil, []string{"29->0 backup lock?"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := edgesText(GlobalWaits(c.ps, c.holds))
			if !slices.Equal(got, c.want) {
				t.Errorf("edges %q, want %q", got, c.want)
			}
		})
	}
}

// A backup pile-up's tree has the FTWRL holder as its root.
func TestLockTreeBackupPileup(t *testing.T) {
	s := &snapshot.Snapshot{Processlist: []snapshot.Process{
		gproc(28, "Sleep", 12, "", ""),
		gproc(29, "Query", 10, "Waiting for backup lock", "insert into shop.t2 values (7)"),
		gproc(30, "Query", 8, "Waiting for backup lock", "COMMIT"),
	}}
	s.Locks = &snapshot.Locks{Waits: GlobalWaits(s.Processlist, []MDLHold{{Thread: 28, Space: SpaceBackup, Mode: "BACKUP_FTWRL2"}})}
	tr := BuildLockTree(s)
	if tr == nil || len(tr.Roots) != 1 || tr.Roots[0].Thread != 28 || tr.Roots[0].Waiters != 2 ||
		tr.Roots[0].Guessed != 0 || tr.Roots[0].Kinds[snapshot.LockGlobal] != 2 {
		t.Fatalf("tree %+v", tr)
	}
}
