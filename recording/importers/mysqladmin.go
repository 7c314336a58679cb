package importers

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// `mysqladmin extended-status -i N [-r]` prints one `| name | value |` table per
// sample and no clock. With -r every table after the first holds differences
// mysqladmin computed row by row against the previous sample's row at the same
// position (text values read as 0).

// kindStatusBoxed is `| name | value |` tables: mysqladmin extended-status, mysql -t SHOW STATUS.
const kindStatusBoxed fileKind = "status-boxed"

// FormatMysqladmin is mysqladmin extended-status output.
const FormatMysqladmin Format = "mysqladmin"

func importMysqladmin(r *run) ([]Session, error) {
	path, opts := r.path, r.opts
	var sessions []Session
	for _, f := range r.paths() {
		s, err := mysqladminSession(r.in, f, opts)
		if err != nil {
			return nil, err
		}
		sessions = append(sessions, s)
	}
	if len(sessions) == 0 {
		return nil, fmt.Errorf("%s: no mysqladmin extended-status tables found", path)
	}
	return sessions, nil
}

func mysqladminSession(in *input, path string, opts Options) (Session, error) {
	sess := Session{Name: path, Approximate: true}
	blocks, err := readAdminBlocks(in, path, &sess.Problems)
	if err != nil {
		return sess, err
	}
	if len(blocks) == 0 {
		return sess, fmt.Errorf("%s: no mysqladmin extended-status tables found", path)
	}
	samples, notes := adminSamples(blocks, &sess.Problems, path)
	sess.Notes = append(sess.Notes, notes...)
	offsets := adminOffsets(samples, opts.Interval)
	start, err := adminStart(path, opts.Start, offsets[len(offsets)-1])
	if err != nil {
		return sess, err
	}
	tl := newTimeline(opts.Location)
	tl.approximate = true
	for i, s := range samples {
		tl.status[start.Add(offsets[i]).Unix()] = s
	}
	sess.Snapshots, sess.Missing = tl.build()
	if isRelative(blocks) {
		sess.Missing = append(sess.Missing, "text status values (mysqladmin -r prints them as 0)")
	}
	return sess, nil
}

// adminBlock is one printed table, names and values by row position.
type adminBlock struct {
	line   int // where its header is, for messages
	names  []string
	values []string
}

// readAdminBlocks reads every table of one file. Consecutive tables usually
// list the same variables, so equal name lists share one slice.
func readAdminBlocks(in *input, path string, problems *Problems) ([]adminBlock, error) {
	var blocks []adminBlock
	var cur *adminBlock
	flush := func() {
		if cur == nil {
			return
		}
		if n := len(blocks); n > 0 && slices.Equal(blocks[n-1].names, cur.names) {
			cur.names = blocks[n-1].names
		}
		blocks = append(blocks, *cur)
		cur = nil
	}
	err := in.eachLine(path, func(n int, line string) {
		if parse.IsBoxedHeader(line) {
			flush()
			cur = &adminBlock{line: n}
			return
		}
		name, value, ok := parse.ParseBoxedRow(line)
		switch {
		case ok && cur != nil:
			// clones let each line go; a value would otherwise pin its whole row
			cur.names = append(cur.names, strings.Clone(name))
			cur.values = append(cur.values, strings.Clone(value))
		case ok:
			problems.add(path, n, "row before the first table header")
		case !isTableDecoration(line):
			problems.add(path, n, "not a mysqladmin table row")
		}
	})
	flush()
	return blocks, err
}

// isTableDecoration is a border or blank line between rows.
func isTableDecoration(line string) bool {
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '+', '-', ' ', '\t', '\r':
		default:
			return false
		}
	}
	return true
}

// isRelative tells -r output: there, Uptime after the first table is the
// interval, so it stops growing from one table to the next. It must do so for
// at least half the tables, so a restart during an absolute capture does not
// pass for it.
func isRelative(blocks []adminBlock) bool {
	pairs, flat := 0, 0
	for i := 1; i < len(blocks); i++ {
		u0, ok0 := blockInt(blocks[i-1], "Uptime")
		u1, ok1 := blockInt(blocks[i], "Uptime")
		if ok0 && ok1 {
			pairs++
			if u1 <= u0 {
				flat++
			}
		}
	}
	return pairs > 0 && flat*2 >= pairs
}

