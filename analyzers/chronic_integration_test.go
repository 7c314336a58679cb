package analyzers

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// A server that is always busy on a hot row, judged against its own
// normal: once the baseline has learnt it, hot_rows stands as chronic (how
// this server runs), and a new scan-heavy SELECT is what the ROOT CAUSE
// line names first, within 10 s, with hot_rows still chronic and listed
// below the new findings. The normal runs beside the other tests (three
// clients sleeping inside their UPDATE cost little CPU); the scans hold the
// heavy slot, so the onset is the test's own. No host collector: the
// machine's other processes are other tests' servers, not this server's
// news.
func TestIntegrationChronicHotRowThenNewScan(t *testing.T) {
	testdb.SkipShort(t)
	t.Parallel()
	srv := testdb.Start(t)
	const users = 200000
	srv.ExecHeavy(t, "CREATE DATABASE app",
		"CREATE TABLE app.counter (id INT PRIMARY KEY, v BIGINT NOT NULL)",
		"INSERT INTO app.counter VALUES (1, 0)",
		"CREATE TABLE app.users (id INT PRIMARY KEY, email VARCHAR(100), name VARCHAR(50))",
		fmt.Sprintf("INSERT INTO app.users SELECT seq, CONCAT('u', seq, '@example.com'), CONCAT('user ', seq) "+
			"FROM seq.seq_1_to_%d", users))
	db := srv.DB(t)
	normal, fault := newWorkload(t), newWorkload(t)
	// Each UPDATE holds the row for 10 ms: three clients queue on it, about
	// two waiting at any moment (hot_rows' warning is one).
	normal.clients(db, 3, 0, func(*rand.Rand) string {
		return "UPDATE app.counter SET v = v + 1 + SLEEP(0.01) WHERE id = 1"
	})
	normal.began = time.Now()

	var slot atomic.Bool
	release := make(chan struct{})
	var holder sync.WaitGroup
	t.Cleanup(func() { close(release); holder.Wait() })
	var chronicAt *snapshot.Finding
	var named *snapshot.Frame
	frames := watch(t, srv, within(9*time.Minute), until(func(f *snapshot.Frame) bool {
		switch {
		case f.Normal == nil || !f.Normal.Ready:
			return false
		case chronicAt == nil:
			chronicAt = chronicHotRows(t, f)
			holder.Go(func() { testdb.HeavyPart(t, func() { slot.Store(true); <-release }) })
			return false
		case !slot.Load():
			return false
		case fault.began.IsZero():
			fault.clients(db, 4, 0, func(r *rand.Rand) string {
				return fmt.Sprintf("SELECT id, name FROM app.users WHERE email = 'u%d@example.com'", 1+r.IntN(users))
			})
			fault.began = time.Now()
			return false
		}
		if len(f.Onsets) > 0 && f.Onsets[0].Cause == snapshot.CauseStatement {
			named = f
		}
		return named != nil || f.Snapshot.Time.Sub(fault.began) > 30*time.Second
	})).frames
	if chronicAt == nil {
		t.Fatalf("the baseline was never ready in %d frames", len(frames))
	}
	if named == nil {
		t.Fatalf("the new scan was not named first; last onsets: %s", onsetsLine(frames[len(frames)-1]))
	}
	namedAfter := named.Snapshot.Time.Sub(fault.began)
	t.Logf("named after %.1f s: %s", namedAfter.Seconds(), onsetsLine(named))
	if namedAfter > nameWithin {
		t.Errorf("named after %.1f s, want within %s", namedAfter.Seconds(), nameWithin)
	}
	if at := named.Onsets[0].At; at.Before(fault.began.Add(-5*time.Second)) || at.After(fault.began.Add(5*time.Second)) {
		t.Errorf("onset at %s, the scans began at %s", at.Format(time.TimeOnly), fault.began.Format(time.TimeOnly))
	}
	stillChronicBelowNew(t, named)
}

// chronicHotRows fails t unless hot_rows stands at f, the first frame the
// baseline judges, marked chronic since the normal's first minute.
func chronicHotRows(t *testing.T, f *snapshot.Frame) *snapshot.Finding {
	t.Helper()
	x := findingIn(f, IDHotRows)
	if x == nil {
		t.Fatalf("hot_rows does not stand after %s of the hot-row normal", f.Normal.Note)
	}
	if !x.Chronic {
		t.Fatalf("hot_rows stood through the normal but is not chronic: %s", x.Title)
	}
	t.Logf("chronic since %s: %s/%s %s", x.ChronicSince.Format(time.TimeOnly), x.ID, x.Severity, x.Title)
	for _, o := range f.Onsets {
		t.Errorf("an onset in the normal: %s %s", o.Cause, o.Title)
	}
	return x
}

// stillChronicBelowNew fails t unless hot_rows is still chronic at f and no
// new finding is listed after it.
func stillChronicBelowNew(t *testing.T, f *snapshot.Frame) {
	t.Helper()
	seenChronic := false
	for _, x := range f.Findings {
		switch {
		case x.ID == IDHotRows && !x.Chronic:
			t.Errorf("hot_rows lost its chronic mark at the onset: %s", x.Title)
		case x.Chronic:
			seenChronic = true
		case seenChronic:
			t.Errorf("new finding %s listed below a chronic one", x.ID)
		}
	}
}

func onsetsLine(f *snapshot.Frame) string {
	s := ""
	for _, o := range f.Onsets {
		s += fmt.Sprintf("[%d %s: %s] ", o.Rank, o.Cause, o.Title)
	}
	return s
}
