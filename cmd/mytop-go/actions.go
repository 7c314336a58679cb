package main

import (
	"context"

	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/snapshot"
)

// liveActions lets the dashboard EXPLAIN and KILL on the live source's second
// connection.
type liveActions struct{ live *collectors.Live }

func (a liveActions) Explain(ctx context.Context, id int64, query string) ([]snapshot.ExplainRow, error) {
	return a.live.Explain(ctx, id, query)
}

func (a liveActions) Kill(ctx context.Context, id int64, connection bool) error {
	return a.live.Kill(ctx, id, connection)
}
