package report

import (
	"sort"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Summary is one key series over the period.
type Summary struct {
	Name   string  `json:"name"`
	Unit   string  `json:"unit,omitempty"`
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
	// Samples is how many frames had the figure; 0 means the source lacks it.
	Samples int `json:"samples"`
}

// keySeries are the figures a write-up quotes, each read from one frame.
var keySeries = []struct {
	name, unit string
	value      func(*snapshot.Frame) (float64, bool)
}{
	{"QPS", "/s", func(f *snapshot.Frame) (float64, bool) { return f.Rates.Rate("Questions") }},
	{"threads running", "", func(f *snapshot.Frame) (float64, bool) { return f.Snapshot.StatusFloat("Threads_running") }},
	{"buffer pool miss", "%", bufferPoolMiss},
	{"CPU busy", "%", cpuBusy},
	{"run queue", "", runQueue},
	{"disk util (busiest)", "%", diskUtil},
}

func bufferPoolMiss(f *snapshot.Frame) (float64, bool) {
	req, ok1 := f.Rates.Rate("Innodb_buffer_pool_read_requests")
	reads, ok2 := f.Rates.Rate("Innodb_buffer_pool_reads")
	if !ok1 || !ok2 || req <= 0 {
		return 0, false
	}
	return 100 * reads / req, true
}

func cpuBusy(f *snapshot.Frame) (float64, bool) {
	if f.Rates == nil || f.Rates.Host == nil {
		return 0, false
	}
	c := f.Rates.Host.CPU
	if c.Total() <= 0 {
		return 0, false
	}
	return 100 - c.Idle, true
}

func runQueue(f *snapshot.Frame) (float64, bool) {
	h := f.Snapshot.Host
	if h == nil || h.Remote {
		return 0, false
	}
	return float64(h.ProcsRunning), true
}

func diskUtil(f *snapshot.Frame) (float64, bool) {
	if f.Rates == nil || f.Rates.Host == nil || len(f.Rates.Host.Disks) == 0 {
		return 0, false
	}
	m := 0.0
	for _, d := range f.Rates.Host.Disks {
		m = max(m, d.UtilPercent)
	}
	return m, true
}

// seriesAcc collects each key series' values.
type seriesAcc [][]float64

func (a *seriesAcc) add(f *snapshot.Frame) {
	if *a == nil {
		*a = make([][]float64, len(keySeries))
	}
	for i, k := range keySeries {
		if v, ok := k.value(f); ok {
			(*a)[i] = append((*a)[i], v)
		}
	}
}

func (a seriesAcc) summaries() []Summary {
	out := make([]Summary, len(keySeries))
	for i, k := range keySeries {
		out[i] = Summary{Name: k.name, Unit: k.unit}
		if i >= len(a) || len(a[i]) == 0 {
			continue
		}
		v := append([]float64(nil), a[i]...)
		sort.Float64s(v)
		out[i].Min, out[i].Median, out[i].Max, out[i].Samples = v[0], v[len(v)/2], v[len(v)-1], len(v)
	}
	return out
}
