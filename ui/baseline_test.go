package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/snaptest"
	"github.com/mytop-go/mytop-go/snapshot"
)

// TestHealthyWindowThenDiff drives h, h, D through the dashboard's own
// key path over frames as a replay sends them.
func TestHealthyWindowThenDiff(t *testing.T) {
	d := New(Options{})
	at := time.Date(2026, 12, 3, 14, 0, 0, 0, time.UTC)
	var frames snaptest.Framer
	var questions int
	send := func(n, perSec int, cacheType string) {
		for range n {
			at = at.Add(time.Second)
			questions += perSec
			s := &snapshot.Snapshot{Time: at, Status: map[string]string{"Questions": fmt.Sprint(questions)},
				Variables: map[string]string{"query_cache_type": cacheType}}
			d.Update(frames.Next(s))
		}
	}
	if got := d.base.diffText(); !strings.Contains(got, "No healthy window yet") {
		t.Errorf("before h: %q", got)
	}
	send(3, 100, "OFF")
	d.keys["h"].run()
	send(20, 100, "OFF")
	d.keys["h"].run()
	if !strings.Contains(d.status, "healthy window marked: 21 frames") {
		t.Errorf("status after the second h: %q", d.status)
	}
	send(20, 5000, "ON")
	text := d.base.diffText()
	for _, want := range []string{"variable query_cache_type: OFF → ON", "status Questions per second: 100 → 5000 (×50)", "healthy  14:00:03 .. 14:00:23 (21 frames)"} {
		if !strings.Contains(text, want) {
			t.Errorf("D lacks %q:\n%s", want, text)
		}
	}
	at = at.Add(-time.Hour) // a seek back starts "now" again
	send(1, 5000, "ON")
	if got := d.base.diffText(); !strings.Contains(got, "Not enough frames") {
		t.Errorf("after a seek back: %q", got)
	}
}
