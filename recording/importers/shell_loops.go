package importers

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// The shell loops of the reference incident prefix every line of `show status`,
// `show full processlist` and `vmstat -n 1` output with `YYYY/MM/DD HH:MM:SS `.
// Lines are recognised by shape, not by file, so the loops may write to any
// files, even the same one.

// kindShellLoops is lines of shell loops, each prefixed with its date and time.
const kindShellLoops fileKind = "shell-loops"

// FormatShellLoops is timestamped shell-loop logs.
const FormatShellLoops Format = "shell-loops"

// stampLayout is the loops' `date '+%Y/%m/%d %H:%M:%S'`; dashes instead of
// slashes (`+%F %T`) are accepted too.
const stampLayout = "2006/01/02 15:04:05"

func importShellLoops(run *run) ([]Session, error) {
	path, opts := run.path, run.opts
	r := &shellReader{tl: newTimeline(opts.Location), stamps: stampCache{loc: opts.Location}}
	var beside []sniffed
	for _, f := range run.files {
		if f.kind != kindShellLoops {
			beside = append(beside, f)
			continue
		}
		if err := r.readFile(run.in, f.path); err != nil {
			return nil, err
		}
	}
	r.addDiskstats()
	sess := Session{Name: "shell loops", Problems: r.problems}
	if err := readBesideLoops(run, r.tl, &sess, beside); err != nil {
		return nil, err
	}
	sess.Notes = append(sess.Notes, r.tl.placeProcessTables()...)
	if note := r.tl.fillCPUs(); note != "" {
		sess.Notes = append(sess.Notes, note)
	}
	samples := statusSamples(r.tl)
	sessionScope := isSessionScope(samples)
	if sessionScope {
		for _, s := range samples {
			dropSessionScoped(s)
		}
		sess.Notes = append(sess.Notes, sessionScopeNote)
	}
	sess.Snapshots, sess.Missing = r.tl.build()
	if sessionScope {
		sess.Missing = append(sess.Missing, sessionScopeMissing)
	}
	if len(sess.Snapshots) == 0 {
		return nil, fmt.Errorf("%s: no samples found in the timestamped logs", path)
	}
	server := serverInfo(r.tl.variables)
	for _, s := range sess.Snapshots {
		s.Server = server
	}
	return []Session{sess}, nil
}

// shellReader holds what one import learns across files.
type shellReader struct {
	tl       *timeline
	stamps   stampCache
	problems Problems
	// disks are timestamped /proc/diskstats rows, by second.
	disks map[int64][]string
}

// shellFile is the per-file state: each loop prints its own headers.
type shellFile struct {
	// tableStarts is set at a Variable_name header; variables says whether the
	// table under it is SHOW VARIABLES.
	tableStarts, variables bool

	cols   parse.ProcesslistColumns
	vmstat parse.VmstatParser
	rows   []stampedVmstat
	tables loopTables
}

type stampedVmstat struct {
	at  int64
	row parse.VmstatRow
}

func (r *shellReader) readFile(in *input, path string) error {
	f := &shellFile{cols: parse.DefaultProcesslistColumns}
	err := in.eachLine(path, func(n int, line string) {
		if strings.TrimSpace(line) == "" {
			return
		}
		at, text, ok := r.stamps.split(line)
		if !ok {
			r.problems.add(path, n, "no YYYY/MM/DD HH:MM:SS timestamp")
			return
		}
		if why := r.line(f, at, text); why != "" {
			r.problems.add(path, n, why)
		}
	})
	r.addVmstat(f.rows)
	r.addTables(path, &f.tables)
	return err
}

// line files one timestamped line; it returns why the line was not usable.
func (r *shellReader) line(f *shellFile, at int64, text string) string {
	trimmed := strings.TrimSpace(text)
	switch {
	case trimmed == "":
		return "" // a loop whose query printed nothing
	case r.tableLine(&f.tables, at, trimmed):
		return ""
	case strings.HasPrefix(trimmed, "Variable_name"):
		f.tableStarts = true // a status or variables table; its first row says which
		return ""
	}
	if cols, ok := parse.ParseProcesslistHeader(trimmed); ok {
		f.cols = cols
		if _, seen := r.tl.procs[at]; !seen {
			r.tl.procs[at] = []snapshot.Process{}
		}
		return ""
	}
	if name, value, ok := parse.ParseStatusRow(trimmed); ok {
		r.statusOrVariable(f, at, name, value)
		return ""
	}
	if strings.Contains(trimmed, "\t") {
		return r.processRow(f, at, trimmed)
	}
	if isDiskstatsLine(trimmed) {
		if r.disks == nil {
			r.disks = map[int64][]string{}
		}
		r.disks[at] = append(r.disks[at], trimmed)
		return ""
	}
	row, ok, err := f.vmstat.Line(trimmed)
	if err != nil {
		return err.Error()
	}
	if ok {
		f.rows = append(f.rows, stampedVmstat{at, row})
	}
	return ""
}

