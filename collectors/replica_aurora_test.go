package collectors

import (
	"reflect"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Rows as the Aurora User Guide shows replica_host_status: a writer and two
// readers, one 2.5 s behind.
var auroraInstances = []map[string]string{
	{"SERVER_ID": "db-writer-1", "SESSION_ID": "MASTER_SESSION_ID", "REPLICA_LAG_IN_MILLISECONDS": "0"},
	{"SERVER_ID": "db-reader-1", "SESSION_ID": "b3bcd2c1-5ba1-4e0f-9f3c-2a6b1f1c1f0e", "REPLICA_LAG_IN_MILLISECONDS": "19.2"},
	{"SERVER_ID": "db-reader-2", "SESSION_ID": "0e2a1c1f-9f3c-4e0f-5ba1-b3bcd2c1a6b1", "REPLICA_LAG_IN_MILLISECONDS": "2513.75"},
}

func TestAuroraReaderLagReadsAsAChannel(t *testing.T) {
	row := auroraChannel(auroraInstances, "db-reader-2")
	want := map[string]string{
		"Channel_Name": "aurora", "Source_Host": "db-writer-1",
		"Replica_IO_Running": "Yes", "Replica_SQL_Running": "Yes",
		"Seconds_Behind_Source": "2", "Aurora_Replica_Lag_Ms": "2513.75",
	}
	if !reflect.DeepEqual(row, want) {
		t.Fatalf("reader row %v, want %v", row, want)
	}
	ch := snapshot.DecodeChannel(row)
	if ch.Behind != 2 || !ch.BehindKnown || ch.Source != "db-writer-1" || ch.IORunning != "Yes" {
		t.Errorf("decoded %+v", ch)
	}
	if got := auroraChannel(auroraInstances, "db-writer-1"); got != nil {
		t.Errorf("the writer is no replica: %v", got)
	}
	if got := auroraChannel(auroraInstances, "db-reader-9"); got != nil {
		t.Errorf("an instance without its row: %v", got)
	}
	if !isAurora(map[string]string{"aurora_server_id": "db-reader-2"}) || isAurora(map[string]string{"version": "10.11"}) {
		t.Error("isAurora reads aurora_server_id")
	}
}
