package parse

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseProcesslistBoxed(t *testing.T) {
	text := `+----+------+-----------+------+---------+------+----------+---------------------+
| Id | User | Host      | db   | Command | Time | State    | Info                |
+----+------+-----------+------+---------+------+----------+---------------------+
| 9  | app  | localhost | shop | Query   | 12   | updating | UPDATE t SET a='|x' |
| 10 |      |           |      |         |      |          |                     |
| 11 | app  | localhost | NULL | Sleep   | 3    |          | NULL                |
+----+------+-----------+------+---------+------+----------+---------------------+
`
	rows, err := parseProcesslistBoxed(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	if r := rows[0]; r.ID != 9 || r.DB != "shop" || r.TimeMS != 12000 || r.Info != "UPDATE t SET a='|x'" {
		t.Errorf("row 9 = %+v", r)
	}
	if r := rows[1]; r.ID != 10 || r.User != "" || r.TimeMS != 0 {
		t.Errorf("row 10 = %+v", r)
	}
	if r := rows[2]; r.DB != "" || r.Info != "" || r.Command != "Sleep" {
		t.Errorf("row 11 = %+v", r)
	}
	if _, err := parseProcesslistBoxed("| 9 | app |\n"); err == nil {
		t.Error("a row before any header was accepted")
	}
	if _, ok := ParseBoxedProcesslistHeader("| Variable_name | Value |"); ok {
		t.Error("a status table header read as a processlist header")
	}
}

// "Info: NULL" and the blank line the client prints after the last record
// are no query text; a blank line inside a multi-line Info is kept.
func TestParseProcesslistVerticalInfoNullThenBlank(t *testing.T) {
	text := "*************************** 1. row ***************************\n" +
		"     Id: 7\n   Info: NULL\n\n\n" +
		"*************************** 2. row ***************************\n" +
		"     Id: 8\n   Info: SELECT 1\n\nFROM dual\n\n"
	rows, err := parseProcesslistVertical(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Info != "" || rows[1].Info != "SELECT 1\n\nFROM dual" {
		t.Fatalf("rows = %+v", rows)
	}
}

// FuzzParseProcesslistBoxed: whatever the text, rows or an error, and a row
// read back from its own boxed form is the same row.
func FuzzParseProcesslistBoxed(f *testing.F) {
	f.Add("+----+\n| Id | User | Host | db | Command | Time | State | Info |\n| 9 | a | h | d | Query | 1 | s | x|y |\n")
	f.Add("| Id | User | Host | db | Command |\n| 1 |  |  |  |  |\n")
	f.Fuzz(func(t *testing.T, text string) {
		rows, err := parseProcesslistBoxed(text)
		if err != nil {
			return
		}
		cols := ProcesslistColumns{"Id", "User", "Info"}
		for _, r := range rows {
			if strings.ContainsAny(r.User, "|\n") || strings.Contains(r.Info, "\n") {
				continue
			}
			back, err := cols.ParseBoxedRow(fmt.Sprintf("| %d | %s | %s |", r.ID, r.User, r.Info))
			if err != nil || back.ID != r.ID || back.User != strings.TrimSpace(r.User) || back.Info != strings.TrimSpace(r.Info) {
				t.Fatalf("row %+v read back as %+v, %v", r, back, err)
			}
		}
	})
}
