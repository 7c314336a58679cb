package baseline

import "testing"

// A client is called new only when the normal had none of its sessions; one
// that was always there and now holds most of them (its backlog flooding in)
// is named with its share before and after.
func TestWorkloadSpikeSaysNewOnlyOfANewClient(t *testing.T) {
	host := func(name string, med, cur float64) moved {
		g := newSignal(spec{name: prefixHost + name, kind: kClientHost, dir: up})
		g.med, g.cur = med, cur
		return moved{g: g, z: 9, key: true}
	}
	for _, c := range []struct {
		name string
		ms   []moved
		want string
	}{
		{"a host the normal never saw", []moved{host("10.0.0.9", 0, 60)},
			"workload spike from a new client host: 10.0.0.9"},
		{"the usual host's backlog", []moved{host("10.77.102.2", 12, 80)},
			"workload spike from client host 10.77.102.2 (12 % of sessions -> 80 %)"},
		{"a host there but rarely active", []moved{host("10.77.40.2", 1, 17)},
			"workload spike from client host 10.77.40.2 (1 % of sessions -> 17 %)"},
		{"both", []moved{host("10.0.0.9", 0, 30), host("10.77.102.2", 12, 50)},
			"workload spike from client host 10.77.102.2 (12 % of sessions -> 50 %); new: 10.0.0.9"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tl := &told{ms: c.ms}
			tellWorkload(tl)
			if tl.title != c.want {
				t.Errorf("title %q, want %q", tl.title, c.want)
			}
		})
	}
}
