package analyzers

import (
	"fmt"
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
	toolDDL         = "a schema change"
	toolRestore     = "a restore of a dump"
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
// schema change's copy, an archiver's deletes, OPTIMIZE's rebuild, a restore) was seen
// in the window, connected now or not.
// For the rules that see a server-wide write load (redo, dirty pages).
func routineWriters(w *window) string {
	var names []string
	for _, s := range w.routine().sessions {
		switch s.Tool {
		case toolPTOSC, toolGhost, toolArchiver, toolMaintenance, toolChecksum, toolRestore:
			// Ended ones too: the redo and dirty pages they wrote outlive them.
			names = append(names, s.Name())
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "routine work writing in the window: " + strings.Join(names, "; ") + "; it ends by itself when its run ends"
}
