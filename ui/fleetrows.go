package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// fleetRow is one server's line in the fleet view, derived from its latest frame.
type fleetRow struct {
	name    string
	frame   *snapshot.Frame
	worst   *snapshot.Finding
	down    bool
	version string
}

func newFleetRow(name string, f *snapshot.Frame) fleetRow {
	r := fleetRow{name: name, frame: f}
	if f == nil || f.Snapshot == nil {
		return r
	}
	r.down = f.Snapshot.Server.Unreachable
	r.version = serverVersion(f.Snapshot.Server)
	for i := range f.Findings {
		if r.worst == nil || worse(&f.Findings[i], r.worst) {
			r.worst = &f.Findings[i]
		}
	}
	return r
}

// hostFindings are about the machine, not the server: on servers sharing a
// host they show on every row and tell none apart, so a finding of the
// server's own is named first at the same severity.
var hostFindings = map[string]bool{"cpu_saturation": true, "disk_saturation": true, "swapping": true}

func worse(a, b *snapshot.Finding) bool {
	if a.Severity != b.Severity {
		return a.Severity > b.Severity
	}
	return hostFindings[b.ID] && !hostFindings[a.ID]
}

// rank orders servers worst first: the most severe finding, then a server
// that does not answer, then one not heard from yet, then by name.
func (r fleetRow) rank() int {
	switch {
	case r.worst != nil:
		return 10 + int(r.worst.Severity)
	case r.down:
		return 5
	case r.frame == nil:
		return 1
	}
	return 0
}

// own counts the findings about the server itself, for ties between ranks.
func (r fleetRow) own() int {
	n := 0
	if r.frame != nil {
		for _, f := range r.frame.Findings {
			if !hostFindings[f.ID] {
				n++
			}
		}
	}
	return n
}

func sortFleet(rows []fleetRow) {
	slices.SortStableFunc(rows, func(a, b fleetRow) int {
		if c := cmp.Compare(b.rank(), a.rank()); c != 0 {
			return c
		}
		if c := cmp.Compare(b.own(), a.own()); c != 0 {
			return c
		}
		return cmp.Compare(a.name, b.name)
	})
}

// cells are the row's columns, as fleetColumns names them.
func (r fleetRow) cells() []string {
	if r.frame == nil {
		return []string{r.name, "no sample yet", "", "", "", "", "", ""}
	}
	s := r.frame.Snapshot
	up := strings.TrimPrefix(uptime(s), "up ")
	if r.down {
		up = "DOWN"
	}
	finding, onset := "ok", ""
	if r.worst != nil {
		label, _ := severityLabel(r.worst.Severity)
		finding, onset = label+" "+r.worst.ID, activeFor(r.frame.Time(), r.worst.Since)
		if more := len(r.frame.Findings) - 1; more > 0 {
			finding += fmt.Sprintf(" +%d", more)
		}
	}
	return []string{r.name, finding, onset, fleetQPS(r.frame), fleetRunning(s), fleetLag(s), up, r.version}
}

// fleetColumns: what a DBA reads first comes first; the version is cut first
// on a narrow terminal.
var fleetColumns = []string{"Server", "Worst finding", "Age", "QPS", "Run", "Lag", "Up", "Version"}

// fleetFindingCol is the column coloured by severity.
const fleetFindingCol = 1

func fleetQPS(f *snapshot.Frame) string {
	v, ok := f.Rates.Rate("Questions")
	if !ok || f.Snapshot.Server.Unreachable {
		return "-"
	}
	return short(v)
}

func fleetRunning(s *snapshot.Snapshot) string {
	if n, ok := s.StatusInt("Threads_running"); ok && !s.Server.Unreachable {
		return strconv.FormatInt(n, 10)
	}
	return "-"
}

// fleetLag is the replica's worst lag over its channels, "stop" when a
// channel's thread does not run; "-" on a server that replicates from nobody.
func fleetLag(s *snapshot.Snapshot) string {
	chans := s.Channels()
	if len(chans) == 0 {
		return "-"
	}
	worst, known := int64(0), false
	for _, ch := range chans {
		if !ch.IOOK() || !ch.SQLOK() {
			return "stop"
		}
		if lag, ok := ch.Lag(); ok {
			worst, known = max(worst, lag), true
		}
	}
	if !known {
		return "-"
	}
	return age(time.Duration(worst) * time.Second)
}

// fleetCounts is how many servers have a critical and a warning finding at worst.
func fleetCounts(rows []fleetRow) (crit, warn, down int) {
	for _, r := range rows {
		switch {
		case r.worst != nil && r.worst.Severity == snapshot.Critical:
			crit++
		case r.worst != nil && r.worst.Severity == snapshot.Warning:
			warn++
		}
		if r.down {
			down++
		}
	}
	return crit, warn, down
}
