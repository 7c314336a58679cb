package collectors

import (
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestKillVerdict: the gate sends the KILL only for the session and the
// statement the dialog showed, on the server it showed; every other case
// says what changed.
func TestKillVerdict(t *testing.T) {
	boot := time.Date(2026, 12, 6, 3, 0, 0, 0, time.UTC)
	seen := boot.Add(time.Hour)
	now := seen.Add(5 * time.Second)
	const update = "UPDATE orders SET state = 'paid' WHERE id = 7"
	confirmed := snapshot.KillTarget{ID: 42, User: "app", Host: "10.0.0.5:40122", DB: "shop", Command: "Query",
		Info: update, Started: seen.Add(-30 * time.Second), Seen: seen, ServerStart: boot, Mode: snapshot.ModeLive}
	same := killRow{Found: true, ServerStart: boot, Started: confirmed.Started.Add(400 * time.Millisecond),
		Process: snapshot.Process{ID: 42, User: "app", Host: "10.0.0.5:40122", DB: "shop", Command: "Query", Info: update}}
	secret := "ALTER USER 'app'@'%' IDENTIFIED BY 's3cret'"

	cases := []struct {
		name   string
		target func(*snapshot.KillTarget)
		row    func(*killRow)
		want   string // a part of the reason; "" sends the KILL
	}{
		{name: "the confirmed statement, still running"},
		{name: "seconds rounded down on both sides", row: func(r *killRow) { r.Started = confirmed.Started.Add(-time.Second) }},
		{name: "the dialog showed the masked text, the server has the secret",
			target: func(k *snapshot.KillTarget) { k.Info = snapshot.MaskSecrets(secret) },
			row:    func(r *killRow) { r.Process.Info = secret }},
		{name: "a replayed frame", target: func(k *snapshot.KillTarget) { k.Mode = snapshot.ModeReplay }, want: "not live"},
		{name: "an imported frame", target: func(k *snapshot.KillTarget) { k.Mode = snapshot.ModeImport }, want: "not live"},
		{name: "a stale frame (paused)", target: func(k *snapshot.KillTarget) { k.Seen = now.Add(-3 * time.Minute) }, want: "3m0s old"},
		{name: "no frame time", target: func(k *snapshot.KillTarget) { k.Seen = time.Time{} }, want: "no frame time"},
		{name: "the frame did not say when the server started",
			target: func(k *snapshot.KillTarget) { k.ServerStart = time.Time{} }, want: "restart since cannot be ruled out"},
		{name: "the server restarted since the dialog opened",
			row: func(r *killRow) { r.ServerStart = seen.Add(2 * time.Second) }, want: "server restarted"},
		{name: "the server does not say when it started", row: func(r *killRow) { r.ServerStart = time.Time{} }, want: "restart cannot be ruled out"},
		{name: "the thread is gone", row: func(r *killRow) { r.Found = false }, want: "no longer on the server"},
		{name: "the id is now a replication thread",
			row: func(r *killRow) { r.Process.User, r.Process.Command = "system user", "Slave_SQL" }, want: "thread of the server itself"},
		{name: "the dialog showed a server thread",
			target: func(k *snapshot.KillTarget) { k.User = "event_scheduler" }, want: "thread of the server itself"},
		{name: "another user on the id", row: func(r *killRow) { r.Process.User = "report" }, want: "now report@10.0.0.5:40122 (was app@10.0.0.5:40122)"},
		{name: "another client host", row: func(r *killRow) { r.Process.Host = "10.0.0.9:5000" }, want: "was app@10.0.0.5:40122"},
		{name: "another db", row: func(r *killRow) { r.Process.DB = "billing" }, want: `now uses db "billing" (was "shop")`},
		{name: "a pooled connection now runs another client's statement",
			row:  func(r *killRow) { r.Process.Info = "SELECT * FROM carts" },
			want: "thread 42 now runs `SELECT * FROM carts` (was `UPDATE orders SET state = 'paid' WHERE id = 7`)"},
		{name: "the statement ended, the session sleeps",
			row:  func(r *killRow) { r.Process.Info, r.Process.Command = "", "Sleep" },
			want: "statement `UPDATE orders SET state = 'paid' WHERE id = 7` ended (it is now idle (Sleep))"},
		{name: "an idle session confirmed now runs a statement",
			target: func(k *snapshot.KillTarget) { k.Info, k.Command = "", "Sleep" },
			want:   "now runs `UPDATE orders SET state = 'paid' WHERE id = 7` (was idle (Sleep))"},
		{name: "the same text run again after the confirmed one ended",
			row: func(r *killRow) { r.Started = seen.Add(3 * time.Second) }, want: "it is another run"},
		{name: "an idle session that ran a statement in between",
			target: func(k *snapshot.KillTarget) { k.Info, k.Command = "", "Sleep" },
			row: func(r *killRow) {
				r.Process.Info, r.Process.Command, r.Started = "", "Sleep", seen.Add(2*time.Second)
			}, want: "idle spell began"},
		{name: "another command", row: func(r *killRow) { r.Process.Command = "Execute" }, want: "now in Execute (was Query)"},
		{name: "an invalid id", target: func(k *snapshot.KillTarget) { k.ID = 0 }, want: "invalid thread id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			target, row := confirmed, same
			row.Process.Info = update
			if c.target != nil {
				c.target(&target)
			}
			if c.row != nil {
				c.row(&row)
			}
			got := killVerdict(target, row, now)
			switch {
			case c.want == "" && got != "":
				t.Errorf("refused the confirmed thread: %s", got)
			case c.want != "" && !strings.Contains(got, c.want):
				t.Errorf("reason %q, want it to say %q", got, c.want)
			}
		})
	}
}
