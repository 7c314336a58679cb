package importers

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testfiles"
)

// BenchmarkImportPtStalkHour imports a one-hour pt-stalk collection: the
// 40-second fixture repeated 90 times, with Uptime, TS markers and the
// collection's clock shifted so every repetition follows the last.
func BenchmarkImportPtStalkHour(b *testing.B) {
	dir := b.TempDir()
	const reps = 90
	size := writeHourCapture(b, dir, reps)
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		c, err := Import(dir, Options{Location: time.UTC})
		if err != nil {
			b.Fatal(err)
		}
		if n := len(c.Sessions[0].Snapshots); n < 40*reps {
			b.Fatalf("%d snapshots", n)
		}
	}
}

var (
	uptimeRow = regexp.MustCompile(`^\| Uptime +\| (\d+) +\|$`)
	tsMarker  = regexp.MustCompile(`^TS (\d+)(\.\d+)? `)
)

// writeHourCapture writes the repeated collection and returns its size.
func writeHourCapture(b *testing.B, dir string, reps int) int64 {
	const prefix = "2026_12_01_04_38_31"
	entries, err := os.ReadDir(ptStalkDir)
	if err != nil {
		b.Fatal(err)
	}
	var total int64
	for _, e := range entries {
		src := filepath.Join(ptStalkDir, e.Name())
		part := strings.TrimPrefix(e.Name(), prefix+"-")
		dst := filepath.Join(dir, e.Name())
		switch part {
		case "mysqladmin", "processlist", "vmstat", "diskstats", "procstat", "procvmstat":
			total += repeatFile(b, src, dst, reps, shiftLine)
		default:
			testfiles.CopyFile(b, src, dst)
		}
	}
	return total
}

// shiftLine moves a line of repetition k forward by k*41 seconds, the span of
// one repetition (Uptime runs 11..51).
func shiftLine(line string, k int) string {
	if k == 0 {
		return line
	}
	if m := uptimeRow.FindStringSubmatch(line); m != nil {
		u, _ := strconv.Atoi(m[1])
		return strings.Replace(line, m[1]+" ", strconv.Itoa(u+41*k)+" ", 1)
	}
	if m := tsMarker.FindStringSubmatch(line); m != nil {
		ts, _ := strconv.ParseInt(m[1], 10, 64)
		return strings.Replace(line, m[1], strconv.FormatInt(ts+41*int64(k), 10), 1)
	}
	return line
}

func repeatFile(b *testing.B, src, dst string, reps int, shift func(string, int) string) int64 {
	raw, err := os.ReadFile(src)
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	f, err := os.Create(dst)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for k := 0; k < reps; k++ {
		for _, l := range lines {
			fmt.Fprintln(w, shift(l, k))
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	st, _ := f.Stat()
	f.Close()
	return st.Size()
}
