package importers

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// serverPID tells which process of a capture is the server the capture is
// about, when the host runs several: the server-named process whose
// arguments hold its datadir, socket or port (from the captured
// variables), else the only server-named one, else the server-named one
// holding the most memory. 0 when none is.
func serverPID(ps []psProc, top []topSample, vars map[string]string) (pid int, why string) {
	type cand struct {
		pid  int
		rss  uint64
		args string
	}
	byPID := map[int]*cand{}
	add := func(pid int, name string, rss uint64, args string) {
		if !infer.IsServerProcess(name) {
			return
		}
		c := byPID[pid]
		if c == nil {
			c = &cand{pid: pid}
			byPID[pid] = c
		}
		c.rss = max(c.rss, rss)
		if args != "" {
			c.args = args
		}
	}
	for _, p := range ps {
		add(p.pid, p.name, p.rss, p.args)
	}
	for _, s := range top {
		for _, p := range s.procs {
			add(p.pid, p.name, p.rss, "")
		}
	}
	if len(byPID) == 0 {
		return 0, ""
	}
	if len(byPID) == 1 {
		for pid := range byPID {
			return pid, ""
		}
	}
	marks := serverMarks(vars)
	var best *cand
	for _, c := range byPID {
		if holdsMark(c.args, marks) {
			return c.pid, ""
		}
		if best == nil || c.rss > best.rss || c.rss == best.rss && c.pid < best.pid {
			best = c
		}
	}
	return best.pid, "several server processes: the one holding the most memory is taken as this server's"
}

// serverMarks are what a server's command line holds that tells it from
// another on the same host.
func serverMarks(vars map[string]string) []string {
	var out []string
	if d := strings.TrimRight(vars["datadir"], "/"); d != "" {
		out = append(out, "--datadir="+d)
	}
	if s := vars["socket"]; s != "" {
		out = append(out, "--socket="+s)
	}
	if p := vars["port"]; p != "" && p != "0" {
		out = append(out, "--port="+p)
	}
	return out
}

// holdsMark: one of args' words is one of marks (a datadir given with its
// trailing slash too).
func holdsMark(args string, marks []string) bool {
	for _, w := range strings.Fields(args) {
		w = strings.TrimRight(w, "/")
		for _, m := range marks {
			if w == m {
				return true
			}
		}
	}
	return false
}
