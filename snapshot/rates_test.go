package snapshot

import (
	"math"
	"strconv"
	"testing"
	"time"
)

func snap(at time.Time, status map[string]string) *Snapshot {
	return &Snapshot{Time: at, Status: status}
}

func TestDeltaStatus(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 4, 0, 0, 0, time.UTC)
	cases := []struct {
		name      string
		prev, cur map[string]string
		secs      float64
		want      map[string]float64
		absent    []string
		reset     bool
	}{
		{
			name: "plain counters",
			prev: map[string]string{"Uptime": "100", "Questions": "1000", "Com_select": "10"},
			cur:  map[string]string{"Uptime": "102", "Questions": "1300", "Com_select": "30"},
			secs: 2,
			want: map[string]float64{"Questions": 150, "Com_select": 10},
		},
		{
			name:   "restart: uptime went down, no rates at all",
			prev:   map[string]string{"Uptime": "100000", "Questions": "99999999"},
			cur:    map[string]string{"Uptime": "3", "Questions": "12"},
			secs:   1,
			absent: []string{"Questions"},
			reset:  true,
		},
		{
			// Unreachable for an hour; restarted 50 minutes ago, so its
			// Uptime (3,000 s) passed the last one read (1,000 s).
			name:   "a restart across a gap: Uptime grew less than the gap",
			prev:   map[string]string{"Uptime": "1000", "Questions": "5000000"},
			cur:    map[string]string{"Uptime": "3000", "Questions": "5200000"},
			secs:   3600,
			absent: []string{"Questions"},
			reset:  true,
		},
		{
			name: "a long gap in one lifetime",
			prev: map[string]string{"Uptime": "1000", "Questions": "5000000"},
			cur:  map[string]string{"Uptime": "4600", "Questions": "5360000"},
			secs: 3600,
			want: map[string]float64{"Questions": 100},
		},
		{
			name:   "FLUSH STATUS: one counter went back, others kept",
			prev:   map[string]string{"Uptime": "100", "Questions": "500", "Com_select": "400"},
			cur:    map[string]string{"Uptime": "101", "Questions": "510", "Com_select": "2"},
			secs:   1,
			want:   map[string]float64{"Questions": 10},
			absent: []string{"Com_select"},
			reset:  true,
		},
		{
			name:   "a gauge going down is not a reset",
			prev:   map[string]string{"Uptime": "100", "Threads_running": "40"},
			cur:    map[string]string{"Uptime": "101", "Threads_running": "3"},
			secs:   1,
			absent: []string{"Threads_running"},
		},
		{
			name: "the mean row-lock wait falling under a hot row is not a reset",
			prev: map[string]string{"Uptime": "100", "Innodb_row_lock_time_avg": "9", "Innodb_row_lock_waits": "10"},
			cur:  map[string]string{"Uptime": "101", "Innodb_row_lock_time_avg": "3", "Innodb_row_lock_waits": "6000"},
			secs: 1,
			want: map[string]float64{"Innodb_row_lock_waits": 5990},
		},
		{
			name: "Aria's page cache emptying under on-disk temporary tables is not a reset",
			prev: map[string]string{"Uptime": "100", "Aria_pagecache_blocks_unused": "15637",
				"Aria_pagecache_blocks_not_flushed": "3", "Created_tmp_disk_tables": "100"},
			cur: map[string]string{"Uptime": "101", "Aria_pagecache_blocks_unused": "15634",
				"Aria_pagecache_blocks_not_flushed": "0", "Created_tmp_disk_tables": "116"},
			secs: 1,
			want: map[string]float64{"Created_tmp_disk_tables": 16},
		},
		{
			name:   "non-numeric values are skipped",
			prev:   map[string]string{"Uptime": "100", "Ssl_cipher": "", "Rpl_status": "AUTH_MASTER"},
			cur:    map[string]string{"Uptime": "101", "Ssl_cipher": "", "Rpl_status": "AUTH_MASTER"},
			secs:   1,
			absent: []string{"Ssl_cipher", "Rpl_status"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Delta(snap(t0, c.prev), snap(t0.Add(time.Duration(c.secs*float64(time.Second))), c.cur))
			if r == nil {
				t.Fatal("nil rates")
			}
			if r.Reset != c.reset {
				t.Errorf("Reset = %v, want %v", r.Reset, c.reset)
			}
			for k, v := range c.want {
				if got, ok := r.Rate(k); !ok || math.Abs(got-v) > 1e-9 {
					t.Errorf("%s = %v (%v), want %v", k, got, ok, v)
				}
			}
			for _, k := range c.absent {
				if got, ok := r.Rate(k); ok {
					t.Errorf("%s = %v, want absent", k, got)
				}
			}
		})
	}
}

