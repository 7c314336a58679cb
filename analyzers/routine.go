package analyzers

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Routine work: the sessions of backup, dump, online schema change, archiving,
// checksum and table maintenance tools, recognised from what the processlist
// shows of them (their statements' own markers, their shadow tables, their
// account names). Findings they cause name them and stay at info unless
// others suffer for it (TRX-01 trap: "mysqldump --single-transaction/backup
// sessions are long by design (label them)"; BP-01 trap: backups legitimately
// drop the hit ratio).
//
// A session is known by what it was seen doing over the frames that still
// carry a processlist (Engine.DetailFrames): a dump's connection sleeps
// between statements, and one sighting of its marker names it for the window.

// Tools as findings name them.
const (
	toolDump        = "mariadb-dump"
	toolBackup      = "mariabackup"
	toolXtraBackup  = "xtrabackup"
	toolPTOSC       = "pt-online-schema-change"
	toolGhost       = "gh-ost"
	toolArchiver    = "pt-archiver"
	toolChecksum    = "pt-table-checksum"
	toolPercona     = "a Percona Toolkit tool"
	toolMaintenance = "table maintenance"
	toolBackupUser  = "a backup account"
)

// Strength of a sighting: markerTool proves the tool; markerLike is what the
// tool does but so may an application (SHOW CREATE TABLE, information_schema
// reads), so it only says what an already named session is doing.
const (
	markerNone = iota
	markerLike
	markerTool
)

// routineSighting is one statement read as routine work.
type routineSighting struct {
	tool, doing string
	strength    int
}

// routineSession is one session of routine work.
type routineSession struct {
	ID         int64
	User, Host string
	Tool       string
	// Doing is what it was last seen doing ("dumping sbtest.sbtest3").
	Doing string
	// Now: the session is in the current processlist.
	Now bool
}

// Name reads "mariadb-dump (session 42, dumping sbtest.sbtest3)".
func (s *routineSession) Name() string {
	if s.Doing == "" {
		return fmt.Sprintf("%s (session %d)", s.Tool, s.ID)
	}
	return fmt.Sprintf("%s (session %d, %s)", s.Tool, s.ID, s.Doing)
}

// routineWork is the routine sessions of the window, by first sighting.
type routineWork struct {
	sessions []*routineSession
}

