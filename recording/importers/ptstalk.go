package importers

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// A pt-stalk collection is a directory of `<prefix>-<part>` files, one prefix
// per triggered collection. Only some parts carry a clock (`TS <epoch> <date>`
// markers). The others are placed: mysqladmin's tables by the server's Uptime
// from the loop start pt-stalk logs; the \G processlists and SHOW SLAVE
// STATUS, written once a turn of the loop that stamps the /proc copies, at
// that loop's stamps. Only where that cannot be done (no logged start, a
// sample without Uptime, a part with fewer samples than the loop has turns,
// vmstat rows) are samples placed on an estimated clock, and the session is
// Approximate.

// kindPtStalk is a pt-stalk collection, told by its files' names (ptstalk_files.go).
const kindPtStalk fileKind = "pt-stalk"

// FormatPtStalk is a pt-stalk collection.
const FormatPtStalk Format = "pt-stalk"

func importPtStalk(r *run) ([]Session, error) {
	path, opts, in := r.path, r.opts, r.in
	groups := groupPtStalk(r)
	if len(groups) == 0 {
		return nil, fmt.Errorf("%s: no pt-stalk files (<prefix>-processlist, -mysqladmin...) found", path)
	}
	var sessions []Session
	for _, g := range groups {
		s, err := ptStalkSession(in, g, opts)
		if err != nil {
			return nil, err
		}
		if len(s.Snapshots) > 0 {
			sessions = append(sessions, s)
		}
	}
	in.complete()
	if len(sessions) == 0 {
		return nil, fmt.Errorf("%s: the pt-stalk files hold no samples", path)
	}
	return sessions, nil
}

func ptStalkSession(in *input, g ptGroup, opts Options) (Session, error) {
	sess := Session{Name: g.prefix}
	tl := newTimeline(opts.Location)
	base, logged := ptStalkStart(g, opts)
	r := &ptReader{in: in, g: g, tl: tl, sess: &sess, loc: opts.Location}
	clock, err := r.readMysqladmin(base, logged)
	if err != nil {
		return sess, err
	}
	// The hosts come before the parts placed at their loop's stamps.
	steps := []func([]time.Time, time.Time) error{r.readHosts, r.readProcesslist, r.readInnoDB, r.readVariables,
		r.readHostExtras, r.readReplicaStatus, r.readLockWaits}
	for _, step := range steps {
		if err := step(clock, base); err != nil {
			return sess, err
		}
	}
	if note := tl.fillCPUs(); note != "" {
		sess.Notes = append(sess.Notes, note)
	}
	sess.Approximate, tl.approximate = len(r.estimated) > 0, len(r.estimated) > 0
	sess.Snapshots, sess.Missing = tl.build()
	server := serverInfo(tl.variables)
	name := r.hostname()
	own := ptStalkOwnDiskTables(g)
	for _, s := range sess.Snapshots {
		s.Server = server
		s.SelfTmpDiskTables = own
		if s.Host != nil && name != "" {
			h := *s.Host // hosts may be shared by snapshots that carried them
			h.Hostname = name
			s.Host = &h
		}
	}
	sess.Notes = append(sess.Notes, clockNote(r.estimated, r.placed))
	return sess, nil
}

// ptStalkOwnDiskTables is how many on-disk temporary tables pt-stalk's own
// statements make each second: where it collects lock waits it runs two
// joins that read information_schema.PROCESSLIST, each materialised on disk
// (measured on MariaDB 10.11: one Created_tmp_disk_tables per join), which
// tmp_disk_tables would otherwise blame on the server at rest.
func ptStalkOwnDiskTables(g ptGroup) int {
	if _, ok := g.files["lock-waits"]; ok {
		return 2
	}
	return 0
}

