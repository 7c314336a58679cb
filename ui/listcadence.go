package ui

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// cadenceNote says in the processlist's title that the full list is read
// less often than every tick, and why: a read costs the server more than the
// monitor allows itself (snapshot.ListCadence). It is short enough to stay
// in an 80-column title. age says, on a frame whose rows are an earlier
// read's, how old they are; a running thread is never among them, since one
// makes the tick read the list in full.
func cadenceNote(s *snapshot.Snapshot) (note, age string) {
	c := s.ListCadence
	if c == nil {
		return "", ""
	}
	note = fmt.Sprintf("full list every %v: a read costs %v", c.Every.Round(time.Second), c.Cost.Round(100*time.Microsecond))
	if c.Carried(s.Time) {
		age = fmt.Sprintf("idle rows %v old", s.Time.Sub(c.FullAt).Round(time.Second))
	}
	return note, age
}
