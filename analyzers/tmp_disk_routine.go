package analyzers

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// On-disk temporary tables put on routine work. mariadb-dump reads
// information_schema (TABLES, COLUMNS, TRIGGERS, FILES) for every table it
// dumps, and MariaDB materialises those reads as on-disk (Aria) temporary
// tables whatever tmp_table_size says: a dump of 8 tables, back to back,
// made 20-40 of them a second in the lab, all of them "27 % of temporary
// tables went to disk" to a since-interval share (the routine-work review).

// tmpSplit is the on-disk temporary tables per second put on routine work.
// Only evidence puts them there: the digests' own counts, or, without
// digests, a routine session seen making them while no application
// statement was. Otherwise the share is unknown: said, never guessed.
type tmpSplit struct {
	routine float64
	how     string // "measured by performance_schema digests", "inferred: …", why it is unknown
	who     string // the routine sessions
	digests []snapshot.StatementRate
	// unknown: routine work ran in the window but nothing shows its share.
	unknown bool
	// likely: with the share unknown, the routine work is of a kind that
	// makes on-disk temporary tables (a dump's information_schema reads),
	// and no application statement was seen making any.
	likely bool
}

// splitTmpDisk puts part of disk (per second) on routine work: by the
// digests' own counts when the source has them, else all of it when a
// routine session was seen making them in the window and no application
// statement was; else the share is unknown.
func splitTmpDisk(w *window, disk float64) tmpSplit {
	r := w.routine()
	if rates := w.digestRates(); len(rates) > 0 {
		var rt, total float64
		var mine []snapshot.StatementRate
		for _, d := range rates {
			total += d.TmpDiskTablesPerS
			if routineDigest(w, &d) && d.TmpDiskTablesPerS > 0 {
				rt += d.TmpDiskTablesPerS
				mine = append(mine, d)
			}
		}
		if total <= 0 || rt <= 0 {
			return tmpSplit{}
		}
		sort.SliceStable(mine, func(i, j int) bool { return mine[i].TmpDiskTablesPerS > mine[j].TmpDiskTablesPerS })
		who := r.names(maxThreadLines)
		if who == "" {
			who = "their statements: " + truncateText(mine[0].Fingerprint, 120)
		}
		return tmpSplit{routine: disk * rt / total, how: fmt.Sprintf("%.0f %% of them by performance_schema digests",
			100*rt/total), who: who, digests: mine}
	}
	if !r.any() {
		return tmpSplit{}
	}
	seen := tmpMakersSeen(w, r)
	if seen.routine != "" && !seen.app {
		return tmpSplit{routine: disk, how: "inferred: performance_schema digests are not read; " + seen.routine +
			", and no application statement was seen with its temporary table on disk in the window", who: r.names(maxThreadLines)}
	}
	why := "performance_schema digests are not read, and "
	switch {
	case seen.app && seen.routine != "":
		why += "both the application and routine work were seen making them (" + seen.routine + ")"
	case seen.app:
		why += "the application was seen making them, routine work was not"
	default:
		why += "no session was seen making them in the window"
	}
	return tmpSplit{unknown: true, how: why, who: r.names(maxThreadLines), likely: !seen.app && r.makesTmpDisk()}
}

// tmpMakers is who was seen making on-disk temporary tables in the window.
type tmpMakers struct {
	routine string // "mariadb-dump (session 12) was seen reading information_schema"; "" when none
	app     bool
}

// tmpMakersSeen reads the window's processlists: a session in a state of an
// on-disk temporary table, or a routine session reading information_schema
// (which MariaDB materialises on disk).
func tmpMakersSeen(w *window, r *routineWork) tmpMakers {
	var m tmpMakers
	for _, f := range w.recent(max(w.cfg.SightingWindow, 1) + 1) {
		for i := range f.Snapshot.Processlist {
			p := &f.Snapshot.Processlist[i]
			s := r.byID(p.ID)
			switch {
			case s == nil:
				m.app = m.app || inAnyState(p.State, tmpDiskStates)
			case m.routine != "":
			case inAnyState(p.State, tmpDiskStates):
				m.routine = fmt.Sprintf("%s (session %d) was seen with its temporary table on disk (%s)", s.Tool, p.ID, p.State)
			case strings.EqualFold(p.State, "Filling schema table") || readsSchemaTables(p.Info):
				m.routine = fmt.Sprintf("%s (session %d) was seen reading information_schema, which MariaDB "+
					"materialises on disk", s.Tool, p.ID)
			}
		}
	}
	return m
}

// readsSchemaTables: a statement answered from an information_schema table
// the server fills for it (the SHOW statements a dump sends are built on
// them).
func readsSchemaTables(q string) bool {
	if len(q) > 4096 {
		q = q[:4096]
	}
	up := strings.ToUpper(strings.TrimSpace(q))
	return strings.Contains(up, "INFORMATION_SCHEMA") || showRoutinesRe.MatchString(up) ||
		strings.HasPrefix(up, "SHOW TRIGGERS") || strings.HasPrefix(up, "SHOW TABLE STATUS") ||
		strings.HasPrefix(up, "SHOW FULL TABLES") || strings.HasPrefix(up, "SHOW FIELDS") ||
		strings.HasPrefix(up, "SHOW COLUMNS") || strings.HasPrefix(up, "SHOW FULL FIELDS") ||
		strings.HasPrefix(up, "SHOW FULL COLUMNS")
}

