package collectors

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/snapshot"
)

// The UI's EXPLAIN and KILL run on their own goroutine while the pipeline
// masks each new snapshot in place: what they read of the latest tick must
// not be the snapshot being masked. Run under -race (CI does); no server:
// the action connection's dial is refused, after the reads.
func TestKillAndExplainWhileFramesAreMasked(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens: every dial is refused at once
	cfg := mysql.NewConfig()
	cfg.Net, cfg.Addr, cfg.User = "tcp", addr, "mon"
	l, err := NewLive(LiveOptions{Config: cfg, Interval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	const secret = "s3cret-pw"
	tick := func(i int) *snapshot.Snapshot {
		s := &snapshot.Snapshot{Time: time.Now(), Status: map[string]string{"Uptime": "100"}}
		for id := int64(1); id <= 50; id++ {
			s.Processlist = append(s.Processlist, snapshot.Process{ID: id, User: "app", Command: "Query", DB: "shop",
				Info: fmt.Sprintf("ALTER USER 'u%d'@'%%' IDENTIFIED BY '%s' /* tick %d */", id, secret, i)})
		}
		return s
	}
	b := pipeline.NewBuilder(snapshot.ModeLive, nil)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() { // the live source's tick and the pipeline, as in Run
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			s := tick(i)
			l.publish(s)
			f := b.Add(s)
			if p := f.Snapshot.Processlist[0].Info; p == "" || strings.Contains(p, secret) {
				t.Errorf("frame not masked: %q", p)
				return
			}
		}
	}()
	ctx := context.Background()
	end := time.Now().Add(300 * time.Millisecond)
	for n := 0; time.Now().Before(end) || n < 20; n++ {
		id := int64(n%50 + 1)
		if _, err := l.Explain(ctx, id, ""); err == nil {
			t.Fatal("EXPLAIN without a server succeeded")
		}
		target := snapshot.KillTarget{ID: id, User: "app", Command: "Query", Mode: snapshot.ModeLive,
			Seen: time.Now(), Started: time.Now(), ServerStart: time.Now().Add(-100 * time.Second)}
		if err := l.Kill(ctx, target, false); err == nil {
			t.Fatal("KILL without a server succeeded")
		}
	}
	close(stop)
	wg.Wait()
}
