package busynormal

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// lockConvoy is one transaction holding the hottest rows (the lowest ids,
// where sysbench's pareto keys fall) of every table and doing nothing, as
// an application stuck between its statements would: the clients that
// touch those rows queue behind it.
var lockConvoy = Fault{
	Name:  "lock-convoy",
	Cause: "locks",
	Inject: func(ctx context.Context, b *Bed) error {
		conn, err := b.DB.Conn(context.Background())
		if err != nil {
			return err
		}
		defer conn.Close()
		bg := context.Background()
		defer conn.ExecContext(bg, "ROLLBACK")
		// Taking the rows meets sysbench's transactions on them: a deadlock
		// victim starts again, as an application would.
		for try := 0; ; try++ {
			err = holdHotRows(bg, conn, b.Busy.Tables)
			if err == nil {
				break
			}
			if try == 20 || ctx.Err() != nil {
				return err
			}
			conn.ExecContext(bg, "ROLLBACK")
			sleep(ctx, 100*time.Millisecond)
		}
		<-ctx.Done()
		return nil
	},
	Felt: func(normal, during Effect) string {
		// The waits' time is counted as each ends: a convoy shows in the
		// sessions waiting now, half of sysbench's 32 threads at least
		// queued behind the holder, on top of those the normal keeps
		// waiting (ChronicBusy's 59: a factor would ask the impossible).
		return rose("sessions waiting on a row lock", normal.CurrentLockWaits, during.CurrentLockWaits, 1, 16)
	},
}

// flushStorm is FLUSH TABLES and FLUSH LOGS in a loop, as a misconfigured
// monitoring script or log rotation does: every FLUSH TABLES closes the
// open tables (reopened by the next statement using them) and waits for the
// statements using them; FLUSH LOGS closes and reopens the server's logs
// and flushes the engines' logs.
var flushStorm = Fault{
	Name:  "flush-storm",
	Cause: "flush",
	Inject: func(ctx context.Context, b *Bed) error {
		for ctx.Err() == nil {
			for _, q := range []string{"FLUSH TABLES", "FLUSH LOGS"} {
				if _, err := b.DB.ExecContext(ctx, q); err != nil && ctx.Err() == nil {
					return err
				}
			}
			sleep(ctx, 200*time.Millisecond)
		}
		return nil
	},
	Felt: func(normal, during Effect) string {
		return rose("FLUSH statements per second", normal.Flushes, during.Flushes, 1, 2)
	},
}

// holdHotRows begins a transaction on conn and locks the 20 lowest ids of
// each table.
func holdHotRows(ctx context.Context, conn *sql.Conn, tables int) error {
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return err
	}
	for i := 1; i <= tables; i++ {
		if _, err := conn.ExecContext(ctx, fmt.Sprintf("UPDATE sbtest.sbtest%d SET pad = pad WHERE id <= 20", i)); err != nil {
			return err
		}
	}
	return nil
}