// clockNote says where the session's times come from.
func clockNote(estimated, placed []string) string {
	switch {
	case len(estimated) == 0 && len(placed) == 0:
		return "every pt-stalk part read carries its own clock (TS stamps, InnoDB timestamps): times are exact"
	case len(estimated) == 0:
		return "times are exact: " + strings.Join(placed, "; ") + "; the other parts read carry their own clock"
	}
	return "pt-stalk's " + strings.Join(estimated, ", ") + " samples carry no clock: they were placed from the " +
		"collection's start, by the server's Uptime where there is one, else a second apart"
}

// ptReader reads the parts of one collection into a timeline.
type ptReader struct {
	in   *input
	g    ptGroup
	tl   *timeline
	sess *Session
	loc  *time.Location
	// estimated are the parts read that carry no clock of their own and
	// were placed on an estimated one; placed says how the others without
	// one were placed exactly.
	estimated []string
	placed    []string
	// loop is the TS stamps of the loop that copies /proc each turn (its
	// -procstat, else -diskstats or -procvmstat), one a turn.
	loop []time.Time
}

// ptStalkStart is when the collection loops started: the "Loop start: TS"
// pt-stalk logs in -output (logged), else the prefix's own timestamp, else the
// first TS marker of a stamped part, else Options.Start, else a file's mtime.
func ptStalkStart(g ptGroup, opts Options) (start time.Time, logged bool) {
	if out, err := os.ReadFile(g.files["output"]); err == nil {
		if _, after, ok := strings.Cut(string(out), "Loop start: TS "); ok {
			if epoch, ok := parseEpoch(strings.Fields(after + " ")[0]); ok {
				return epoch.In(opts.Location), true
			}
		}
	}
	if t, err := time.ParseInLocation("2006_01_02_15_04_05", g.prefix, opts.Location); err == nil {
		return t, false
	}
	for _, part := range []string{"procstat", "diskstats", "procvmstat"} {
		if head, err := readHead(g.files[part]); err == nil {
			line, _, _ := strings.Cut(string(head), "\n")
			if t, ok := parseTSMarker(line, opts.Location); ok {
				return t.In(opts.Location), false
			}
		}
	}
	if !opts.Start.IsZero() {
		return opts.Start, false
	}
	for _, f := range g.files {
		if st, err := os.Stat(f); err == nil {
			return st.ModTime().In(opts.Location), false
		}
	}
	return time.Unix(0, 0).In(opts.Location), false
}

// readMysqladmin reads the absolute status tables and returns the time of
// each sample, the clock other unstamped parts fall back on. mysqladmin is
// started with the loops, so its first sample is at their logged start; the
// others are where the server's Uptime puts them. That is exact when the
// start was logged and every sample has an Uptime past the one before;
// otherwise it is an estimate.
func (r *ptReader) readMysqladmin(base time.Time, logged bool) ([]time.Time, error) {
	path, ok := r.g.files["mysqladmin"]
	if !ok {
		return nil, nil
	}
	blocks, err := readAdminBlocks(r.in, path, &r.sess.Problems)
	if err != nil || len(blocks) == 0 {
		return nil, err
	}
	samples, notes := adminSamples(blocks, &r.sess.Problems, path)
	r.sess.Notes = append(r.sess.Notes, notes...)
	if logged && uptimePlaced(samples) {
		r.placed = append(r.placed, "mysqladmin's samples by the server's Uptime from the logged loop start")
	} else {
		r.estimated = append(r.estimated, "mysqladmin")
	}
	clock := make([]time.Time, len(samples))
	for i, off := range adminOffsets(samples, time.Second) {
		clock[i] = base.Add(off)
		r.tl.status[clock[i].Unix()] = samples[i]
	}
	return clock, nil
}

// onClock is the time of the i-th once-a-second sample of an unstamped part:
// the i-th status sample's, since the loops ran side by side, or one second
// per sample past its end.
func onClock(clock []time.Time, base time.Time, i int) time.Time {
	if i < len(clock) {
		return clock[i]
	}
	if n := len(clock); n > 0 {
		return clock[n-1].Add(time.Duration(i-n+1) * time.Second)
	}
	return base.Add(time.Duration(i) * time.Second)
}

