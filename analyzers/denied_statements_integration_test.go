package analyzers

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
)

// TestIntegrationDeniedStatementsAreNoLogins: an application account, logged
// in once, selects a table it has no privilege on as fast as it can.
// MariaDB counts every refusal in Access_denied_errors, as it counts refused
// logins; no login fails, so connection_errors says nothing.
func TestIntegrationDeniedStatementsAreNoLogins(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	appAccount(t, srv)
	srv.Exec(t, "CREATE TABLE shop.items (id INT PRIMARY KEY)", "CREATE DATABASE hr",
		"CREATE TABLE hr.salaries (id INT PRIMARY KEY, pay INT)")
	db, err := sql.Open("mysql", fmt.Sprintf("app:right@tcp(%s)/shop?timeout=2s", srv.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(2)
	w := newWorkload(t)
	frames := watch(t, srv, load(w, func() {
		for range 2 {
			w.wg.Add(1)
			go func() {
				defer w.wg.Done()
				for w.ctx.Err() == nil {
					db.ExecContext(w.ctx, "SELECT pay FROM hr.salaries WHERE id = 1") // refused: error 1142
					time.Sleep(5 * time.Millisecond)
				}
			}()
		}
	}), runFor(25*time.Second)).frames
	for _, f := range frames {
		if x := findingIn(f, IDConnectionErrors); x != nil {
			t.Errorf("frame %d: %s/%s: %s\n%s", f.Seq, x.ID, x.Severity, x.Title, strings.Join(x.Evidence, "\n"))
		}
	}
	last := frames[len(frames)-1]
	denied, _ := last.Rates.Rate("Access_denied_errors")
	aborted, _ := last.Rates.Rate("Aborted_connects")
	t.Logf("Access_denied_errors %.0f/s, Aborted_connects %.0f/s", denied, aborted)
	// The premise is refusals far above what the rule would warn of were
	// they logins (10x its 3/s). On a quiet machine the two clients get
	// some 300 a second; a loaded full run gave them 92.
	if floor := 10 * DefaultConfig().ConnRefusedPerSecWarn; denied < floor {
		t.Errorf("only %.0f statements refused a second, under %.0f: the workload did not run", denied, floor)
	}
}
