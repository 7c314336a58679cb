package analyzers

import (
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/snapshot"
)

// TestEngineJudgesAgainstTheNormal: the engine, inside the pipeline's
// Builder, gives every frame its baseline's word, and a dump that starts
// after six minutes of steady work is named as routine work, with the tool
// the rules recognise, and dated at its start.
func TestEngineJudgesAgainstTheNormal(t *testing.T) {
	const start = 400
	steady := func(i int, s *snapshot.Snapshot) {
		rows := 20000 * i
		if i >= start {
			rows += 400000 * (i - start)
		}
		s.Status["Questions"] = fmt.Sprint(2000*i + (i%7)*37)
		s.Status["Innodb_rows_read"] = fmt.Sprint(rows + (i%5)*900)
		s.Status["Handler_read_rnd_next"] = fmt.Sprint(rows / 2)
		s.Status["Bytes_sent"] = fmt.Sprint(4000000 * i)
	}
	app := procs(query(1, 0.1, "Sending data", "SELECT c FROM sbtest1 WHERE id=5"),
		query(2, 0.1, "updating", "UPDATE sbtest1 SET k=k+1 WHERE id=7"))
	dump := during(start, start+60, procs(query(1, 0.1, "Sending data", "SELECT c FROM sbtest1 WHERE id=5"),
		query(2, 0.1, "updating", "UPDATE sbtest1 SET k=k+1 WHERE id=7"),
		query(3, 1, "Sending data", "SELECT /*!40001 SQL_NO_CACHE */ * FROM `sbtest1`")))
	b := pipeline.NewBuilder(snapshot.ModeReplay, NewEngine(DefaultConfig()))
	var named *snapshot.Onset
	for i, s := range series(start+30, steady, app, dump) {
		f := b.Add(s)
		if f.Normal == nil {
			t.Fatalf("frame %d has no word on its baseline", i)
		}
		if i < start && len(f.Onsets) > 0 {
			t.Fatalf("onset at %d before the dump: %+v", i, f.Onsets[0])
		}
		if named == nil && len(f.Onsets) > 0 {
			named = &f.Onsets[0]
			if i > start+10 {
				t.Errorf("named at %d s, the dump started at %d s", i, start)
			}
		}
	}
	if named == nil {
		t.Fatal("the dump was not named")
	}
	if named.Cause != snapshot.CauseRoutine || named.Title != "routine work started: mariadb-dump" {
		t.Errorf("first onset %q %q, want routine work by mariadb-dump", named.Cause, named.Title)
	}
	if d := named.At.Sub(t0).Seconds() - start; d < -5 || d > 5 {
		t.Errorf("onset dated %.1f s from the dump's start", d)
	}
}
