package main

import (
	"context"
	"database/sql"
	"sync"
)

// sleepLoops makes each of conns loop SELECT SLEEP(1) until ctx ends: rows
// in state "User sleep" that the monitor reads, sorts and draws every tick,
// as a busy server's running statements would be, at no CPU cost to the
// machine the figures are taken on.
func sleepLoops(ctx context.Context, conns []*sql.Conn) *sync.WaitGroup {
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				var v int
				if err := c.QueryRowContext(ctx, "SELECT SLEEP(1)").Scan(&v); err != nil && ctx.Err() == nil {
					return
				}
			}
		}()
	}
	return &wg
}
