package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// killFilterShownIDs is how many ids the y/n question lists.
const killFilterShownIDs = 10

// filterTargets are the threads a kill by filter would reach: the rows the
// filtered processlist shows (so `i` decides whether idle threads count),
// without the threads no key may kill (snapshot.KillRefusal). The monitor's
// own connections are never in the processlist, and the server side refuses
// them too. Each is kept as shown, for the kill gate to hold the server to.
func (d *Dashboard) filterTargets() (targets []snapshot.KillTarget, skipped int) {
	for i := range d.list.rows {
		p := d.list.row(i)
		if infer.KillRefusal(p) != "" || p.ID <= 0 {
			skipped++
			continue
		}
		targets = append(targets, snapshot.KillTargetOf(d.procsFrame, p))
	}
	return targets, skipped
}

// stillTargets keeps the threads that, in the latest frame, the filter
// still matches: what the DBA asked for. Whether each is still the session
// and statement shown is the kill gate's to say, on the server.
func (d *Dashboard) stillTargets(targets []snapshot.KillTarget, filter procFilter) (kept []snapshot.KillTarget, changed int) {
	for _, t := range targets {
		if p := d.latestProcess(t.ID); p == nil || !filter.match(p) {
			changed++
			continue
		}
		kept = append(kept, t)
	}
	return kept, changed
}

// latestProcess is thread id in the newest frame received (shown or not)
// whose processlist was read.
func (d *Dashboard) latestProcess(id int64) *snapshot.Process {
	f := d.listed
	if f == nil {
		f = d.latest
	}
	if f == nil || f.Snapshot == nil {
		return nil
	}
	for i := range f.Snapshot.Processlist {
		if f.Snapshot.Processlist[i].ID == id {
			return &f.Snapshot.Processlist[i]
		}
	}
	return nil
}

// killRefusal is why thread id must not be killed, judged on the row the
// dialog showed (p, may be nil) and on the latest frame; "" when it may be.
func (d *Dashboard) killRefusal(p *snapshot.Process, id int64) string {
	if r := infer.KillRefusal(p); r != "" {
		return r
	}
	return infer.KillRefusal(d.latestProcess(id))
}

// confirmKillFilter asks before killing every thread the filter matches,
// showing how many and the first ids.
func (d *Dashboard) confirmKillFilter(connection bool) {
	if d.list.filter.empty() {
		d.say("kill by filter needs a filter: / first (X: KILL QUERY, Ctrl-X: KILL CONNECTION of every match)")
		return
	}
	targets, skipped := d.filterTargets()
	ids := make([]int64, len(targets))
	for i, t := range targets {
		ids[i] = t.ID
	}
	what := "KILL QUERY"
	if connection {
		what = "KILL CONNECTION"
	}
	if len(ids) == 0 {
		d.say(fmt.Sprintf("the filter %q matches no thread to %s", safeLine(d.list.filter.raw, 60), what))
		return
	}
	text := fmt.Sprintf("[::b]%s of %d threads[::-] matching %s ?\n\n%s", what, len(ids),
		safeLine(d.list.filter.raw, 60), idList(ids, killFilterShownIDs))
	if skipped > 0 {
		text += fmt.Sprintf("\n(%d server threads left alone)", skipped)
	}
	filter := d.list.filter
	d.openModal(confirmModal(" "+what+" by filter ", text, func() {
		kept, changed := d.stillTargets(targets, filter)
		d.killAll(kept, len(targets), changed, connection, what)
	}))
}

// idList is "ids 1 2 3 … and 17 more".
func idList(ids []int64, n int) string {
	var b strings.Builder
	b.WriteString("ids")
	for i, id := range ids {
		if i == n {
			fmt.Fprintf(&b, " … and %d more", len(ids)-n)
			break
		}
		fmt.Fprintf(&b, " %d", id)
	}
	return b.String()
}

// killAll sends one KILL per thread off the UI goroutine, each through the
// kill gate, and says how many of the asked threads it went to: those that
// changed since the question (the filter no longer matches, or the gate
// found another statement, user, host or server) are left alone, and one
// that failed counts with its error.
func (d *Dashboard) killAll(targets []snapshot.KillTarget, asked, changed int, connection bool, what string) {
	type result struct {
		sent, failed, refused int
		lastErr               error
		firstRefusal          string
	}
	async(d, func() result {
		var r result
		// One deadline for them all: on a server too slow to answer, the DBA
		// hears within actionTimeout how many went, not after 20 of them.
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		for i, t := range targets {
			var refused *snapshot.KillRefused
			switch err := d.opts.Actions.Kill(ctx, t, connection); {
			case errors.As(err, &refused):
				r.refused++
				if r.firstRefusal == "" {
					r.firstRefusal = refused.Reason
				}
			case err != nil:
				r.failed++
				r.lastErr = err
			default:
				r.sent++
			}
			if ctx.Err() != nil {
				r.failed += len(targets) - i - 1
				r.lastErr = fmt.Errorf("no answer within %s: %w", actionTimeout, ctx.Err())
				break
			}
		}
		return r
	}, func(r result) {
		msg := fmt.Sprintf("%s sent to %d of %d threads", what, r.sent, asked)
		if n := changed + r.refused; n > 0 {
			msg += fmt.Sprintf("; %d changed since the question (other statement, user or host, or ended): left alone", n)
		}
		if r.firstRefusal != "" {
			msg += " (" + safeLine(r.firstRefusal, 120) + ")"
		}
		if r.lastErr != nil {
			msg += fmt.Sprintf("; %d failed: %s", r.failed, safeLine(r.lastErr.Error(), 120))
		}
		d.say(msg)
	})
}