// readProcesslist reads the \G processlist: a new sample starts where row
// numbering restarts at 1, or at a TS marker when pt-stalk wrote them.
// Samples without a marker are placed at the loop's stamps when there are as
// many (onLoop), else on the status clock.
func (r *ptReader) readProcesslist(clock []time.Time, base time.Time) error {
	path, ok := r.g.files["processlist"]
	if !ok {
		return nil
	}
	ps := &procSamples{r: r, path: path}
	restored, err := eachProcesslistLine(r.in, path, ps.line)
	ps.endRow()
	if restored {
		r.sess.Notes = append(r.sess.Notes, filepath.Base(path)+restoredNote)
	}
	if errors.Is(err, errLostNewlines) {
		r.sess.Problems.add(path, 1, lostNewlinesWhy)
		err = nil
	}
	place := func(i int) time.Time { return onClock(clock, base, i) }
	if !ps.stamped {
		place = r.onLoop("processlist", len(ps.rows), clock, base)
	}
	for i, rows := range ps.rows {
		at := ps.at[i]
		if at.IsZero() {
			at = place(i)
		}
		sec := at.Unix()
		if _, seen := r.tl.procs[sec]; !seen {
			r.tl.procs[sec] = []snapshot.Process{}
		}
		r.tl.procs[sec] = append(r.tl.procs[sec], rows...)
	}
	return err
}

// loopCutShort is how many turns short a part may be and still be placed
// on the loop (onLoop).
const loopCutShort = 2

// onLoop is where the i-th of the n samples of a part with no clock of its
// own goes. pt-stalk writes such parts (processlist, slave-status) once a
// turn of the loop that stamps its /proc copies: a part with as many samples
// as the loop has stamps is placed at them, exactly, and so is one a turn
// or two short (pt-stalk stopped while the last turn's client still ran:
// 1,767 processlists beside 1,768 stamps in a 30-minute collection). Any
// other is placed on the status clock, and named among the estimated
// parts: that clock drifts from the loop's (7 s after 25 minutes there).
func (r *ptReader) onLoop(part string, n int, clock []time.Time, base time.Time) func(int) time.Time {
	switch {
	case n > 0 && n == len(r.loop):
		r.placed = append(r.placed, part+" at the stamps of the loop that wrote it")
		return func(i int) time.Time { return r.loop[i] }
	case n > 0 && n < len(r.loop) && len(r.loop)-n <= loopCutShort:
		r.placed = append(r.placed, fmt.Sprintf("%s at the stamps of the loop that wrote it (its last %d turns wrote none: "+
			"the collection stopped under them)", part, len(r.loop)-n))
		return func(i int) time.Time { return r.loop[i] }
	case n > 0:
		r.estimated = append(r.estimated, part)
	}
	return func(i int) time.Time { return onClock(clock, base, i) }
}

// procSamples cuts a \G processlist file into samples.
type procSamples struct {
	r    *ptReader
	path string

	stamped bool // the file has TS markers, which then alone start samples
	// at is each sample's TS marker time, zero for one without; rows its
	// processes (none is an empty processlist, still a sample).
	at   []time.Time
	rows [][]snapshot.Process
	rec  *parse.ProcessRecord
}

func (p *procSamples) line(n int, line string) {
	if t, ok := parseTSMarker(line, p.r.loc); ok {
		p.stamped = true
		p.startSample(t.In(p.r.loc))
		return
	}
	if row, ok := parse.ParseVerticalRowMarker(line); ok {
		if len(p.rows) == 0 || (row == 1 && !p.stamped) {
			p.startSample(time.Time{})
		}
		p.endRow()
		p.rec = parse.NewProcessRecord()
		return
	}
	if p.rec == nil {
		if strings.TrimSpace(line) != "" {
			p.r.sess.Problems.add(p.path, n, "text outside a processlist row")
		}
		return
	}
	if err := p.rec.Add(line); err != nil {
		p.r.sess.Problems.add(p.path, n, err.Error())
	}
}

