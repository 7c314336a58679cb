package snapshot

import "time"

// KillTarget is a thread as a kill dialog showed it to the DBA: the session
// (id, user, host, db), the statement it ran (command, text, when it began)
// and the server it ran on (when that server started). The live source's
// kill gate sends the KILL only if the server still runs that session and
// that statement: between the frame and the y, a pooled connection may have
// passed to another client, the statement may have ended and the next one
// begun, or the server may have restarted and given the id to someone else.
type KillTarget struct {
	ID      int64
	User    string
	Host    string
	DB      string
	Command string
	// Info is the statement text as shown (secrets masked).
	Info string
	// Started is when the statement (or the idle spell, for a sleeping
	// session) began, by the monitor's clock: the frame's time less the
	// thread's time in its state.
	Started time.Time
	// Seen is the time of the frame the row came from.
	Seen time.Time
	// ServerStart is when the server started (the frame's time less its
	// Uptime); zero when the frame did not say.
	ServerStart time.Time
	// Mode is the frame's: only a live frame may be acted on.
	Mode Mode
}

// KillTargetOf is p as the frame f, which holds it, shows it.
func KillTargetOf(f *Frame, p *Process) KillTarget {
	t := KillTarget{ID: p.ID, User: p.User, Host: p.Host, DB: p.DB, Command: p.Command, Info: p.Info}
	if f == nil || f.Snapshot == nil {
		return t
	}
	t.Mode = f.Mode
	t.Seen = f.Snapshot.Time
	t.Started = t.Seen.Add(-time.Duration(p.TimeMS) * time.Millisecond)
	t.ServerStart = f.Snapshot.ServerStart()
	return t
}

// ServerStart is when the server started, by the monitor's clock, to the
// second: the snapshot's time less its Uptime; zero when it was not read.
func (s *Snapshot) ServerStart() time.Time {
	up, ok := s.StatusInt("Uptime")
	if !ok || up < 0 {
		return time.Time{}
	}
	return s.Time.Add(-time.Duration(up) * time.Second).Truncate(time.Second)
}

// KillRefused is the kill gate's answer when it sent nothing: Reason says,
// in plain words, what changed since the dialog.
type KillRefused struct {
	Reason string
}

func (e *KillRefused) Error() string { return e.Reason }
