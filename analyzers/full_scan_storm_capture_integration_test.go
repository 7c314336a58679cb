package analyzers

import (
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/internal/testfiles"
)

// TestMakeScanStormCaptures makes the two captures again:
//
//	MYTOP_CAPTURE_SCANS=1 go test -count=1 -run TestMakeScanStormCaptures ./analyzers/
func TestMakeScanStormCaptures(t *testing.T) {
	// Serial: run by hand to write testdata, with the machine to itself.
	if os.Getenv("MYTOP_CAPTURE_SCANS") == "" {
		t.Skip("makes testdata/mysqladmin-scans again with MYTOP_CAPTURE_SCANS=1")
	}
	admin := testdb.Tool(t, "mariadb-client", "mariadb-admin", "mysqladmin")
	dump := testdb.Tool(t, "mariadb-client", "mariadb-dump", "mysqldump")
	for _, storm := range []bool{true, false} {
		testdb.Heavy(t)
		srv := testdb.Start(t)
		srv.ExecHeavy(t, "CREATE DATABASE app",
			"CREATE TABLE app.users (id INT PRIMARY KEY, email VARCHAR(100), name VARCHAR(50), KEY email (email))",
			"INSERT INTO app.users SELECT seq, CONCAT('u', seq, '@example.com'), CONCAT('user ', seq) "+
				"FROM seq.seq_1_to_200000",
			"CREATE TABLE app.small (id INT PRIMARY KEY, code VARCHAR(10), v INT)",
			"INSERT INTO app.small SELECT seq, CONCAT('c', seq), seq FROM seq.seq_1_to_50")
		db := srv.DB(t)
		w := newWorkload(t)
		w.clients(db, 4, 0, func(r *rand.Rand) string {
			return fmt.Sprintf("SELECT id, name FROM app.users WHERE email = 'u%d@example.com'", 1+r.IntN(200000))
		})
		name := "storm.txt"
		if !storm {
			name = "quiet.txt"
		}
		out := filepath.Join(t.TempDir(), name)
		f, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(admin, "--no-defaults", "-S", srv.Socket, "-uroot", "ext", "-i1", "-c", "30")
		cmd.Stdout = f
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if storm {
			time.Sleep(8 * time.Second)
			srv.Exec(t, "ALTER TABLE app.users DROP INDEX email")
		} else {
			// Indexed lookups alone, then a dump again and again beside
			// them, then scans of a small table as well.
			time.Sleep(10 * time.Second)
			dumps(w, dump, srv.Socket)
			time.Sleep(10 * time.Second)
			w.clients(db, 2, 0, func(r *rand.Rand) string {
				return fmt.Sprintf("SELECT id FROM app.small WHERE code = 'c%d'", 1+r.IntN(50))
			})
		}
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		w.stop()
		srv.Stop(t)
		gz(t, out, filepath.Join(scanCaptures, name+".gz"))
	}
}

// dumps runs mariadb-dump of app.users again and again until w stops.
func dumps(w *workload, bin, socket string) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		for w.ctx.Err() == nil {
			cmd := exec.CommandContext(w.ctx, bin, "--no-defaults", "-S", socket, "-uroot", "--single-transaction",
				"app", "users")
			cmd.Stdout = io.Discard
			if err := cmd.Run(); err != nil && w.ctx.Err() == nil {
				w.t.Logf("mariadb-dump: %v", err)
				return
			}
		}
	}()
}

func gz(t *testing.T, from, to string) {
	t.Helper()
	raw, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	if _, err := zw.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes, %d gzipped", to, len(raw), testfiles.Size(to))
}