// makesTmpDisk: routine work of a kind that makes on-disk temporary tables
// as it goes: a dump, or a backup account reading table definitions.
func (r *routineWork) makesTmpDisk() bool {
	for _, s := range r.sessions {
		if s.Tool == toolDump || strings.HasPrefix(s.Tool, toolBackupUser) {
			return true
		}
	}
	return false
}

// routineDigest: a digest of routine work, by its tool's markers, or one of
// the information_schema and SHOW reads such tools make while routine work
// runs in the window.
func routineDigest(w *window, d *snapshot.StatementRate) bool {
	s := classifyRoutineStatement(digestAsStatement(d.Fingerprint))
	return s.strength == markerTool || s.strength == markerLike && w.routine().any()
}

// digestAsStatement undoes the digest text's spacing around dots, so the
// markers read as in the statement ("`INFORMATION_SCHEMA` . `TRIGGERS`").
func digestAsStatement(fp string) string {
	return strings.ReplaceAll(strings.ReplaceAll(fp, "` . `", "`.`"), " . ", ".")
}

// appTmpDisk is the on-disk temporary tables per second of an application
// digest, 0 for routine work's.
func appTmpDisk(w *window) func(*snapshot.StatementRate) float64 {
	return func(r *snapshot.StatementRate) float64 {
		if routineDigest(w, r) {
			return 0
		}
		return r.TmpDiskTablesPerS
	}
}

// topDigest is the digest with the most of value, nil when none has any.
func topDigest(w *window, value func(*snapshot.StatementRate) float64) *snapshot.StatementRate {
	var best *snapshot.StatementRate
	rates := w.digestRates()
	for i := range rates {
		if v := value(&rates[i]); v > 0 && (best == nil || v > value(best)) {
			best = &rates[i]
		}
	}
	return best
}

// appProcesses drops the routine sessions from ps.
func appProcesses(w *window, ps []*snapshot.Process) []*snapshot.Process {
	r := w.routine()
	out := ps[:0:0]
	for _, p := range ps {
		if r.byID(p.ID) == nil {
			out = append(out, p)
		}
	}
	return out
}

func inAnyState(state string, states []string) bool {
	for _, s := range states {
		if strings.EqualFold(state, s) {
			return true
		}
	}
	return false
}

// routineTmpVerdict is the info finding: the on-disk temporary tables are
// routine work's.
func routineTmpVerdict(w *window, own ownShare, split tmpSplit, disk, share float64) verdict {
	tool := w.routine().tools()
	if tool == "" {
		tool = "routine work"
	}
	ev := []string{
		fmt.Sprintf("%s temporary tables/s on disk (%.0f %% of all) this interval, not counting this monitor's own "+
			"%s/s; %s/s of them are %s's (%s)", fmtRate(disk), share, fmtRate(own.disk), fmtRate(split.routine), tool, split.how),
		"routine work: " + split.who,
		"MariaDB materialises information_schema reads (TABLES, COLUMNS, TRIGGERS) as on-disk temporary tables " +
			"whatever tmp_table_size says; a dump makes several for each table it dumps",
	}
	for i := range split.digests {
		if i == maxThreadLines {
			break
		}
		d := &split.digests[i]
		ev = append(ev, fmt.Sprintf("digest: %s disk temporary tables/s from %s calls/s of %s", fmtRate(d.TmpDiskTablesPerS),
			fmtRate(d.CallsPerS), truncateText(d.Fingerprint, 160)))
	}
	ev = append(ev, w.counterLines(tmpDisk, tmpTables)...)
	return raise(snapshot.Info, fmt.Sprintf("%s temporary tables/s on disk are %s's (routine work)", fmtRate(split.routine),
		tool), ev, "Nothing to tune for them: they end with the "+tool+" run, and no application statement is "+
		"making on-disk temporary tables at an alarming rate.", w.routine().ids())
}

// unknownShareVerdict is the info finding when routine work that makes
// on-disk temporary tables ran in the window, no application statement was
// seen making any, and nothing measures who made these: the share is said
// to be unknown, and what would tell.
func unknownShareVerdict(w *window, own ownShare, split tmpSplit, disk, share float64) verdict {
	tool := w.routine().tools()
	ev := []string{
		fmt.Sprintf("%s temporary tables/s on disk (%.0f %% of all) this interval, not counting this monitor's own "+
			"%s/s; how many are %s's is unknown: %s", fmtRate(disk), share, fmtRate(own.disk), tool, split.how),
		"routine work: " + split.who,
		"MariaDB materialises information_schema reads (TABLES, COLUMNS, TRIGGERS) as on-disk temporary tables " +
			"whatever tmp_table_size says; a dump makes several for each table it dumps",
	}
	ev = append(ev, w.counterLines(tmpDisk, tmpTables)...)
	return raise(snapshot.Info, fmt.Sprintf("%s temporary tables/s on disk while %s runs (its share unknown)",
		fmtRate(disk), tool), ev, "If the rate outlasts the "+tool+" run, it is the application's: performance_schema's "+
		"statement digests (SUM_CREATED_TMP_DISK_TABLES) measure each statement's share.", w.routine().ids())
}
