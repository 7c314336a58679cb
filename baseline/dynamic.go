package baseline

import (
	"fmt"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Routine is one session of routine work (a dump, a backup, a restore, a
// schema change) the analyzers recognised in the frame, with its tool named.
type Routine struct {
	ID    int64
	Tool  string
	Doing string
}

// named is one value of a signal whose name the frame gives (a disk, an
// interface, a statement, a user, a client host, a tool).
type named struct {
	spec  spec
	value float64
}

// Prefixes of the named signals, so a class can tell what a name is of and
// a describer can take the name back.
const (
	prefixStatement = "statement: "
	prefixUser      = "user: "
	prefixHost      = "client host: "
	prefixRoutine   = "routine: "
)

// namedSignals reads the frame's signals that come by name.
func namedSignals(r *reading, routine []Routine, out []named) []named {
	// A carried host reading says nothing new of its disks and links either
	// (ownHost).
	if h := r.hostRates(); h != nil && r.f.Snapshot.Host != nil && !r.f.Snapshot.Host.Remote && !r.hostCarried {
		for _, d := range h.Disks {
			out = append(out,
				named{spec{name: "disk " + d.Name + " util %", kind: kDiskUtil, dir: up, floor: 20, unit: "%"}, d.UtilPercent},
				named{spec{name: "disk " + d.Name + " await ms", kind: kDiskAwait, dir: up, floor: 5, unit: "ms"}, d.AwaitMS},
				named{spec{name: "disk " + d.Name + " read B/s", kind: kDiskRead, dir: up, floor: 8 * mib, unit: "B/s"}, d.ReadBytes},
				named{spec{name: "disk " + d.Name + " write B/s", kind: kDiskWrite, dir: up, floor: 8 * mib, unit: "B/s"}, d.WriteBytes})
		}
		for _, n := range h.Nets {
			out = append(out,
				named{spec{name: "net " + n.Name + " rx B/s", kind: kNetRx, dir: both, floor: mib, unit: "B/s"}, n.RxBytes},
				named{spec{name: "net " + n.Name + " tx B/s", kind: kNetTx, dir: both, floor: mib, unit: "B/s"}, n.TxBytes},
				named{spec{name: "net " + n.Name + " drops and errors/s", kind: kNetErrors, dir: up, floor: 5, unit: "/s"},
					n.RxDrops + n.TxDrops + n.RxErrors + n.TxErrors})
		}
	}
	out = mixSignals(r.f.Load, out)
	if r.f.Load != nil {
		count := map[string]int{}
		for _, s := range routine {
			count[s.Tool]++
		}
		for tool, n := range count {
			out = append(out, named{spec{name: prefixRoutine + tool, kind: kRoutine, dir: up, floor: 0.5, zeroWhenAbsent: true}, float64(n)})
		}
	}
	return out
}

// minMixActive is the fewest active sessions whose mix is judged: with
// three sessions running, one statement caught twice in a row is a share of
// 67 %, noise of the processlist's sampling, not a change of the mix.
const minMixActive = 8

// mixCounts says the frame's mix is judged (and a name absent from it
// counts 0).
func mixCounts(l *snapshot.Load) bool { return l != nil && l.Active >= minMixActive }

// mixSignals are the shares of the active sessions each statement, user and
// client host holds, in percent. Shares, not counts: a workload that doubles
// with the same mix moves none of them, a new statement or a new client
// does.
func mixSignals(l *snapshot.Load, out []named) []named {
	if !mixCounts(l) {
		return out
	}
	total := float64(l.Active)
	for i := range l.Slices {
		s := &l.Slices[i]
		var sp spec
		switch s.By {
		case snapshot.DimStatement:
			if s.Name == snapshot.NoStatement {
				continue
			}
			sp = spec{name: prefixStatement + s.Name, kind: kStatement}
		case snapshot.DimUser:
			sp = spec{name: prefixUser + s.Name, kind: kUser}
		case snapshot.DimHost:
			sp = spec{name: prefixHost + s.Name, kind: kClientHost}
		default:
			continue
		}
		sp.dir, sp.floor, sp.zeroWhenAbsent, sp.unit = up, 15, true, "% of sessions"
		out = append(out, named{sp, 100 * s.Sessions() / total})
	}
	return out
}

// shortName cuts a statement's fingerprint for a line of evidence.
func shortName(name string) string {
	name = strings.Join(strings.Fields(name), " ")
	if len(name) > 80 {
		return name[:77] + "..."
	}
	return name
}

// fmtValue writes a signal's value in its unit.
func fmtValue(v float64, unit string) string {
	switch unit {
	case "B/s":
		return fmtBytes(v) + "/s"
	case "B":
		return fmtBytes(v)
	case "%", "% of sessions":
		return fmt.Sprintf("%.0f %%", v)
	case "":
		return trimFloat(v)
	}
	return trimFloat(v) + " " + unit
}

func trimFloat(v float64) string {
	switch {
	case v >= 100 || v <= -100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10 || v <= -10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2g", v)
}

func fmtBytes(v float64) string {
	switch {
	case v >= 1<<30:
		return fmt.Sprintf("%.1f GiB", v/(1<<30))
	case v >= mib:
		return fmt.Sprintf("%.1f MiB", v/mib)
	case v >= kib:
		return fmt.Sprintf("%.0f KiB", v/kib)
	}
	return fmt.Sprintf("%.0f B", v)
}
