package snapshot

import (
	"strings"
	"testing"
)

// A thinned frame reads the same kept values as its status map gave, and
// nothing else; frames with the same names share one list of them.
func TestStatusKeeperKeepsWhatRulesRead(t *testing.T) {
	k := NewStatusKeeper([]string{"Uptime", "Com_select", "wsrep_cluster_size"})
	a := &Snapshot{Status: map[string]string{"Uptime": "10", "Com_select": "7", "Questions": "99"}}
	b := &Snapshot{Status: map[string]string{"Uptime": "11", "Com_select": "9", "Questions": "120"}}
	ka, kb := k.Keep(a), k.Keep(b)
	thin := &Snapshot{Kept: kb}
	if v, ok := thin.StatusInt("Com_select"); !ok || v != 9 {
		t.Errorf("Com_select of the thinned frame: %d, %v; want 9", v, ok)
	}
	if _, ok := thin.StatusValue("Questions"); ok {
		t.Error("a value not asked for was kept")
	}
	if _, ok := thin.StatusValue("wsrep_cluster_size"); ok {
		t.Error("a name the frame did not have reads as present")
	}
	if ka.names != kb.names || ka.Len() != 2 || len(kb.values) != len("\x0211\x019") {
		t.Errorf("frames with the same names: lists shared %v, %d values in %q", ka.names == kb.names, ka.Len(), kb.values)
	}
	if again := k.Keep(thin); again.Len() != 2 || !thin.HasStatus() {
		t.Error("a thinned frame thinned again lost its kept values")
	}
	if k.Keep(&Snapshot{}) != nil || (&Snapshot{}).HasStatus() {
		t.Error("a sample without status gained some")
	}
}

// Values of any length and content read back as kept, next to empty ones.
func TestKeptStatusValuesReadBack(t *testing.T) {
	long := strings.Repeat("x\x00\xff", 100)
	names := []string{"a", "empty", "long", "last"}
	st := map[string]string{"a": "1", "empty": "", "long": long, "last": "12345678901234567890"}
	kept := NewStatusKeeper(names).Keep(&Snapshot{Status: st})
	for _, name := range names {
		if v, ok := kept.Lookup(name); !ok || v != st[name] {
			t.Errorf("%s: %q, %v; want %q", name, v, ok, st[name])
		}
	}
}
