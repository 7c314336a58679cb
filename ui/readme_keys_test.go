package ui

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReadmeListsExactlyTheHelpKeys keeps the README's Keys table and the
// help screen from drifting apart: the same keys, no more, no fewer.
func TestReadmeListsExactlyTheHelpKeys(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := regexp.MustCompile(`(?s)\n## Keys\n(.*?)\n## `).FindSubmatch(b)
	if section == nil {
		t.Fatal("README has no Keys section")
	}
	var readme []string
	for _, line := range strings.Split(string(section[1]), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 || !strings.HasPrefix(line, "| `") {
			continue
		}
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(cells[1], -1) {
			readme = append(readme, m[1])
		}
	}
	d := New(Options{Actions: &fakeActions{}, Player: &fakePlayer{}, Recorder: &fakeRecorder{}, Login: &fakeLogin{}})
	var help []string
	for _, bnd := range d.bindings {
		help = append(help, bnd.keys...)
	}
	help = append(help, "↑", "↓", "PgUp", "PgDn", "Home", "End")
	slices.Sort(readme)
	slices.Sort(help)
	if !slices.Equal(readme, help) {
		t.Errorf("README keys %q\nhelp keys   %q", readme, help)
	}
}
