package importers

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testfiles"
	"github.com/mytop-go/mytop-go/snapshot"
)

// mysqladmin ext -i1 -r -c 50 of the tablelock-bpmiss incident, started at
// 04:38:26 (its 10th sample matches the shell loops' Table_locks_waited then).
const relativeFile = "testdata/mysqladmin-ext-i1-r.txt"

func importRelative(t testing.TB) *Session {
	t.Helper()
	c, err := Import(relativeFile, Options{Start: at("04:38:26"), Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != FormatMysqladmin || len(c.Sessions) != 1 {
		t.Fatalf("format %s, %d sessions", c.Format, len(c.Sessions))
	}
	return &c.Sessions[0]
}

func TestMysqladminRelativeRebuildsCounters(t *testing.T) {
	s := importRelative(t)
	if len(s.Snapshots) != 50 || !s.Approximate || s.Problems.Count != 0 {
		t.Fatalf("%d snapshots, approximate %v, problems %+v", len(s.Snapshots), s.Approximate, s.Problems)
	}
	if !s.Snapshots[0].Approximate || !s.End().Equal(at("04:39:15")) {
		t.Errorf("end %v, snapshot approximate %v", s.End(), s.Snapshots[0].Approximate)
	}
	tests := []struct {
		hms, name, want string
	}{
		{"04:38:26", "Uptime", "5"},
		{"04:38:35", "Uptime", "14"},
		{"04:38:35", "Com_select", "18597"},
		{"04:38:35", "Table_locks_waited", "9472"},
		{"04:38:45", "Table_locks_waited", "24535"},
	}
	for _, tc := range tests {
		if got := snapAt(t, s, tc.hms).Status[tc.name]; got != tc.want {
			t.Errorf("%s at %s = %q, want %q", tc.name, tc.hms, got, tc.want)
		}
	}
	if !strings.Contains(strings.Join(s.Missing, ","), "text status values") {
		t.Errorf("missing = %q", s.Missing)
	}
}

// Delta over the rebuilt counters gives back the differences mysqladmin printed.
func TestMysqladminRelativeRatesMatchFile(t *testing.T) {
	s := importRelative(t)
	for _, name := range []string{"Com_select", "Table_locks_waited", "Innodb_buffer_pool_reads", "Innodb_buffer_pool_read_requests"} {
		printed := printedValues(t, relativeFile, name)
		if len(printed) != len(s.Snapshots) {
			t.Fatalf("%s: %d printed values", name, len(printed))
		}
		rising := 0
		for i := 1; i < len(s.Snapshots); i++ {
			r := snapshot.Delta(s.Snapshots[i-1], s.Snapshots[i])
			got, ok := r.Rate(name)
			if !ok || got != float64(printed[i]) {
				t.Errorf("%s sample %d: rate %v (%v), file says %d", name, i+1, got, ok, printed[i])
			}
			if got > 0 {
				rising++
			}
		}
		if rising < 20 {
			t.Errorf("%s rose in only %d samples", name, rising)
		}
	}
}

func printedValues(t *testing.T, path, name string) []int64 {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "|")
		if len(cols) == 4 && strings.TrimSpace(cols[1]) == name {
			v, _ := strconv.ParseInt(strings.TrimSpace(cols[2]), 10, 64)
			out = append(out, v)
		}
	}
	return out
}

func TestMysqladminStartFromMtime(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ext.txt")
	testfiles.CopyFile(t, relativeFile, path)
	last := at("05:00:49")
	if err := os.Chtimes(path, last, last); err != nil {
		t.Fatal(err)
	}
	c, err := Import(path, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sessions[0]
	if !s.End().Equal(last) || !s.Start().Equal(at("05:00:00")) {
		t.Errorf("span %v .. %v, want 05:00:00 .. 05:00:49", s.Start(), s.End())
	}
}

// A variable appearing mid-capture shifts mysqladmin's by-position differences;
// the import must still give each name its own value and say so.
func TestMysqladminChangedVariableList(t *testing.T) {
	table := func(rows ...string) string {
		out := "+------+------+\n| Variable_name | Value |\n+------+------+\n"
		for _, r := range rows {
			out += r + "\n"
		}
		return out + "+------+------+\n\n"
	}
	// absolute values: s1 A=10 C=100 Uptime=50; s2 A=12 B=7 C=130 Uptime=51;
	// s3 A=15 B=7 C=131 Uptime=52. mysqladmin -r prints differences against
	// the previous sample's value at the same position (0 for a new position).
	text := table("| A | 10 |", "| C | 100 |", "| Uptime | 50 |") +
		table("| A | 2 |", "| B | -93 |", "| C | 80 |", "| Uptime | 51 |") +
		table("| A | 3 |", "| B | 0 |", "| C | 1 |", "| Uptime | 1 |")
	path := filepath.Join(t.TempDir(), "ext")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Import(path, Options{Start: at("04:00:00"), Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sessions[0]
	got := s.Snapshots[1].Status
	if got["A"] != "12" || got["B"] != "7" || got["C"] != "130" || got["Uptime"] != "51" {
		t.Errorf("second sample = %v", got)
	}
	if got := s.Snapshots[2].Status; got["A"] != "15" || got["C"] != "131" || got["Uptime"] != "52" {
		t.Errorf("third sample = %v", got)
	}
	if len(s.Notes) != 2 || !strings.Contains(s.Notes[1], "added [B]") {
		t.Errorf("notes = %q", s.Notes)
	}
}

func TestMysqladminAbsolute(t *testing.T) {
	path := filepath.Join("testdata", "ptstalk", "2026_12_01_04_38_31-mysqladmin")
	c, err := Import(path, Options{Start: at("04:38:32"), Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sessions[0]
	if len(s.Snapshots) != 40 || len(s.Notes) != 0 {
		t.Fatalf("%d snapshots, notes %q", len(s.Snapshots), s.Notes)
	}
	first := s.Snapshots[0]
	if first.Status["Com_select"] != "5477" || first.Status["Table_locks_waited"] != "2890" {
		t.Errorf("first sample Com_select %q Table_locks_waited %q", first.Status["Com_select"], first.Status["Table_locks_waited"])
	}
	// Uptime 40 -> 42 places that sample two seconds on.
	if d := s.Snapshots[30].Time.Sub(s.Snapshots[29].Time); d != 2*time.Second {
		t.Errorf("gap over the skipped Uptime second = %v", d)
	}
}
