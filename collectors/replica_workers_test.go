package collectors

import (
	"os"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// MySQL's worker rows (workersStatement's output, written from the
// performance_schema.replication_applier_status_by_worker manual page) land
// in the channel rows of SHOW REPLICA STATUS captured for two channels.
func TestWorkersJoinTheirChannel(t *testing.T) {
	raw, err := os.ReadFile("../snapshot/parse/testdata/mysql8-replica-status-2-channels.txt")
	if err != nil {
		t.Fatal(err)
	}
	samples, errs := parse.ParseReplicaStatusSamples(string(raw))
	if len(errs) != 0 || len(samples) != 1 {
		t.Fatalf("%v %v", samples, errs)
	}
	rows := samples[0].Rows
	addWorkers(rows, []map[string]string{
		{"CHANNEL_NAME": "east", "WORKERS": "4", "RUNNING": "4", "APPLYING": ""},
		{"CHANNEL_NAME": "west", "WORKERS": "4", "RUNNING": "3",
			"APPLYING": "9a2b51c4-71ca-11e1-9e33-c80aa9429563:77"},
		{"CHANNEL_NAME": "gone", "WORKERS": "2", "RUNNING": "0"},
	})
	s := &snapshot.Snapshot{ReplicaChannels: rows}
	east, west := s.Channels()[0], s.Channels()[1]
	if east.Workers != "4" || east.WorkersRunning != "4" || east.Applying != "" {
		t.Errorf("east %+v", east)
	}
	if west.WorkersRunning != "3" || west.Applying != "9a2b51c4-71ca-11e1-9e33-c80aa9429563:77" {
		t.Errorf("west %+v", west)
	}
	if len(rows) != 2 {
		t.Errorf("a worker row of no channel made a channel: %d rows", len(rows))
	}
}
