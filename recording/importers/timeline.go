package importers

import (
	"slices"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// notCaptured is the Unavailable reason for a part the capture never had.
const notCaptured = "not in this capture"

// carrySeconds is how far back a part sampled in an earlier second may stand in
// for a second that has none: loops that sleep 1 s after a query slip a second
// now and then.
const carrySeconds = 2

// timeline gathers what a capture holds for each second (Unix seconds) before
// the parts are joined into one Snapshot per second.
type timeline struct {
	loc    *time.Location
	status map[int64]map[string]string
	procs  map[int64][]snapshot.Process // a present key with no rows is an empty processlist
	hosts  map[int64]*snapshot.Host
	innodb map[int64]*snapshot.InnoDBStatus
	// locks holds the seconds in which a capture listed lock waits; a
	// second without is one in which nothing waited (Locks nil, as live).
	locks map[int64]*snapshot.Locks
	// locksRead is set once a capture's lock listing was read, waits or
	// none.
	locksRead bool
	// replicas holds each second's replication channels (a present key with
	// no rows: the server was no replica then).
	replicas  map[int64][]map[string]string
	variables map[string]string
	// approximate marks every snapshot: the capture's times were estimated.
	approximate bool
	// numCPU is the host's CPU count where the host figures lack one
	// (cpu_count.go), and numCPUFrom the file or variable that gave it.
	numCPU     int
	numCPUFrom string
	// hostLoads: some hosts carry load averages (top), and each host says
	// itself whether it has them (LoadUnknown).
	hostLoads bool
	// keepAll gives every sample no status second takes a snapshot of its
	// own, for piles whose parts were saved at unrelated times.
	keepAll bool
	// placed holds every other part of snapshot.Parts a capture carries, by
	// second, each sample as what puts it into its frame: a format of a part
	// no capture carried before places it here, with no code in this file.
	placed map[snapshot.CollectorName]map[int64]func(*snapshot.Snapshot)
	// tables are top iterations and ps listings outside pt-stalk's
	// collection, placed once the rest is (host_tables.go).
	tables processTables
}

func newTimeline(loc *time.Location) *timeline {
	return &timeline{
		loc:    loc,
		status: map[int64]map[string]string{},
		procs:  map[int64][]snapshot.Process{},
		hosts:  map[int64]*snapshot.Host{},
		innodb: map[int64]*snapshot.InnoDBStatus{},
		locks:  map[int64]*snapshot.Locks{},
		placed: map[snapshot.CollectorName]map[int64]func(*snapshot.Snapshot){},
	}
}

// place files part's sample of second sec: set puts it into a frame. A
// second already holding one keeps the first.
func (tl *timeline) place(part snapshot.CollectorName, sec int64, set func(*snapshot.Snapshot)) {
	m := tl.placed[part]
	if m == nil {
		m = map[int64]func(*snapshot.Snapshot){}
		tl.placed[part] = m
	}
	if _, taken := m[sec]; !taken {
		m[sec] = set
	}
}

// placedParts are the parts placed, in the order of snapshot.Parts.
func (tl *timeline) placedParts() []snapshot.CollectorName {
	var parts []snapshot.CollectorName
	for _, p := range snapshot.Parts {
		if len(tl.placed[p.Collector]) > 0 {
			parts = append(parts, p.Collector)
		}
	}
	return parts
}

// grid is the seconds that become snapshots: those of the first part present
// in the order status, processlist, host, InnoDB. Status drives it because its
// counters make the rates; the other parts are joined to its seconds.
func (tl *timeline) grid() []int64 {
	base := tl.baseGrid()
	if !tl.keepAll {
		return base
	}
	seconds := map[int64]bool{}
	for _, t := range base {
		seconds[t] = true
	}
	parts := [][]int64{sortedKeys(tl.procs), sortedKeys(tl.hosts), sortedKeys(tl.innodb)}
	for _, p := range tl.placedParts() {
		parts = append(parts, sortedKeys(tl.placed[p]))
	}
	for _, keys := range parts {
		picked := map[int64]bool{}
		c := newCursor(keys)
		for _, t := range base {
			if at, ok := c.latest(t, carrySeconds); ok {
				picked[at] = true
			}
		}
		for _, k := range keys {
			if !picked[k] {
				seconds[k] = true
			}
		}
	}
	return sortedKeys(seconds)
}

func (tl *timeline) baseGrid() []int64 {
	switch {
	case len(tl.status) > 0:
		return sortedKeys(tl.status)
	case len(tl.procs) > 0:
		return sortedKeys(tl.procs)
	case len(tl.hosts) > 0:
		return sortedKeys(tl.hosts)
	case len(tl.innodb) > 0:
		return sortedKeys(tl.innodb)
	}
	if parts := tl.placedParts(); len(parts) > 0 {
		return sortedKeys(tl.placed[parts[0]])
	}
	return nil
}

// build joins the parts into Snapshots and says which parts the capture lacks.
func (tl *timeline) build() (snaps []*snapshot.Snapshot, missing []string) {
	procs := newCursor(sortedKeys(tl.procs))
	hosts := newCursor(sortedKeys(tl.hosts))
	innodb := newCursor(sortedKeys(tl.innodb))
	replicas := newCursor(sortedKeys(tl.replicas))
	locks := newCursor(sortedKeys(tl.locks))
	others := tl.placedParts()
	placed := make([]*cursor, len(others))
	for i, p := range others {
		placed[i] = newCursor(sortedKeys(tl.placed[p]))
	}
	for i, t := range tl.grid() {
		s := &snapshot.Snapshot{
			Time:        time.Unix(t, 0).In(tl.loc),
			Status:      tl.status[t],
			Variables:   tl.variables,
			Collectors:  map[snapshot.CollectorName]snapshot.CollectorState{},
			Approximate: tl.approximate,
		}
		s.VariablesChanged = i == 0 && tl.variables != nil
		if s.Status == nil && len(tl.status) > 0 {
			s.Collectors[snapshot.CollectorStatus] = snapshot.CollectorState{Stale: true, Error: "no sample in this second"}
		}
		if at, ok := tl.pick(s, snapshot.CollectorProcesslist, procs, t, carrySeconds); ok {
			s.Processlist = tl.procs[at]
		}
		if at, ok := tl.pick(s, snapshot.CollectorHost, hosts, t, carrySeconds); ok {
			s.Host = tl.hosts[at]
			// Only top, where a capture has it, gives load averages.
			s.Host.LoadUnknown = s.Host.LoadUnknown || !tl.hostLoads
		}
		// InnoDB status is sampled rarely; the latest one stands, marked stale.
		innodbAt, innodbOK := tl.pick(s, snapshot.CollectorInnoDB, innodb, t, 1<<62)
		if innodbOK {
			s.InnoDB = tl.innodb[innodbAt]
		}
		if at, ok := tl.pick(s, snapshot.CollectorReplica, replicas, t, carrySeconds); ok {
			s.ReplicaChannels = tl.replicas[at]
		}
		// A second with no listing is one nothing waited in: no Locks and
		// no staleness, as the live collector sends nothing then.
		if at, ok := locks.latest(t, carrySeconds); ok {
			s.Locks = tl.locks[at]
			if at != t {
				from := time.Unix(at, 0).In(tl.loc).Format(time.TimeOnly)
				s.Collectors[snapshot.CollectorLocks] = snapshot.CollectorState{Stale: true, Error: "carried from " + from}
			}
		}
		if tl.locksFromInnoDB() {
			tl.innoDBLocksAt(s, t, innodbAt, innodbOK)
		}
		for j, p := range others {
			if at, ok := tl.pick(s, p, placed[j], t, carrySeconds); ok {
				tl.placed[p][at](s)
			}
		}
		snaps = append(snaps, s)
	}
	return snaps, tl.markMissing(snaps)
}

// pick finds the part's sample for second t, recording on s whether it is from
// that second or carried from an earlier one.
func (tl *timeline) pick(s *snapshot.Snapshot, part snapshot.CollectorName, c *cursor, t, window int64) (int64, bool) {
	if len(c.keys) == 0 {
		return 0, false
	}
	at, ok := c.latest(t, window)
	switch {
	case !ok:
		s.Collectors[part] = snapshot.CollectorState{Stale: true, Error: "no sample in this second"}
	case at != t:
		from := time.Unix(at, 0).In(tl.loc).Format(time.TimeOnly)
		s.Collectors[part] = snapshot.CollectorState{Stale: true, Error: "carried from " + from}
	}
	return at, ok
}

// markMissing flags every part the capture lacks (snapshot.Parts), on
// every snapshot, so a panel says "missing" instead of showing zeros and a
// rule says "not captured" instead of "found nothing". It returns the words
// for the parts capture formats can carry but this one did not.
func (tl *timeline) markMissing(snaps []*snapshot.Snapshot) []string {
	present := tl.present()
	var missing []string
	for _, p := range snapshot.Parts {
		if present[p.Collector] {
			continue
		}
		if p.Captured != "" {
			missing = append(missing, p.Captured)
		}
		for _, s := range snaps {
			s.Collectors[p.Collector] = snapshot.CollectorState{Unavailable: notCaptured}
		}
	}
	return missing
}

// present says which parts the capture held: the few the timeline joins by
// name, and any other it placed.
func (tl *timeline) present() map[snapshot.CollectorName]bool {
	present := tl.named()
	for _, p := range tl.placedParts() {
		present[p] = true
	}
	return present
}

// named are the parts the timeline joins by name, each with whether the
// capture held it.
func (tl *timeline) named() map[snapshot.CollectorName]bool {
	return map[snapshot.CollectorName]bool{
		snapshot.CollectorStatus:      len(tl.status) > 0,
		snapshot.CollectorProcesslist: len(tl.procs) > 0,
		snapshot.CollectorHost:        len(tl.hosts) > 0,
		snapshot.CollectorInnoDB:      len(tl.innodb) > 0,
		snapshot.CollectorVariables:   tl.variables != nil,
		snapshot.CollectorReplica:     tl.replicas != nil,
		snapshot.CollectorLocks:       tl.locksRead || tl.locksFromInnoDB(),
	}
}

// cursor walks a part's sorted seconds alongside an ascending grid.
type cursor struct {
	keys []int64
	i    int // keys[:i] are <= the last t asked for
}

func newCursor(keys []int64) *cursor { return &cursor{keys: keys} }

// latest returns the latest second <= t and > t-window.
func (c *cursor) latest(t, window int64) (int64, bool) {
	for c.i < len(c.keys) && c.keys[c.i] <= t {
		c.i++
	}
	if c.i == 0 {
		return 0, false
	}
	at := c.keys[c.i-1]
	return at, t-at < window
}

func sortedKeys[V any](m map[int64]V) []int64 {
	keys := make([]int64, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
