package analyzers

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// OPTIMIZE TABLE of a 1,000,000-row table under a light read/write load:
// every redo, flushing, pool or temporary-space finding raised while it runs
// names it, with the rate and when it ends, at the severity the effect earns.
func TestIntegrationRebuildNamedInItsEffects(t *testing.T) {
	t.Parallel()
	rebuildUnderLoad(t, "OPTIMIZE TABLE app.m", "OPTIMIZE TABLE app.m")
}

// The same with ALTER TABLE … ALGORITHM=COPY, which copies the rows into a
// new table.
func TestIntegrationCopyAlterNamedInItsEffects(t *testing.T) {
	t.Parallel()
	rebuildUnderLoad(t, "ALTER TABLE app.m ADD COLUMN note INT, ALGORITHM=COPY", "ALTER TABLE app.m")
}

// rebuildUnderLoad runs stmt on a 1,000,000-row app.m beside two light
// clients and checks every attributed finding raised while it runs names
// it (as name, with its session).
func rebuildUnderLoad(t *testing.T, stmt, name string) {
	t.Helper()
	testdb.Heavy(t)
	srv := testdb.Start(t)
	srv.ExecHeavy(t, "CREATE DATABASE app",
		"CREATE TABLE app.m (id INT PRIMARY KEY, n INT, pad VARCHAR(100))",
		"INSERT INTO app.m SELECT seq, 0, REPEAT('p', 100) FROM seq.seq_1_to_1000000")
	db := srv.DB(t)
	w := newWorkload(t)
	cfg := DefaultConfig()
	cfg.WarmupSeconds = 0
	var rebuilder int64
	done := make(chan struct{})
	seen := map[string]bool{}
	watch(t, srv, within(90*time.Second), judged(cfg), until(func(f *snapshot.Frame) bool {
		if w.began.IsZero() {
			w.clients(db, 2, 50*time.Millisecond, func(r *rand.Rand) string {
				if r.IntN(2) == 0 {
					return "SELECT n FROM app.m WHERE id = " + itoa(1+r.IntN(1000000))
				}
				return "UPDATE app.m SET n = n + 1 WHERE id = " + itoa(1+r.IntN(1000000))
			})
			s := w.session(db)
			rebuilder = s.id
			w.wg.Add(1)
			go func() {
				defer w.wg.Done()
				defer close(done)
				if _, err := s.conn.ExecContext(w.ctx, stmt); err != nil && w.ctx.Err() == nil {
					t.Errorf("%s: %v", stmt, err)
				}
			}()
			w.began = time.Now()
			return false
		}
		select {
		case <-done:
			return true
		default:
		}
		running := false
		for _, p := range f.Snapshot.Processlist {
			if p.ID == rebuilder && strings.HasPrefix(strings.ToUpper(p.Info), strings.Fields(stmt)[0]) {
				running = true
			}
		}
		if !running {
			return false
		}
		for _, fd := range f.Findings {
			if _, ok := attributedRules[fd.ID]; !ok {
				continue
			}
			seen[fd.ID] = true
			if !strings.Contains(fd.Title, name+" (session "+itoa(int(rebuilder))+")") ||
				!strings.Contains(strings.Join(fd.Evidence, "\n"), "ends by itself") {
				t.Errorf("%s/%s does not name the rebuild: %s\n%v", fd.ID, fd.Severity, fd.Title, fd.Evidence)
			} else {
				t.Logf("%s/%s: %s\n%s", fd.ID, fd.Severity, fd.Title, fd.Evidence[0])
			}
		}
		return false
	}))
	took := time.Since(w.began)
	t.Logf("attributed findings raised while it ran: %v (%.1f s)", seen, took.Seconds())
	if len(seen) == 0 && took < 10*time.Second {
		// The rebuild can end before any rule held its effect: the effects
		// rise a second or two in and are held 3 to 5 s. The copy ALTER of
		// a million rows ran 2.9, 5.1 and 5.9 s on the 2-core test machine
		// (quiet to loaded) and raised none: nothing to judge either way.
		t.Skipf("the rebuild ended after %.1f s, before an effect could be judged", took.Seconds())
	}
	if len(seen) == 0 {
		t.Errorf("the rebuild raised none of %v: nothing proven", attributedIDs())
	}
}

func attributedIDs() []string {
	var ids []string
	for id := range attributedRules {
		ids = append(ids, id)
	}
	return ids
}

func itoa(n int) string { return strconv.Itoa(n) }
