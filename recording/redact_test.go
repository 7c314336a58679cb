package recording

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestRedactLeavesNoLiteralInFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.mytop")
	w, err := Create(path, WriterOptions{Redact: true, KeyframeEvery: 10})
	if err != nil {
		t.Fatal(err)
	}
	srv := newFakeServer(t, 5, 100)
	var frames []*snapshot.Frame
	for i := range 40 {
		f := srv.frame(i)
		frames = append(frames, f)
		if err := w.Write(f); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	if len(srv.literals) < 100 {
		t.Fatalf("only %d literals generated", len(srv.literals))
	}
	// The caller's snapshots keep their text: the dashboard shows them.
	if !strings.Contains(frames[39].Snapshot.InnoDB.Raw, "lit") {
		t.Fatal("writer modified the caller's snapshot")
	}
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	decoded := decodedFrames(t, path)
	for _, lit := range srv.literals {
		if bytes.Contains(file, []byte(lit)) || bytes.Contains(decoded, []byte(lit)) {
			t.Fatalf("literal %s survived redaction", lit)
		}
	}
	if !bytes.Contains(decoded, []byte("WHERE customer_id = ? AND note = ?")) {
		t.Error("redacted statements should keep their shape")
	}
	if !bytes.Contains(file, []byte("reads 2.1M rows")) {
		t.Error("finding titles lost their own text")
	}
}

// decodedFrames returns every frame of the recording re-serialised.
func decodedFrames(t *testing.T, path string) []byte {
	t.Helper()
	r := openT(t, path)
	var all bytes.Buffer
	for i := range r.Len() {
		s, err := r.Snapshot(i)
		if err != nil {
			t.Fatal(err)
		}
		if s.InnoDB != nil && s.InnoDB.Raw != "" {
			t.Fatalf("frame %d keeps the raw InnoDB status", i)
		}
		json.NewEncoder(&all).Encode(s)
	}
	return all.Bytes()
}

func TestScrubQuotesHandlesTruncatedStatements(t *testing.T) {
	q := "UPDATE b SET c = 'secret-1' WHERE id = 4242"
	cases := map[string]string{
		"full: " + q:             "full: UPDATE b SET c = ? WHERE id = ?",
		"cut: " + q[:30] + "...": "cut: UPDATE b SET c = ? WH...",
		"17 threads wait":        "17 threads wait",
	}
	for in, want := range cases {
		if got := scrubQuotes(in, []quote{{q, snapshot.TextStatement}}); got != want {
			t.Errorf("scrubQuotes(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedactedCoversEveryQueryField(t *testing.T) {
	s := &snapshot.Snapshot{
		Processlist: []snapshot.Process{{Info: "SELECT 'p1'"}},
		InnoDB: &snapshot.InnoDBStatus{Raw: "x 'r1'", LatestDeadlock: "DELETE FROM t WHERE a = 'd1'",
			Transactions: snapshot.InnoDBTransactions{Trx: []snapshot.InnoDBTrx{{Query: "SELECT 't1'"}}}},
		Explains: map[string]*snapshot.Explain{"f": {Statement: "SELECT 'e1'", Error: "near 'e2'"}},
		Replica:  map[string]string{"Last_SQL_Error": "Query: 'INSERT INTO t VALUES (\"s1\")'", "Master_Host": "m1"},
		ReplicaChannels: []map[string]string{{"Connection_name": "b",
			"Last_SQL_Error": "Duplicate entry 'c1' for key 'PRIMARY'"}},
		PreparedOwners: []snapshot.PreparedOwner{{ThreadID: 7, User: "u", Sample: "SELECT ? FROM t WHERE a = 'o1'"}},
	}
	out, _ := json.Marshal(redacted(s))
	for _, lit := range []string{"p1", "r1", "d1", "t1", "e1", "e2", "s1", "c1", "o1"} {
		if bytes.Contains(out, []byte(lit)) {
			t.Errorf("%s survived: %s", lit, out)
		}
	}
	if !bytes.Contains(out, []byte("m1")) {
		t.Error("non-query replica fields must stay")
	}
	orig, _ := json.Marshal(s)
	for _, lit := range []string{"p1", "r1", "d1", "t1", "e1", "s1"} {
		if !bytes.Contains(orig, []byte(lit)) {
			t.Errorf("original lost %s", lit)
		}
	}
}
