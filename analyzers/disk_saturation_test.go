package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestDiskSaturation(t *testing.T) {
	runTimelines(t, IDDiskSaturation, ruleLogic(IDDiskSaturation), []timelineCase{
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
	f := lastFinding(t, ruleLogic(IDDiskSaturation), series(4, disk("sda", 20, 40, 100), disk("sdb", 75, 5, 400),
		cpuLoad(4, 2, 60)), IDDiskSaturation)
	mustContain(t, f, "disk sda saturated: util 20 %, await 40.0 ms", "disk sdb: util 75 %",
		"util > 60 % or await > 35 ms", "run queue 2 on 4 CPUs")
}

// diskOf adds a device with a queue depth and a rotational flag.
func diskOf(name, rot string, utilPct, awaitMS, iops, queue uint64) edit {
	return func(i int, s *snapshot.Snapshot) {
		disk(name, utilPct, awaitMS, iops)(i, s)
		d := &s.Host.Disks[len(s.Host.Disks)-1]
		d.Rotational, d.WeightedIOMS = rot, queue*1000*uint64(i)
	}
}

// mounted gives the host a mount table and the server its paths.
func mounted(mounts ...snapshot.Mount) edit {
	return func(_ int, s *snapshot.Snapshot) {
		hostOf(s).Mounts = mounts
		s.Variables["datadir"] = "/var/lib/mysql/"
		s.Variables["tmpdir"] = "/tmp"
		s.Variables["log_bin"] = "ON"
		s.Variables["log_bin_basename"] = "/binlogs/mysql-bin"
		s.Variables["innodb_log_group_home_dir"] = "./"
	}
}

// The routine-work review: spinning-disk limits only on spinning disks, and only devices
// holding the server's files.
func TestDiskSaturationByDeviceKindAndHolder(t *testing.T) {
	runTimelines(t, IDDiskSaturation, ruleLogic(IDDiskSaturation), []timelineCase{
		{"virtio at 75 % util and 5 ms is not saturated", series(4, diskOf("vda", "1", 75, 5, 400, 1)), "...."},
		{"SSD at 90 % util and 3 ms is not saturated", series(4, diskOf("sdb", "0", 90, 3, 400, 3)), "...."},
		{"NVMe queueing at 30 ms", series(4, diskOf("nvme0n1", "0", 99, 30, 400, 6)), "...W"},
		{"NVMe queueing at 150 ms is critical", series(4, diskOf("nvme0n1", "0", 99, 150, 400, 6)), "...C"},
		{"virtio slow but not queueing", series(4, diskOf("vda", "1", 99, 30, 400, 1)), "...."},
		{"spinning disk busy", series(4, diskOf("sda", "1", 75, 5, 400, 1)), "...W"},
		{"a busy disk holding nothing of the server's", series(4, diskOf("sdc", "1", 90, 60, 400, 4),
			diskOf("sda", "1", 10, 2, 50, 0), mounted(snapshot.Mount{Point: "/", Device: "sda"},
				snapshot.Mount{Point: "/backup", Device: "sdc"})), "...."},
	})
	f := lastFinding(t, ruleLogic(IDDiskSaturation), series(4, diskOf("sda", "1", 75, 40, 400, 3),
		diskOf("nvme0n1", "0", 99, 30, 400, 6), mounted(snapshot.Mount{Point: "/", Device: "sda"},
			snapshot.Mount{Point: "/var/lib/mysql", Device: "nvme0n1"}, snapshot.Mount{Point: "/binlogs", Device: "sda"})),
		IDDiskSaturation)
	mustContain(t, f, "disk sda: util 75 %", "(spinning disk); holds binlog, tmpdir",
		"disk nvme0n1: util 99 %, await 30.0 ms", "(SSD/NVMe: %util means little); holds datadir, redo",
		"queue > 2 and await > 20 ms")
}