// statusOrVariable files a Variable_name/Value row. SHOW VARIABLES and SHOW
// STATUS print the same layout; a table whose first row is lower case is
// variables (status starts with Aborted_clients; wsrep_* status comes last).
func (r *shellReader) statusOrVariable(f *shellFile, at int64, name, value string) {
	if f.tableStarts {
		f.variables, f.tableStarts = isLower(name[0]), false
	}
	if f.variables {
		if r.tl.variables == nil {
			r.tl.variables = map[string]string{}
		}
		r.tl.variables[name] = value // the latest value stands for the capture
		return
	}
	r.statusAt(at)[name] = value
}

func (r *shellReader) statusAt(at int64) map[string]string {
	m := r.tl.status[at]
	if m == nil {
		m = make(map[string]string, 600)
		r.tl.status[at] = m
	}
	return m
}

func (r *shellReader) processRow(f *shellFile, at int64, text string) string {
	p, err := f.cols.ParseRow(text)
	if err != nil {
		return err.Error()
	}
	if !isCaptureThread(p) {
		r.tl.procs[at] = append(r.tl.procs[at], p)
	}
	return ""
}

// addVmstat turns one file's vmstat rows into cumulative Hosts; each row covers
// the time since the previous row's timestamp.
func (r *shellReader) addVmstat(rows []stampedVmstat) {
	var acc parse.VmstatHost
	for i, sr := range rows {
		seconds := 1.0 // the first row (averages since boot) only sets the base
		if i > 0 {
			seconds = float64(sr.at - rows[i-1].at)
		}
		r.tl.hosts[sr.at] = acc.Add(sr.row, max(seconds, 0))
	}
}

func statusSamples(tl *timeline) []map[string]string {
	out := make([]map[string]string, 0, len(tl.status))
	for _, s := range tl.status {
		out = append(out, s)
	}
	return out
}

// stampCache parses the leading timestamp, reusing the last result: a sample's
// lines all carry the same one.
type stampCache struct {
	loc  *time.Location
	last string
	sec  int64
}

func (c *stampCache) split(line string) (sec int64, text string, ok bool) {
	if len(line) < len(stampLayout) {
		return 0, "", false
	}
	stamp := line[:len(stampLayout)]
	if stamp != c.last {
		if !hasStamp(stamp) {
			return 0, "", false
		}
		layout := stampLayout
		if stamp[4] == '-' {
			layout = time.DateTime
		}
		t, err := time.ParseInLocation(layout, stamp, c.loc)
		if err != nil {
			return 0, "", false
		}
		c.last, c.sec = stamp, t.Unix()
	}
	text = line[len(stampLayout):]
	if text != "" && text[0] == ' ' {
		text = text[1:]
	}
	return c.sec, text, true
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

func isStampedLog(lines []string) bool {
	stamped := 0
	for _, l := range lines {
		if hasStamp(l) {
			stamped++
		}
	}
	return stamped > 0 && stamped*2 >= len(lines)
}

// hasStamp reports whether line starts with `YYYY/MM/DD HH:MM:SS` (or with
// dashes in the date).
func hasStamp[T ~string | ~[]byte](line T) bool {
	const shape = "dddd/dd/dd dd:dd:dd"
	if len(line) < len(shape) || (line[4] != '/' && line[4] != '-') || line[7] != line[4] {
		return false
	}
	for i := 0; i < len(shape); i++ {
		c := line[i]
		switch shape[i] {
		case 'd':
			if c < '0' || c > '9' {
				return false
			}
		case '/':
		default:
			if c != shape[i] {
				return false
			}
		}
	}
	return true
}