func (r *routineWork) byID(id int64) *routineSession {
	if r == nil || id <= 0 {
		return nil
	}
	for _, s := range r.sessions {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// any reports whether routine work was seen in the window.
func (r *routineWork) any() bool { return r != nil && len(r.sessions) > 0 }

// names lists the sessions connected now, "mariadb-dump (session 42, …);
// mariabackup (…)", then counts those that ended within the window ("3
// earlier sessions of mariadb-dump", a job that reconnects per schema).
func (r *routineWork) names(limit int) string {
	var out []string
	ended := map[string]int{}
	var order []string
	for _, s := range r.sessions {
		if !s.Now {
			if ended[s.Tool] == 0 {
				order = append(order, s.Tool)
			}
			ended[s.Tool]++
			continue
		}
		if len(out) == limit {
			out = append(out, "more")
			break
		}
		out = append(out, s.Name())
	}
	for _, tool := range order {
		if ended[tool] == 1 {
			out = append(out, "an earlier session of "+tool)
		} else {
			out = append(out, fmt.Sprintf("%d earlier sessions of %s", ended[tool], tool))
		}
	}
	return strings.Join(out, "; ")
}

// tools lists the distinct tools, "mariadb-dump and pt-online-schema-change".
func (r *routineWork) tools() string {
	var ts []string
	for _, s := range r.sessions {
		if !slices.Contains(ts, s.Tool) {
			ts = append(ts, s.Tool)
		}
	}
	switch len(ts) {
	case 0:
		return ""
	case 1:
		return ts[0]
	}
	return strings.Join(ts[:len(ts)-1], ", ") + " and " + ts[len(ts)-1]
}

func (r *routineWork) ids() []int64 {
	out := make([]int64, 0, len(r.sessions))
	for _, s := range r.sessions {
		out = append(out, s.ID)
	}
	return out
}

// routine returns the window's routine sessions, found once per evaluation.
func (w *window) routine() *routineWork {
	if w.routineCache != nil {
		return w.routineCache
	}
	r := &routineWork{}
	frames := w.recent(max(w.cfg.SightingWindow, 1) + 1)
	for _, f := range frames {
		for _, s := range w.countsOf(f).routine {
			r.merge(s)
		}
	}
	cur := map[int64]bool{}
	for i := range w.snap.Processlist {
		cur[w.snap.Processlist[i].ID] = true
	}
	for _, s := range r.sessions {
		s.Now = cur[s.ID]
	}
	w.routineCache = r
	return r
}

// merge folds one frame's sighting of a session in: a later sighting says
// what it does now; a sighting that proves the tool names it.
func (r *routineWork) merge(s routineSeen) {
	have := r.byID(s.id)
	if have == nil {
		if s.strength < markerTool {
			return
		}
		have = &routineSession{ID: s.id, User: s.user, Host: s.host, Tool: s.tool}
		r.sessions = append(r.sessions, have)
	}
	// A generic name gives way to the tool's own: Percona Toolkit to pt-osc,
	// a backup account to mariabackup, ANALYZE TABLE to pt-osc's.
	generic := have.Tool == toolPercona || strings.HasPrefix(have.Tool, toolBackupUser) || have.Tool == toolMaintenance
	if s.strength == markerTool && generic && s.tool != toolPercona && !strings.HasPrefix(s.tool, toolBackupUser) {
		have.Tool = s.tool
	}
	if s.doing != "" {
		have.Doing = s.doing
	}
}

// routineSeen is one process read as routine work in one frame; only sessions
// with a sighting are kept (procCounts.routine).
type routineSeen struct {
	id         int64
	user, host string
	routineSighting
}

// routineIn reads one frame's processlist.
func routineIn(list []snapshot.Process) []routineSeen {
	var out []routineSeen
	for i := range list {
		p := &list[i]
		s := classifyRoutine(p)
		if s.strength == markerNone {
			continue
		}
		out = append(out, routineSeen{id: p.ID, user: p.User, host: p.Host, routineSighting: s})
	}
	return out
}

// backupUser: an account named after the job (a common practice; weak
// proof, so it names a session only when it is not writing). Read without a
// regexp: it runs on every connection of every frame.
func backupUser(u string) bool {
	l := strings.ToLower(u) // no allocation for the usual lower-case name
	return strings.Contains(l, "backup") || strings.Contains(l, "dump") || l == "sst" || strings.HasPrefix(l, "sst_") ||
		strings.HasSuffix(l, "_sst")
}

// classifyRoutine reads one process.
func classifyRoutine(p *snapshot.Process) routineSighting {
	s := classifyRoutineStatement(p.Info)
	if p.User != "" && backupUser(p.User) && s.strength < markerTool && !isWriteVerb(p.Info) {
		tool := toolBackupUser
		if s.tool != "" && s.tool != toolPercona {
			tool = s.tool
		}
		return routineSighting{tool: tool + " '" + p.User + "'", doing: s.doing, strength: markerTool}
	}
	return s
}

var (
	dumpSelectRe   = regexp.MustCompile("(?is)^\\s*SELECT\\s+/\\*!40001 SQL_NO_CACHE \\*/\\s+.*?\\bFROM\\s+([`\\w.$]+)")
	forceIndexRe   = regexp.MustCompile(`(?i)\bFORCE INDEX\s*\(`)
	limitRe        = regexp.MustCompile(`(?i)\bLIMIT\s+[\d?]`)
	shadowTableRe  = regexp.MustCompile("(?i)`?(_[\\w$]+_(new|old))`?")
	ghostTableRe   = regexp.MustCompile("(?i)`?(_[\\w$]+_(gho|ghc|del))`")
	analyzeRe      = regexp.MustCompile("(?i)^\\s*(ANALYZE|OPTIMIZE|CHECK|REPAIR)\\s+(NO_WRITE_TO_BINLOG\\s+|LOCAL\\s+)?TABLES?\\s+([`\\w.$]+)")
	intoTableRe    = regexp.MustCompile("(?i)\\bINTO\\s+([`\\w.$]+)")
	backupStageRe  = regexp.MustCompile(`(?i)^\s*BACKUP\s+(STAGE\s+\w+|LOCK|UNLOCK)`)
	perconaInitRe  = regexp.MustCompile(`(?i)SET @@SQL_QUOTE_SHOW_CREATE = 1/\*!40101, @@SQL_MODE='NO_AUTO_VALUE_ON_ZERO`)
	perconaChunkRe = regexp.MustCompile(`(?i)/\*(first lower boundary|next chunk boundary|key_len|explain [^*]*|past (lower|upper) chunk)\*/`)
)

// classifyRoutineStatement reads a statement's own markers. The texts are
// those the tools send (mariadb-dump 10.11, mariabackup 10.11, Percona
// Toolkit 3, gh-ost), as a general log of each shows them.
func classifyRoutineStatement(q string) routineSighting {
	if q == "" || plainAppStatement(q) {
		return routineSighting{}
	}
	if len(q) > 4096 {
		q = q[:4096]
	}
	up := strings.ToUpper(q)
	tool := func(t, doing string) routineSighting { return routineSighting{t, doing, markerTool} }
	like := func(t, doing string) routineSighting { return routineSighting{t, doing, markerLike} }
	switch {
	// Percona Toolkit marks its statements with the tool's name.
	case strings.Contains(q, "pt-online-schema-change") || strings.Contains(q, "pt_osc_"):
		return tool(toolPTOSC, ptoscDoing(q, up))
	case strings.Contains(q, "pt-table-checksum") || strings.Contains(up, "`PERCONA`.`CHECKSUMS`") ||
		strings.Contains(q, "/*checksum chunk*/"):
		return tool(toolChecksum, checksumDoing(q))
	case strings.Contains(q, "pt-archiver"):
		return tool(toolArchiver, "archiving")
	case strings.Contains(q, "gh-ost") || ghostTableRe.MatchString(q):
		return tool(toolGhost, ghostDoing(q, up))
	// Hot backups.
	case backupStageRe.MatchString(q):
		f := strings.Fields(q)
		return tool(toolBackup, strings.Join(f[:min(3, len(f))], " "))
	case strings.Contains(up, "MARIADB_BACKUP_HISTORY"):
		return tool(toolBackup, "recording its history")
	case strings.Contains(up, "XTRABACKUP_HISTORY"):
		return tool(toolXtraBackup, "recording its history")
	case strings.Contains(up, "FOR BACKUP"):
		return tool(toolXtraBackup, "taking its backup locks")
	case strings.Contains(up, "PERFORMANCE_SCHEMA.LOG_STATUS"):
		return tool(toolXtraBackup, "reading the log position")
	case strings.HasPrefix(up, "SET SESSION WAIT_TIMEOUT=2147483") ||
		strings.Contains(up, "FROM INFORMATION_SCHEMA.PLUGINS WHERE PLUGIN_NAME='ROCKSDB'") ||
		strings.HasPrefix(up, "FLUSH NO_WRITE_TO_BINLOG ENGINE LOGS"):
		return tool(toolBackup, "copying")
	// Logical dumps.
	case dumpSelectRe.MatchString(q):
		t := dumpSelectRe.FindStringSubmatch(q)[1]
		if forceIndexRe.MatchString(q) && limitRe.MatchString(q) {
			if perconaChunkRe.MatchString(q) {
				return tool(toolPercona, "reading "+unquote(t)+" in chunks")
			}
			return tool(toolArchiver, "reading "+unquote(t)+" in chunks")
		}
		return tool(toolDump, "dumping "+unquote(t))
	case strings.Contains(up, "START TRANSACTION /*!40100 WITH CONSISTENT SNAPSHOT */"),
		strings.HasPrefix(up, "/*!40100 SET @@SQL_MODE='' */"), strings.HasPrefix(up, "/*!40103 SET TIME_ZONE="),
		strings.HasPrefix(up, "FLUSH /*!40101 LOCAL */ TABLES"):
		return tool(toolDump, "starting its consistent snapshot")
	case perconaInitRe.MatchString(q) || perconaChunkRe.MatchString(q):
		return tool(toolPercona, "")
	case strings.HasPrefix(up, "SELECT SQL_NO_CACHE "):
		// The digest text of the markers above: the server drops the comments.
		if forceIndexRe.MatchString(q) && limitRe.MatchString(q) {
			return like(toolPercona, "reading in chunks")
		}
		return like(toolDump, "dumping")
	case strings.HasPrefix(up, "FLUSH TABLES WITH READ LOCK") || strings.HasPrefix(up, "FLUSH TABLES") && strings.Contains(up, "WITH READ LOCK"):
		return like(toolBackup, "holding FLUSH TABLES WITH READ LOCK")
	case strings.Contains(up, "WITH CONSISTENT SNAPSHOT"):
		return like(toolDump, "starting its consistent snapshot")
	case analyzeRe.MatchString(q):
		m := analyzeRe.FindStringSubmatch(q)
		return tool(toolMaintenance, strings.ToUpper(m[1])+" TABLE "+unquote(m[3]))
	}
	// What the tools do that an application may do too.
	switch {
	case strings.HasPrefix(up, "SHOW CREATE") || strings.HasPrefix(up, "SHOW FULL TABLES") ||
		strings.HasPrefix(up, "SHOW TRIGGERS") || strings.HasPrefix(up, "SHOW TABLE STATUS") ||
		strings.HasPrefix(up, "SHOW FIELDS") || strings.HasPrefix(up, "SHOW COLUMNS"):
		return like(toolDump, "reading table definitions")
	case strings.Contains(up, "INFORMATION_SCHEMA"):
		return like(toolDump, "reading information_schema")
	case strings.HasPrefix(up, "SAVEPOINT SP") || strings.HasPrefix(up, "ROLLBACK TO SAVEPOINT SP") ||
		strings.HasPrefix(up, "RELEASE SAVEPOINT SP"):
		return like(toolDump, "")
	case strings.HasPrefix(up, "INSERT") && shadowTableRe.MatchString(q):
		if m := intoTableRe.FindStringSubmatch(q); m != nil && shadowTableRe.MatchString(m[1]) {
			return like(toolPTOSC, "copying rows into "+unquote(m[1]))
		}
	}
	return routineSighting{}
}

// plainAppStatement is the fast path for the processlist's bulk: a DML
// statement with none of the tools' markers, read without upper-casing it.
func plainAppStatement(q string) bool {
	q = strings.TrimLeft(q, " \t\r\n(")
	dml := false
	for _, v := range []string{"SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE"} {
		if len(q) >= len(v) && strings.EqualFold(q[:len(v)], v) {
			dml = true
			break
		}
	}
	if !dml {
		return false
	}
	for _, m := range []string{"/*", "`_", "information_schema", "INFORMATION_SCHEMA", "percona", "backup_history",
		"log_status", "pt-", "_new", "_gho", "_ghc", "plugins", "SQL_NO_CACHE", "sql_no_cache"} {
		if strings.Contains(q, m) {
			return false
		}
	}
	return true
}

func ptoscDoing(q, up string) string {
	switch {
	case strings.HasPrefix(up, "INSERT"):
		if m := intoTableRe.FindStringSubmatch(q); m != nil {
			return "copying rows into " + unquote(m[1])
		}
		return "copying rows"
	case strings.HasPrefix(up, "CREATE TRIGGER"):
		return "creating its triggers"
	case strings.HasPrefix(up, "DROP TRIGGER"):
		return "dropping its triggers"
	case strings.HasPrefix(up, "ANALYZE"):
		return "analyzing the new table"
	case strings.HasPrefix(up, "RENAME"):
		return "swapping the tables"
	}
	return ""
}

func ghostDoing(q, up string) string {
	f := strings.Fields(up)
	switch {
	case len(f) > 0 && f[0] == "INSERT":
		if m := ghostTableRe.FindStringSubmatch(q); m != nil {
			return "copying rows into " + m[1]
		}
		return "copying rows"
	case strings.Contains(up, "RENAME"):
		return "swapping the tables"
	}
	return ""
}

var fromTableRe = regexp.MustCompile("(?i)\\bFROM\\s+([`\\w.$]+)")

// checksumDoing names the table a checksum chunk reads, not the
// percona.checksums table it writes.
func checksumDoing(q string) string {
	for _, m := range fromTableRe.FindAllStringSubmatch(q, -1) {
		if t := unquote(m[1]); !strings.EqualFold(t, "percona.checksums") {
			return "checksumming " + t
		}
	}
	return "checksumming"
}

func unquote(t string) string { return strings.ReplaceAll(t, "`", "") }

// routineLine reads "routine work in the window: mariadb-dump (session 42,
// dumping sbtest.sbtest3)", or "" when there is none.
func routineLine(r *routineWork) string {
	if !r.any() {
		return ""
	}
	return "routine work in the window: " + r.names(maxThreadLines)
}

// routineWriters reads "routine work writing in the window: pt-online-schema-change
// (session 10, copying rows into shop._items_new); it ends by itself when its
// run ends", or "" when no routine session that writes rows (an online
// schema change's copy, an archiver's deletes, OPTIMIZE's rebuild) was seen
// in the window, connected now or not.
// For the rules that see a server-wide write load (redo, dirty pages).
func routineWriters(w *window) string {
	var names []string
	for _, s := range w.routine().sessions {
		switch s.Tool {
		case toolPTOSC, toolGhost, toolArchiver, toolMaintenance, toolChecksum:
			// Ended ones too: the redo and dirty pages they wrote outlive them.
			names = append(names, s.Name())
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "routine work writing in the window: " + strings.Join(names, "; ") + "; it ends by itself when its run ends"
}
