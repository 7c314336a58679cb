package importers

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Readers of the files of a pile, one per kind: each turns a file into
// samples, timed when the file carries a clock.

// readInnoDB reads every monitor output of the file at its own timestamp; a
// fragment without the monitor header (pt-deadlock-logger keeps only the
// deadlock) is placed at its deadlock's time.
func (p *pileReader) readInnoDB(pf *pileFile) error {
	first := true
	var prev time.Time
	err := splitMonitorOutputs(p.run.in, pf.path, func(line int, text string) {
		st, err := snapshot.ParseInnoDBStatus(text)
		if err != nil {
			p.sess.Problems.add(pf.path, line, err.Error())
			return
		}
		at := st.Time
		if at.IsZero() {
			at = st.LatestDeadlockTime
		}
		switch {
		case first:
			pf.timed = !at.IsZero()
		case at.IsZero() || !pf.timed:
			at = prev.Add(time.Second)
		}
		if pf.timed {
			at = inZone(at, p.run.opts.Location)
		}
		first, prev = false, at
		pf.samples = append(pf.samples, pileSample{at: at, off: time.Duration(len(pf.samples)) * time.Second, innodb: st})
	})
	if err == nil && len(pf.samples) == 0 {
		err = p.readInnoDBFragment(pf)
	}
	return err
}

// readInnoDBFragment reads a file of InnoDB sections with no monitor header.
func (p *pileReader) readInnoDBFragment(pf *pileFile) error {
	raw, err := os.ReadFile(pf.path)
	if err != nil {
		return err
	}
	st, err := snapshot.ParseInnoDBStatus(string(raw))
	if err != nil {
		p.sess.Problems.add(pf.path, 1, err.Error())
		return nil
	}
	pf.timed = !st.LatestDeadlockTime.IsZero()
	at := inZone(st.LatestDeadlockTime, p.run.opts.Location)
	pf.samples = append(pf.samples, pileSample{at: at, innodb: st})
	if pf.timed {
		p.sess.Notes = append(p.sess.Notes, filepath.Base(pf.path)+": InnoDB status sections without the monitor header: placed at the deadlock's time")
	}
	return nil
}

// readBoxedStatus reads `| name | value |` tables, mysqladmin's -r
// differences undone.
func (p *pileReader) readBoxedStatus(pf *pileFile) error {
	blocks, err := readAdminBlocks(p.run.in, pf.path, &p.sess.Problems)
	if err != nil || len(blocks) == 0 {
		return err
	}
	samples, notes := adminSamples(blocks, &p.sess.Problems, pf.path)
	p.sess.Notes = append(p.sess.Notes, notes...)
	p.addStatus(pf, samples)
	return nil
}

// readTSVStatus reads one or more `name<TAB>value` tables: a new table starts
// at a Variable_name header or where a name comes round again.
func (p *pileReader) readTSVStatus(pf *pileFile) error {
	var samples []map[string]string
	var cur map[string]string
	err := p.run.in.eachLine(pf.path, func(n int, line string) {
		t := strings.TrimSpace(line)
		if t == "" {
			return
		}
		if strings.HasPrefix(t, "Variable_name") {
			cur = nil
			return
		}
		name, value, ok := snapshot.ParseStatusRow(line)
		if !ok {
			p.sess.Problems.add(pf.path, n, "not a Variable_name<TAB>Value row")
			return
		}
		if _, again := cur[name]; again || cur == nil {
			cur = make(map[string]string, 512)
			samples = append(samples, cur)
		}
		cur[strings.Clone(name)] = strings.Clone(value)
	})
	if err == nil && len(samples) > 0 {
		p.addStatus(pf, samples)
	}
	return err
}

// readStatusPair reads `name first second` lines as two samples.
func (p *pileReader) readStatusPair(pf *pileFile) error {
	samples := []map[string]string{make(map[string]string, 512), make(map[string]string, 512)}
	err := p.run.in.eachLine(pf.path, func(n int, line string) {
		name, values, _ := strings.Cut(line, " ")
		f := strings.Split(values, " ")
		half := len(f) / 2
		switch {
		case strings.TrimSpace(line) == "":
		case len(f) == 2:
			samples[0][name], samples[1][name] = f[0], f[1]
		case len(f)%2 == 0 && slices.Equal(f[:half], f[half:]):
			// a text value with spaces, the same in both samples
			v := strings.Join(f[:half], " ")
			samples[0][name], samples[1][name] = v, v
		case strings.TrimSpace(values) == "": // empty in both
			samples[0][name], samples[1][name] = "", ""
		default:
			p.sess.Problems.add(pf.path, n, "not a `name first second` row")
		}
	})
	if err == nil && len(samples[0]) > 0 {
		p.addStatus(pf, samples)
	}
	return err
}

