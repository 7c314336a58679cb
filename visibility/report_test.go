package visibility

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A frame as the collectors and engine leave it for a user without PROCESS.
func frameWithoutProcess() *snapshot.Frame {
	return &snapshot.Frame{
		Snapshot: &snapshot.Snapshot{
			Server: snapshot.ServerInfo{Address: "/tmp/s.sock", Version: "10.11.19-MariaDB", Flavor: snapshot.FlavorMariaDB},
			Collectors: map[snapshot.CollectorName]snapshot.CollectorState{
				snapshot.CollectorStatus:      {},
				snapshot.CollectorProcesslist: {Unavailable: "only your own threads are visible: needs the PROCESS privilege"},
				snapshot.CollectorInnoDB:      {Unavailable: "needs the PROCESS privilege"},
			},
		},
		NotApplicable: map[string]string{
			"long_transaction":       "innodb collector unavailable: needs the PROCESS privilege",
			"full_scan_update":       "processlist collector unavailable: only your own threads are visible: needs the PROCESS privilege",
			"metadata_lock_pileup":   "processlist collector unavailable: only your own threads are visible: needs the PROCESS privilege",
			"replication_lag":        "not a replica",
			"innodb_thread_queue":    "server does not print \"queries in queue\"",
			"buffer_pool_wait_free":  "no previous sample",
			"galera_cluster_shrunk ": "not a Galera node",
		},
	}
}

func TestBuildPutsRulesOnTheSourceThatBlindsThem(t *testing.T) {
	r := Build([]*snapshot.Frame{frameWithoutProcess()}, Account{User: "'w'@'localhost'"}, []Spot{{Source: srcKill, Why: "no KILL"}})
	if !r.BlindToRules() {
		t.Fatal("a user without PROCESS is blind to rules")
	}
	if want := []string{"full_scan_update", "long_transaction", "metadata_lock_pileup"}; !reflect.DeepEqual(r.RulesBlind, want) {
		t.Errorf("rules blind %v, want %v (a rule that is not applicable for another reason is no blind spot)", r.RulesBlind, want)
	}
	if want := []string{"status"}; !reflect.DeepEqual(r.Sees, want) {
		t.Errorf("sees %v, want %v", r.Sees, want)
	}
	if len(r.Blind) != 3 || r.Blind[0].Source != "processlist" || r.Blind[2].Source != srcKill {
		t.Fatalf("blind spots not ordered by the rules they stop: %+v", r.Blind)
	}
	for _, s := range r.Blind {
		if s.Fix == "" || len(s.Panels) == 0 {
			t.Errorf("%s has no fix or no panel: %+v", s.Source, s)
		}
	}
	if r.Account.Flavor != snapshot.FlavorMariaDB {
		t.Errorf("flavor not taken from the frame: %+v", r.Account)
	}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"GRANT PROCESS ON *.* TO 'w'@'localhost';", "rules:  full_scan_update, metadata_lock_pileup", "blind spots: 3; rules that cannot run: 3"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

func TestBuildWithNothingMissing(t *testing.T) {
	f := &snapshot.Frame{Snapshot: &snapshot.Snapshot{Collectors: map[snapshot.CollectorName]snapshot.CollectorState{
		snapshot.CollectorStatus: {}, snapshot.CollectorProcesslist: {Error: "timeout"},
	}}}
	r := Build([]*snapshot.Frame{f}, Account{}, nil)
	if r.BlindToRules() || len(r.Blind) != 0 {
		t.Errorf("nothing is missing, yet %+v", r)
	}
	if !reflect.DeepEqual(r.Sees, []string{"status"}) {
		t.Errorf("a source that failed this tick is not seen: %v", r.Sees)
	}
}
