package parse

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
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
	want := snapshot.Process{ID: 7, User: "app", Host: "10.0.0.1:5000", DB: "shop", Command: "Query", TimeMS: 12345,
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
	rows, err := parseProcesslistVertical(string(raw))
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
	rows, err := parseProcesslistVertical(text)
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
	if _, err := parseProcesslistVertical("garbage\n"); err == nil {
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

func countState(rows []snapshot.Process, state string) int {
	n := 0
	for _, r := range rows {
		if r.State == state {
			n++
		}
	}
	return n
}

// sameProcess compares the fields the text formats carry; TimeMS only below
// 2^53, where the float a Time_ms column is read through holds it exactly.
func sameProcess(a, b snapshot.Process) bool {
	timeOK := a.TimeMS == b.TimeMS || a.TimeMS > 1<<53 || a.TimeMS < -1<<53
	progressOK := a.Progress == b.Progress || (math.IsNaN(a.Progress) && math.IsNaN(b.Progress))
	a.TimeMS, b.TimeMS, a.Progress, b.Progress = 0, 0, 0, 0
	return a == b && timeOK && progressOK
}

var fuzzProcesslistHeader = "Id\tUser\tHost\tdb\tCommand\tTime_ms\tState\tProgress\tRows_examined\tInfo\n"

func formatProcessTSV(p snapshot.Process) string {
	return strings.Join([]string{strconv.FormatInt(p.ID, 10), p.User, p.Host, p.DB, p.Command,
		strconv.FormatInt(p.TimeMS, 10), p.State, strconv.FormatFloat(p.Progress, 'g', -1, 64),
		strconv.FormatInt(p.ExaminedRows, 10), p.Info}, "\t") + "\n"
}

// FuzzParseProcesslistTSV writes the rows it read back out under a header
// naming every column the model keeps and reads them again: the same rows
// must come back, so no field is read from the wrong column or half-trimmed.
func FuzzParseProcesslistTSV(f *testing.F) {
	raw, err := os.ReadFile("testdata/processlist-tsv.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(raw[:min(len(raw), 2000)]))
	f.Add("Id\tUser\tHost\tdb\tCommand\tTime\tState\tInfo\tTime_ms\tRows_sent\tRows_examined\n" +
		"7\tapp\t10.0.0.1:5000\tshop\tQuery\t12\tSending data\tUPDATE b SET x=1\t12345.678\t0\t2104331\n" +
		"8\tapp\t10.0.0.2:5001\tNULL\tSleep\t3")
	f.Add("6\troot\tlocalhost\tNULL\tSleep\t0\t\tNULL\r\n\n9\tu\th\tNULL\tQuery\t1\tx\tselect '\t'\n")
	f.Add("Id\tUser\tHost\tdb\tCommand\tTime\tState\tInfo\tProgress\n1\tu\th\td\tQuery\tNULL\ts\tq\t12.5\n")
	f.Fuzz(func(t *testing.T, text string) {
		rows, err := ParseProcesslistTSV(text)
		if err != nil {
			return
		}
		var out strings.Builder
		out.WriteString(fuzzProcesslistHeader)
		for _, p := range rows {
			out.WriteString(formatProcessTSV(p))
		}
		reReadSame(t, out.String(), rows, ParseProcesslistTSV)
	})
}

// FuzzParseProcesslistVertical does the same for \G output, with the names
// right-aligned as the client prints them. A multi-line Info whose later line
// reads as a field or a row marker is ambiguous in the format itself, so
// such input is not written back.
func FuzzParseProcesslistVertical(f *testing.F) {
	raw, err := os.ReadFile("testdata/processlist-vertical.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(raw[:min(len(raw), 2000)]))
	f.Add("*************************** 1. row ***************************\n           Id: 9\n" +
		"         Info: UPDATE b\nSET c = 2\n WHERE note: 'x'\n      Time_ms: 41234.5\nRows_examined: 500\n" +
		"*************************** 2. row ***************************\n  Id: 10\nState: \nInfo: NULL\r\n\n")
	f.Add("\n*** 1. row ***\nProgress: NaN\n*** 2. row ***\n")
	f.Fuzz(func(t *testing.T, text string) {
		rows, err := parseProcesslistVertical(text)
		if err != nil {
			return
		}
		if markers := countMarkers(text); markers != len(rows) {
			t.Fatalf("%d row markers, %d rows", markers, len(rows))
		}
		for _, p := range rows {
			if ambiguousInfo(p.Info) {
				return
			}
		}
		var out strings.Builder
		field := func(name, value string) { fmt.Fprintf(&out, "%13s: %s\n", name, value) }
		for i, p := range rows {
			fmt.Fprintf(&out, "*************************** %d. row ***************************\n", i+1)
			field("Id", strconv.FormatInt(p.ID, 10))
			field("User", p.User)
			field("Host", p.Host)
			field("db", p.DB)
			field("Command", p.Command)
			field("Time_ms", strconv.FormatInt(p.TimeMS, 10))
			field("State", p.State)
			field("Progress", strconv.FormatFloat(p.Progress, 'g', -1, 64))
			field("Rows_examined", strconv.FormatInt(p.ExaminedRows, 10))
			field("Info", p.Info)
		}
		reReadSame(t, out.String(), rows, parseProcesslistVertical)
	})
}

// reReadSame parses written, the rows written back out, and fails unless
// it gives rows again.
func reReadSame(t *testing.T, written string, rows []snapshot.Process, parse func(string) ([]snapshot.Process, error)) {
	t.Helper()
	again, err := parse(written)
	if err != nil || len(again) != len(rows) {
		t.Fatalf("re-reading %q: %d rows, %v; first %d", written, len(again), err, len(rows))
	}
	for i, p := range rows {
		if !sameProcess(p, again[i]) {
			t.Fatalf("row %d: %+v, re-read %+v", i, p, again[i])
		}
	}
}

func countMarkers(text string) int {
	n := 0
	for line := range strings.Lines(text) {
		if _, ok := ParseVerticalRowMarker(line); ok {
			n++
		}
	}
	return n
}

// ambiguousInfo reports an Info with a later line the \G reader would take
// for a field (its colon where the rendered names put theirs) or a marker.
func ambiguousInfo(info string) bool {
	lines := strings.Split(info, "\n")
	for _, l := range lines[1:] {
		if _, ok := ParseVerticalRowMarker(l); ok {
			return true
		}
		if _, _, ok := parseVerticalField(l); ok && strings.IndexByte(l, ':') == 13 {
			return true
		}
	}
	return false
}

// FuzzSetProcessField checks one column's value: text fields are kept
// trimmed, with NULL read as empty, and a number is stored as the number the
// text says, a Time in seconds as exactly that many milliseconds.
func FuzzSetProcessField(f *testing.F) {
	for _, c := range [][2]string{{"Id", "5121"}, {"User", " app "}, {"db", "NULL"}, {"Command", "NULL"},
		{"Time", "41"}, {"Time", "4294967295"}, {"Time", "NULL"}, {"TIME_MS", "41234.5"}, {"Time_ms", "-0.5"}, {"Time_ms", "NaN"}, {"Progress", "12.5"},
		{"Rows_examined", ""}, {"examined_rows", "-7"}, {"Memory_used", "x"}, {"Info", "select 1\t"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, column, value string) {
		p := newProcess()
		known, err := setProcessField(&p, column, value)
		if err != nil && !known {
			t.Fatalf("%s=%q: error %v for a column it does not know", column, value, err)
		}
		if err != nil {
			return
		}
		v := strings.TrimSpace(value)
		text := v
		if text == "NULL" {
			text = ""
		}
		var got string
		switch strings.ToLower(column) {
		case "user":
			got = p.User
		case "host":
			got = p.Host
		case "db":
			got = p.DB
		case "state":
			got = p.State
		case "info":
			got = p.Info
		case "command":
			got, text = p.Command, v
		case "time":
			if s, err := strconv.ParseInt(v, 10, 64); err == nil && (p.TimeMS/1000 != s || p.TimeMS%1000 != 0) {
				t.Fatalf("Time %q stored as %d ms", value, p.TimeMS)
			}
			return
		case "time_ms":
			if ms, err := strconv.ParseFloat(v, 64); err == nil && !(math.Abs(float64(p.TimeMS)-ms) < 1) {
				t.Fatalf("Time_ms %q stored as %d ms", value, p.TimeMS)
			}
			return
		default:
			return
		}
		if got != text {
			t.Fatalf("%s=%q stored as %q", column, value, got)
		}
	})
}

// A statement of thousands of lines (a restore's, a generated IN list) in
// a \G record: linear in its length. Added line by line to a string it was
// quadratic: 210 ms for these 5,000 lines (1 ms now), and 19 s of a crowded
// pt-stalk capture's import.
func BenchmarkProcessRecordLongInfo(b *testing.B) {
	lines := make([]string, 5000)
	for i := range lines {
		lines[i] = fmt.Sprintf("  (%d, 'a row of a restored table', %d),", i, i*7)
	}
	for b.Loop() {
		r := NewProcessRecord()
		for _, l := range append([]string{"     Id: 7", "   Info: INSERT INTO t VALUES"}, lines...) {
			if err := r.Add(l); err != nil {
				b.Fatal(err)
			}
		}
		if !strings.HasSuffix(r.Process.Info, lines[len(lines)-1]) {
			b.Fatal("info cut")
		}
	}
}