// startSample opens a sample at t (zero: to be placed).
func (p *procSamples) startSample(t time.Time) {
	p.endRow()
	p.at = append(p.at, t)
	p.rows = append(p.rows, nil)
}

func (p *procSamples) endRow() {
	if p.rec != nil && !isCaptureThread(p.rec.Process) {
		i := len(p.rows) - 1
		p.rows[i] = append(p.rows[i], p.rec.Process)
	}
	p.rec = nil
}

// readInnoDB reads innodbstatus1 and 2, each at its own monitor timestamp.
func (r *ptReader) readInnoDB(clock []time.Time, base time.Time) error {
	for i, part := range []string{"innodbstatus1", "innodbstatus2"} {
		path, ok := r.g.files[part]
		if !ok {
			continue
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		r.in.advance(int64(len(raw)))
		st, err := parse.ParseInnoDBStatus(string(raw))
		if err != nil {
			r.sess.Problems.add(path, 1, err.Error())
			continue
		}
		at := onClock(clock, base, i*max(len(clock)-1, 0))
		if !st.Time.IsZero() {
			at = inZone(st.Time, r.loc)
		}
		r.tl.innodb[at.Unix()] = st
	}
	return nil
}

// inZone reads t's wall clock as a time in loc: the monitor prints local time
// without a zone.
func inZone(t time.Time, loc *time.Location) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc)
}

// readVariables reads the SHOW GLOBAL VARIABLES table at the top of -variables;
// the performance_schema queries pt-stalk appends below it are not variables.
func (r *ptReader) readVariables([]time.Time, time.Time) error {
	path, ok := r.g.files["variables"]
	if !ok {
		return nil
	}
	vars := map[string]string{}
	done := false
	err := r.in.eachLine(path, func(n int, line string) {
		if done {
			return
		}
		if name, value, ok := parse.ParseStatusRow(line); ok {
			vars[name] = value
		} else if strings.TrimSpace(line) == "" && len(vars) > 0 {
			done = true
		}
	})
	if len(vars) > 0 {
		r.tl.variables = vars
	}
	return err
}

// serverInfo names the server from its variables.
func serverInfo(vars map[string]string) snapshot.ServerInfo {
	v := vars["version"]
	info := snapshot.ServerInfo{Version: v}
	switch {
	case v == "":
	case strings.Contains(v, "MariaDB"):
		info.Flavor = snapshot.FlavorMariaDB
	case strings.Contains(vars["version_comment"], "Percona"):
		info.Flavor = snapshot.FlavorPercona
	default:
		info.Flavor = snapshot.FlavorMySQL
	}
	return info
}

func (r *ptReader) hostname() string {
	b, err := os.ReadFile(r.g.files["hostname"])
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// parseTSMarker reads pt-stalk's `TS <epoch> <date>` line. A copy whose
// epoch was scrubbed (pt-secure-collect turns it into "hostname") still ends
// with the local date, read in loc.
func parseTSMarker(line string, loc *time.Location) (time.Time, bool) {
	rest, ok := strings.CutPrefix(line, "TS ")
	if !ok {
		return time.Time{}, false
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return time.Time{}, false
	}
	if t, ok := parseEpoch(f[0]); ok {
		return t, true
	}
	rest = strings.TrimRight(rest, " \r")
	if len(rest) < len(time.DateTime) {
		return time.Time{}, false
	}
	t, err := time.ParseInLocation(time.DateTime, rest[len(rest)-len(time.DateTime):], loc)
	return t, err == nil
}

func parseEpoch(s string) (time.Time, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || v > 1<<40 {
		return time.Time{}, false
	}
	sec := int64(v)
	return time.Unix(sec, int64((v-float64(sec))*1e9)), true
}
