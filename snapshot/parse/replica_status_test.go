package parse

import (
	"os"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestMySQL8ChannelsFromCapturedText(t *testing.T) {
	raw, err := os.ReadFile("testdata/mysql8-replica-status-2-channels.txt")
	if err != nil {
		t.Fatal(err)
	}
	samples, errs := ParseReplicaStatusSamples(string(raw))
	if len(errs) != 0 || len(samples) != 1 || len(samples[0].Rows) != 2 {
		t.Fatalf("samples %+v errs %v", samples, errs)
	}
	s := &snapshot.Snapshot{ReplicaChannels: samples[0].Rows}
	chans := s.Channels()
	east, west := chans[0], chans[1]
	if east.Name != "east" || east.Source != "10.0.0.11:3306" || !east.IOOK() || !east.SQLOK() {
		t.Errorf("east %+v", east)
	}
	if lag, ok := east.Lag(); !ok || lag != 0 {
		t.Errorf("east lag %d %v", lag, ok)
	}
	if east.GTIDApplied != "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-510" || east.RelayLogSpace != 2602 {
		t.Errorf("east positions %+v", east)
	}
	if west.SQLOK() || !west.IOOK() || west.LastSQLErrno != 1062 || !strings.Contains(west.LastSQLError, "Duplicate entry '7'") {
		t.Errorf("west %+v", west)
	}
	if _, ok := west.Lag(); ok {
		t.Error("a NULL Seconds_Behind_Source reads as known")
	}
	if west.Delay != 3600 || west.Label() != "channel 'west'" {
		t.Errorf("west delay %d label %q", west.Delay, west.Label())
	}
}

func TestPtStalkSlaveStatusSamples(t *testing.T) {
	raw, err := os.ReadFile("testdata/ptstalk-slave-status-mariadb.txt")
	if err != nil {
		t.Fatal(err)
	}
	samples, errs := ParseReplicaStatusSamples(string(raw))
	if len(errs) != 0 || len(samples) != 3 {
		t.Fatalf("%d samples, errs %v", len(samples), errs)
	}
	if len(samples[0].Rows) != 0 {
		t.Errorf("an empty output is a sample without channels: %+v", samples[0])
	}
	first := snapshot.DecodeChannel(samples[1].Rows[0])
	if lag, _ := first.Lag(); lag != 42 || first.GTIDFetched != "0-1-300" || first.ParallelMode != "optimistic" ||
		first.Label() != "default channel" {
		t.Errorf("first %+v", first)
	}
	stopped := snapshot.DecodeChannel(samples[2].Rows[0])
	if stopped.SQLOK() || stopped.LastSQLErrno != 1032 || !strings.Contains(stopped.LastSQLError, "HA_ERR_KEY_NOT_FOUND") {
		t.Errorf("a multi-line error lost its continuation: %+v", stopped)
	}
}

func TestReplicaStatusWithTSMarkersAndJunk(t *testing.T) {
	text := "TS 1764583111.005 2026-12-01 10:00:00\n*************************** 1. row ***************************\n" +
		"Slave_IO_Running: Yes\nTS 1764583112.005 2026-12-01 10:00:01\n"
	samples, errs := ParseReplicaStatusSamples(text)
	if len(samples) != 2 || len(samples[0].Rows) != 1 || !strings.HasPrefix(samples[1].Marker, "TS 1764583112") {
		t.Errorf("samples %+v", samples)
	}
	if len(errs) != 0 {
		t.Errorf("errs %v", errs)
	}
	_, errs = ParseReplicaStatusSamples("garbage before any row\n")
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "line 1") {
		t.Errorf("junk: %v", errs)
	}
}

// FuzzReplicaStatusSamples: any text parses without panicking and every row
// it yields decodes into a channel.
func FuzzReplicaStatusSamples(f *testing.F) {
	for _, name := range []string{"testdata/mysql8-replica-status-2-channels.txt", "testdata/ptstalk-slave-status-mariadb.txt"} {
		if raw, err := os.ReadFile(name); err == nil {
			f.Add(string(raw))
		}
	}
	f.Add("TS 1 x\n*** 1. row ***\nSlave_IO_Running: Yes\n  continued\n")
	f.Fuzz(func(t *testing.T, text string) {
		samples, _ := ParseReplicaStatusSamples(text)
		for _, s := range samples {
			for _, r := range s.Rows {
				c := snapshot.DecodeChannel(r)
				c.Lag()
				_ = c.Label() + c.Source
			}
		}
	})
}
