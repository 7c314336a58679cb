package analyzers

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/internal/connopt"
	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// Galera reproduced for real: three nodes on loopback, all monitored. Node 3
// is made the slow applier (its copy of the table lost its primary key, so
// every row event scans the table, and gcs.fc_limit is tiny); writes on node
// 1 then make node 3 send flow control that pauses the whole cluster. Node 3
// must say it sends, node 1 that it receives, and comparing the three names
// node 3. Then node 3 stops and the others see the cluster shrink.
func TestIntegrationGaleraFlowControlAndShrink(t *testing.T) {
	t.Parallel()
	// Inside the heavy slot from the start: started beside the rest (about
	// 28 s of three servers and their state transfers, at the busiest minute
	// of a run) the other tests' ticks ran out of time (a lock tree built
	// without its lock tables, kills by filter unanswered for 45 s).
	testdb.Heavy(t) // three nodes, writes flat out
	nodes := testdb.StartGalera(t, 3)
	n1, n3 := nodes[0], nodes[2]
	n1.Exec(t, "CREATE DATABASE g", "CREATE TABLE g.s (id INT PRIMARY KEY, v INT)",
		"INSERT INTO g.s SELECT seq, 0 FROM g.seq_1_to_50000")
	waitRows(t, n3, "SELECT COUNT(*) FROM g.s", 50000)

	watches := make([]*nodeWatch, len(nodes))
	for i, n := range nodes {
		watches[i] = newNodeWatch(t, fmt.Sprintf("node%d", i+1), n)
	}
	// Healthy: a few frames of an idle cluster raise nothing about Galera.
	for range 4 {
		for _, w := range watches {
			f := w.next(t)
			for _, x := range f.Findings {
				if strings.HasPrefix(x.ID, "galera_") {
					t.Errorf("%s healthy cluster raised %s: %s", w.name, x.ID, x.Title)
				}
			}
		}
	}

	slowApplier(t, n3)
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); writeUntil(ctx, n1) }()
	var sends, receives *snapshot.Finding
	var senders []string
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		var latest []infer.NodeFrame
		for _, w := range watches {
			latest = append(latest, infer.NodeFrame{Name: w.name, Frame: w.next(t)})
		}
		sends = findingIn(latest[2].Frame, IDGaleraFlowControl)
		receives = findingIn(latest[0].Frame, IDGaleraFlowControl)
		if s := infer.FlowControlSenders(latest); len(s) > 0 {
			senders = s
		}
		if sends != nil && receives != nil && len(senders) > 0 {
			break
		}
	}
	stop()
	wg.Wait()
	if sends == nil || receives == nil {
		t.Fatalf("galera_flow_control: node3 %v, node1 %v", sends, receives)
	}
	t.Logf("node3: %s\n%s", sends.Title, strings.Join(sends.Evidence, "\n"))
	t.Logf("node1: %s\n%s", receives.Title, strings.Join(receives.Evidence, "\n"))
	wantEvidence(t, sends, "node node3 sends flow control", "gcs.fc_limit")
	wantEvidence(t, receives, "another node sends", "node node1 sent 0")
	if senders[0] != "node3" {
		t.Errorf("comparing the nodes names %v, want node3 first", senders)
	}
	sameInReplay(t, watches[2].frames, DefaultConfig(), sends)
	sameInReplay(t, watches[0].frames, DefaultConfig(), receives)

	// A backup's FLUSH TABLES WITH READ LOCK desyncs node 2 (Donor/Desynced).
	notSynced := desyncedByBackup(t, nodes[1], watches[1])
	wantEvidence(t, notSynced, "node node2 is not synced", "Desynced")

	n3.Stop(t)
	var shrunk *snapshot.Finding
	deadline = time.Now().Add(60 * time.Second)
	for shrunk == nil && time.Now().Before(deadline) {
		shrunk = findingIn(watches[0].next(t), IDGaleraClusterShrunk)
	}
	if shrunk == nil {
		t.Fatal("node1 never raised galera_cluster_shrunk after node3 stopped")
	}
	wantEvidence(t, shrunk, "shrank from 3 to 2 nodes", "wsrep_cluster_size 2, was 3")
	sameInReplay(t, watches[0].frames, DefaultConfig(), shrunk)
}

// desyncedByBackup holds FLUSH TABLES WITH READ LOCK on node until its
// watch raises galera_node_not_synced, and returns that finding.
func desyncedByBackup(t *testing.T, node *testdb.Server, w *nodeWatch) *snapshot.Finding {
	t.Helper()
	ctx := context.Background()
	conn, err := node.DB(t).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "FLUSH TABLES WITH READ LOCK"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, "UNLOCK TABLES")
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if f := findingIn(w.next(t), IDGaleraNodeNotSynced); f != nil {
			return f
		}
	}
	t.Fatalf("%s never raised galera_node_not_synced under FLUSH TABLES WITH READ LOCK", w.name)
	return nil
}

// slowApplier makes node's applier scan the table for every row event and
// send flow control after 2 queued write sets. The primary key goes on this
// node only (wsrep_on off in the session), as a DBA's local change would.
func slowApplier(t *testing.T, node *testdb.Server) {
	t.Helper()
	ctx := context.Background()
	conn, err := node.DB(t).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{"SET SESSION wsrep_on = OFF", "ALTER TABLE g.s DROP PRIMARY KEY",
		"SET GLOBAL wsrep_provider_options = 'gcs.fc_limit=2'"} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// writeUntil updates random rows on node, one autocommit at a time.
func writeUntil(ctx context.Context, node *testdb.Server) {
	db, err := sql.Open("mysql", node.DSN(""))
	if err != nil {
		return
	}
	defer db.Close()
	for ctx.Err() == nil {
		db.ExecContext(ctx, "UPDATE g.s SET v = v + 1 WHERE id = ?", 1+rand.IntN(50000))
	}
}

// nodeWatch samples one node with its own engine.
type nodeWatch struct {
	name   string
	live   *collectors.Live
	b      *pipeline.Builder
	frames []*snapshot.Frame
}

func newNodeWatch(t *testing.T, name string, srv *testdb.Server) *nodeWatch {
	t.Helper()
	opts := connopt.Options{Socket: srv.Socket, User: "root", PasswordSet: true}
	cfg, err := opts.Config()
	if err != nil {
		t.Fatal(err)
	}
	live, err := collectors.NewLive(collectors.LiveOptions{Config: cfg, Interval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { live.Close() })
	return &nodeWatch{name: name, live: live, b: pipeline.NewBuilder("LIVE", NewEngine(DefaultConfig()))}
}

func (w *nodeWatch) next(t *testing.T) *snapshot.Frame {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := w.live.Next(ctx)
	if err != nil {
		t.Fatalf("%s: %v", w.name, err)
	}
	f := w.b.Add(s)
	w.frames = append(w.frames, f)
	t.Logf("%s frame %d: %v", w.name, f.Seq, findingIDs(f))
	return f
}

func findingIDs(f *snapshot.Frame) []string {
	var ids []string
	for _, x := range f.Findings {
		ids = append(ids, x.ID)
	}
	return ids
}
