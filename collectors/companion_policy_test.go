package collectors

import (
	"testing"
	"time"
)

func TestCompanionPolicy(t *testing.T) {
	const ms = time.Millisecond
	type tick struct {
		n       int
		healthy bool
		reads   time.Duration
	}
	healthy := func(n int, reads time.Duration) tick { return tick{n, true, reads} }
	cases := []struct {
		name          string
		trouble       bool // trouble before the ticks
		ticks         []tick
		open, closing bool
	}{
		{"fast reads never pay", false, []tick{healthy(100, 3*ms)}, false, true},
		{"costly reads after a calm spell", false, []tick{healthy(30, 20*ms)}, true, false},
		{"costly reads, calm too short", false, []tick{healthy(29, 20*ms)}, false, false},
		{"just at the threshold", false, []tick{healthy(30, companionPays)}, true, false},
		{"median, not one spike", false, []tick{healthy(25, 3*ms), healthy(4, 200*ms), healthy(1, 3*ms)}, false, true},
		{"one tick in trouble restarts the calm", false, []tick{healthy(40, 20*ms), {1, false, 0}, healthy(29, 20*ms)}, false, false},
		{"one tick in trouble means the back-off", false, []tick{healthy(40, 20*ms), {1, false, 0}, healthy(200, 20*ms)}, false, false},
		{"after trouble, calm is not enough", true, []tick{healthy(60, 20*ms)}, false, false},
		{"after trouble, the back-off", true, []tick{healthy(300, 20*ms)}, true, false},
		{"between half and the threshold: keep, do not open", false, []tick{healthy(30, 10*ms)}, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newCompanionPolicy(time.Second)
			if c.trouble {
				p.observe(false, 0)
			}
			for _, tk := range c.ticks {
				for i := 0; i < tk.n; i++ {
					p.observe(tk.healthy, tk.reads)
				}
			}
			if got := p.wantOpen(); got != c.open {
				t.Errorf("wantOpen = %v, want %v (median %v, quiet %d)", got, c.open, p.median(), p.quiet)
			}
			if got := p.wantClose(); got != c.closing {
				t.Errorf("wantClose = %v, want %v (median %v)", got, c.closing, p.median())
			}
		})
	}
}

func TestCompanionPolicyOpenedForgetsTrouble(t *testing.T) {
	p := newCompanionPolicy(time.Second)
	p.observe(false, 0)
	p.opened()
	for i := 0; i < companionCalm; i++ {
		p.observe(true, 20*time.Millisecond)
	}
	if !p.wantOpen() {
		t.Error("after an open, the next one should need only the calm spell until trouble comes again")
	}
}

func TestCompanionBackoffScalesWithInterval(t *testing.T) {
	if p := newCompanionPolicy(time.Second); p.afterTrouble != 300 {
		t.Errorf("1 s: %d ticks, want 300 (5 minutes)", p.afterTrouble)
	}
	if p := newCompanionPolicy(time.Minute); p.afterTrouble != companionCalm {
		t.Errorf("1 min: %d ticks, want at least the calm spell %d", p.afterTrouble, companionCalm)
	}
}
