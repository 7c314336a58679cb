package snapshot

import "testing"

func TestOldRecordingsSingleReplicaRow(t *testing.T) {
	s := &Snapshot{Replica: map[string]string{"Slave_IO_Running": "Connecting", "Slave_SQL_Running": "Yes",
		"Seconds_Behind_Master": "", "Last_IO_Errno": "2003"}}
	chans := s.Channels()
	if len(chans) != 1 || chans[0].IOOK() {
		t.Errorf("connecting after error 2003 reads as running: %+v", chans)
	}
	if len((&Snapshot{}).Channels()) != 0 {
		t.Error("a server that is no replica has channels")
	}
}
