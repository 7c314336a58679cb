package ui

import (
	"context"
	"fmt"
	"strings"
)

// killFilterShownIDs is how many ids the y/n question lists.
const killFilterShownIDs = 10

// filterTargets are the threads a kill by filter would reach: the rows the
// filtered processlist shows (so `i` decides whether idle threads count),
// without the server's own threads. The monitor's own connections are never
// in the processlist, and the server side refuses them too.
func (d *Dashboard) filterTargets() (ids []int64, skipped int) {
	for i := range d.list.rows {
		p := d.list.row(i)
		if isSystemThread(p.User, p.Command) || p.ID <= 0 {
			skipped++
			continue
		}
		ids = append(ids, p.ID)
	}
	return ids, skipped
}

// isSystemThread is a thread of the server itself: InnoDB and replication
// workers, the event scheduler, binlog dump threads serving replicas.
func isSystemThread(user, command string) bool {
	switch user {
	case "system user", "event_scheduler":
		return true
	}
	switch command {
	case "Daemon", "Binlog Dump", "Binlog Dump GTID", "Slave_IO", "Slave_SQL", "Slave_worker":
		return true
	}
	return false
}

// confirmKillFilter asks before killing every thread the filter matches,
// showing how many and the first ids.
func (d *Dashboard) confirmKillFilter(connection bool) {
	if d.list.filter.empty() {
		d.say("kill by filter needs a filter: / first (X: KILL QUERY, Ctrl-X: KILL CONNECTION of every match)")
		return
	}
	ids, skipped := d.filterTargets()
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
	d.openModal(confirmModal(" "+what+" by filter ", text, func() { d.killAll(ids, connection, what) }))
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

// killAll sends one KILL per thread off the UI goroutine and says how many
// went through; a thread that ended meanwhile counts as failed, with its error.
func (d *Dashboard) killAll(ids []int64, connection bool, what string) {
	type result struct {
		failed  int
		lastErr error
	}
	async(d, func() result {
		var r result
		for _, id := range ids {
			ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
			if err := d.opts.Actions.Kill(ctx, id, connection); err != nil {
				r.failed++
				r.lastErr = err
			}
			cancel()
		}
		return r
	}, func(r result) {
		msg := fmt.Sprintf("%s sent to %d of %d threads", what, len(ids)-r.failed, len(ids))
		if r.lastErr != nil {
			msg += fmt.Sprintf("; %d failed: %s", r.failed, safeLine(r.lastErr.Error(), 120))
		}
		d.say(msg)
	})
}
