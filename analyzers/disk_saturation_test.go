package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestDiskSaturation(t *testing.T) {
	runTimelines(t, IDDiskSaturation, DefaultConfig(), []timelineCase{
		{"busy disk", series(5, disk("sda", 75, 5, 400)), "...WW"},
		{"slow disk", series(4, disk("sda", 20, 40, 100)), "...W"},
		{"busy and slow is critical", series(4, disk("sda", 90, 60, 400)), "...C"},
		{"healthy", series(4, disk("sda", 20, 3, 400)), "...."},
		{"one slow I/O on an idle disk", series(4, disk("sda", 1, 80, 1)), "...."},
		{"loop devices are skipped", series(4, disk("loop0", 99, 90, 400)), "...."},
		{"flapping busy/idle never raises", series(8, func(i int, s *snapshot.Snapshot) {
			h := hostOf(s)
			h.Disks = []snapshot.DiskCounters{{Name: "sda", Reads: 400 * uint64(i),
				IOTimeMS: uint64(700*(i/2*2) + 100*(i%2))}}
		}), "........"},
		{"remote server", series(2, remote), "NN"},
		{"no host figures", series(2, noHost), "NN"},
	})
	f := lastFinding(t, DefaultConfig(), series(4, disk("sda", 20, 40, 100), disk("sdb", 75, 5, 400),
		cpuLoad(4, 2, 60)), IDDiskSaturation)
	mustContain(t, f, "disk sda saturated: util 20 %, await 40.0 ms", "disk sdb: util 75 %",
		"util > 60 % or await > 35 ms", "run queue 2 on 4 CPUs")
}
