package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/analyzers"
	"github.com/mytop-go/mytop-go/baseline"
	"github.com/mytop-go/mytop-go/fleet"
)

// TestServeKeepsBaselines: serve --record restores each member's baseline
// from the directory into the engine its builder runs, and names a damaged
// file in one line.
func TestServeKeepsBaselines(t *testing.T) {
	dir := t.TempDir()
	k := &baseline.Keeper{Dir: dir}
	if err := k.Save("db1:3306", baseline.New(baseline.DefaultConfig()), time.Now(), true); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(k.Path("db2:3306"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	members := []fleet.Member{{Name: "db1:3306", Builder: liveBuilder()}, {Name: "db2:3306", Builder: liveBuilder()}}
	var log strings.Builder
	_, trackers := keptBaselines(dir, members, &log)
	if len(trackers) != 2 || trackers["db1:3306"] != members[0].Builder.Analyzer().(*analyzers.Engine).Baseline() {
		t.Errorf("trackers %v are not the engines' baselines", trackers)
	}
	if strings.Count(log.String(), "\n") != 1 || !strings.Contains(log.String(), "db2_3306.baseline.json") {
		t.Errorf("want one line naming the damaged file, got %q", log.String())
	}
}
