package ui

import "github.com/mytop-go/mytop-go/snapshot"

// loginBindings: after the server refused the monitor's login, the live
// source makes no attempt until the DBA asks, since each wrong password
// counts towards the account's block.
func (d *Dashboard) loginBindings() []*binding {
	return []*binding{{[]string{"Ctrl-R"}, "live, after the server refused the monitor's login: log in again once, with the password the option files give now", d.logInAgain, item{}}}
}

func (d *Dashboard) logInAgain() {
	if d.frame == nil || d.frame.Snapshot.Server.LoginRefused == "" {
		d.say("the server has not refused the monitor's login")
		return
	}
	d.opts.Login.LogInAgain()
	d.say("logging in again with the option files' password")
}

// loginRefused is the header's word on a refused login: the reason stands
// beside the unreachable server's error, or alone while the sampling
// session still answers and only new sessions are refused.
func loginRefused(s *snapshot.Snapshot, canAsk bool) string {
	if s.Server.LoginRefused == "" {
		return ""
	}
	text := "[red::b]!! login refused (" + string(s.Server.LoginRefused) + ")"
	if !s.Server.Unreachable {
		text = "[yellow::b]! new logins refused (" + string(s.Server.LoginRefused) + ")"
	}
	if canAsk {
		text += ": Ctrl-R logs in again"
	}
	return text + "[-::-]"
}
