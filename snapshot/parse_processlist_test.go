package snapshot

import (
	"os"
	"strings"
	"testing"
)

func TestParseProcesslistTSVFixture(t *testing.T) {
	raw, err := os.ReadFile("testdata/processlist-tsv.txt")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := ParseProcesslistTSV(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 20 {
		t.Fatalf("%d rows, want 20", len(rows))
	}
	if waiting := countState(rows, "Waiting for table level lock"); waiting != 11 {
		t.Errorf("%d rows waiting for the table lock, want 11", waiting)
	}
	first := rows[0]
	if first.ID != 6 || first.User != "root" || first.DB != "" || first.Command != "Sleep" || first.State != "" || first.Info != "" {
		t.Errorf("first row = %+v", first)
	}
	w := rows[6]
	if w.ID != 22 || w.DB != "mysqlslap" || !strings.HasPrefix(w.Info, "INSERT INTO t1 VALUES") || w.ExaminedRows != -1 {
		t.Errorf("row 22 = %+v", w)
	}
}

func TestParseProcesslistTSVColumns(t *testing.T) {
	text := "Id\tUser\tHost\tdb\tCommand\tTime\tState\tInfo\tTime_ms\tRows_sent\tRows_examined\n" +
		"7\tapp\t10.0.0.1:5000\tshop\tQuery\t12\tSending data\tUPDATE b SET x=1\t12345.678\t0\t2104331\n" +
		"8\tapp\t10.0.0.2:5001\tNULL\tSleep\t3" // a shell stripped the trailing empty columns
	rows, err := ParseProcesslistTSV(text)
	if err != nil {
		t.Fatal(err)
	}
	want := Process{ID: 7, User: "app", Host: "10.0.0.1:5000", DB: "shop", Command: "Query", TimeMS: 12345,
		State: "Sending data", Info: "UPDATE b SET x=1", ExaminedRows: 2104331}
	if rows[0] != want {
		t.Errorf("row 0 = %+v, want %+v", rows[0], want)
	}
	if rows[1].TimeMS != 3000 || rows[1].Info != "" || rows[1].DB != "" {
		t.Errorf("row 1 = %+v", rows[1])
	}
	if _, err := ParseProcesslistTSV("x\troot\tlocalhost\tNULL\tSleep\t0\t\tNULL"); err == nil {
		t.Error("a non-numeric Id was accepted")
	}
}

func TestParseProcesslistVerticalFixture(t *testing.T) {
	raw, err := os.ReadFile("testdata/processlist-vertical.txt")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := ParseProcesslistVertical(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	// two pt-stalk samples of 22 and 20 rows
	if len(rows) != 42 {
		t.Fatalf("%d rows, want 42", len(rows))
	}
	if waiting := countState(rows[:22], "Waiting for table level lock"); waiting != 8 {
		t.Errorf("first sample: %d rows waiting for the table lock, want 8", waiting)
	}
	r := rows[20]
	if r.ID != 53 || r.Command != "Query" || r.State != "starting" || r.Info != "SHOW FULL PROCESSLIST" || r.Progress != 0 {
		t.Errorf("row 21 = %+v", r)
	}
}

func TestParseProcesslistVerticalMultiline(t *testing.T) {
	text := `*************************** 1. row ***************************
           Id: 9
         User: app
         Host: 10.0.0.9:4100
           db: shop
      Command: Query
         Time: 41
        State: Sending data
         Info: UPDATE b
SET c = 2
 WHERE note: 'x'
      Time_ms: 41234.5
    Rows_sent: 0
Rows_examined: 500
*************************** 2. row ***************************
           Id: 10
         User: app
         Host: h
           db: NULL
      Command: Sleep
         Time: 1
        State: 
         Info: NULL
`
	rows, err := ParseProcesslistVertical(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	if rows[0].Info != "UPDATE b\nSET c = 2\n WHERE note: 'x'" {
		t.Errorf("multi-line Info = %q", rows[0].Info)
	}
	if rows[0].TimeMS != 41234 || rows[0].ExaminedRows != 500 {
		t.Errorf("row 0 figures = %+v", rows[0])
	}
	if rows[1].ID != 10 || rows[1].DB != "" || rows[1].Info != "" || rows[1].ExaminedRows != -1 {
		t.Errorf("row 1 = %+v", rows[1])
	}
	if _, err := ParseProcesslistVertical("garbage\n"); err == nil {
		t.Error("text without a row marker was accepted")
	}
}

func TestParseVerticalRowMarker(t *testing.T) {
	for line, want := range map[string]int{
		"*************************** 1. row ***************************":  1,
		"*************************** 21. row ***************************": 21,
		"*** x. row ***": 0, "1. row": 0, "": 0,
	} {
		n, ok := ParseVerticalRowMarker(line)
		if n != want || ok != (want > 0) {
			t.Errorf("ParseVerticalRowMarker(%q) = %d, %v", line, n, ok)
		}
	}
}

func countState(rows []Process, state string) int {
	n := 0
	for _, r := range rows {
		if r.State == state {
			n++
		}
	}
	return n
}