func TestDeltaNeedsForwardTime(t *testing.T) {
	t0 := time.Now()
	s := snap(t0, map[string]string{"Questions": "1"})
	if Delta(nil, s) != nil || Delta(s, nil) != nil {
		t.Error("want nil without two snapshots")
	}
	if Delta(s, snap(t0, s.Status)) != nil {
		t.Error("want nil for zero interval")
	}
	if Delta(s, snap(t0.Add(-time.Second), s.Status)) != nil {
		t.Error("want nil for time going backwards")
	}
}

func TestDeltaHost(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 4, 0, 0, 0, time.UTC)
	prev := &Host{
		CPU:             CPUTimes{User: 100, System: 20, Idle: 800, IOWait: 10},
		ContextSwitches: 1000, SwapInPages: 5, SwapOutPages: 7,
		Disks: []DiskCounters{{Name: "sda", Reads: 100, Writes: 50, ReadTimeMS: 1000, WriteMS: 500, IOTimeMS: 10000, WeightedIOMS: 20000}},
	}
	cur := &Host{
		CPU:             CPUTimes{User: 130, System: 30, Idle: 850, IOWait: 20},
		ContextSwitches: 3000, SwapInPages: 5, SwapOutPages: 27,
		Disks: []DiskCounters{
			{Name: "sda", Reads: 300, Writes: 150, ReadTimeMS: 3000, WriteMS: 2500, IOTimeMS: 11200, WeightedIOMS: 24000},
			{Name: "sdb", Reads: 1},
		},
	}
	r := Delta(&Snapshot{Time: t0, Host: prev}, &Snapshot{Time: t0.Add(2 * time.Second), Host: cur})
	h := r.Host
	if h == nil {
		t.Fatal("no host rates")
	}
	// 100 cpu-seconds passed: 30 user, 10 sys, 50 idle, 10 iowait.
	if h.CPU.User != 30 || h.CPU.System != 10 || h.CPU.Idle != 50 || h.CPU.IOWait != 10 {
		t.Errorf("cpu = %+v", h.CPU)
	}
	if h.ContextSwitches != 1000 || h.SwapOut != 10 || h.SwapIn != 0 {
		t.Errorf("cs=%v swap in=%v out=%v", h.ContextSwitches, h.SwapIn, h.SwapOut)
	}
	if len(h.Disks) != 1 {
		t.Fatalf("disks = %+v, want only sda (sdb has no previous sample)", h.Disks)
	}
	d := h.Disks[0]
	// 300 I/Os in 2 s; 4000 ms of I/O time over 300 I/Os; 1200 ms busy in 2 s.
	if d.ReadsPerSec != 100 || d.WritesPerSec != 50 || math.Abs(d.AwaitMS-4000.0/300) > 1e-9 || d.UtilPercent != 60 || d.QueueDepth != 2 {
		t.Errorf("disk = %+v", d)
	}
}

func TestDeltaHostCounterWrapIsDropped(t *testing.T) {
	t0 := time.Now()
	prev := &Host{Disks: []DiskCounters{{Name: "sda", Reads: 1000}}}
	cur := &Host{Disks: []DiskCounters{{Name: "sda", Reads: 10}}}
	r := Delta(&Snapshot{Time: t0, Host: prev}, &Snapshot{Time: t0.Add(time.Second), Host: cur})
	if len(r.Host.Disks) != 0 {
		t.Errorf("want wrapped disk dropped, got %+v", r.Host.Disks)
	}
}

func TestDeltaRemoteHostHasNoRates(t *testing.T) {
	t0 := time.Now()
	r := Delta(&Snapshot{Time: t0, Host: &Host{Remote: true}}, &Snapshot{Time: t0.Add(time.Second), Host: &Host{Remote: true}})
	if r.Host != nil {
		t.Error("remote host must give no rates")
	}
}

// An unchanged value's rate is what parsing it would give: 0 for a number,
// nothing for text, including the forms ParseFloat reads that are no plain
// decimal (inf, NaN, exponents).
func TestStatusRatesUnchangedValues(t *testing.T) {
	vals := map[string]string{"a": "42", "b": "-3.5", "c": "0", "d": "ON", "e": "inf", "f": "1e3",
		"g": "NaN", "h": ".", "i": "-", "j": "1.2.3", "k": ""}
	var reset bool
	got := statusRates(vals, vals, 1, &reset)
	for name, v := range vals {
		c, err := strconv.ParseFloat(v, 64)
		want, wantOK := c-c, err == nil
		r, ok := got[name]
		if ok != wantOK || ok && !(r == want || r != r && want != want) {
			t.Errorf("%s=%q: rate %v %v, want %v %v", name, v, r, ok, want, wantOK)
		}
	}
}
