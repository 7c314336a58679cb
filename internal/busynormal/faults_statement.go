package busynormal

import (
	"context"
	"time"
)

// scanStatement is a new statement that scans a whole table each call (a
// report someone started), from two sessions back to back.
var scanStatement = Fault{
	Name:  "scan-statement",
	Cause: "statement",
	Inject: func(ctx context.Context, b *Bed) error {
		done := make(chan struct{})
		for range 2 {
			go func() {
				defer func() { done <- struct{}{} }()
				for ctx.Err() == nil {
					rows, err := b.DB.QueryContext(ctx, "SELECT COUNT(*), MAX(pad) FROM sbtest.sbtest2 WHERE c LIKE '%zz%'")
					if err == nil {
						for rows.Next() {
						}
						rows.Close()
					}
					sleep(ctx, 50*time.Millisecond)
				}
			}()
		}
		<-done
		<-done
		return nil
	},
	// Added to the normal's scans, as the dump's are (faults_routine.go).
	Felt: func(normal, during Effect) string {
		return rose("rows read by full scans per second", normal.ScanRows, during.ScanRows, 1, 100000)
	},
}

// indexDropped drops the secondary index the application's lookups by k
// use on one table: each of them scans the table instead. The index comes
// back in the recovery.
var indexDropped = Fault{
	Name:  "index-dropped",
	Cause: "statement",
	Inject: func(ctx context.Context, b *Bed) error {
		if _, err := b.DB.ExecContext(ctx, "ALTER TABLE sbtest.sbtest1 DROP INDEX k_1"); err != nil {
			return err
		}
		<-ctx.Done()
		return nil
	},
	Recover: func(b *Bed) error {
		_, err := b.DB.Exec("ALTER TABLE sbtest.sbtest1 ADD INDEX k_1 (k)")
		return err
	},
	Unavailable: func(b *Bed) string {
		if b.Busy.Lookups == 0 {
			return "the busy normal makes no lookups by k"
		}
		return ""
	},
	// Added to the normal's scans, as the dump's are (faults_routine.go).
	Felt: func(normal, during Effect) string {
		return rose("rows read by full scans per second", normal.ScanRows, during.ScanRows, 1, 100000)
	},
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