// addStatus adds status samples a file holds, placed apart by the server's
// Uptime (a loop of `mysql -e 'SHOW GLOBAL STATUS'` prints no clock).
func (p *pileReader) addStatus(pf *pileFile, samples []map[string]string) {
	offsets := adminOffsets(samples, p.run.opts.Interval)
	for i, s := range samples {
		pf.samples = append(pf.samples, pileSample{off: offsets[i], status: s})
	}
	if isSessionScope(samples) {
		for _, s := range samples {
			dropSessionScoped(s)
		}
		p.sess.Notes = append(p.sess.Notes, sessionScopeNote)
	}
}

// readVariables keeps a SHOW VARIABLES table for the samples of the pile.
func (p *pileReader) readVariables(pf *pileFile) error {
	path := pf.path
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	p.run.in.advance(int64(len(raw)))
	vars, err := snapshot.ParseStatusTable(string(raw))
	if err != nil {
		p.sess.Problems.add(path, 1, err.Error())
		return nil
	}
	if p.tl.variables == nil {
		p.tl.variables = map[string]string{}
	}
	for k, v := range vars {
		p.tl.variables[k] = v
	}
	return nil
}

// readProcesslists reads one or more processlists in any of the client's
// layouts. A new sample starts at a TS marker (pt-stalk), a header row, or
// where \G row numbering starts again; the first may start at any row (a copy
// cut from a longer output).
func (p *pileReader) readProcesslists(pf *pileFile) error {
	pr := &pileProcs{pf: pf, problems: &p.sess.Problems, loc: p.run.opts.Location}
	restored, err := eachProcesslistLine(p.run.in, pf.path, pr.line)
	pr.endRow()
	if restored {
		p.sess.Notes = append(p.sess.Notes, filepath.Base(pf.path)+restoredNote)
	}
	return err
}

type pileProcs struct {
	pf       *pileFile
	problems *Problems
	loc      *time.Location

	cols    snapshot.ProcesslistColumns
	boxed   bool
	lastRow int
	rec     *snapshot.ProcessRecord
}

func (pr *pileProcs) line(n int, line string) {
	if t, ok := parseTSMarker(line, pr.loc); ok {
		pr.pf.timed = true
		pr.start(t.In(pr.loc))
		return
	}
	if row, ok := snapshot.ParseVerticalRowMarker(line); ok {
		if len(pr.pf.samples) == 0 || (row <= pr.lastRow && !pr.pf.timed) {
			pr.start(time.Time{})
		}
		pr.endRow()
		pr.lastRow, pr.rec = row, snapshot.NewProcessRecord()
		return
	}
	if pr.rec != nil {
		if err := pr.rec.Add(line); err != nil {
			pr.problems.add(pr.pf.path, n, err.Error())
		}
		return
	}
	if why := pr.tableLine(line); why != "" {
		pr.problems.add(pr.pf.path, n, why)
	}
}

// tableLine reads a line of a boxed or tab-separated processlist.
func (pr *pileProcs) tableLine(line string) string {
	if strings.TrimSpace(line) == "" || snapshot.IsBoxBorder(line) {
		return ""
	}
	if cols, ok := snapshot.ParseBoxedProcesslistHeader(line); ok {
		pr.cols, pr.boxed = cols, true
		pr.startTable()
		return ""
	}
	if cols, ok := snapshot.ParseProcesslistHeader(line); ok {
		pr.cols, pr.boxed = cols, false
		pr.startTable()
		return ""
	}
	if pr.cols == nil {
		if strings.Contains(line, "\t") {
			pr.cols = snapshot.DefaultProcesslistColumns // mysql -N: no header
			pr.startTable()
		} else {
			return "text outside a processlist row"
		}
	}
	parse := pr.cols.ParseRow
	if pr.boxed {
		parse = pr.cols.ParseBoxedRow
	}
	proc, err := parse(line)
	if err != nil {
		return err.Error()
	}
	pr.add(proc)
	return ""
}

// startTable opens a sample at a table header, unless a TS marker just did.
func (pr *pileProcs) startTable() {
	if n := len(pr.pf.samples); n == 0 || !pr.pf.timed || len(pr.pf.samples[n-1].procs) > 0 {
		pr.start(time.Time{})
	}
}

func (pr *pileProcs) start(at time.Time) {
	pr.endRow()
	pr.lastRow = 0
	off := time.Duration(len(pr.pf.samples)) * time.Second
	pr.pf.samples = append(pr.pf.samples, pileSample{at: at, off: off, hasProcs: true, procs: []snapshot.Process{}})
}

