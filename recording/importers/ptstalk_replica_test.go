package importers

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A pt-stalk collection of a replica whose SQL thread broke after the first
// sample: each snapshot carries the channel the -slave-status sample of its
// second held.
func TestPtStalkSlaveStatus(t *testing.T) {
	dir := t.TempDir()
	admin := ""
	for i := range 3 {
		admin += "+------------------+-------+\n| Variable_name | Value |\n+------------------+-------+\n" +
			"| Uptime | " + string(rune('5'+i)) + "00 |\n| Questions | 10 |\n+------------------+-------+\n"
	}
	row := func(sql, errno, err string) string {
		return "SHOW SLAVE STATUS\\G\n*************************** 1. row ***************************\n" +
			"   Master_Host: 10.0.0.1\n   Master_Port: 3306\nSlave_IO_Running: Yes\nSlave_SQL_Running: " + sql +
			"\nSeconds_Behind_Master: 0\nLast_SQL_Errno: " + errno + "\nLast_SQL_Error: " + err + "\n"
	}
	slave := row("Yes", "0", "") + row("No", "1062", "Duplicate entry '5' for key 'PRIMARY'") +
		row("No", "1062", "Duplicate entry '5' for key 'PRIMARY'")
	for part, text := range map[string]string{"mysqladmin": admin, "slave-status": slave} {
		if err := os.WriteFile(filepath.Join(dir, "2026_12_01_04_38_31-"+part), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c, err := Import(dir, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	snaps := c.Sessions[0].Snapshots
	if len(snaps) != 3 {
		t.Fatalf("%d snapshots", len(snaps))
	}
	first, last := snaps[0].Channels(), snaps[2].Channels()
	if len(first) != 1 || !first[0].SQLOK() || first[0].Source != "10.0.0.1:3306" {
		t.Errorf("first %+v", first)
	}
	if len(last) != 1 || last[0].SQLOK() || last[0].LastSQLErrno != 1062 {
		t.Errorf("last %+v", last)
	}
}
