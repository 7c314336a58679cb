package analyzers

import (
	"os"
	"strings"
	"testing"
	"time"
)

// autoIncStatus is SHOW ENGINE INNODB STATUS of the AUTO-INC incident on
// MariaDB 10.11 (innodb_autoinc_lock_mode=0: two copies into app.dst and 12
// single-row inserters), as the server prints it by default and with
// innodb_status_output_locks=ON, made by TestMakeAutoIncStatusCaptures.
const autoIncStatus = "../snapshot/parse/testdata/innodb-status/mariadb-10.11-autoinc-queue"

// TestMakeAutoIncStatusCaptures makes the two status captures again:
//
//	MYTOP_CAPTURE_AUTOINC=1 go test -count=1 -run TestMakeAutoIncStatusCaptures ./analyzers/
func TestMakeAutoIncStatusCaptures(t *testing.T) {
	// Serial: run by hand to write testdata, with the machine to itself.
	if os.Getenv("MYTOP_CAPTURE_AUTOINC") == "" {
		t.Skip("makes " + autoIncStatus + "*.txt again with MYTOP_CAPTURE_AUTOINC=1")
	}
	srv := autoIncServer(t, "0")
	db := srv.DB(t)
	autoIncLoad(newWorkload(t), db)
	for _, locks := range []string{"OFF", "ON"} {
		srv.Exec(t, "SET GLOBAL innodb_status_output_locks = "+locks)
		var text string
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			var typ, name string
			if err := db.QueryRow("SHOW ENGINE INNODB STATUS").Scan(&typ, &name, &text); err != nil {
				t.Fatal(err)
			}
			if strings.Count(text, "lock mode AUTO-INC waiting") >= 12 {
				break
			}
		}
		if n := strings.Count(text, "lock mode AUTO-INC waiting"); n < 12 {
			t.Fatalf("locks %s: %d AUTO-INC waits", locks, n)
		}
		out := autoIncStatus + ".txt"
		if locks == "ON" {
			out = autoIncStatus + "-lock-lists.txt"
		}
		if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes", out, len(text))
	}
}
