package parse

import (
	"maps"
	"os"
	"strings"
	"testing"
)

func TestParseStatusRow(t *testing.T) {
	tests := []struct {
		line, name, value string
		ok                bool
	}{
		{"Com_select\t5477\n", "Com_select", "5477", true},
		{"Binlog_snapshot_file", "Binlog_snapshot_file", "", true}, // shell read stripped the tab
		{"Innodb_buffer_pool_load_status\tBuffer pool(s) load completed at 261201  4:38:21", "Innodb_buffer_pool_load_status", "Buffer pool(s) load completed at 261201  4:38:21", true},
		{"Variable_name\tValue", "", "", false},
		{"", "", "", false},
		{"6\troot\tlocalhost\tNULL\tSleep\t0\t\tNULL", "", "", false},
		{"x\troot\tlocalhost\tNULL\tSleep\t0\t\tNULL", "", "", false},
		{" 8  2      0 23342656", "", "", false},
		{"SHOW GLOBAL VARIABLES", "", "", false},
	}
	for _, tc := range tests {
		name, value, ok := ParseStatusRow(tc.line)
		if name != tc.name || value != tc.value || ok != tc.ok {
			t.Errorf("ParseStatusRow(%q) = %q, %q, %v; want %q, %q, %v", tc.line, name, value, ok, tc.name, tc.value, tc.ok)
		}
	}
}

func TestParseBoxedRow(t *testing.T) {
	tests := []struct {
		line, name, value string
		ok                bool
	}{
		{"| Com_select                                       | 5477                                             |", "Com_select", "5477", true},
		{"| Threads_connected | -1 |", "Threads_connected", "-1", true},
		{"| Binlog_snapshot_file |  |", "Binlog_snapshot_file", "", true},
		{"| Variable_name                                    | Value                                            |", "", "", false},
		{"+--------------------------------------------------+---------+", "", "", false},
		{"|", "", "", false},
		{"| no closing bar", "", "", false},
	}
	for _, tc := range tests {
		name, value, ok := ParseBoxedRow(tc.line)
		if name != tc.name || value != tc.value || ok != tc.ok {
			t.Errorf("ParseBoxedRow(%q) = %q, %q, %v; want %q, %q, %v", tc.line, name, value, ok, tc.name, tc.value, tc.ok)
		}
	}
	if !IsBoxedHeader("| Variable_name | Value |") || IsBoxedHeader("| Com_select | 1 |") {
		t.Error("IsBoxedHeader misjudges the header row")
	}
}

// The same server, one second apart, in both table forms (fixtures of the
// tablelock-bpmiss capture).
func TestParseStatusTableFixtures(t *testing.T) {
	tests := []struct {
		file string
		rows int
		want map[string]string
	}{
		{"testdata/status-tsv.txt", 562, map[string]string{
			"Com_select": "0", "Table_locks_waited": "447", "Uptime": "10",
			"Innodb_buffer_pool_reads": "33610", "Binlog_snapshot_file": "",
		}},
		{"testdata/status-boxed.txt", 562, map[string]string{
			"Com_select": "5477", "Table_locks_waited": "2890", "Uptime": "11",
		}},
	}
	for _, tc := range tests {
		raw, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ParseStatusTable(string(raw))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if len(m) != tc.rows {
			t.Errorf("%s: %d rows, want %d", tc.file, len(m), tc.rows)
		}
		for k, v := range tc.want {
			if got, ok := m[k]; !ok || got != v {
				t.Errorf("%s: %s = %q (present %v), want %q", tc.file, k, got, ok, v)
			}
		}
	}
	if _, err := ParseStatusTable("SHOW GLOBAL VARIABLES\n\n--------------\n"); err == nil {
		t.Error("ParseStatusTable accepted text without rows")
	}
}

// FuzzParseStatusTable writes the table it read back out, each row in the
// form that keeps its value (tab-separated, or boxed for a value holding a
// tab), and reads it again: the same names and values must come back. Rows
// read on their own must keep to what the row parsers promise.
func FuzzParseStatusTable(f *testing.F) {
	for _, path := range []string{"testdata/status-tsv.txt", "testdata/status-boxed.txt"} {
		raw, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(raw[:min(len(raw), 1500)]))
	}
	f.Add("Variable_name\tValue\nCom_select\t5477\r\nBinlog_snapshot_file\nwsrep.x\t a b \n")
	f.Add("+--+\n| Variable_name | Value |\n| Uptime | 11 |\n| X | a\tb | c |\n|\n")
	f.Add("SHOW GLOBAL VARIABLES\n\n--------------\n")
	f.Fuzz(func(t *testing.T, text string) {
		for line := range strings.Lines(text) {
			if name, value, ok := ParseStatusRow(line); ok {
				if !isVariableName(name) || name == "Variable_name" || strings.ContainsAny(value, "\t") ||
					strings.HasSuffix(value, "\n") || strings.HasSuffix(value, "\r") {
					t.Fatalf("ParseStatusRow(%q) = %q, %q", line, name, value)
				}
				if n, v, ok := ParseStatusRow(name + "\t" + value); !ok || n != name || v != value {
					t.Fatalf("row %q re-read as %q, %q, %v", line, n, v, ok)
				}
			}
			if name, value, ok := ParseBoxedRow(line); ok {
				if !isVariableName(name) || name == "Variable_name" || value != strings.TrimSpace(value) {
					t.Fatalf("ParseBoxedRow(%q) = %q, %q", line, name, value)
				}
				if n, v, ok := ParseBoxedRow("| " + name + " | " + value + " |"); !ok || n != name || v != value {
					t.Fatalf("boxed row %q re-read as %q, %q, %v", line, n, v, ok)
				}
			}
		}
		m, err := ParseStatusTable(text)
		if (err == nil) != (len(m) > 0) {
			t.Fatalf("%d rows with error %v", len(m), err)
		}
		if err != nil {
			return
		}
		var out strings.Builder
		for name, value := range m {
			if strings.Contains(value, "\t") {
				out.WriteString("| " + name + " | " + value + " |\n")
			} else {
				out.WriteString(name + "\t" + value + "\n")
			}
		}
		again, err := ParseStatusTable(out.String())
		if err != nil || !maps.Equal(again, m) {
			t.Fatalf("re-reading %q: %v %v, first %v", out.String(), again, err, m)
		}
	})
}
