package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestBufferPoolSizingEvidence(t *testing.T) {
	local := func(_ int, s *snapshot.Snapshot) { hostOf(s).MemTotal = 8 << 30 }
	pool := vars("innodb_buffer_pool_size", "134217728")
	files := func(n int64) edit { return func(_ int, s *snapshot.Snapshot) { s.InnoDBFileBytes = n } }
	for _, c := range []struct {
		name  string
		edits []edit
		wants []string
	}{
		{"local, data larger than 70 % of RAM", []edit{local, files(20 << 30)}, []string{
			"innodb_buffer_pool_size 128M is 1.6 % of the host's 8.0G RAM (70–80 % on a server that runs nothing else); " +
				"InnoDB tablespace files 20.0G, the pool holds 0.6 % of them",
			"set innodb_buffer_pool_size=5760M (70 % of the host's 8.0G RAM; it is 128M now)"}},
		{"local, small data: the data plus growth", []edit{local, files(1 << 30)}, []string{
			"set innodb_buffer_pool_size=1152M (the InnoDB files' 1.0G plus 10 % for growth, in 128M chunks; it is 128M now)"}},
		{"local, data unknown", []edit{local}, []string{"is 1.6 % of the host's 8.0G RAM",
			"set innodb_buffer_pool_size=5760M"}},
		{"remote, data known", []edit{remote, files(3 << 30)}, []string{
			"innodb_buffer_pool_size 128M; InnoDB tablespace files 3.0G, the pool holds 4.2 % of them",
			"size innodb_buffer_pool_size towards 3456M (the InnoDB files are 3.0G; it is 128M now)"}},
		{"remote, nothing known: no number invented", []edit{remote}, []string{
			"raise innodb_buffer_pool_size (now 128M) towards the size of the working set"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			edits := append([]edit{bpLoad(10000, 1500), pool}, c.edits...)
			mustContain(t, lastFinding(t, DefaultConfig(), series(5, edits...), IDBufferPoolMiss), c.wants...)
		})
	}
}