func blockInt(b adminBlock, name string) (int64, bool) {
	for i, n := range b.names {
		if n == name {
			v, err := strconv.ParseInt(b.values[i], 10, 64)
			return v, err == nil
		}
	}
	return 0, false
}

// adminSamples turns tables into absolute status maps.
func adminSamples(blocks []adminBlock, problems *Problems, path string) ([]map[string]string, []string) {
	if !isRelative(blocks) {
		out := make([]map[string]string, len(blocks))
		for i, b := range blocks {
			out[i] = blockMap(b, b.values)
		}
		return out, nil
	}
	notes := []string{"mysqladmin -r output: counters rebuilt by adding each sample's differences to the first, absolute, sample"}
	var last []int64 // mysqladmin's own per-position memory of the previous sample
	out := make([]map[string]string, len(blocks))
	for i, b := range blocks {
		if i > 0 && !slices.Equal(b.names, blocks[i-1].names) {
			notes = append(notes, listChange(i, blocks[i-1].names, b.names))
		}
		for len(last) < len(b.values) {
			last = append(last, 0)
		}
		abs := make([]string, len(b.values))
		for j, v := range b.values {
			d, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				problems.add(path, b.line+j+2, fmt.Sprintf("%s: %q is not a difference", b.names[j], v))
			}
			// mysqladmin subtracted the previous value at this position, whatever
			// variable sat there, so adding it back by position is exact.
			last[j] += d
			abs[j] = strconv.FormatInt(last[j], 10)
		}
		out[i] = blockMap(b, abs)
	}
	return out, notes
}

func blockMap(b adminBlock, values []string) map[string]string {
	m := make(map[string]string, len(b.names))
	for i, n := range b.names {
		m[n] = values[i]
	}
	return m
}

// listChange describes how the variable list changed at sample i.
func listChange(i int, prev, cur []string) string {
	added, removed := diffNames(prev, cur), diffNames(cur, prev)
	return fmt.Sprintf("variable list changed at sample %d (added %v, removed %v); values were matched by name after undoing mysqladmin's by-position differences", i+1, added, removed)
}

// diffNames lists names in b that are not in a.
func diffNames(a, b []string) []string {
	seen := make(map[string]bool, len(a))
	for _, n := range a {
		seen[n] = true
	}
	var out []string
	for _, n := range b {
		if !seen[n] {
			out = append(out, n)
		}
	}
	return out
}

// adminOffsets places samples in time from the server's own Uptime, which
// does not drift the way `-i 1` (sleep plus query time) does; without Uptime,
// samples are interval apart. Offsets always grow.
func adminOffsets(samples []map[string]string, interval time.Duration) []time.Duration {
	if interval <= 0 {
		interval = time.Second
	}
	out := make([]time.Duration, len(samples))
	u0, ok0 := intStatus(samples[0], "Uptime")
	for i := 1; i < len(samples); i++ {
		next := out[i-1] + interval
		if u, ok := intStatus(samples[i], "Uptime"); ok0 && ok {
			if byUptime := time.Duration(u-u0) * time.Second; byUptime > out[i-1] {
				next = byUptime
			}
		}
		out[i] = next
	}
	return out
}

// uptimePlaced: every sample has an Uptime past the one before, so
// adminOffsets placed each by the server's own clock, none an interval
// guessed after the one before.
func uptimePlaced(samples []map[string]string) bool {
	prev := int64(-1)
	for _, s := range samples {
		u, ok := intStatus(s, "Uptime")
		if !ok || u <= prev {
			return false
		}
		prev = u
	}
	return len(samples) > 0
}

func intStatus(m map[string]string, name string) (int64, bool) {
	v, err := strconv.ParseInt(m[name], 10, 64)
	return v, err == nil
}

// adminStart is the first sample's time: given, or the file's mtime (when the
// last sample was written) less the span of the samples.
func adminStart(path string, given time.Time, span time.Duration) (time.Time, error) {
	if !given.IsZero() {
		return given, nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return time.Time{}, err
	}
	return st.ModTime().Add(-span), nil
}

func isBoxedStatus(head []byte) bool {
	return bytes.Contains(head, []byte("| Variable_name ")) && bytes.HasPrefix(bytes.TrimSpace(head), []byte("+-"))
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
