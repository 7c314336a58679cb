package parse

import (
	"os"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestParseDeadlockMariaDB(t *testing.T) {
	raw, err := os.ReadFile("testdata/innodb-status/mariadb-10.11-lockwait-deadlock.txt")
	if err != nil {
		t.Fatal(err)
	}
	d := ParseDeadlock(mustInnoDB(t, raw).LatestDeadlock)
	if len(d.Trx) != 2 || d.Victim != 1 {
		t.Fatalf("got %d transactions, victim %d; want 2, 1", len(d.Trx), d.Victim)
	}
	one, two := d.Trx[0], d.Trx[1]
	if one.ID != "26" || one.ThreadID != 8 || one.ActiveSeconds != 2 || one.Query != "update t.a set v=21 where id=3" {
		t.Errorf("trx 1 = %+v", one)
	}
	if one.Who != "root@localhost" {
		t.Errorf("trx 1 who = %q", one.Who)
	}
	if len(one.Waits) != 1 || one.Waits[0] != "index PRIMARY of table `t`.`a`, lock_mode X locks rec but not gap waiting" {
		t.Errorf("trx 1 waits = %q", one.Waits)
	}
	if len(one.Holds) != 1 || two.ThreadID != 7 || len(two.Waits) != 1 {
		t.Errorf("trx 1 holds %q, trx 2 = %+v", one.Holds, two)
	}
}

func TestParseDeadlockMySQL55(t *testing.T) {
	raw, err := os.ReadFile("testdata/innodb-status/mysql-5.5-b.txt")
	if err != nil {
		t.Fatal(err)
	}
	d := ParseDeadlock(mustInnoDB(t, raw).LatestDeadlock)
	if len(d.Trx) != 2 || d.Victim != 1 {
		t.Fatalf("got %+v", d)
	}
	if d.Trx[0].ID != "AFB88BCF" || d.Trx[0].ThreadID != 384855 || d.Trx[1].ActiveSeconds != 12 {
		t.Errorf("got %+v", d.Trx)
	}
	if len(d.Trx[1].Holds) == 0 || len(d.Trx[1].Waits) == 0 || d.Trx[0].Query == "" {
		t.Errorf("trx 2 holds %q waits %q; trx 1 query %q", d.Trx[1].Holds, d.Trx[1].Waits, d.Trx[0].Query)
	}
}

func TestParseDeadlockGarbage(t *testing.T) {
	for _, in := range []string{"", "*** (x) TRANSACTION:", "RECORD LOCKS without a transaction", "*** WE ROLL BACK TRANSACTION (9)"} {
		_ = ParseDeadlock(in) // must not panic
	}
}

func mustInnoDB(t *testing.T, raw []byte) *snapshot.InnoDBStatus {
	t.Helper()
	st, err := ParseInnoDBStatus(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	return st
}
