package main

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestEverySourceAnswered(t *testing.T) {
	frame := func(states map[snapshot.CollectorName]snapshot.CollectorState) *snapshot.Frame {
		return &snapshot.Frame{Snapshot: &snapshot.Snapshot{Collectors: states}}
	}
	read := snapshot.CollectorState{}
	skipped := snapshot.CollectorState{Stale: true, Error: "not read: too little of the tick left"}
	refused := snapshot.CollectorState{Unavailable: "needs the PROCESS privilege"}
	cases := []struct {
		name   string
		frames []*snapshot.Frame
		want   bool
	}{
		{"all read", []*snapshot.Frame{frame(map[snapshot.CollectorName]snapshot.CollectorState{"status": read, "innodb": read})}, true},
		{"a source skipped for time in every frame", []*snapshot.Frame{
			frame(map[snapshot.CollectorName]snapshot.CollectorState{"status": read, "innodb": skipped}),
			frame(map[snapshot.CollectorName]snapshot.CollectorState{"status": read, "innodb": skipped})}, false},
		{"skipped, then read", []*snapshot.Frame{
			frame(map[snapshot.CollectorName]snapshot.CollectorState{"innodb": skipped}),
			frame(map[snapshot.CollectorName]snapshot.CollectorState{"innodb": read})}, true},
		{"refused is an answer", []*snapshot.Frame{frame(map[snapshot.CollectorName]snapshot.CollectorState{"processlist": refused})}, true},
	}
	for _, c := range cases {
		if got := everySourceAnswered(c.frames); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