func (pr *pileProcs) endRow() {
	if pr.rec != nil {
		pr.add(pr.rec.Process)
	}
	pr.rec = nil
}

func (pr *pileProcs) add(proc snapshot.Process) {
	if len(pr.pf.samples) == 0 {
		pr.start(time.Time{})
	}
	if !isCaptureThread(proc) {
		s := &pr.pf.samples[len(pr.pf.samples)-1]
		s.procs = append(s.procs, proc)
	}
}

// readStamped reads pt-stalk's TS-stamped /proc copies (pt-diskstats reads
// the same layout): one host sample per TS block, on its own clock.
func (p *pileReader) readStamped(pf *pileFile) error {
	apply := map[string]func(*snapshot.Host, []string){
		"procstat": applyProcStat, "diskstats": applyDiskstats, "procvmstat": applyProcVmstat,
	}[guessPtStalkPart(pf.path)]
	if apply == nil {
		return nil
	}
	pf.timed = true
	r := &ptReader{in: p.run.in, sess: p.sess, loc: p.run.opts.Location}
	return r.eachTSBlock(pf.path, func(t time.Time, lines []string) {
		pf.samples = append(pf.samples, pileSample{at: t, addHost: func(h *snapshot.Host) { apply(h, lines) }})
	})
}

// readDiskstats reads one bare /proc/diskstats copy.
func (p *pileReader) readDiskstats(pf *pileFile) error {
	var lines []string
	err := p.run.in.eachLine(pf.path, func(n int, line string) {
		if isDiskstatsLine(line) {
			lines = append(lines, line)
		} else if strings.TrimSpace(line) != "" {
			p.sess.Problems.add(pf.path, n, "not a /proc/diskstats row")
		}
	})
	if err == nil && len(lines) > 0 {
		h := &snapshot.Host{}
		applyDiskstats(h, lines)
		pf.samples = append(pf.samples, pileSample{host: h})
	}
	return err
}

// readIostat reads `iostat -dx N` reports, N seconds apart (--interval, else
// one), on their own clock when iostat ran with -t. The first report, the
// average since boot, only sets the base.
func (p *pileReader) readIostat(pf *pileFile) error {
	raw, err := os.ReadFile(pf.path)
	if err != nil {
		return err
	}
	p.run.in.advance(int64(len(raw)))
	reports, bad, first := snapshot.ParseIostat(string(raw))
	if bad > 0 {
		p.sess.Problems.add(pf.path, 0, fmt.Sprintf("not an iostat row: %.40q", first))
		p.sess.Problems.Count += bad - 1
	}
	if len(reports) < 2 {
		return nil
	}
	interval := p.run.opts.Interval
	if interval <= 0 {
		interval = time.Second
	}
	pf.timed = !reports[0].Time.IsZero()
	var acc snapshot.IostatDisks
	acc.Add(reports[0], 1)
	for i, r := range reports[1:] {
		secs := interval.Seconds()
		if pf.timed && !r.Time.IsZero() && r.Time.After(reports[i].Time) {
			secs = r.Time.Sub(reports[i].Time).Seconds()
		}
		s := pileSample{off: time.Duration(i) * interval, host: &snapshot.Host{Disks: acc.Add(r, secs)}}
		if pf.timed {
			s.at = inZone(r.Time, p.run.opts.Location)
		}
		pf.samples = append(pf.samples, s)
	}
	p.sess.Notes = append(p.sess.Notes, filepath.Base(pf.path)+": the first iostat report (averages since boot) only sets the base")
	return nil
}

// readVmstat reads `vmstat N` rows a second apart. The first row is the
// average since boot: it only sets the base the next rows add to.
func (p *pileReader) readVmstat(pf *pileFile) error {
	var parser snapshot.VmstatParser
	var acc snapshot.VmstatHost
	rows := 0
	err := p.run.in.eachLine(pf.path, func(n int, line string) {
		row, ok, err := parser.Line(line)
		if err != nil {
			p.sess.Problems.add(pf.path, n, err.Error())
			return
		}
		if !ok {
			return
		}
		h := acc.Add(row, 1)
		if rows > 0 {
			pf.samples = append(pf.samples, pileSample{off: time.Duration(rows-1) * time.Second, host: h})
		}
		rows++
	})
	if rows > 0 {
		p.sess.Notes = append(p.sess.Notes, filepath.Base(pf.path)+": the first vmstat row (averages since boot) only sets the base")
	}
	return err
}
