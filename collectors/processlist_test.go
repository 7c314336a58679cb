package collectors

import (
	"database/sql"
	"fmt"
	"reflect"
	"testing"
	"unsafe"

	"github.com/mytop-go/mytop-go/snapshot"
)

// tableOf builds a result set; "\x00" stands for NULL.
func tableOf(cols []string, rows ...[]string) *table {
	t := &table{cols: cols}
	for _, r := range rows {
		row := make([]sql.NullString, len(r))
		for i, v := range r {
			if v != "\x00" {
				row[i] = sql.NullString{String: v, Valid: true}
			}
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// decodeTable decodes t as a processlist result, as the driver would hand it over.
func decodeTable(d *processDecoder, t *table) []snapshot.Process {
	rows := make([][]sql.RawBytes, len(t.rows))
	for i, r := range t.rows {
		rows[i] = make([]sql.RawBytes, len(r))
		for k, c := range r {
			if c.Valid {
				rows[i][k] = append(sql.RawBytes{}, c.String...)
			}
		}
	}
	return d.decodeAll(t.cols, rows)
}

func TestDecodeProcesslist(t *testing.T) {
	tests := []struct {
		name string
		in   *table
		want []snapshot.Process
	}{
		{
			name: "information_schema columns: TIME_MS, EXAMINED_ROWS, PROGRESS",
			in: tableOf([]string{"ID", "USER", "HOST", "DB", "COMMAND", "TIME", "STATE", "INFO", "TIME_MS", "EXAMINED_ROWS", "PROGRESS"},
				[]string{"5121", "app", "10.0.0.12:5133", "shop", "Query", "48", "Updating", "UPDATE b SET x=1 WHERE c=2", "48211.532", "2104331", "12.500"},
				[]string{"7", "event_scheduler", "localhost", "\x00", "Daemon", "100", "Waiting on empty queue", "\x00", "100000.000", "0", "0.000"}),
			want: []snapshot.Process{
				{ID: 5121, User: "app", Host: "10.0.0.12:5133", DB: "shop", Command: "Query", TimeMS: 48211, State: "Updating",
					Info: "UPDATE b SET x=1 WHERE c=2", ExaminedRows: 2104331, Progress: 12.5},
				{ID: 7, User: "event_scheduler", Host: "localhost", Command: "Daemon", TimeMS: 100000, State: "Waiting on empty queue"},
			},
		},
		{
			name: "performance_schema has seconds only and no examined rows",
			in: tableOf([]string{"ID", "USER", "HOST", "DB", "COMMAND", "TIME", "STATE", "INFO"},
				[]string{"12", "web", "10.0.0.31:4242", "shop", "Query", "9", "executing", "SELECT * FROM items"}),
			want: []snapshot.Process{{ID: 12, User: "web", Host: "10.0.0.31:4242", DB: "shop", Command: "Query", TimeMS: 9000,
				State: "executing", Info: "SELECT * FROM items", ExaminedRows: -1}},
		},
		{
			name: "SHOW FULL PROCESSLIST spelling, NULL state and time",
			in: tableOf([]string{"ID", "USER", "HOST", "DB", "COMMAND", "TIME", "STATE", "INFO", "PROGRESS"},
				[]string{"3", "root", "localhost", "\x00", "Sleep", "\x00", "\x00", "\x00", "0.000"}),
			want: []snapshot.Process{{ID: 3, User: "root", Host: "localhost", Command: "Sleep", ExaminedRows: -1}},
		},
		{
			name: "Percona ROWS_EXAMINED",
			in: tableOf([]string{"ID", "USER", "COMMAND", "TIME", "TIME_MS", "ROWS_EXAMINED"},
				[]string{"4", "u", "Query", "2", "2500", "77"}),
			want: []snapshot.Process{{ID: 4, User: "u", Command: "Query", TimeMS: 2500, ExaminedRows: 77}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := decodeTable(&processDecoder{}, tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestDecoderSharesUnchangedStringsAcrossTicks(t *testing.T) {
	cols := []string{"Id", "User", "Host", "db", "Command", "Time", "State", "Info"}
	tick := func(info string) *table {
		return tableOf(cols, []string{"9", "app", "10.0.0.7:40112", "shop", "Query", "3", "Sending data", info})
	}
	d := &processDecoder{}
	a := decodeTable(d, tick("SELECT * FROM big"))[0]
	b := decodeTable(d, tick("SELECT * FROM big"))[0]
	c := decodeTable(d, tick("SELECT * FROM other"))[0]
	if !reflect.DeepEqual(a, b) || a.Info != "SELECT * FROM big" || c.Info != "SELECT * FROM other" || c.Host != a.Host {
		t.Fatalf("decoded %+v, %+v, %+v", a, b, c)
	}
	if unsafe.StringData(a.Info) != unsafe.StringData(b.Info) || unsafe.StringData(a.Host) != unsafe.StringData(c.Host) {
		t.Error("an unchanged statement or host was allocated again instead of shared")
	}
	if a.TimeMS != 3000 || a.ExaminedRows != -1 {
		t.Errorf("Time 3 s read as %d ms, examined %d", a.TimeMS, a.ExaminedRows)
	}
}

func TestDecoderForgetsNamesBeyondItsBound(t *testing.T) {
	d := &processDecoder{}
	for i := range 200 {
		decodeTable(d, tableOf([]string{"ID", "HOST"}, []string{"1", fmt.Sprintf("10.0.0.1:%d", 30000+i)}))
	}
	if len(d.names) > namesCap+64 {
		t.Errorf("%d names remembered for a one-row processlist", len(d.names))
	}
}

func TestLeadingInt(t *testing.T) {
	for in, want := range map[string]int64{"48211.532": 48211, "-3": -3, " 7 ": 7, "": 0, "x": 0, "100000.000": 100000} {
		if got := leadingInt([]byte(in)); got != want {
			t.Errorf("leadingInt(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestProcesslistQuery(t *testing.T) {
	tests := []struct {
		caps Capabilities
		want string
	}{
		{Capabilities{Processlist: sourcePerfSchema},
			"SELECT ID, USER, HOST, DB, COMMAND, TIME, STATE, INFO FROM performance_schema.processlist"},
		{Capabilities{Processlist: sourceShow, ProcesslistDetail: []string{"TIME_MS"}}, "SHOW FULL PROCESSLIST"},
	}
	for _, tt := range tests {
		if got := processlistQuery(tt.caps); got != tt.want {
			t.Errorf("%s: got %q", tt.caps.Processlist, got)
		}
	}
}

func TestWithoutThreads(t *testing.T) {
	ps := []snapshot.Process{{ID: 1}, {ID: 2}, {ID: 3}, {ID: 4}}
	got := withoutThreads(ps, []int64{2, 4})
	if len(got) != 2 || got[0].ID != 1 || got[1].ID != 3 {
		t.Errorf("got %+v", got)
	}
}

// BenchmarkProcesslistDecode decodes a 5,000-thread MariaDB processlist from
// the driver's bytes, tick after tick, as the collector does: everything the
// client does with a processlist after the network.
func BenchmarkProcesslistDecode(b *testing.B) {
	cols := []string{"ID", "USER", "HOST", "DB", "COMMAND", "TIME", "STATE", "INFO", "TIME_MS", "EXAMINED_ROWS", "PROGRESS"}
	rows := make([][]string, 5000)
	for i := range rows {
		rows[i] = []string{fmt.Sprint(i + 1), "app", fmt.Sprintf("10.0.%d.%d:5%04d", i/250, i%250, i), "shop", "Query",
			fmt.Sprint(i % 60), "Sending data", fmt.Sprintf("SELECT * FROM items WHERE id = %d AND status = 'open' ORDER BY created LIMIT 20", i),
			fmt.Sprintf("%d.123", i%60*1000), fmt.Sprint(i * 17), "0.000"}
	}
	raw := make([][]sql.RawBytes, len(rows))
	for i, r := range rows {
		for _, c := range r {
			raw[i] = append(raw[i], sql.RawBytes(c))
		}
	}
	d := &processDecoder{}
	b.ReportAllocs()
	for b.Loop() {
		if got := d.decodeAll(cols, raw); len(got) != 5000 {
			b.Fatal(len(got))
		}
	}
}
