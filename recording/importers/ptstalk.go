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
)

// A pt-stalk collection is a directory of `<prefix>-<part>` files, one prefix
// per triggered collection. Only some parts carry a clock (`TS <epoch> <date>`
// markers); mysqladmin tables, \G processlists and vmstat rows come one per
// second from loops started together, so their i-th samples are placed on a
// common estimated clock and the session is Approximate.

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
	base := ptStalkStart(g, opts)
	r := &ptReader{in: in, g: g, tl: tl, sess: &sess, loc: opts.Location}
	clock, err := r.readMysqladmin(base)
	if err != nil {
		return sess, err
	}
	steps := []func([]time.Time, time.Time) error{r.readProcesslist, r.readHosts, r.readInnoDB, r.readVariables,
		r.readReplicaStatus, r.readLockWaits}
	for _, step := range steps {
		if err := step(clock, base); err != nil {
			return sess, err
		}
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
	sess.Notes = append(sess.Notes, clockNote(r.estimated))
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
func clockNote(estimated []string) string {
	if len(estimated) == 0 {
		return "every pt-stalk part read carries its own clock (TS stamps, InnoDB timestamps): times are exact"
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
	// estimated are the parts read that carry no clock of their own.
	estimated []string
}

// ptStalkStart is when the collection loops started: the "Loop start: TS"
// pt-stalk logs in -output, else the prefix's own timestamp, else the first TS
// marker of a stamped part, else Options.Start, else a file's mtime.
func ptStalkStart(g ptGroup, opts Options) time.Time {
	if out, err := os.ReadFile(g.files["output"]); err == nil {
		if _, after, ok := strings.Cut(string(out), "Loop start: TS "); ok {
			if epoch, ok := parseEpoch(strings.Fields(after + " ")[0]); ok {
				return epoch.In(opts.Location)
			}
		}
	}
	if t, err := time.ParseInLocation("2006_01_02_15_04_05", g.prefix, opts.Location); err == nil {
		return t
	}
	for _, part := range []string{"procstat", "diskstats", "procvmstat"} {
		if head, err := readHead(g.files[part]); err == nil {
			line, _, _ := strings.Cut(string(head), "\n")
			if t, ok := parseTSMarker(line, opts.Location); ok {
				return t.In(opts.Location)
			}
		}
	}
	if !opts.Start.IsZero() {
		return opts.Start
	}
	for _, f := range g.files {
		if st, err := os.Stat(f); err == nil {
			return st.ModTime().In(opts.Location)
		}
	}
	return time.Unix(0, 0).In(opts.Location)
}

// readMysqladmin reads the absolute status tables and returns the estimated
// time of each sample, the clock other unstamped parts are placed on.
func (r *ptReader) readMysqladmin(base time.Time) ([]time.Time, error) {
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
	r.estimated = append(r.estimated, "mysqladmin")
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
func (r *ptReader) readProcesslist(clock []time.Time, base time.Time) error {
	path, ok := r.g.files["processlist"]
	if !ok {
		return nil
	}
	ps := &procSamples{r: r, path: path, clock: clock, base: base, sample: -1}
	restored, err := eachProcesslistLine(r.in, path, ps.line)
	ps.endRow()
	if restored {
		r.sess.Notes = append(r.sess.Notes, filepath.Base(path)+restoredNote)
	}
	if errors.Is(err, errLostNewlines) {
		r.sess.Problems.add(path, 1, lostNewlinesWhy)
		err = nil
	}
	if ps.sample >= 0 && !ps.stamped {
		r.estimated = append(r.estimated, "processlist")
	}
	return err
}

// procSamples cuts a \G processlist file into samples.
type procSamples struct {
	r     *ptReader
	path  string
	clock []time.Time
	base  time.Time

	sample  int  // index of the current sample, -1 before the first
	stamped bool // the file has TS markers, which then alone start samples
	at      int64
	rec     *snapshot.ProcessRecord
}

func (p *procSamples) line(n int, line string) {
	if t, ok := parseTSMarker(line, p.r.loc); ok {
		p.stamped = true
		p.startSample(t.In(p.r.loc))
		return
	}
	if row, ok := snapshot.ParseVerticalRowMarker(line); ok {
		if p.sample < 0 || (row == 1 && !p.stamped) {
			p.startSample(onClock(p.clock, p.base, p.sample+1))
		}
		p.endRow()
		p.rec = snapshot.NewProcessRecord()
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

// startSample opens a sample at t; present even if no row follows.
func (p *procSamples) startSample(t time.Time) {
	p.endRow()
	p.sample++
	p.at = t.Unix()
	if _, seen := p.r.tl.procs[p.at]; !seen {
		p.r.tl.procs[p.at] = []snapshot.Process{}
	}
}

func (p *procSamples) endRow() {
	if p.rec != nil && !isCaptureThread(p.rec.Process) {
		p.r.tl.procs[p.at] = append(p.r.tl.procs[p.at], p.rec.Process)
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
		st, err := snapshot.ParseInnoDBStatus(string(raw))
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
		if name, value, ok := snapshot.ParseStatusRow(line); ok {
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
